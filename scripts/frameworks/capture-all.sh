#!/usr/bin/env bash
# Regenerates every captured framework fixture: installs each framework from
# its own pinned package-lock (npm ci), runs it unchanged against its mock
# model, and writes the OTLP JSON it exported to lib/adapters/otlp/fixtures/.
# ai-sdk-7 and mastra run on Node 22 (node22.sh). Offline apart from the npm
# registry. Usage: scripts/frameworks/capture-all.sh [name...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../../lib/adapters/otlp/fixtures"
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(ai-sdk-6 ai-sdk-7 openai-agents langgraph traceloop mastra)
for name in "${names[@]}"; do
  path="$PATH"
  case "$name" in ai-sdk-7|mastra) path="$("$here/node22.sh"):$PATH" ;; esac
  (cd "$here/$name" && export PATH="$path" && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; } && node capture.mjs "$out/$name.json")
done
