#!/usr/bin/env bash
# Installs everything siphon needs on a fresh Debian machine, skipping what is
# already there: bun (from npm), Chromium and its headless shell, Redis and PostgreSQL (apt), the
# project's dependencies (bun.lock), then builds dist/siphon.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v bun >/dev/null 2>&1; then
  echo "setup: installing bun" >&2
  npm install -g bun >&2
fi

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# Plain renders run on the headless shell (half the CPU per page); stealth on full Chromium.
command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
# The server benchmark's load generator (scripts/bench/server.ts); autocannon stands in without it.
command -v wrk >/dev/null 2>&1 || need+=(wrk)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  echo "setup: apt-get install ${need[*]}" >&2
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >&2
fi

bun install --frozen-lockfile >&2
bun run build >&2
