#!/usr/bin/env bash
# Makes sure a hot standby of the test PostgreSQL cluster answers on 127.0.0.1:$PG_REPLICA_PORT (5433 by
# default): a streaming replica made with `pg_basebackup -R` from the cluster on 127.0.0.1:$PG_PRIMARY_PORT
# (5432), in a data directory of its own ($PG_REPLICA_DIR), run by `pg_ctl` as the postgres user, outside
# Debian's cluster list. Idempotent: a standby already answering is left alone, a stopped one is started,
# a missing one is made. The read-replica tests use it (tests/support/replica.ts calls this script when the
# port does not answer; `.ci/run` calls it after PostgreSQL is up). Run as root or as postgres.
#
# The primary is changed only when it refuses replication connections from 127.0.0.1: one line,
# `host replication all 127.0.0.1/32 trust`, is added to its pg_hba.conf and the configuration
# reloaded (never restarted: other sessions use it).
set -euo pipefail

primary_port=${PG_PRIMARY_PORT:-5432}
replica_port=${PG_REPLICA_PORT:-5433}
replica_dir=${PG_REPLICA_DIR:-/var/lib/postgresql/test-replica-$replica_port}
lock=${PG_REPLICA_LOCK:-/tmp/pg-replica-$replica_port.lock}

# Several test processes (or helpers) may ask at once: one makes the standby, the others wait and find it.
exec 9>"$lock"
flock 9

as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"; else (cd / && runuser -u postgres -- "$@"); fi
}

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ]; then
  echo "pg-replica: no PostgreSQL server binaries under /usr/lib/postgresql" >&2
  exit 1
fi

is_standby() {
  [ "$(psql -h 127.0.0.1 -p "$replica_port" -U postgres -d postgres -Atc 'select pg_is_in_recovery()' 2>/dev/null)" = t ]
}

if is_standby; then
  echo "pg-replica: hot standby answers on 127.0.0.1:$replica_port"
  exit 0
fi

if [ -f "$replica_dir/standby.signal" ]; then
  echo "pg-replica: starting the standby in $replica_dir"
else
  if ! psql "host=127.0.0.1 port=$primary_port user=postgres replication=true" -Atc 'IDENTIFY_SYSTEM' >/dev/null 2>&1; then
    hba=$(as_postgres psql -p "$primary_port" -Atc 'show hba_file')
    if ! grep -Eq '^host[[:space:]]+replication[[:space:]]+all[[:space:]]+127\.0\.0\.1/32[[:space:]]+trust' "$hba"; then
      echo "pg-replica: allowing replication from 127.0.0.1 in $hba"
      sed -i '1i host replication all 127.0.0.1/32 trust' "$hba"
    fi
    as_postgres psql -p "$primary_port" -Atc 'select pg_reload_conf()' >/dev/null
  fi
  echo "pg-replica: copying the primary on 127.0.0.1:$primary_port to $replica_dir"
  rm -rf "$replica_dir"
  mkdir -p "$(dirname "$replica_dir")"
  as_postgres "$bin/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres -D "$replica_dir" -R -X stream -c fast
  # Debian keeps a cluster's configuration in /etc, so the copy has none: the standby's own, minimal.
  as_postgres tee "$replica_dir/postgresql.conf" >/dev/null <<EOF
port = $replica_port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$replica_dir'
hot_standby = on
max_connections = 100
# Queries conflicting with replay wait for them rather than being cancelled at once (a test's reads are short).
max_standby_streaming_delay = 30s
EOF
  as_postgres tee "$replica_dir/pg_hba.conf" >/dev/null <<EOF
local all all trust
host all all 127.0.0.1/32 trust
EOF
  as_postgres touch "$replica_dir/pg_ident.conf"
fi

# Without the lock's descriptor: the server would otherwise hold the lock for as long as it runs.
as_postgres "$bin/pg_ctl" -D "$replica_dir" -l "$replica_dir/standby.log" -w -t 60 start >/dev/null 9>&-
for _ in $(seq 1 60); do
  if is_standby; then
    echo "pg-replica: hot standby answers on 127.0.0.1:$replica_port"
    exit 0
  fi
  sleep 1
done
echo "pg-replica: the standby did not answer on 127.0.0.1:$replica_port within 60 s (see $replica_dir/standby.log)" >&2
exit 1
