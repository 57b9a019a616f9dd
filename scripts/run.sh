#!/usr/bin/env bash
# The one command that starts the whole product (README: "Run"): builds the web client and
# the server, then serves both on the embedded SQLite database and prints the URL.
# TTAKJI_BIND / TTAKJI_DATABASE_URL and the other `ttakji serve --help` variables apply.
set -euo pipefail
cd "$(dirname "$0")/.."

(
  cd web
  npm ci --no-audit --no-fund
  npm run build
)
cargo build --release --locked -p ttakji
exec target/release/ttakji serve --static-dir web/dist "$@"
