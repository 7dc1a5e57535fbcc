#!/usr/bin/env bash
# Installs the core's fuzzing toolchain (scripts/fuzz.sh): cargo fuzz on the nightly toolchain.
# Skips what is already there. Without --locked, as for wasm-bindgen-cli.
set -euo pipefail
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "installing cargo-fuzz (a few minutes)"
  cargo install cargo-fuzz
fi
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
