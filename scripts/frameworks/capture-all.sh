#!/usr/bin/env bash
# Regenerates every captured framework fixture: installs each framework from
# its own pinned package-lock (npm ci), runs it unchanged against its mock
# model, and writes the OTLP JSON it exported to lib/adapters/otlp/fixtures/.
# Offline apart from the npm registry. Usage: scripts/frameworks/capture-all.sh [name...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../../lib/adapters/otlp/fixtures"
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(ai-sdk-6 openai-agents langgraph traceloop)
for name in "${names[@]}"; do
  (cd "$here/$name" && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; } && node capture.mjs "$out/$name.json")
done
