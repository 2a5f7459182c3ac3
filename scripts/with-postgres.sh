#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL cluster on a free loopback port.
# Exports CLAIMS_TEST_POSTGRES_URL (a superuser URL) for the command, stops and deletes the
# cluster afterwards. If the URL is already set, or no PostgreSQL binaries are installed,
# runs the command as it is (the PostgreSQL tests then skip, or fail when CI=true).
#
# CLAIMS_PG_SERVER_OPTIONS: more server settings for the throwaway cluster, as postgres takes
#   them (e.g. "-c shared_preload_libraries=auto_explain -c auto_explain.log_min_duration=1s"
#   to log the plan of every statement slower than a second while a bench runs).
# CLAIMS_PG_SERVER_LOG: a file to copy the server's log to when the command ends (the
#   cluster's folder, log included, is deleted).
set -euo pipefail

for d in /usr/lib/postgresql/*/bin; do [ -d "$d" ] && PATH="$PATH:$d"; done
export PATH

if [ -n "${CLAIMS_TEST_POSTGRES_URL:-}" ] || ! command -v initdb >/dev/null 2>&1; then
  exec "$@"
fi

dir=$(mktemp -d /tmp/claimledger-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$dir"
  as_pg=(runuser -u postgres --)
fi

stop() {
  "${as_pg[@]}" pg_ctl -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  if [ -n "${CLAIMS_PG_SERVER_LOG:-}" ] && [ -f "$dir/server.log" ]; then
    cp "$dir/server.log" "$CLAIMS_PG_SERVER_LOG" || true
  fi
  rm -rf "$dir"
}
trap stop EXIT

"${as_pg[@]}" initdb -D "$dir/data" -U claims --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log"; exit 1; }
"${as_pg[@]}" pg_ctl -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 ${CLAIMS_PG_SERVER_OPTIONS:-}" start >/dev/null \
  || { cat "$dir/server.log"; exit 1; }

export CLAIMS_TEST_POSTGRES_URL="postgresql+psycopg://claims@127.0.0.1:$port/postgres"
echo "with-postgres: throwaway PostgreSQL on 127.0.0.1:$port" >&2
set +e
"$@"
status=$?
set -e
exit $status
