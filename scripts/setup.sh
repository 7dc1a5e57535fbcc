#!/usr/bin/env bash
# Installs the tooling every build and test needs, on a fresh machine: what the build needs
# (scripts/setup-build.sh), the fuzzing toolchain (scripts/setup-fuzz.sh), the npm dev
# dependencies of every suite and the Python dev requirements. Skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup-build.sh
./scripts/setup-fuzz.sh

(cd js-tests && npm ci --no-audit --no-fund --loglevel=error)
# Real bundlers and package linters for the npm package (js-tests/bundlers/, its own lock file).
(cd js-tests/bundlers && npm ci --no-audit --no-fund --loglevel=error)
# Real runtimes: wrangler (workerd) with the Node 22 it needs, Deno, Bun, esbuild
# (js-tests/runtimes/, its own lock file).
(cd js-tests/runtimes && npm ci --no-audit --no-fund --loglevel=error)
(cd bench && npm ci --no-audit --no-fund --loglevel=error)
# The playground page: esbuild, and puppeteer-core, pixelmatch and pngjs for its test.
(cd playground && npm ci --no-audit --no-fund --loglevel=error)

.venv/bin/python -m pip install --quiet --disable-pip-version-check -r py-host/requirements-dev.txt
