#!/usr/bin/env bash
# End-to-end tests: the real server and the built client in real headless Chromium
# (Debian's `chromium`, driven by playwright-core; no browser is ever downloaded).
#
#   scripts/e2e.sh            install what is missing, build, serve, test
#   E2E_SKIP_BUILD=1 ...      reuse web/dist and target/debug/ttakji as they are
#   E2E_CLOCK_MAIN_MS=...     main time of clocked games (default 20000: short, so that the
#                             loss-on-time test ends quickly; byo-yomi is 1 × 10 s)
#
# Exits non-zero when any test fails. Screenshots: web/e2e/screenshots/ (gitignored).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# 1. The browser, and fonts for Thai and Devanagari (and Chinese) text in the screenshots.
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v fc-list >/dev/null && [ -n "$(fc-list :lang=th family)" ] && [ -n "$(fc-list :lang=hi family)" ] || need+=(fonts-noto-core)
command -v fc-list >/dev/null && [ -n "$(fc-list :lang=zh-cn family)" ] || need+=(fonts-noto-cjk)
if [ ${#need[@]} -gt 0 ]; then
  echo "== Installing ${need[*]} (Debian packages)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
/usr/bin/chromium --version 2>/dev/null

# 2. Builds: the client (and playwright-core, a devDependency), then the server.
if [ "${E2E_SKIP_BUILD:-}" != 1 ]; then
  echo "== Building the web client"
  (cd web && npm ci --no-audit --no-fund && npm run build)
  # The dev profile shares its optimised dependencies with `cargo test`: no second build.
  echo "== Building the server"
  cargo build --locked -p ttakji
fi
[ -d web/node_modules/playwright-core ] || (cd web && npm ci --no-audit --no-fund)

# 3. The server on a free port, with a throwaway database; stopped on exit.
TMP=$(mktemp -d -t ttakji-e2e.XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
SERVER_PID=
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== Starting ttakji serve on $BASE (log: $TMP/server.log)"
target/debug/ttakji serve \
  --bind "127.0.0.1:$PORT" \
  --database-url "sqlite://$TMP/e2e.db" \
  --static-dir "$ROOT/web/dist" \
  --clock-main-ms "${E2E_CLOCK_MAIN_MS:-20000}" --clock-periods 1 --clock-period-ms 10000 \
  --log "${E2E_SERVER_LOG:-warn}" >"$TMP/server.log" 2>&1 &
SERVER_PID=$!

for _ in $(seq 1 100); do
  if curl -fsS "$BASE/api/health" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "ttakji serve exited:" >&2
    cat "$TMP/server.log" >&2
    exit 1
  fi
  sleep 0.1
done
curl -fsS "$BASE/api/health" || { echo "no answer from $BASE/api/health" >&2; cat "$TMP/server.log" >&2; exit 1; }
echo

# 4. The browser tests (node --test; its last lines count passed, failed and skipped tests).
echo "== Browser tests against $BASE"
status=0
(cd web && E2E_BASE_URL="$BASE" E2E_SHORT_CLOCK=1 npm run --silent e2e) || status=$?
if [ "$status" != 0 ]; then
  echo "== Server log (last 40 lines)"
  tail -n 40 "$TMP/server.log"
fi
echo "== Screenshots in web/e2e/screenshots/"
exit "$status"
