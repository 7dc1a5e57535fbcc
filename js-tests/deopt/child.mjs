// Run by test/lazy-deopt.test.mjs with --allow-natives-syntax (never on its own): one public
// function, optimized by TurboFan, then deoptimized by the caller's own code while the core is
// inside the call (a getter of the value or of the options runs `%DeoptimizeFunction`). Before
// the fix, Node 20 aborted the process here (V8_Fatal "unreachable code" in the deoptimizer).
const [entry, name, where] = process.argv.slice(2);
const api = await import(entry);
const f = api[name];
// A valid value whose one string member is a getter (so the core reads it during the call).
const sample = (getter) => {
  if (name.includes('Decision')) {
    const call = { callId: 'call_1', arguments: { path: 'f' } };
    Object.defineProperty(call, 'name', { get: getter, enumerable: true });
    return { kind: 'tool', calls: [call] };
  }
  const action = { type: 'finish' };
  Object.defineProperty(action, 'summary', { get: getter, enumerable: true });
  return name.includes('Actions') ? [action, { type: 'finish', summary: 's' }] : action;
};
const plain = where === 'value' ? sample(() => 'read_file') : JSON.stringify(sample(() => 'read_file'));
const call = (arg, options) => {
  const out = f(arg, options);
  // Every case is valid input: the call succeeds (a safe* outcome is ok), so the core read it all.
  if (out === undefined || out.ok === false || (Array.isArray(out) && out.some((o) => !o.ok))) throw new Error(`${name} refused the sample`);
};
%PrepareFunctionForOptimization(f);
for (let i = 0; i < 200; i++) call(plain);
%OptimizeFunctionOnNextCall(f);
call(plain);
const optimized = (%GetOptimizationStatus(f) & 16) !== 0; // kTurboFanned
const deoptimize = () => {
  %DeoptimizeFunction(f);
  return 'read_file';
};
for (let i = 0; i < 3; i++) {
  if (where === 'value') call(sample(deoptimize));
  else call(plain, { get maxDepth() { deoptimize(); return 64; } });
}
console.log(JSON.stringify({ name, optimized, survived: true }));
