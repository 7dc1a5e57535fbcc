#!/usr/bin/env bash
# Builds the core as a WebAssembly component with no imports and copies it into the Python
# package as agent_contract/core.wasm (git-ignored: it is always built from src/).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true
command -v wasm-tools >/dev/null || cargo install wasm-tools --version 1.263.0 --no-default-features --features strip,component

# wasm32-unknown-unknown, not wasm32-wasip2: a wasip2 build imports WASI even for pure code.
# CARGO_TARGET_DIR, when set, is shared (a build from a fresh clone can reuse compiled
# dependencies); the component gets a directory of its own in it either way.
target="${CARGO_TARGET_DIR:-$root/target}/component"
cargo build --target wasm32-unknown-unknown --features component --release --target-dir "$target"
out="$root/py-host/src/agent_contract/core.wasm"
# The name section (function names, ~0.4 MB once the schema engine came in), the producers
# (compiler versions) and target_features sections are not shipped; the component-type sections
# stay (they make the component).
wasm-tools strip --delete '^(name|producers|target_features)$' "$target/wasm32-unknown-unknown/release/agent_contract.wasm" \
  -o "$target/agent_contract.stripped.wasm"
wasm-tools component new "$target/agent_contract.stripped.wasm" -o "$out"

# The component must not be able to do I/O: refuse to ship one that imports anything.
if wasm-tools component wit "$out" | grep -q '^ *import '; then
  echo "error: $out has imports" >&2
  wasm-tools component wit "$out" >&2
  exit 1
fi
echo "built $out ($(wc -c <"$out") bytes)"
