"""The stream-across-restart check (scripts/sdks.sh): a player plays seat 0 of
a 2-player Lost Heir game against a bot, slowly, through the runner (in a
thread), while this follows the game's stream from its first event. The
script kills and restarts the server mid-game (``progress <n>`` is printed for
each event so the script knows when). At the end every log event must have
been received exactly once: seqs 1, 2, ... up to the game's final version,
none missing, none twice, and at least one reconnect must have happened."""

import os
import sys
import threading
import time

from cardgames_client.models import (
    CreateGameRequest,
    GameResource,
    GameStateResource,
    LegalMovesResource,
    LostHeirConfigInput,
    MessageResource,
)

from cardgames_sdk import CardClient, Move, RunSummary, listed_moves, run_bot

BASE_URL = os.environ.get("BASE_URL", "http://127.0.0.1:8080")
MOVE_DELAY = float(os.environ.get("MOVE_DELAY_MS", "100")) / 1000
MIN_RECONNECTS = int(os.environ.get("MIN_RECONNECTS", "1"))


def fail(message: str) -> None:
    print(f"python stream check: {message}", file=sys.stderr)
    sys.exit(1)


def slow_first_move(_game: GameResource, legal: LegalMovesResource) -> Move | None:
    time.sleep(MOVE_DELAY)
    listed = listed_moves(legal)
    return listed[0] if listed else None


def main() -> None:
    player = CardClient.register(BASE_URL, "Python stream check")
    request = CreateGameRequest(
        kind="lost-heir",
        config=LostHeirConfigInput(players=2, partnerships=False, target=40),
        seats=["open", "bot"],
        take_seat=0,
        rated=False,
    )
    game = player.create_game(request)
    print(f"game {game.id}", flush=True)

    played: list[RunSummary] = []
    runner = threading.Thread(target=lambda: played.append(run_bot(player, slow_first_move, games=1)), daemon=True)
    runner.start()

    def on_reconnect(count: int, reason: str) -> None:
        print(f"reconnect {count}: {reason}", flush=True)

    stream = player.follow_game(game.id, last_event_id="0", on_reconnect=on_reconnect)
    last = snapshots = 0
    for frame in stream:
        data = frame.data
        if isinstance(data, GameResource):
            snapshots += 1
            continue
        if isinstance(data, (GameStateResource, MessageResource)):
            continue
        # Every other frame is a log event: its id is its seq.
        seq = data.seq
        if frame.id != str(seq):
            fail(f"event {frame.event} has id {frame.id} but seq {seq}")
        if seq <= last:
            fail(f"seq {seq} repeated (after {last})")
        if seq != last + 1:
            fail(f"seq {last + 1} to {seq - 1} lost")
        last = seq
        print(f"progress {seq} {frame.event}", flush=True)
    runner.join(timeout=60)
    if not played:
        fail("the runner did not finish")
    final = player.game(game.id)
    if final.status != "finished":
        fail(f"the stream ended but the game is {final.status}")
    if last != final.version:
        fail(f"received up to seq {last}, the game's log ends at {final.version}")
    if stream.reconnects < MIN_RECONNECTS:
        fail(f"{stream.reconnects} reconnects: the server was not restarted under the stream")
    summary = played[0]
    print(
        f"python stream check: {last} events, seq 1..{last} each once, across {stream.reconnects} reconnects "
        f"({snapshots} snapshots); the runner made {summary.moves} moves ({summary.refusals} refused, "
        f"{summary.reconnects} player-stream reconnects)"
    )


if __name__ == "__main__":
    main()
