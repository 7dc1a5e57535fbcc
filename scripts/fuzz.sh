#!/usr/bin/env bash
# The core's fuzzers (cargo fuzz, nightly). Seeds come from fixtures/ (fuzz/seeds.py, not
# committed); crashes land in fuzz/artifacts/<target>/ and fail the run.
#   scripts/fuzz.sh            short run: 10 s per target (~1 minute), part of scripts/test.sh
#   scripts/fuzz.sh --long     10^7 iterations per target, one core, no sanitizer (-s none);
#                              prints each target's runs, exec/s and slowest input
#   scripts/fuzz.sh --long T   the long run of target T only
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-fuzz.sh
targets=(json host_text text_ops tool_input provider_sse registry ndjson session chat_row)
mode=${1:-short}
if [ "$mode" = "--long" ] && [ -n "${2:-}" ]; then targets=("$2"); fi
python3 fuzz/seeds.py
cargo +nightly fuzz build -s none >/dev/null 2>&1 || cargo +nightly fuzz build -s none
status=0
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
  if [ "$mode" = "--long" ]; then
    args=(-runs=10000000 -report_slow_units=1 -print_final_stats=1)
  else
    args=(-max_total_time=10 -print_final_stats=1)
  fi
  # -timeout: a single input over 10 s is a failure (the promise is well under 1 s per MB).
  log="fuzz/artifacts/$t.log"
  if cargo +nightly fuzz run -s none "$t" "fuzz/corpus/$t" -- -timeout=10 -rss_limit_mb=2048 \
      -max_len=65536 "${args[@]}" >"$log" 2>&1; then
    runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)
    speed=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?')
    slow=$(grep -oE 'Slowest unit: [0-9]+ s' "$log" | tail -1 || true)
    # A target that ran no input (or printed no count) tested nothing: a failure.
    if [ -z "$runs" ] || [ "$runs" -eq 0 ]; then
      echo "fuzz $t: FAILED: no input ran (no stat::number_of_executed_units in $log)"
      status=1
      continue
    fi
    echo "fuzz $t: $runs runs, $speed exec/s, 0 crashes ${slow:+($slow)}"
  else
    echo "fuzz $t: FAILED (see $log and fuzz/artifacts/$t/)"
    tail -40 "$log"
    status=1
  fi
done
exit $status
