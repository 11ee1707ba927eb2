"""The bot runner: give it ``choose(game, legal) -> move`` and it plays every
game the account sits in. It follows the player stream (``your_turn`` for each
turn, every waiting game first on connect), so it picks up where it left off
after its own restart or the server's; reads the inbox now and then in case a
notice was missed; re-reads on 412 / not_your_turn; falls back to a legal move
when its choice is refused; given a seek, seeks a table at start and again
after each game; and, given ``accept_challenges``, answers the challenges
waiting for it (on the stream's ``challenge`` frame and on each inbox read)
and plays the games they make."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Union

from cardgames_client.models import ChallengeResource, CreateSeekRequest, GameNotice, GameResource, LegalMovesResource, SeekMatched, YourTurn

from .client import CardClient
from .moves import Move, any_legal_move
from .problem import ProblemError
from .streams import PlayerFrame

Choose = Callable[[GameResource, LegalMovesResource], "Move | None"]
"""Decides a move from the game as the seat sees it and the legal moves; None: any legal move."""

AcceptChallenges = Union[bool, Callable[[ChallengeResource], bool]]
"""Which challenges the runner accepts: True all, a predicate those it allows.
The others are left pending (another program or person may still answer them)
unless ``decline_others`` is set."""

ATTEMPTS_PER_TURN = 5
"""Tries a turn this many times (re-reading each time) before leaving it to the next notice or sweep."""

OVER_CODES = frozenset({"game_over", "game_not_in_progress", "game_expired", "not_seated", "seat_forfeited", "game_not_found"})


@dataclass
class RunSummary:
    games_over: int = 0
    """Games of the account that ended while it ran."""
    moves: int = 0
    refusals: int = 0
    """Moves the server refused (each turn still got a legal move after)."""
    reconnects: int = 0
    game_ids: list[str] = field(default_factory=list)
    challenges_accepted: int = 0
    challenges_declined: int = 0
    """Challenges this runner answered (declined only with ``decline_others``)."""


class _StreamEnded:
    pass


def run_bot(
    client: CardClient,
    choose: Choose,
    *,
    seek: CreateSeekRequest | None = None,
    games: int | None = None,
    log: Callable[[str], None] = lambda _line: None,
    sweep_secs: float = 30.0,
    stop: threading.Event | None = None,
    accept_challenges: AcceptChallenges = False,
    decline_others: bool = False,
) -> RunSummary:
    """Plays until ``games`` of the account's games are over (default: until ``stop`` is set)."""
    summary = RunSummary()
    stop = stop or threading.Event()
    seek_ids: list[str] = []

    def on_reconnect(count: int, reason: str) -> None:
        summary.reconnects = count
        log(f"player stream: reconnect {count} ({reason})")

    stream = client.follow_player(on_reconnect=on_reconnect)
    frames: queue.Queue[PlayerFrame | _StreamEnded | BaseException] = queue.Queue(maxsize=1024)

    def read() -> None:
        # The stream blocks on its socket; frames go to the runner through a bounded queue.
        try:
            for frame in stream:
                frames.put(frame)
            frames.put(_StreamEnded())
        except BaseException as error:  # handed to the runner's thread, raised there
            frames.put(error)

    threading.Thread(target=read, name="player-stream", daemon=True).start()
    pending: list[str] = []

    def do_seek() -> None:
        if seek is None or stop.is_set():
            return
        try:
            created = client.create_seek(seek)
            seek_ids.append(created.id)
            log(f"seek {created.id}: {created.status}")
        except ProblemError as refused:
            log(f"seek refused: {refused}")

    # The inbox lists exactly the challenges waiting for this account's answer; each is answered once.
    answered: set[str] = set()

    def answer_challenge(challenge: ChallengeResource) -> None:
        accept = accept_challenges if isinstance(accept_challenges, bool) else accept_challenges(challenge)
        if challenge.id in answered or not (accept or decline_others):
            return
        try:
            if accept:
                after = client.accept_challenge(challenge.id)
                summary.challenges_accepted += 1
                log(f"challenge {challenge.id}: accepted ({after.status}{f', game {after.game_id}' if after.game_id else ''})")
            else:
                client.decline_challenge(challenge.id)
                summary.challenges_declined += 1
                log(f"challenge {challenge.id}: declined")
            answered.add(challenge.id)
        except ProblemError as refused:  # ended meanwhile (withdrawn, expired, declined by another)
            answered.add(challenge.id)
            log(f"challenge {challenge.id}: {refused}")
        except Exception as error:  # the server away: tried again on the next inbox read
            log(f"challenge {challenge.id}: {error!r}")

    def read_inbox() -> None:
        try:
            inbox = client.inbox()
        except ProblemError as refused:
            log(f"inbox: {refused}")
            return
        pending.extend(g.game_id for g in inbox.games if g.game_id not in pending)
        if accept_challenges or decline_others:
            for challenge in inbox.challenges:
                answer_challenge(challenge)

    def handle(frame: PlayerFrame) -> None:
        data = frame.data
        if isinstance(data, ChallengeResource):
            # The frame comes to every player of it, on each answer too; the inbox
            # says which wait for this account's answer.
            if (accept_challenges or decline_others) and data.status == "pending":
                read_inbox()
        elif isinstance(data, YourTurn):
            if data.game_id not in pending:
                pending.append(data.game_id)
        elif isinstance(data, SeekMatched):
            log(f"seek {data.seek_id}: seated at {data.game_id}, seat {data.seat}")
        elif isinstance(data, GameNotice) and frame.event == "game_over":
            summary.games_over += 1
            log(f"game {data.game_id} over ({summary.games_over})")
            if games is not None and summary.games_over >= games:
                stop.set()
            else:
                do_seek()

    try:
        do_seek()
        if accept_challenges or decline_others:
            read_inbox()  # challenges made while the runner was away have no frame coming
        next_sweep = time.monotonic() + sweep_secs
        while not stop.is_set():
            try:
                item = frames.get(timeout=max(0.0, next_sweep - time.monotonic()) if not pending else 0.0)
            except queue.Empty:
                item = None
            if isinstance(item, BaseException):
                raise item
            if isinstance(item, _StreamEnded):
                break
            if item is not None:
                handle(item)
                continue  # take every queued notice before playing
            if pending:
                _play_turn(client, pending.pop(0), choose, summary, log)
            elif time.monotonic() >= next_sweep:
                next_sweep = time.monotonic() + sweep_secs
                read_inbox()
    finally:
        stream.close()
        for seek_id in seek_ids:
            try:
                client.cancel_seek(seek_id)
            except ProblemError:
                pass  # matched or expired already
    return summary


def _play_turn(
    client: CardClient, game_id: str, choose: Choose, summary: RunSummary, log: Callable[[str], None]
) -> None:
    fallback = False
    for _ in range(ATTEMPTS_PER_TURN):
        try:
            legal = client.legal_moves(game_id)
            if legal.count == 0 or legal.legal.prompt == "none":
                return
            game = client.game(game_id)
            move = (None if fallback else choose(game, legal)) or any_legal_move(legal)
            if move is None:
                return
            client.move(game_id, move, version=legal.version)
        except ProblemError as refused:
            summary.refusals += 1
            log(f"game {game_id}: refused: {refused}")
            if refused.code in OVER_CODES:
                return
            # 422: the choice was illegal, play a listed or built legal move instead;
            # 412 / not_your_turn: the game moved on, read it again.
            fallback = fallback or refused.status == 422
            continue
        except Exception as error:  # out of retries (the server away for long): the next notice or sweep comes back
            log(f"game {game_id}: {error!r}")
            return
        summary.moves += 1
        if game_id not in summary.game_ids:
            summary.game_ids.append(game_id)
        return
