#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432, trust auth, database `test`) and Redis (127.0.0.1:6379)
# are up for the PostgreSQL run of the suite and the multi-instance tests (DESIGN §4). Starts them
# when they are down; on a fresh machine that has neither, installs them first.
set -euo pipefail

pg_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
pg_test_db() { psql -h 127.0.0.1 -U postgres -d test -Atqc 'select 1' >/dev/null 2>&1; }

if ! command -v pg_ctlcluster >/dev/null; then
  echo "== installing PostgreSQL"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fresh_postgres=1
fi
if ! pg_up; then
  echo "== starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main start
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
fi
if [[ -n "${fresh_postgres:-}" ]] && ! pg_test_db; then
  # A cluster this script just installed is a throwaway CI database: give loopback trust auth,
  # as on the development machine, and create the `test` database the suite uses.
  version="$(ls /etc/postgresql | sort -V | tail -1)"
  printf 'local all all trust\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n' >"/etc/postgresql/$version/main/pg_hba.conf"
  pg_ctlcluster --skip-systemctl-redirect "$version" main reload
  runuser -u postgres -- createdb test
fi
pg_test_db || { echo "PostgreSQL is up but postgres@127.0.0.1/test does not answer" >&2; exit 1; }

if ! command -v redis-server >/dev/null; then
  echo "== installing Redis"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "== starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.2; done
fi
redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null
echo "== PostgreSQL $(psql -h 127.0.0.1 -U postgres -d test -Atqc 'show server_version'), Redis $(redis-cli -h 127.0.0.1 info server | sed -n 's/^redis_version:\(.*\)\r$/\1/p')"
