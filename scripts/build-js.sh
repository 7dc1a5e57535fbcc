#!/usr/bin/env bash
# Builds the npm package's generated part (pkg/dist/): the core compiled for wasm32 with the JS
# binding, then wasm-bindgen for Node (CommonJS) and for browsers (ES module).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --target wasm32-unknown-unknown --features js --release --target-dir target/js
wasm=target/js/wasm32-unknown-unknown/release/agent_contract.wasm
rm -rf pkg/dist
wasm-bindgen --remove-name-section --target nodejs --out-dir pkg/dist/node "$wasm"
wasm-bindgen --remove-name-section --target web --out-dir pkg/dist/web "$wasm"
