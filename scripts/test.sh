#!/usr/bin/env bash
# The one test command: installs what it needs, builds, runs every suite in every host (each must
# pass and report a non-zero count of passed tests), then checks that all four hosts ran the
# same number of fixture cases with no failure.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
# The test build (Cargo feature `testing`): what only tests call, never shipped.
./scripts/build-testing.sh

logs=$(mktemp -d)
failed=()

# How many tests passed, read from the summary its runner prints (0 when there is none): a
# suite that runs nothing exits 0 (a filter or a glob that matches nothing, every test skipped),
# so each suite must show a count above zero.
passed_count() {
  local kind=$1 log=$2
  case $kind in
    # one `test result:` line per test binary (and per doc-test run): their sum
    cargo) grep -oE 'test result: [a-zA-Z]+\. [0-9]+ passed' "$log" | awk '{ n += $4 } END { print n + 0 }' ;;
    # node --test: `ℹ pass N` (spec reporter) or `# pass N` (TAP)
    node) grep -oE '^(ℹ|#) pass [0-9]+' "$log" | awk '{ n += $3 } END { print n + 0 }' ;;
    # pytest's closing line: `==== 1234 passed, 5 skipped in 99.9s ====` (`-q`: undecorated)
    pytest) grep -E '^(=+ )?[0-9]+ [a-z]+.* in [0-9.]+s' "$log" | tail -1 | grep -oE '[0-9]+ passed' | awk '{ n += $1 } END { print n + 0 }' ;;
    # scripts/fuzz.sh: `fuzz TARGET: N runs, ...` per target
    fuzz) grep -oE '^fuzz [a-z_]+: [0-9]+ runs' "$log" | awk '{ n += $3 } END { print n + 0 }' ;;
    # the demo: `demo: identical verdicts, N lines`
    demo) grep -oE '^demo: identical verdicts, [0-9]+ lines' "$log" | awk '{ n += $4 } END { print n + 0 }' ;;
  esac
}

# suite NAME KIND COMMAND...: runs COMMAND, keeps its log, and fails NAME on a non-zero exit or
# when its summary (of KIND, above) counts no passed test.
suite() {
  local name=$1 kind=$2
  shift 2
  echo "=== $name: $*"
  if "$@" 2>&1 | tee "$logs/$name.log"; then :; else failed+=("$name"); return; fi
  local n
  n=$(passed_count "$kind" "$logs/$name.log")
  echo "=== $name: $n passed"
  if [ "$n" -eq 0 ]; then
    echo "$name FAILED: it ran no test (no passed count in its summary)"
    failed+=("$name")
  fi
}

# The README's demo: the same trace through Node and Python must give identical, non-empty output.
demo() {
  local node python
  node=$(node demo/demo.mjs) && python=$(.venv/bin/python demo/demo.py) || return 1
  if [ -z "$node" ] || [ "$node" != "$python" ]; then
    diff <(echo "$node") <(echo "$python")
    return 1
  fi
  echo "demo: identical verdicts, $(echo "$node" | wc -l) lines"
}

suite rust cargo cargo test --workspace --quiet -- --nocapture
# Linear time and the memory bound on the largest inputs the default limits admit, and the
# absolute bound (1 s): release only (the debug run above asserts growth ratios).
suite rust-scaling cargo cargo test --release --test scaling --quiet
# The vendored schema engine's own unit tests (our patches have tests there: vendor/boon/PATCHES.md).
suite rust-vendor cargo cargo test -p boon --lib --quiet
suite rust-wasm cargo cargo test --target wasm32-unknown-unknown --features js,testing --test wasm \
  --config 'target.wasm32-unknown-unknown.runner="wasm-bindgen-test-runner"'
suite node node bash -c 'cd js-tests && node --test --test-reporter=spec test/'
# The packed npm package in Vite, webpack 5 and esbuild (browser bundles in headless Chromium,
# a Node bundle in Node), and publint / @arethetypeswrong/cli on the tarball.
suite bundlers node bash -c 'cd js-tests/bundlers && node --test --test-reporter=spec test/'
# The packed npm package where agents run, each runtime from npm at a pinned version: a Cloudflare
# Worker under wrangler dev (workerd), Deno with no permission, Bun, esbuild's ESM bundles in Node.
suite runtimes node bash -c 'cd js-tests/runtimes && node --test --test-reporter=spec test/'
# The playground page (playground/), built from pkg/dist and driven in headless Chromium.
suite playground node bash -c 'cd playground && node build.mjs && node --test --test-reporter=spec test/'
suite python pytest ./scripts/test-python.sh
# The core's fuzzers, ~1 minute in all: any crash, failed assertion or input over 10 s fails.
suite fuzz fuzz ./scripts/fuzz.sh
suite demo demo demo

echo
echo "=== parity"
counts=$(cat "$logs"/*.log | grep -oE 'fixtures \((rust|node|browser|python)\): [0-9]+ passed, [0-9]+ failed' | sort -u)
echo "$counts"
hosts=$(echo "$counts" | grep -c . || true)
distinct=$(echo "$counts" | sed -E 's/^fixtures \([a-z]+\): //' | sort -u | wc -l)
if [ "$hosts" -ne 4 ] || [ "$distinct" -ne 1 ] || echo "$counts" | grep -qv ' 0 failed$' || echo "$counts" | grep -q ': 0 passed'; then
  echo "parity FAILED: every host must report the same non-zero count with 0 failed"
  failed+=(parity)
fi

# The cases of protocol functions through 'agent-contract/protocol': Node and the
# browser, the same count, 0 failed.
echo "=== parity of the protocol entry"
pcounts=$(cat "$logs"/*.log | grep -oE 'fixtures \((node|browser), protocol entry\): [0-9]+ passed, [0-9]+ failed' | sort -u)
echo "$pcounts"
if [ "$(echo "$pcounts" | grep -c .)" -ne 2 ] || [ "$(echo "$pcounts" | sed -E 's/^fixtures \([a-z]+, protocol entry\): //' | sort -u | wc -l)" -ne 1 ] \
  || echo "$pcounts" | grep -qv ' 0 failed$' || echo "$pcounts" | grep -q ': 0 passed'; then
  echo "parity FAILED: the protocol entry must report the same non-zero count with 0 failed in Node and the browser"
  failed+=(protocol-parity)
fi

if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED suites: ${failed[*]}"
else
  echo "all suites passed"
fi
# Closing line: fixture cases run over all hosts; a failed suite counts as one failure more.
echo "$counts" | awk -v suites=${#failed[@]} '{ p += $3; f += $5 } END { printf "fixtures: %d passed, %d failed\n", p, f + suites }'
[ ${#failed[@]} -eq 0 ]
