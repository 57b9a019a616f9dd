#!/usr/bin/env bash
# Starts the local services the tests talk to, if they are down. PostgreSQL is the production
# store; the tests run every store test against it as well as against SQLite.
set -euo pipefail

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
if ! pg_up; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "starting PostgreSQL" >&2
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
    for _ in $(seq 1 30); do pg_up && break; sleep 1; done
  fi
fi
pg_up || echo "warning: PostgreSQL is not reachable on 127.0.0.1:5432" >&2
