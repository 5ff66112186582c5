#!/usr/bin/env bash
# Run a command while every core is kept busy by another process (issue 24: the test command must pass on a
# busy machine).  One niced busy loop per core runs for as long as the command does, and is stopped after it.
#
# Usage: bash scripts/busy.sh [-n LOOPS] -- COMMAND [ARGS...]
#   bash scripts/busy.sh -- bash scripts/test.sh
#   bash scripts/busy.sh -n 4 -- python -m pytest -q tests/browser/test_present.py
# Prints the command's wall time and the load average before and after; exits with the command's status.
set -uo pipefail

LOOPS="$(nproc)"
if [ "${1:-}" = "-n" ]; then
  LOOPS="$2"
  shift 2
fi
if [ "${1:-}" = "--" ]; then
  shift
fi
if [ "$#" -eq 0 ]; then
  echo "usage: bash scripts/busy.sh [-n LOOPS] -- COMMAND [ARGS...]" >&2
  exit 2
fi

PIDS=()
stop_loops() {
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null
  done
  wait "${PIDS[@]}" 2>/dev/null
}
trap stop_loops EXIT

for _ in $(seq "$LOOPS"); do
  nice -n 10 python -c 'while True: pass' &
  PIDS+=("$!")
done
echo "busy.sh: $LOOPS busy loop(s) (nice 10) started; load: $(cut -d' ' -f1-3 /proc/loadavg)"
START=$(date +%s)
"$@"
STATUS=$?
END=$(date +%s)
echo "busy.sh: exit $STATUS after $((END - START)) s; load: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$STATUS"
