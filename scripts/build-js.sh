#!/usr/bin/env bash
# Builds the npm package's generated part (pkg/dist/): the core compiled for wasm32 with the JS
# binding, then wasm-bindgen's `--target web` output once, for every entry (Node, browsers,
# bundlers): one agent_contract_bg.wasm. The same crate without its `schema` feature (no tool
# contracts, no schema engine, so an application that only checks protocol values does not ship the
# engine) gives the protocol core, agent_contract_protocol_bg.wasm, which 'agent-contract/protocol'
# loads. scripts/package-js.mjs turns each glue into a factory (a second instance for Node's
# renewal), writes the CommonJS and protocol declarations and copies the license texts into pkg/.
# Then the command line for WASI (`npx agent-contract`).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each build has its own target directory, so switching between them recompiles nothing.
cargo build --quiet --target wasm32-unknown-unknown --features js --release --target-dir target/js
# The protocol core keeps the release profile (opt-level 3): built for size ("s": -16% gzip, "z":
# -24%) its strict parse measured 1.1-1.5x slower than the full core's, and past 2x JSON.parse
# (bench/bench_entries.mjs; bench/RESULTS.md).
cargo build --quiet --target wasm32-unknown-unknown --no-default-features --features js --release \
  --target-dir target/js-protocol
rm -rf pkg/dist
# Not shipped: function names, the producers section (compiler versions).
bindgen() {
  wasm-bindgen --remove-name-section --remove-producers-section --target web --omit-default-module-path \
    --no-typescript --out-dir pkg/dist "$@"
}
bindgen target/js/wasm32-unknown-unknown/release/agent_contract.wasm
bindgen --out-name agent_contract_protocol target/js-protocol/wasm32-unknown-unknown/release/agent_contract.wasm
# The custom sections left (target_features) are not needed by any host either.
for wasm in pkg/dist/agent_contract_bg.wasm pkg/dist/agent_contract_protocol_bg.wasm; do
  wasm-tools strip --all "$wasm" -o "$wasm"
done
node scripts/package-js.mjs
# `npx agent-contract`: the command line (cli/) built for WASI, run by pkg/bin/agent-contract.mjs
# through node:wasi. Smallest code (`opt-level = "z"`, stripped): every installer downloads it.
CARGO_PROFILE_RELEASE_OPT_LEVEL=z CARGO_PROFILE_RELEASE_STRIP=true \
  cargo build --quiet --release -p agent-contract-cli --target wasm32-wasip1 --target-dir target/wasi
mkdir -p pkg/dist/cli
cp target/wasi/wasm32-wasip1/release/agent-contract.wasm pkg/dist/cli/agent-contract.wasm
