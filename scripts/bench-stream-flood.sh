#!/usr/bin/env bash
# The stream flood: hundreds of anonymous `stream?after=0` connections that
# never read, on a finished game of a few thousand events, while another
# client makes ordinary requests. Prints the victim's latency (p50, p99,
# max) alone, under the flood and after it, the api's RSS before and after,
# and how many flood connections were answered 200 or refused.
#
#   scripts/bench-stream-flood.sh                 # the defaults (STREAMS_PER_CLIENT=32, …)
#   FLOOD_ENV="STREAMS_PER_CLIENT=0 ANONYMOUS_STREAMS=0" scripts/bench-stream-flood.sh   # no bounds
#
# FLOOD (300) connections, FLOOD_SECONDS (10) long; the release api unless
# API names another binary; SKIP_BUILD=1 uses the binary as it is. SQLite in
# a temp dir; nothing leaves this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api 2>&1 | tail -1
API=${API:-$TARGET/release/api}
OUT=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# shellcheck disable=SC2086
env RATE_LIMIT=0 PORT="$PORT" DATA_DIR="$OUT" RUST_LOG=warn ${FLOOD_ENV:-} "$API" >"$OUT/api.log" 2>&1 &
API_PID=$!
trap 'kill $API_PID 2>/dev/null; rm -rf "$OUT"' EXIT
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/readyz" && break; sleep 0.1; done

python3 - "$PORT" "$API_PID" "${FLOOD:-300}" "${FLOOD_SECONDS:-10}" <<'EOF'
import http.client, json, socket, statistics, sys, threading, time

port, pid, flood, seconds = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])

def call(method, path, body=None, token=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    c.request(method, path, json.dumps(body) if body is not None else None, headers)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, (json.loads(data) if data else None)

def rss_kib():
    with open(f"/proc/{pid}/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))

_, me = call("POST", "/v1/players", {"display_name": "Flood host"})
token = me["token"]
# Ten random bots play Cancellation Hearts to 300 points: a long log.
_, game = call("POST", "/v1/games", {"kind": "cancellation-hearts",
    "config": {"players": 10, "target": 300}, "seats": ["bot_random"] * 10}, token)
gid = game["id"]
while call("GET", f"/v1/games/{gid}")[1]["status"] != "finished":
    time.sleep(0.5)
events = call("GET", f"/v1/games/{gid}")[1]["version"]

def victim(n=200):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        status, _ = call("GET", f"/v1/games/{gid}")
        assert status == 200, status
        times.append((time.perf_counter() - t) * 1000)
        time.sleep(0.01)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1], times[-1]

def show(label, t):
    print(f"  victim {label:<14} p50 {t[0]:7.1f} ms   p99 {t[1]:7.1f} ms   max {t[2]:7.1f} ms")

def read_log():
    after = 0
    while after is not None:
        _, page = call("GET", f"/v1/games/{gid}/events?after={after}&limit=500")
        after = page.get("next_after")

print(f"a finished game of {events} events; {flood} flood connections for {seconds:.0f} s")
# Warm, as a server that has served its games is: the log read whole by
# eight clients at once (each pooled SQLite connection keeps a page cache of
# up to 2 MiB), and the victim's own request.
for _ in range(2):
    readers = [threading.Thread(target=read_log) for _ in range(8)]
    for r in readers:
        r.start()
    for r in readers:
        r.join()
victim(50)
alone = victim()
rss_before = rss_kib()

socks, statuses = [], {}
def open_flood():
    for _ in range(flood):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", port))
        s.sendall(f"GET /v1/games/{gid}/stream?after=0 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        socks.append(s)
flood_started = time.perf_counter()
opener = threading.Thread(target=open_flood)
opener.start()
during = victim(int(seconds * 1000 / 15))
opener.join()
for s in socks:  # the status line only: the rest stays unread
    s.settimeout(1)
    try:
        line = s.recv(16).split(b" ")[1].decode()
    except Exception:
        line = "?"
    statuses[line] = statuses.get(line, 0) + 1
rss_during = rss_kib()
while time.perf_counter() - flood_started < seconds:
    time.sleep(0.1)
for s in socks:
    s.close()
time.sleep(3)
after = victim()
rss_after = rss_kib()

show("alone", alone)
show("under flood", during)
show("after", after)
print(f"  flood answers: {', '.join(f'{n} x {k}' for k, n in sorted(statuses.items()))}")
print(f"  api RSS: before {rss_before / 1024:.1f} MiB, under flood {rss_during / 1024:.1f} MiB, "
      f"after {rss_after / 1024:.1f} MiB ({(rss_after / rss_before - 1) * 100:+.1f} %)")
EOF
