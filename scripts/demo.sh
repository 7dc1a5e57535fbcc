#!/usr/bin/env bash
# Builds everything, then validates demo/trace.json in Node and in Python through the same wasm
# core and shows that the verdicts are identical.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-build.sh
./scripts/build.sh
out=$(mktemp -d)
node demo/demo.mjs > "$out/node.txt"
.venv/bin/python demo/demo.py > "$out/python.txt"
echo "--- Node"; cat "$out/node.txt"
echo "--- Python"; cat "$out/python.txt"
if diff -u "$out/node.txt" "$out/python.txt"; then
  echo "--- identical verdicts in Node and Python ($(wc -l < "$out/node.txt") lines)"
else
  echo "--- verdicts differ"; exit 1
fi
