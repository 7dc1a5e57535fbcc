#!/usr/bin/env bash
# The one test command: installs what it needs, builds, runs every suite in every host, then
# checks that all four hosts ran the same number of fixture cases with no failure.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
# The test build (Cargo feature `testing`): what only tests call, never shipped.
./scripts/build-testing.sh

logs=$(mktemp -d)
failed=()
suite() {
  local name=$1
  shift
  echo "=== $name: $*"
  if "$@" 2>&1 | tee "$logs/$name.log"; then :; else failed+=("$name"); fi
}

suite rust cargo test --workspace --quiet -- --nocapture
# Linear time and the memory bound on the largest inputs the default limits admit: release only
# (debug runs use inputs too small to tell quadratic from linear; boon patch 5 was found here).
suite rust-scaling cargo test --release --test scaling --quiet
# The vendored schema engine's own unit tests (our patches have tests there: vendor/boon/PATCHES.md).
suite rust-vendor cargo test -p boon --lib --quiet
suite rust-wasm cargo test --target wasm32-unknown-unknown --features js,testing --test wasm \
  --config 'target.wasm32-unknown-unknown.runner="wasm-bindgen-test-runner"'
suite node bash -c 'cd js-tests && node --test --test-reporter=spec test/'
# The packed npm package in Vite, webpack 5 and esbuild (browser bundles in headless Chromium,
# a Node bundle in Node), and publint / @arethetypeswrong/cli on the tarball.
suite bundlers bash -c 'cd js-tests/bundlers && node --test --test-reporter=spec test/'
suite python ./scripts/test-python.sh
# The core's fuzzers, ~1 minute in all: any crash, failed assertion or input over 10 s fails.
suite fuzz ./scripts/fuzz.sh
# The README's demo: the same trace through Node and Python must give identical verdicts.
suite demo bash -c 'diff <(node demo/demo.mjs) <(.venv/bin/python demo/demo.py) && echo "demo: identical verdicts"'

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

# The cases of protocol functions through 'agent-contract/protocol' (issue 12 §4): Node and the
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
