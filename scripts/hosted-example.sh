#!/usr/bin/env bash
# Hosted mode on one machine, for trying it: Redis, PostgreSQL, two API
# processes and two workers, plus a small local site to crawl, all on
# loopback, all in one temp folder removed at the end (processes stopped by
# their pids).
#
#   bash scripts/hosted-example.sh           # runs until Ctrl-C; prints the API URLs and a key
#   bash scripts/hosted-example.sh --check   # starts it all, crawls through API 1, polls and
#                                            # streams through API 2, stops it all; exit 0 on success
#
# Needs bun, redis-server and PostgreSQL (scripts/setup.sh installs them).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CHECK=0
[[ "${1:-}" == "--check" ]] && CHECK=1

WORK="$(mktemp -d "${TMPDIR:-/tmp}/siphon-hosted-XXXXXX")"
PIDS=()
PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
AS_PG=()
[[ "$(id -u)" == "0" ]] && AS_PG=(runuser -u postgres --)

cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  # Graceful first (workers hand their work back); whatever is still up after 15 s is killed.
  for _ in $(seq 1 75); do
    local alive=0
    for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [[ "$alive" == "0" ]] && break
    sleep 0.2
  done
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  if [[ -f "$WORK/redis.pid" ]]; then kill "$(cat "$WORK/redis.pid")" 2>/dev/null || true; fi
  if [[ -f "$WORK/pg/postmaster.pid" ]]; then
    "${AS_PG[@]}" "$PG_BIN/pg_ctl" -D "$WORK/pg" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  bun -e 'const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } }); console.log(s.port); s.stop(true);'
}

command -v redis-server >/dev/null || { echo "redis-server is not installed (scripts/setup.sh)" >&2; exit 1; }
[[ -n "$PG_BIN" ]] || { echo "PostgreSQL is not installed (scripts/setup.sh)" >&2; exit 1; }

# Redis: no persistence, loopback only.
REDIS_PORT="$(free_port)"
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no \
  --dir "$WORK" --pidfile "$WORK/redis.pid" --logfile "$WORK/redis.log"

# PostgreSQL: a fresh cluster (initdb refuses root, so as root it runs as the postgres user).
PG_PORT="$(free_port)"
mkdir -p "$WORK/pg"
[[ "$(id -u)" == "0" ]] && chown postgres "$WORK" "$WORK/pg"
"${AS_PG[@]}" "$PG_BIN/initdb" -D "$WORK/pg" --auth=trust -U postgres --no-sync >/dev/null
"${AS_PG[@]}" "$PG_BIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg/log" -w start \
  -o "-p $PG_PORT -k $WORK/pg -c listen_addresses=127.0.0.1 -c fsync=off" >/dev/null
"${AS_PG[@]}" "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE siphon" >/dev/null

# A small site to crawl: 30 linked pages.
SITE_PORT="$(free_port)"
bun -e '
const port = Number(process.argv[1]);
Bun.serve({ hostname: "127.0.0.1", port, fetch(req) {
  const m = /^\/p\/(\d+)$/.exec(new URL(req.url).pathname);
  const i = m ? Number(m[1]) : 0;
  const links = [i + 1, i + 2, 2 * i + 1].filter((n) => n < 30).map((n) => `<li><a href="/p/${n}">Page ${n}</a></li>`).join("");
  return new Response(`<!doctype html><title>Page ${i}</title><main><h1>Page ${i}</h1><p>${"A page of the example site. ".repeat(8)}</p><ul>${links}</ul></main>`,
    { headers: { "content-type": "text/html; charset=utf-8" } });
} });' "$SITE_PORT" &
PIDS+=($!)
SITE="http://127.0.0.1:$SITE_PORT"

export DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/siphon"
export REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
export SIPHON_HOME="$WORK/home"
export SIPHON_AUTH=required
export SIPHON_SSRF_ALLOW="127.0.0.1:$SITE_PORT"
siphon() { bun "$ROOT/cli/main.ts" "$@"; }

# Every process migrates on open; doing it once first keeps the start-up output quiet.
siphon migrate >/dev/null

API_PORTS=()
for i in 1 2; do
  port="$(free_port)"
  # bun itself in the background (not the siphon function's subshell), so $! is the pid to stop.
  bun "$ROOT/cli/main.ts" serve --role api --port "$port" >"$WORK/api$i.log" 2>&1 &
  PIDS+=($!)
  API_PORTS+=("$port")
done
for i in 1 2; do
  bun "$ROOT/cli/main.ts" serve --role worker --concurrency 4 >"$WORK/worker$i.log" 2>&1 &
  PIDS+=($!)
done
for i in 1 2; do
  for _ in $(seq 1 150); do
    grep -q "siphon listening" "$WORK/api$i.log" && break
    sleep 0.2
  done
  grep -q "siphon listening" "$WORK/api$i.log" || { cat "$WORK/api$i.log" >&2; exit 1; }
done
for i in 1 2; do
  for _ in $(seq 1 150); do
    grep -q "siphon worker ready" "$WORK/worker$i.log" && break
    sleep 0.2
  done
  grep -q "siphon worker ready" "$WORK/worker$i.log" || { cat "$WORK/worker$i.log" >&2; exit 1; }
done
KEY="$(siphon keys create --name example --tier pro --json | bun -e 'console.log(JSON.parse(await Bun.stdin.text()).key)')"
A="http://127.0.0.1:${API_PORTS[0]}"
B="http://127.0.0.1:${API_PORTS[1]}"

if [[ "$CHECK" == "0" ]]; then
  cat <<EOF
siphon hosted mode is running (Ctrl-C stops it all):
  API 1    $A
  API 2    $B
  workers  2 (--concurrency 4), logs in $WORK
  Redis    $REDIS_URL
  Postgres $DATABASE_URL
  site     $SITE/p/0 (30 pages)
  key      $KEY

Try:
  curl -s -X POST $A/v1/crawl -H "Authorization: Bearer $KEY" -H 'content-type: application/json' \\
    -d '{"url":"$SITE/p/0","limit":30,"maxDepth":20}'
  curl -sN $B/v1/crawl/<id> -H "Authorization: Bearer $KEY" -H 'accept: text/event-stream'
  curl -s $B/v1/crawl/<id> -H "Authorization: Bearer $KEY"
EOF
  while true; do sleep 3600; done
fi

# --check: a crawl through API 1, streamed and polled through API 2.
ID="$(curl -sf -X POST "$A/v1/crawl" -H "Authorization: Bearer $KEY" -H 'content-type: application/json' \
  -d "{\"url\":\"$SITE/p/0\",\"limit\":30,\"maxDepth\":20}" | bun -e 'console.log(JSON.parse(await Bun.stdin.text()).id)')"
echo "crawl $ID started through API 1"
STREAM="$(curl -sN --max-time 60 "$B/v1/crawl/$ID" -H "Authorization: Bearer $KEY" -H 'accept: text/event-stream' | tail -c 300)"
echo "stream through API 2 ended: ${STREAM//$'\n'/ }"
RESULT="$(curl -sf "$B/v1/crawl/$ID" -H "Authorization: Bearer $KEY")"
echo "$RESULT" | bun -e '
const r = JSON.parse(await Bun.stdin.text());
const urls = new Set(r.data.map((d) => d.url));
console.log(`poll through API 2: ${r.status}, ${r.completed} of ${r.total} pages, ${urls.size} distinct`);
if (r.status !== "completed" || r.completed !== 30 || urls.size !== 30) process.exit(1);
'
grep -q '"type":"done","status":"completed"' <<<"$STREAM" || { echo "no done event on the stream" >&2; exit 1; }
echo "check passed"
