#!/usr/bin/env bash
# The one command that runs every test (README: "Test"). CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/services.sh
export TTAKJI_TEST_PG_URL="${TTAKJI_TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/test}"

echo "== Rust: format, lints, tests"
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked

echo "== Web client: type check, unit tests, build"
(
  cd web
  npm ci --no-audit --no-fund
  npm test
  npm run build
)
