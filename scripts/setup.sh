#!/usr/bin/env bash
# Installs the tooling every build and test needs, on a fresh machine: the wasm32 targets, the
# wasm-bindgen CLI at exactly the version of the wasm-bindgen crate in Cargo.lock, wasm-tools,
# the npm dev dependencies and the Python venv with the package installed (editable). Skips
# what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup target add wasm32-unknown-unknown wasm32-wasip1 >/dev/null

wbg_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wbg_version" ]; then
  echo "installing wasm-bindgen-cli $wbg_version (a few minutes)"
  # Without --locked: the registry lacks one of its locked dependencies.
  cargo install wasm-bindgen-cli --version "$wbg_version"
fi

wasm_tools_version=1.263.0
if [ "$(wasm-tools --version 2>/dev/null | awk '{print $2}')" != "$wasm_tools_version" ]; then
  echo "installing wasm-tools $wasm_tools_version (a few minutes)"
  cargo install wasm-tools --version "$wasm_tools_version"
fi

# The core's fuzzers (scripts/fuzz.sh): cargo fuzz on the nightly toolchain. Without --locked,
# as for wasm-bindgen-cli.
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "installing cargo-fuzz (a few minutes)"
  cargo install cargo-fuzz
fi
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal

(cd js-tests && npm ci --no-audit --no-fund --loglevel=error)
# Real bundlers and package linters for the npm package (js-tests/bundlers/, its own lock file).
(cd js-tests/bundlers && npm ci --no-audit --no-fund --loglevel=error)
(cd bench && npm ci --no-audit --no-fund --loglevel=error)
# The playground page: esbuild, and puppeteer-core, pixelmatch and pngjs for its test.
(cd playground && npm ci --no-audit --no-fund --loglevel=error)

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r py-host/requirements-dev.txt
# The package itself, editable: the demo and the tests import it from py-host/src, where
# scripts/build-python.sh puts core.wasm.
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e py-host
