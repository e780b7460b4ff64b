#!/usr/bin/env bash
# CI step: start Baton (dev server, its own embedded PostgreSQL and data
# directory), run the live framework harness against it, stop it. Needs only
# the npm registry (each framework installs from its own package-lock).
# About 3.5 minutes on a fresh machine, most of it the six npm installs (and Node 22 for ai-sdk-7 and mastra).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PORT="${FRAMEWORKS_PORT:-3700}" BATON_PG_PORT="${FRAMEWORKS_PG_PORT:-24710}" BATON_DATA_DIR=.baton-frameworks-live
unset DATABASE_URL
setsid npm run dev >/tmp/baton-frameworks-live.log 2>&1 &
server=$!
trap 'kill -- -"$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -sf -o /dev/null "http://127.0.0.1:$PORT/api/traces?limit=1" && break
  sleep 1
done
node scripts/frameworks/live.mjs "http://127.0.0.1:$PORT"
