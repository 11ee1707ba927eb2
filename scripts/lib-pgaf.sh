# A private pg_auto_failover formation (sourced, after lib-pg.sh): a monitor
# and two Postgres nodes on loopback, the second a synchronous standby of the
# first, each node run by its own `pg_autoctl run` (which starts, watches
# and restarts its Postgres and follows the monitor's orders). All of it
# lives in one temp dir, with pg_autoctl's config and state there too
# (XDG_*), runs as `postgres`/`nobody` when we are root, and is removed by
# af_cleanup, which kills every process it started.
#
#   af_start            sets AF_DIR, AF_MONITOR_PORT, AF_PORTS (node1 node2),
#                       AF_URL (both nodes, target_session_attrs=read-write)
#   af_kill NODE        SIGKILL the node's every process (pg_autoctl, its
#                       Postgres and backends): the machine is gone
#   af_run NODE         start the node's pg_autoctl again (it rejoins)
#   af_states           "node1=primary/primary node2=secondary/secondary"
#   af_wait_states PAT SECONDS
#   af_primary          the node that is primary now (1 or 2), or nothing

# The failover timing (docs/operations.md, "Failover"): the monitor checks
# each node every second, calls a node unhealthy after 2 s without a
# report and a failed check, and promotes the standby after the old
# primary was given 3 s to demote itself. A primary cut off from the monitor
# and its standby demotes itself after 3 s; a synchronous standby means it
# acknowledges no commit meanwhile anyway.
AF_MONITOR_SETTINGS="
ALTER SYSTEM SET pgautofailover.health_check_period = 1000;
ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000;
ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1;
ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500;
ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 2000;
ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 3000;
SELECT pg_reload_conf();"

# Installs Debian's pg_auto_failover for the installed server's major
# version when pg_autoctl is missing.
af_install() {
  local major
  major=$(basename "$(dirname "$(pg_bin)")")
  if ! command -v pg_autoctl >/dev/null || [ ! -e "/usr/lib/postgresql/$major/lib/pgautofailover.so" ]; then
    echo "== installing pg_auto_failover (Debian: postgresql-$major-auto-failover)"
    apt-get -o DPkg::Lock::Timeout=600 update -qq &&
      DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
        --no-install-recommends "postgresql-$major-auto-failover" pg-auto-failover-cli >/dev/null
  fi
}

af() {
  as_pg_owner env XDG_CONFIG_HOME="$AF_DIR/config" XDG_DATA_HOME="$AF_DIR/share" \
    XDG_RUNTIME_DIR="$AF_DIR/run" PATH="$PG_BINDIR:$PATH" pg_autoctl "$@"
}

# $1 and every process under it, from one look at the process table (a
# kill must be quick under load, as a machine's loss is).
af_tree() {
  ps -e -o pid=,ppid= | awk -v root="$1" '
    { parent[$1] = $2 }
    END {
      for (p in parent) {
        for (q = p; q != "" && q > 1; q = parent[q]) if (q == root) { print p; break }
      }
    }'
}

declare -A AF_RUNNER=()

# af_run NAME: `pg_autoctl run` for monitor, node1 or node2, in the background.
af_run() {
  af run --pgdata "$AF_DIR/$1" >>"$AF_DIR/$1.log" 2>&1 &
  AF_RUNNER[$1]=$!
  # Not a job of this shell: its SIGKILL is no news to report.
  disown "$!"
}

# Sets AF_KILLED_MS: when the last process was sent SIGKILL.
af_kill() {
  local pids
  pids=$(af_tree "${AF_RUNNER[$1]}" | tr '\n' ' ')
  # Stopped first, so that nothing restarts what is being killed.
  kill -STOP $pids 2>/dev/null || true
  kill -9 $pids 2>/dev/null || true
  AF_KILLED_MS=$(date +%s%3N)
  AF_RUNNER[$1]=""
}

af_psql_monitor() {
  "$PG_BINDIR/psql" -X -q -tA -v ON_ERROR_STOP=1 \
    "postgres://postgres@127.0.0.1:$AF_MONITOR_PORT/pg_auto_failover" "$@"
}

af_states() {
  af_psql_monitor -c "SELECT string_agg(nodename || '=' || reportedstate || '/' || goalstate, ' '
                        ORDER BY nodeid) FROM pgautofailover.node" 2>/dev/null || true
}

# af_pair A STATE_A B STATE_B: the two nodes' states as af_states says
# them (by node number).
af_pair() {
  if [ "$1" -lt "$3" ]; then echo "node$1=$2 node$3=$4"; else echo "node$3=$4 node$1=$2"; fi
}

# af_wait_states 'node1=primary/primary node2=secondary/secondary' SECONDS
af_wait_states() {
  local i
  for i in $(seq 1 $((${2:-60} * 10))); do
    [ "$(af_states)" = "$1" ] && return 0
    sleep 0.1
  done
  echo "the formation did not reach '$1' in ${2:-60} s: $(af_states)" >&2
  return 1
}

af_primary() {
  af_psql_monitor -c "SELECT substr(nodename, 5) FROM pgautofailover.node
                        WHERE reportedstate IN ('primary', 'wait_primary') ORDER BY nodeid LIMIT 1" \
    2>/dev/null || true
}

af_start() {
  af_install
  PG_BINDIR=$(pg_bin)
  AF_DIR=$(mktemp -d /tmp/cardgames-pgaf.XXXXXX)
  chmod 755 "$AF_DIR"
  [ "$(id -u)" = 0 ] && chown "$(id -u postgres 2>/dev/null || echo 65534)" "$AF_DIR"
  AF_MONITOR_PORT=$(free_port)
  AF_PORTS=("$(free_port)" "$(free_port)")
  local common=(--hostname 127.0.0.1 --auth trust --no-ssl --pgctl "$PG_BINDIR/pg_ctl")
  af create monitor --pgdata "$AF_DIR/monitor" --pgport "$AF_MONITOR_PORT" "${common[@]}" \
    >"$AF_DIR/monitor-create.log" 2>&1
  af_tune "$AF_DIR/monitor"
  af_run monitor
  local i
  for i in $(seq 100); do af_psql_monitor -c 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.1; done
  af_psql_monitor <<<"$AF_MONITOR_SETTINGS" >/dev/null
  local monitor="postgres://autoctl_node@127.0.0.1:$AF_MONITOR_PORT/pg_auto_failover?sslmode=disable"
  for i in 1 2; do
    af create postgres --pgdata "$AF_DIR/node$i" --pgport "${AF_PORTS[$((i - 1))]}" \
      --listen 127.0.0.1 --name "node$i" --dbname cards --monitor "$monitor" "${common[@]}" \
      >"$AF_DIR/node$i-create.log" 2>&1
    # A partitioned primary demotes itself after this (its default is 20 s).
    af config set --pgdata "$AF_DIR/node$i" timeout.network_partition_timeout 3 >/dev/null
    [ "$i" = 1 ] && af_tune "$AF_DIR/node1"
    af_run "node$i"
    [ "$i" = 1 ] && af_wait_states "node1=single/single" 60
  done
  af_wait_states "node1=primary/primary node2=secondary/secondary" 120
  AF_URL="postgres://postgres@127.0.0.1:${AF_PORTS[0]},127.0.0.1:${AF_PORTS[1]}/cards?target_session_attrs=read-write&connect_timeout=2"
}

# Settings for a test machine (pg_auto_failover sizes shared_buffers for a
# dedicated one); the standby copies them with its base backup.
af_tune() {
  as_pg_owner sh -c "cat >>'$1/postgresql.auto.conf'" <<'EOF'
shared_buffers = '128MB'
max_connections = 200
EOF
}

af_cleanup() {
  local name
  for name in node1 node2 monitor; do
    [ -n "${AF_RUNNER[$name]:-}" ] && af_kill "$name"
  done
  # A Postgres left by a create that failed half-way.
  if [ -n "${AF_DIR:-}" ] && [ -d "$AF_DIR" ]; then
    for name in node1 node2 monitor; do
      [ -f "$AF_DIR/$name/postmaster.pid" ] &&
        as_pg_owner "$PG_BINDIR/pg_ctl" -D "$AF_DIR/$name" -m immediate stop >/dev/null 2>&1 || true
    done
    rm -rf "$AF_DIR"
  fi
}
