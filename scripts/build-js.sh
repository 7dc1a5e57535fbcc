#!/usr/bin/env bash
# Builds the npm package's generated part (pkg/dist/): the core compiled for wasm32 with the JS
# binding, then wasm-bindgen for Node (CommonJS) and for browsers (ES module); and the command
# line for WASI (`npx agent-contract`).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --target wasm32-unknown-unknown --features js --release --target-dir target/js
wasm=target/js/wasm32-unknown-unknown/release/agent_contract.wasm
rm -rf pkg/dist
wasm-bindgen --remove-name-section --target nodejs --out-dir pkg/dist/node "$wasm"
wasm-bindgen --remove-name-section --target web --out-dir pkg/dist/web "$wasm"
# `npx agent-contract`: the command line (cli/) built for WASI, run by pkg/bin/agent-contract.mjs
# through node:wasi. Smallest code (`opt-level = "z"`, stripped): every installer downloads it.
CARGO_PROFILE_RELEASE_OPT_LEVEL=z CARGO_PROFILE_RELEASE_STRIP=true \
  cargo build --quiet --release -p agent-contract-cli --target wasm32-wasip1 --target-dir target/wasi
mkdir -p pkg/dist/cli
cp target/wasi/wasm32-wasip1/release/agent-contract.wasm pkg/dist/cli/agent-contract.wasm
