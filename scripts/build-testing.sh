#!/usr/bin/env bash
# The test build: the core with its Cargo feature `testing`, which adds the exports only tests
# call (the full-reply twins of the verdict functions; the component's `echo`) to everything the
# release build exports. It is never shipped: the outputs stay in target/testing/, beside the
# release artifacts.
#   target/testing/js/         wasm-bindgen's --target web glue and wasm (js-tests/testing-core.mjs)
#   target/testing/core.wasm   the component of world `agent-contract-testing`
#                              (py-host/tests/testing_core.py)
# `js` or `component` builds one of them (default: both). Each has a cargo target directory of its
# own: a cdylib built with other features into the release build's directory would replace the
# file the release build copies. Release profile: the benchmarks time the raw exports too.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
what="${1:-all}"
out="$root/target/testing"
mkdir -p "$out"
if [ "$what" != component ]; then
  cargo build --quiet --target wasm32-unknown-unknown --features js,testing --release --target-dir target/js-testing
  rm -rf "$out/js"
  wasm-bindgen --target web --omit-default-module-path --no-typescript --out-dir "$out/js" \
    target/js-testing/wasm32-unknown-unknown/release/agent_contract.wasm
  # The glue is an ES module, and no package.json above it says so.
  echo '{ "type": "module" }' >"$out/js/package.json"
fi
if [ "$what" != js ]; then
  target="${CARGO_TARGET_DIR:-$root/target}/component-testing"
  cargo build --quiet --target wasm32-unknown-unknown --features component,testing --release --target-dir "$target"
  wasm-tools component new "$target/wasm32-unknown-unknown/release/agent_contract.wasm" -o "$out/core.wasm"
fi
