#!/usr/bin/env bash
# Installs what the build (scripts/build.sh) and the demo need, on a fresh machine: the wasm32
# targets, the wasm-bindgen CLI at exactly the version of the wasm-bindgen crate in Cargo.lock,
# wasm-tools (its `strip` and `component` commands only: the build uses no other, and fewer
# features compile faster), and the Python venv with the package installed (editable) and its
# one runtime dependency. Skips what is already there. The test command's extra tooling is
# scripts/setup.sh; the fuzzers' is scripts/setup-fuzz.sh.
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
  echo "installing wasm-tools $wasm_tools_version (strip, component; a few minutes)"
  cargo install wasm-tools --version "$wasm_tools_version" --no-default-features --features strip,component
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
# The package itself, editable: the demo and the tests import it from py-host/src, where
# scripts/build-python.sh puts core.wasm.
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e py-host
