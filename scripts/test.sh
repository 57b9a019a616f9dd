#!/usr/bin/env bash
# The one command that runs every test (README: "Test"). CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/services.sh
export TTAKJI_TEST_PG_URL="${TTAKJI_TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/test}"

cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked
