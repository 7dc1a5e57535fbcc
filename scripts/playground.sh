#!/usr/bin/env bash
# The playground page (playground/): `./scripts/playground.sh` builds it when needed and serves it
# on http://127.0.0.1:PORT/ (PORT=8765 unless set); `./scripts/playground.sh build` rebuilds it
# (and prints its sizes). The built page (playground/dist/index.html) also works opened from disk.
# Needs pkg/dist (./scripts/build-js.sh).
set -euo pipefail
cd "$(dirname "$0")/../playground"
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
case "${1:-serve}" in
  build) node build.mjs --sizes ;;
  serve)
    [ -f dist/.built ] || node build.mjs
    node serve.mjs ;;
  *) echo "usage: $0 [build|serve]" >&2; exit 2 ;;
esac
