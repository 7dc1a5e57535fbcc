// Run by test/lazy-deopt.test.mjs with --allow-natives-syntax (never on its own): one public
// function, optimized by TurboFan, then deoptimized by the caller's own code while the core is
// inside the call (a getter of the value or of the options runs `%DeoptimizeFunction`). Before
// the fix, Node 20 aborted the process here (V8_Fatal "unreachable code" in the deoptimizer).
const [entry, name, where] = process.argv.slice(2);
const api = await import(entry);
const f = api[name];
const action = () => ({ type: 'finish', summary: 's' });
const samples = {
  value: (getter) => {
    const v = action();
    Object.defineProperty(v, 'summary', { get: getter, enumerable: true });
    return name.includes('Actions') ? [v, action()] : v;
  },
  text: () => (name.includes('Decision') ? '{"type":"finish","summary":"s"}' : JSON.stringify(action())),
};
const plain = where === 'value' ? samples.value(() => 's') : samples.text();
const call = (arg, options) => {
  try {
    f(arg, options);
  } catch (e) {
    if (!(e instanceof api.ContractError)) throw e;
  }
};
%PrepareFunctionForOptimization(f);
for (let i = 0; i < 200; i++) call(plain);
%OptimizeFunctionOnNextCall(f);
call(plain);
const optimized = (%GetOptimizationStatus(f) & 16) !== 0; // kTurboFanned
const deoptimize = () => {
  %DeoptimizeFunction(f);
  return 's';
};
for (let i = 0; i < 3; i++) {
  if (where === 'value') call(samples.value(deoptimize));
  else call(samples.text(), { get strict() { deoptimize(); return false; } });
}
console.log(JSON.stringify({ name, optimized, survived: true }));
