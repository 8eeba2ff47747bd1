#!/bin/sh
# Run once by the postgres image on a new data volume (/docker-entrypoint-initdb.d): makes the login role
# the app instances run as. The tables belong to POSTGRES_USER (the app migrates through
# DATABASE_OWNER_URL), which grants this role everything but UPDATE, DELETE and TRUNCATE on the
# evidence ledger and the signed records at each start (server/db/server-role.ts).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v role="$POSTGRES_SERVER_USER" -v password="$POSTGRES_SERVER_PASSWORD" <<'SQL'
CREATE ROLE :"role" LOGIN PASSWORD :'password';
SQL
