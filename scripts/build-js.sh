#!/usr/bin/env bash
# Builds the npm package's generated part (pkg/dist/): the core compiled for wasm32 with the JS
# binding, then wasm-bindgen's `--target web` output once, for every entry (Node, browsers,
# bundlers): one agent_contract_bg.wasm. scripts/package-js.mjs turns the glue into a factory
# (a second instance for Node's renewal), writes the CommonJS declarations and copies the
# license texts into pkg/. Then the command line for WASI (`npx agent-contract`).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --target wasm32-unknown-unknown --features js --release --target-dir target/js
wasm=target/js/wasm32-unknown-unknown/release/agent_contract.wasm
rm -rf pkg/dist
wasm-bindgen --remove-name-section --target web --omit-default-module-path --no-typescript \
  --out-dir pkg/dist "$wasm"
node scripts/package-js.mjs
# `npx agent-contract`: the command line (cli/) built for WASI, run by pkg/bin/agent-contract.mjs
# through node:wasi. Smallest code (`opt-level = "z"`, stripped): every installer downloads it.
CARGO_PROFILE_RELEASE_OPT_LEVEL=z CARGO_PROFILE_RELEASE_STRIP=true \
  cargo build --quiet --release -p agent-contract-cli --target wasm32-wasip1 --target-dir target/wasi
mkdir -p pkg/dist/cli
cp target/wasi/wasm32-wasip1/release/agent-contract.wasm pkg/dist/cli/agent-contract.wasm
