#!/usr/bin/env bash
# Python host (host 4): builds the core component, sets up .venv with the pinned dev tools and
# runs the py-host tests. Fails on any failure, on zero tests and on zero fixture cases.
# AGENT_CONTRACT_SKIP_BUILD=1 reuses the built core.wasm and test build;
# AGENT_CONTRACT_SKIP_PACKAGING=1 skips the fresh-venv install test. Extra arguments go to pytest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if [ "${AGENT_CONTRACT_SKIP_BUILD:-}" != 1 ]; then
  scripts/build-python.sh
  # The test build's component (py-host/tests/testing_core.py).
  scripts/build-testing.sh component
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
pip=(.venv/bin/python -m pip install -q --disable-pip-version-check)
"${pip[@]}" -r py-host/requirements-dev.txt
"${pip[@]}" -e py-host

log="$(mktemp)"
trap 'rm -f "$log" "$log.component"' EXIT
set +e
.venv/bin/python -m pytest py-host -p no:cacheprovider "$@" | tee "$log"
status=${PIPESTATUS[0]}
set -e
# pytest exits 5 when it ran no test: non-zero, so that fails too.
[ "$status" -eq 0 ] || exit "$status"
if [ $# -eq 0 ] && ! grep -Eq '^fixtures \(python\): [1-9][0-9]* passed, 0 failed$' "$log"; then
  echo "error: the fixture runner ran no case" >&2
  exit 1
fi

# The component itself, through a second component host (wasmtime-py's component runtime,
# py-host/tests/component_host.py): the same fixture cases, the same count, 0 failed.
if [ $# -eq 0 ]; then
  set +e
  AGENT_CONTRACT_HOST=component .venv/bin/python -m pytest py-host/tests/test_fixtures.py -q -p no:cacheprovider | tee "$log.component"
  status=${PIPESTATUS[0]}
  set -e
  [ "$status" -eq 0 ] || exit "$status"
  python_count=$(grep -Eo '^fixtures \(python\): [0-9]+ passed' "$log" | grep -Eo '[0-9]+')
  if ! grep -Eq "^fixtures \(python component\): ${python_count} passed, 0 failed$" "$log.component"; then
    echo "error: the component host did not pass the ${python_count} fixture cases" >&2
    exit 1
  fi
fi
