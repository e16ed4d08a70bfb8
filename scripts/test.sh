#!/usr/bin/env bash
# The whole test suite: set-up, typecheck, lint, build, bun test. Ends with the
# line "N passed, N failed, N skipped" (typecheck, lint and the docs check count as one check each).
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh || { echo "setup failed"; echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
skipped=0
check() {
  local name=$1; shift
  if "$@" >.tmp-check.log 2>&1; then
    passed=$((passed + 1)); echo "check $name: ok"
  else
    failed=$((failed + 1)); echo "check $name: FAILED"; cat .tmp-check.log
  fi
  rm -f .tmp-check.log
}
check typecheck ./node_modules/.bin/tsc --noEmit
check lint ./node_modules/.bin/biome check .
# The reference pages of docs/reference/ are made from the code: stale ones fail CI.
check docs bun scripts/docs.ts --check

log=$(mktemp)
bun test --timeout 30000 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() { grep -E "^ *[0-9]+ $1\$" "$log" | tail -1 | awk '{print $1}'; }
p=$(count pass); f=$(count fail); s=$(count skip)
passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0})); skipped=$((skipped + ${s:-0}))
# bun test failing without a fail count (crash, no tests) is a failure too.
if [ "$status" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then failed=$((failed + 1)); fi
rm -f "$log"

echo "${passed} passed, ${failed} failed, ${skipped} skipped"
[ "$failed" -eq 0 ]
