#!/usr/bin/env bash
# Post-game analysis (docs/analysis.md, "Measured"): the time to analyse
# every seat of a whole game between sensible bots at the engine's default
# budget, on one core (taskset -c 0), for Lost Heir with 3 players and
# Cancellation Hearts with 10; each game is analysed twice with different
# random streams, and the agreement between the runs (same preferred move,
# same mark at each judged decision) is printed.
#
#   scripts/bench-analysis.sh            # 2 games of each
#   GAMES=5 scripts/bench-analysis.sh
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-2}
TARGET=${CARGO_TARGET_DIR:-target}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p game-record --example analysis_bench 2>&1 | tail -1
BIN="$TARGET/release/examples/analysis_bench"
PIN=()
if command -v taskset >/dev/null; then PIN=(taskset -c 0); fi
"${PIN[@]}" "$BIN" lost-heir 3 "$GAMES"
"${PIN[@]}" "$BIN" cancellation-hearts 10 "$GAMES"
