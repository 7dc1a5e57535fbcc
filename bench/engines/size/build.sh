#!/usr/bin/env bash
# Builds the three variants and prints raw and gzip -9 bytes of each (and the engines' share).
set -euo pipefail
cd "$(dirname "$0")"
for f in none boon jsonschema; do
  flags=()
  [ "$f" != none ] && flags=(--features "$f")
  cargo build --quiet --release --target wasm32-unknown-unknown --target-dir target/$f "${flags[@]}"
  w=target/$f/wasm32-unknown-unknown/release/engine_size.wasm
  echo "$f raw $(wc -c < "$w") gzip9 $(gzip -9 -c "$w" | wc -c)"
done
