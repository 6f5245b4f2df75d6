#!/usr/bin/env bash
# The whole suite several times in a row on a machine kept busy by two CPU-bound processes: a test
# that depends on how long something takes fails here first.
#
#   bash scripts/busy-suite.sh [RUNS]     (default 3; stops at the first failed run)
#
# Run it from a checkout whose .venv has the dev extra. Each run starts as CI does: the local test
# database is created afresh by scripts/test-services.sh and the test Redis is emptied. Logs go to
# artifacts/busy/run-N.log, one summary line per run to artifacts/busy/summary.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
logs=artifacts/busy
mkdir -p "$logs"
# shellcheck disable=SC1091
. .venv/bin/activate

as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi; }

python3 -c 'while True: pass' &
first=$!
python3 -c 'while True: pass' &
second=$!
trap 'kill "$first" "$second" 2>/dev/null || true' EXIT

echo "$(date -u +%FT%TZ) $(git rev-parse --short HEAD): $runs runs beside two CPU-bound processes" >>"$logs/summary.txt"
for run in $(seq 1 "$runs"); do
    if [ -z "${CHICKENFOOT_TEST_DATABASE_URL:-}" ]; then
        as_postgres dropdb --if-exists chickenfoot_test  # scripts/test-services.sh creates it again
    fi
    bash scripts/test-services.sh >/dev/null
    redis-cli -u "${CHICKENFOOT_TEST_REDIS_URL:-redis://127.0.0.1:6379/0}" flushdb >/dev/null
    started=$(date +%s)
    status=0
    CI=true pytest -p no:cacheprovider --durations=30 >"$logs/run-$run.log" 2>&1 || status=$?
    result=$(grep -E '^=+ .*(passed|failed).* in ' "$logs/run-$run.log" | tail -1 | tr -d '=')
    echo "run $run: exit $status after $(($(date +%s) - started)) s,$result (load $(cut -d' ' -f1-3 /proc/loadavg))" |
        tee -a "$logs/summary.txt"
    [ "$status" -eq 0 ] || exit "$status"
done
