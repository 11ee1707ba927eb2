# Shared by the benchmark and failure scripts (sourced, not run).
# A private PostgreSQL cluster in a temp dir, run as `postgres`/`nobody`
# when we are root (like crates/test-db), on a free port, stopped on exit.

pg_bin() {
  if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return; fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  if [ -n "$d" ]; then echo "$d"; else dirname "$(command -v initdb)"; fi
}

as_pg_owner() {
  if [ "$(id -u)" = 0 ]; then
    local user=postgres
    id -u postgres >/dev/null 2>&1 || user=nobody
    runuser -u "$user" -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# pg_start [extra postgres -c options…]: sets PG_DIR, PG_PORT, PG_ADMIN_URL.
pg_start() {
  PG_BINDIR=$(pg_bin)
  PG_DIR=$(mktemp -d /tmp/cardgames-bench-pg.XXXXXX)
  chmod 755 "$PG_DIR"
  [ "$(id -u)" = 0 ] && chown "$(id -u postgres 2>/dev/null || echo 65534)" "$PG_DIR"
  PG_PORT=$(free_port)
  as_pg_owner "$PG_BINDIR/initdb" --auth=trust --username=postgres --encoding=UTF8 \
    --no-instructions -D "$PG_DIR/data" >"$PG_DIR/initdb.log"
  PG_OPTS="-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=300 $*"
  pg_resume
  PG_ADMIN_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
  trap pg_cleanup EXIT
}

pg_resume() {
  as_pg_owner "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -o "$PG_OPTS" \
    -w -t 60 start >/dev/null
}

pg_stop() {
  as_pg_owner "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" -m "${1:-fast}" -w stop >/dev/null
}

pg_cleanup() {
  # A server or cluster already gone must not stop the cleanup (it runs
  # under set -e, where a failing command would leave the cluster running).
  if [ -n "${SERVER_PID:-}" ]; then kill "$SERVER_PID" 2>/dev/null || true; fi
  if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR" ]; then
    as_pg_owner "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
  fi
}

psql_admin() {
  "$(pg_bin)/psql" -q -v ON_ERROR_STOP=1 "$PG_ADMIN_URL" "$@"
}

# wait_http URL [seconds]
wait_http() {
  local i
  for i in $(seq 1 $((${2:-30} * 10))); do
    curl -fs -o /dev/null "$1" && return 0
    sleep 0.1
  done
  echo "no answer from $1" >&2
  return 1
}

machine_line() {
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -h | awk '/Mem:/{print $2}') RAM, $(uname -r)"
}

# The machine's idle and total CPU time so far ("idle total", in ticks of
# /proc/stat, all cores, user to steal; idle counts iowait), for cpu_idle_since.
cpu_idle_mark() {
  awk '/^cpu / {t = 0; for (i = 2; i <= 9; i++) t += $i; print $5 + $6, t; exit}' /proc/stat
}

# cpu_idle_since "MARK": the share of all cores' time (%) left idle since
# cpu_idle_mark printed MARK. A closed loop of clients that leaves cores
# idle is bound by its waits, not by the CPU each move costs.
cpu_idle_since() {
  local i0 t0
  read -r i0 t0 <<<"$1"
  cpu_idle_mark | awk -v i0="$i0" -v t0="$t0" '{printf "%.0f", ($2 > t0 ? 100 * ($1 - i0) / ($2 - t0) : 0)}'
}

# CPU seconds (user + system) the given processes have used so far.
cpu_of() {
  local pids="$*" total=0 p
  for p in $pids; do
    [ -r "/proc/$p/stat" ] || continue
    total=$(awk -v t="$total" -v hz="$(getconf CLK_TCK)" '{printf "%.3f", t + ($14 + $15) / hz}' "/proc/$p/stat")
  done
  echo "$total"
}

# The private cluster's processes (backends and workers).
pg_backends() {
  if [ -n "${PG_DIR:-}" ]; then pgrep -P "$(head -1 "$PG_DIR/data/postmaster.pid")" | tr '\n' ' '; fi
}

# pg_cluster_cpu: CPU seconds the private cluster has used so far, the
# processes that have ended included (the postmaster's reaped children),
# so a phase whose connections close (pgbench's) is counted whole.
pg_cluster_cpu() {
  local pm
  pm=$(head -1 "$PG_DIR/data/postmaster.pid")
  awk -v hz="$(getconf CLK_TCK)" -v live="$(cpu_of $(pg_backends))" \
    '{printf "%.3f", live + ($14 + $15 + $16 + $17) / hz}' "/proc/$pm/stat"
}

# pg_cpu_mark FILE: note each cluster process's CPU seconds so far.
pg_cpu_mark() {
  local p
  for p in $(pg_backends); do echo "$p $(cpu_of "$p")"; done >"$1"
}

# pg_cpu_since FILE: CPU seconds the cluster's processes used since
# pg_cpu_mark FILE (a process started since counts from zero; one that
# ended since is lost, which a pooled api's backends rarely do).
pg_cpu_since() {
  local p total=0 now before
  for p in $(pg_backends); do
    now=$(cpu_of "$p")
    before=$(awk -v p="$p" '$1 == p {print $2}' "$1")
    total=$(awk -v t="$total" -v a="$now" -v b="${before:-0}" 'BEGIN {printf "%.3f", t + a - b}')
  done
  echo "$total"
}
