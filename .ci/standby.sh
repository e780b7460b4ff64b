#!/usr/bin/env bash
# Debian's PostgreSQL 15 as a primary (cluster 15/main, port 5432) and a
# streaming hot standby of it made with `pg_basebackup -R` (port 5433, data
# in $BATON_STANDBY_DIR), for the read-replica pass of CI.
#   .ci/standby.sh start   primary up, standby made (if missing) and started
#   .ci/standby.sh sync    commits wait until the standby has applied them (remote_apply)
#   .ci/standby.sh async   commits do not wait (the standby may lag)
#   .ci/standby.sh halt    standby stopped (start starts it again)
#   .ci/standby.sh stop    standby stopped and removed
set -euo pipefail
BIN=/usr/lib/postgresql/15/bin
DIR="${BATON_STANDBY_DIR:-/tmp/baton-standby}"
as_pg() { su postgres -c "$*"; }
psql_primary() { as_pg "psql -q -X -v ON_ERROR_STOP=1 -c \"$1\""; }

case "${1:-}" in
  start)
    pg_ctlcluster 15 main start 2>/dev/null || pg_ctlcluster 15 main status >/dev/null
    if [ ! -f "$DIR/standby.signal" ]; then
      rm -rf "$DIR"
      mkdir -p "$DIR" && chown postgres:postgres "$DIR" && chmod 700 "$DIR"
      # Debian's pg_hba.conf lets the postgres user replicate over the local socket
      as_pg "$BIN/pg_basebackup -D '$DIR' -R -X stream -h /var/run/postgresql -p 5432"
      as_pg "cat > '$DIR/postgresql.conf'" <<CONF
port = 5433
listen_addresses = '127.0.0.1'
unix_socket_directories = '/tmp'
hot_standby = on
hot_standby_feedback = on
hba_file = '$DIR/pg_hba.conf'
ident_file = '$DIR/pg_ident.conf'
CONF
      as_pg "printf 'local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\n' > '$DIR/pg_hba.conf' && touch '$DIR/pg_ident.conf'"
    fi
    as_pg "$BIN/pg_ctl -D '$DIR' status" >/dev/null 2>&1 || as_pg "$BIN/pg_ctl -D '$DIR' -l '$DIR/log' -w start" >/dev/null
    for _ in $(seq 1 60); do
      [ "$(as_pg "psql -h /tmp -p 5433 -tAX -c 'SELECT pg_is_in_recovery()'")" = "t" ] && exit 0
      sleep 1
    done
    echo "the standby did not come up: $(tail -5 "$DIR/log")" >&2
    exit 1
    ;;
  sync)
    psql_primary "ALTER SYSTEM SET synchronous_standby_names = '*'"
    psql_primary "ALTER SYSTEM SET synchronous_commit = 'remote_apply'"
    psql_primary "SELECT pg_reload_conf()"
    ;;
  async)
    psql_primary "ALTER SYSTEM RESET synchronous_standby_names"
    psql_primary "ALTER SYSTEM RESET synchronous_commit"
    psql_primary "SELECT pg_reload_conf()"
    ;;
  halt)
    as_pg "$BIN/pg_ctl -D '$DIR' -m fast -w stop" >/dev/null
    ;;
  stop)
    as_pg "$BIN/pg_ctl -D '$DIR' -m fast -w stop" >/dev/null 2>&1 || true
    rm -rf "$DIR"
    ;;
  *)
    echo "usage: .ci/standby.sh start|sync|async|halt|stop" >&2
    exit 2
    ;;
esac
