#!/usr/bin/env bash
# Builds both wasm artifacts: the npm package's pkg/dist/ and the Python package's component.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build-js.sh
./scripts/build-python.sh
