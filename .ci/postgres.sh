#!/usr/bin/env bash
# Start Debian's PostgreSQL with a throw-away database for the web platform's tests, and
# print the URL to export as MOTHERLODE_TEST_POSTGRES (nothing when it cannot be had).
set -uo pipefail
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  (apt-get update -qq && apt-get install -y -qq postgresql) >/dev/null 2>&1 || exit 0
fi
version=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -n 1)
[ -n "$version" ] || exit 0
pg_lsclusters -h 2>/dev/null | grep -q "^$version main" || pg_createcluster "$version" main >/dev/null 2>&1
pg_ctlcluster "$version" main start >/dev/null 2>&1 || true
for _ in 1 2 3 4 5 6 7 8 9 10; do
  su postgres -c "psql -qtAc 'select 1'" >/dev/null 2>&1 && break
  sleep 1
done
su postgres -c "psql -qtAc \"select 1 from pg_roles where rolname='motherlode'\"" | grep -q 1 \
  || su postgres -c "psql -qc \"create role motherlode login password 'motherlode' superuser\"" >/dev/null
su postgres -c "dropdb --if-exists motherlode_test && createdb -O motherlode motherlode_test" >/dev/null 2>&1 \
  || exit 0
echo "postgresql://motherlode:motherlode@127.0.0.1/motherlode_test"
