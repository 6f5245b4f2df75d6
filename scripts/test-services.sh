#!/usr/bin/env bash
# Installs what the test suite needs beyond Python packages, when it is missing.
set -euo pipefail

# PostgreSQL for the server's tests (tests/server): a local server on 127.0.0.1 with the database
# chickenfoot_test owned by the role chickenfoot (password chickenfoot), who may create databases. The tests read
# CHICKENFOOT_TEST_DATABASE_URL when it is set, else use that database on port 5432; nothing is exported here.
# The cluster is chosen by name with CHICKENFOOT_PG_CLUSTER=VERSION/NAME (e.g. 16/main), else it is the
# one on port CHICKENFOOT_PG_PORT (default 5432): never merely the first that pg_lsclusters lists.
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi; }
if [ -z "${CHICKENFOOT_TEST_DATABASE_URL:-}" ]; then
    if ! command -v pg_ctlcluster >/dev/null 2>&1; then
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi
    wanted_port=${CHICKENFOOT_PG_PORT:-5432}
    pg_version="" pg_cluster="" pg_port="" pg_status=""
    if [ -n "${CHICKENFOOT_PG_CLUSTER:-}" ]; then
        wanted_version=${CHICKENFOOT_PG_CLUSTER%%/*} wanted_name=${CHICKENFOOT_PG_CLUSTER#*/}
        read -r pg_version pg_cluster pg_port pg_status _ < <(
            pg_lsclusters -h | awk -v v="$wanted_version" -v c="$wanted_name" '$1 == v && $2 == c'
        ) || true
        if [ -z "$pg_version" ]; then
            echo "test-services: no PostgreSQL cluster $CHICKENFOOT_PG_CLUSTER (pg_lsclusters lists them)" >&2
            exit 1
        fi
    else
        read -r pg_version pg_cluster pg_port pg_status _ < <(
            pg_lsclusters -h | awk -v p="$wanted_port" '$3 == p' | head -n 1
        ) || true
        if [ -z "$pg_version" ]; then  # none on that port: a cluster of the newest version for the tests
            pg_version=$(ls /usr/lib/postgresql | sort -n | tail -n 1) pg_cluster=chickenfoot pg_port=$wanted_port
            pg_lsclusters -h | awk -v v="$pg_version" '$1 == v && $2 == "main"' | grep -q . || pg_cluster=main
            as_root pg_createcluster --port "$pg_port" "$pg_version" "$pg_cluster" >/dev/null
            pg_status=down
        fi
    fi
    if [ "$pg_status" != online ]; then
        as_root pg_ctlcluster "$pg_version" "$pg_cluster" start
    fi
    if [ "$pg_port" != 5432 ]; then
        echo "test-services: PostgreSQL $pg_version/$pg_cluster listens on port $pg_port; set CHICKENFOOT_TEST_DATABASE_URL" >&2
    fi
    as_postgres psql -p "$pg_port" -qtAc "SELECT 1 FROM pg_roles WHERE rolname = 'chickenfoot'" | grep -q 1 ||
        as_postgres psql -p "$pg_port" -qc "CREATE ROLE chickenfoot LOGIN PASSWORD 'chickenfoot'"
    # Each test session (each worker of pytest -n) creates a database of its own beside chickenfoot_test,
    # and the backup and upgrade tests restore into databases of their own (tests/ops).
    as_postgres psql -p "$pg_port" -qtAc "SELECT rolcreatedb FROM pg_roles WHERE rolname = 'chickenfoot'" | grep -q t ||
        as_postgres psql -p "$pg_port" -qc "ALTER ROLE chickenfoot CREATEDB"
    as_postgres psql -p "$pg_port" -qtAc "SELECT 1 FROM pg_database WHERE datname = 'chickenfoot_test'" | grep -q 1 ||
        as_postgres createdb -p "$pg_port" -O chickenfoot chickenfoot_test
fi

# Redis for the several-process tests (pub/sub, leases, shared rate-limit counters): a private daemon on
# 127.0.0.1:6379 that keeps nothing on disk. The tests read CHICKENFOOT_TEST_REDIS_URL when it is set.
# nginx and Caddy are only installed: the tests that put them in front of servers start their own on
# free ports. pg_dump and pg_restore (postgresql-client) back up and restore in tests/ops.
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v caddy >/dev/null 2>&1 || missing+=(caddy)
command -v pg_dump >/dev/null 2>&1 || missing+=(postgresql-client)
if [ ${#missing[@]} -gt 0 ]; then
    # The packages must not start their own daemons (nginx and Caddy would listen on every address).
    no_start=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        no_start=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' | as_root tee "$no_start" >/dev/null
        as_root chmod +x "$no_start"
    fi
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    [ -z "$no_start" ] || as_root rm -f "$no_start"
fi
if [ -z "${CHICKENFOOT_TEST_REDIS_URL:-}" ]; then
    if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
        redis-server --bind 127.0.0.1 --port 6379 --daemonize yes --save '' --appendonly no >/dev/null
        for _ in $(seq 50); do
            redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break
            sleep 0.1
        done
    fi
    redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null
fi

# Debian's Chromium for the browser tests (tests/e2e drive it with Playwright; never a downloaded browser).
if [ ! -x /usr/bin/chromium ]; then
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

# axe-core for the browser tests' accessibility scans (tests/e2e/test_accessibility.py injects it into
# the page): one pinned version from npm into the user's cache, not into the repository. The tests
# read CHICKENFOOT_AXE (the path of axe.min.js) when it is set.
AXE_VERSION=4.14.1
axe_dir="${XDG_CACHE_HOME:-$HOME/.cache}/chickenfoot/axe-core-$AXE_VERSION"
if [ -z "${CHICKENFOOT_AXE:-}" ] && [ ! -f "$axe_dir/node_modules/axe-core/axe.min.js" ]; then
    if ! command -v npm >/dev/null 2>&1; then
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
    fi
    mkdir -p "$axe_dir"
    npm install --prefix "$axe_dir" --no-save --no-audit --no-fund --silent "axe-core@$AXE_VERSION"
fi
