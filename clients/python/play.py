"""Plays one game of each kind against the server's bots through a client
generated from openapi/openapi.json by openapi-python-client, then a
quick-play table: two players seek, end at one table and play it against each
other; then an invite link followed into a seat and a challenge accepted,
whose game they play; each game's record and verification are checked, and
the quick-play game's post-game analysis requested and read.

Every API type comes from the generated package `cardgames_client` (written
by scripts/generated-clients.sh); nothing here restates a request or response
shape, so `mypy --strict` checks this program against the document.

    BASE_URL=http://127.0.0.1:8080 python play.py

Exit status 0: the four games played to the end, recorded and verified.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from dataclasses import dataclass
from typing import TypeVar, cast

import httpx

from cardgames_client import AuthenticatedClient, Client, errors
from cardgames_client.api.analysis import get_analysis, request_analysis
from cardgames_client.api.challenges import accept_challenge, create_challenge
from cardgames_client.api.games import create_game, get_game
from cardgames_client.api.invites import accept_invite, create_invite, get_invite
from cardgames_client.api.moves import get_legal_moves, post_move
from cardgames_client.api.players import get_inbox, register_player
from cardgames_client.api.records import export_record, verify_game
from cardgames_client.api.seeks import create_seek, get_seek
from cardgames_client.api.streams import wait_events
from cardgames_client.models import (
    AcceptInviteRequest,
    AnalysisRequest,
    AnalysisResource,
    CancellationHeartsConfigInput,
    CancellationHeartsMoveDiscard,
    CancellationHeartsMovePassCards,
    ChallengeResource,
    CreateChallengeRequest,
    CreateGameRequest,
    CreateInviteRequest,
    CreateSeekRequest,
    EventPage,
    GameRecord,
    GameResource,
    Inbox,
    InviteCreated,
    InviteView,
    LegalMovesResource,
    LostHeirConfigInput,
    MoveAccepted,
    PlayerCreated,
    Problem,
    RegisterPlayerRequest,
    SeekResource,
    TableSizes,
    VerifyReport,
)
from cardgames_client.models.game_kind_name import GameKindName
from cardgames_client.models.seat_spec import SeatSpec
from cardgames_client.types import Unset

T = TypeVar("T")
BASE_URL = os.environ.get("BASE_URL", "http://127.0.0.1:8080")
DEADLINE = time.monotonic() + float(os.environ.get("PLAY_TIMEOUT_SECS", "300"))
RNG = random.Random(int(os.environ.get("SEED", "13")))


class ApiError(Exception):
    pass


def must(what: str, expected: type[T], answer: object) -> T:
    """The answer when it is what the operation promises, else the problem (code, rule)."""
    if isinstance(answer, expected):
        return answer
    if isinstance(answer, Problem):
        rule = "" if isinstance(answer.rule, Unset) or answer.rule is None else f" ({answer.rule})"
        raise ApiError(f"{what}: HTTP {answer.status} {answer.code}{rule}: {answer.detail}")
    raise ApiError(f"{what}: unexpected answer {answer!r}")


def play_turn(client: AuthenticatedClient, game_id: str, legal: LegalMovesResource) -> str | None:
    """Makes one move for the caller's seat, chosen from the typed legal moves
    (or, when there are too many to list, built from `legal`); returns it as
    JSON, or None when the seat need not act."""
    options = legal.legal
    moves = legal.moves if isinstance(legal.moves, list) else []
    if options.prompt == "none":
        return None
    if options.prompt == "pass_cards":
        passed = CancellationHeartsMovePassCards(type_="pass_cards", cards=RNG.sample(options.from_, options.count))
        answer, sent = post_move.sync(game_id, client=client, body=passed), passed.to_dict()
    elif options.prompt == "discard":
        discard = CancellationHeartsMoveDiscard(type_="discard", cards=RNG.sample(options.from_, options.count))
        answer, sent = post_move.sync(game_id, client=client, body=discard), discard.to_dict()
    else:
        if not moves:
            raise ApiError(f"prompt {options.prompt}: no move listed")
        choice = RNG.choice(moves)
        if options.prompt == "bid":
            # Passing keeps the contracts modest; a bid is taken now and then.
            passes = [m for m in moves if m.type_ == "pass"]
            if options.can_pass and passes and RNG.randrange(4) > 0:
                choice = passes[0]
        answer, sent = post_move.sync(game_id, client=client, body=choice), choice.to_dict()
    accepted = must(f"post_move {json.dumps(sent)}", MoveAccepted, answer)
    return f"{json.dumps(sent)} -> version {accepted.version}"


@dataclass
class Played:
    kind: GameKindName
    moves: int
    replayed: int


def play_one(client: AuthenticatedClient, config: LostHeirConfigInput | CancellationHeartsConfigInput) -> Played:
    kind: GameKindName = "lost-heir" if isinstance(config, LostHeirConfigInput) else "cancellation-hearts"
    seats: list[SeatSpec] = ["open" if seat == 0 else "bot" for seat in range(config.players)]
    request = CreateGameRequest(kind=kind, config=config, seats=seats, take_seat=0)
    created = must(f"create_game {kind}", GameResource, create_game.sync(client=client, body=request))
    game_id = created.id
    print(f"{kind}: game {game_id}, seat {created.your_seat}, config {json.dumps(created.config.to_dict())}")
    if created.your_seat != 0:
        raise ApiError(f"{kind}: the creator does not hold seat 0")
    if created.kind != kind or created.config.to_dict() != config.to_dict():
        raise ApiError(f"{kind}: created as {created.kind} {created.config.to_dict()}, not as asked")
    moves = play_to_end([client], kind, game_id)
    return check_record(client, kind, game_id, moves, config.to_dict())


def play_to_end(players: list[AuthenticatedClient], kind: GameKindName, game_id: str) -> int:
    """Plays every seat `players` hold in the game until it is finished (bots
    play on their own); returns how many moves they made."""
    first = players[0]
    moves = 0
    while True:
        if time.monotonic() > DEADLINE:
            raise ApiError(f"{kind}: not finished in time after {moves} moves")
        game = must("get_game", GameResource, get_game.sync(game_id, client=first))
        if game.status == "finished":
            return moves
        if game.status != "in_progress":
            raise ApiError(f"{kind}: game is {game.status}")
        moved = False
        version = game.version
        for client in players:
            legal = must("get_legal_moves", LegalMovesResource, get_legal_moves.sync(game_id, client=client))
            version = max(version, legal.version)
            made = play_turn(client, game_id, legal)
            if made is None:
                continue
            moves += 1
            moved = True
            if moves <= 3 or moves % 50 == 0:
                print(f"  move {moves}: {made}")
        if not moved:
            # A bot is to act: wait for the next event (at once when the game is over).
            must("wait_events", EventPage, wait_events.sync(game_id, client=first, after=version, timeout=5))


def check_record(
    client: AuthenticatedClient, kind: GameKindName, game_id: str, moves: int, config: dict[str, object]
) -> Played:
    """The finished game's record and verification, checked."""
    game = must("get_game", GameResource, get_game.sync(game_id, client=client))
    outcome = None if isinstance(game.outcome, Unset) or game.outcome is None else game.outcome.to_dict()
    print(f"{kind}: finished after {moves} moves of the client's seats (version {game.version}); outcome {json.dumps(outcome)}")
    if not isinstance(game.seed, str):
        raise ApiError(f"{kind}: no seed revealed at the end")

    # The JSON form, typed by the document (the TypeScript program reads the text form).
    record = must("export_record", GameRecord, export_record.sync(game_id, client=client, format_="json"))
    if record.kind != kind or record.seed != game.seed:
        raise ApiError(f"{kind}: the record is of {record.kind} with seed {record.seed}")
    if isinstance(record.result, Unset) or record.result is None or not record.result.winners:
        raise ApiError(f"{kind}: the record has no final result")
    if record.config.to_dict() != config:
        raise ApiError(f"{kind}: the record's config is {record.config.to_dict()}")

    report = must("verify_game", VerifyReport, verify_game.sync(game_id, client=client))
    if not report.ok or report.problems:
        raise ApiError(f"{kind}: verify says {[p.to_dict() for p in report.problems]}")
    if report.seed != game.seed or report.game_id != game_id:
        raise ApiError(f"{kind}: verify checked another seed or game")
    replayed = report.moves if isinstance(report.moves, int) else 0
    if replayed < moves:
        raise ApiError(f"{kind}: verify replayed {replayed} moves, the client alone made {moves}")
    rounds = report.rounds if isinstance(report.rounds, int) else "?"
    print(f"{kind}: record of {len(record.rounds)} rounds; verify ok: {rounds} rounds, {replayed} moves replayed")
    return Played(kind, moves, replayed)


def analyse(client: AuthenticatedClient, kind: GameKindName, game_id: str) -> None:
    """A post-game analysis of the finished game, requested and read back
    (docs/analysis.md); a small budget keeps it quick."""
    body = AnalysisRequest(playouts=8)
    analysis = must("request_analysis", AnalysisResource, request_analysis.sync(game_id, client=client, body=body))
    while analysis.status in ("queued", "running"):
        if time.monotonic() > DEADLINE:
            raise ApiError(f"{kind}: the analysis never finished")
        time.sleep(0.2)
        analysis = must("get_analysis", AnalysisResource, get_analysis.sync(game_id, client=client, playouts=8))
    result = analysis.analysis
    if analysis.status != "done" or isinstance(result, Unset) or result is None or not result.seats:
        raise ApiError(f"{kind}: the analysis is {analysis.status}: {analysis.error}")
    decisions = sum(len(s.decisions) for s in result.seats)
    mistakes = sum(s.summary.mistakes for s in result.seats)
    accuracy = ", ".join(f"seat {s.seat} {s.summary.accuracy:.0f}%" for s in result.seats)
    print(f"{kind}: analysis at {analysis.playouts} playouts: {decisions} decisions, {mistakes} mistakes; accuracy {accuracy}")


def new_player(name: str) -> AuthenticatedClient:
    """A registered player's client."""
    # register_player is public (`security: [{}]`), but openapi-python-client
    # types every operation that lists any `security` as needing an
    # AuthenticatedClient; a plain Client does all that the call uses.
    anonymous = cast(AuthenticatedClient, Client(base_url=BASE_URL, raise_on_unexpected_status=True))
    body = RegisterPlayerRequest(display_name=name)
    player = must("register_player", PlayerCreated, register_player.sync(client=anonymous, body=body))
    return AuthenticatedClient(base_url=BASE_URL, token=player.token, raise_on_unexpected_status=True)


def quick_play() -> Played:
    """Two players seek a 2-player Lost Heir table: the second seek completes
    it (its answer says where it sits), the first learns its seat from its
    seek and its inbox, and both play the game to the end."""
    ann, bob = new_player("Python seeker A"), new_player("Python seeker B")
    two = TableSizes(min_=2, max_=2)
    ask = CreateSeekRequest(kind="lost-heir", players=two, target=15, variants=["bidder_contract"])
    first = must("create_seek", SeekResource, create_seek.sync(client=ann, body=ask))
    if first.status != "active":
        raise ApiError(f"quick play: the first seek is {first.status}")
    other = CreateSeekRequest(kind="lost-heir", players=two)
    second = must("create_seek", SeekResource, create_seek.sync(client=bob, body=other))
    game_id = second.game_id
    if second.status != "matched" or not isinstance(game_id, str) or second.seat != 1:
        raise ApiError(f"quick play: the second seek is {second.status}, seat {second.seat}")
    mine = must("get_seek", SeekResource, get_seek.sync(first.id, client=ann))
    if mine.status != "matched" or mine.game_id != game_id or mine.seat != 0:
        raise ApiError(f"quick play: the first seek is {mine.status} at {mine.game_id}")
    inbox = must("get_inbox", Inbox, get_inbox.sync(client=ann))
    if not any(s.seek_id == first.id and s.game_id == game_id and s.seat == 0 for s in inbox.seeks):
        raise ApiError(f"quick play: the inbox does not tell the first seeker: {[s.to_dict() for s in inbox.seeks]}")
    game = must("get_game", GameResource, get_game.sync(game_id, client=ann))
    config = game.config.to_dict()
    if config != {"players": 2, "partnerships": False, "target": 15, "bidder_contract": True}:
        raise ApiError(f"quick play: the table is not as asked: {config}")
    print(f"quick play: {game.kind} game {game_id} formed from two seeks, config {json.dumps(config)}")
    moves = play_to_end([ann, bob], "lost-heir", game_id)
    played = check_record(ann, "lost-heir", game_id, moves, config)
    analyse(bob, "lost-heir", game_id)
    return played


def same_table() -> Played:
    """The host mints a single-use invite link to the open seat of a waiting
    game and the guest follows it (get_invite without a token, then
    accept_invite): the game starts; then the host challenges the guest to
    another game, the guest finds it in the inbox and accepts, and both play
    the challenge's game to the end."""
    host, guest = new_player("Python host"), new_player("Python guest")
    config = LostHeirConfigInput(players=2, target=15)
    seats: list[SeatSpec] = ["open", "open"]
    body = CreateGameRequest(kind="lost-heir", config=config, seats=seats, take_seat=0)
    waiting = must("create_game", GameResource, create_game.sync(client=host, body=body))
    link = must("create_invite", InviteCreated, create_invite.sync(waiting.id, client=host, body=CreateInviteRequest()))
    anonymous = cast(AuthenticatedClient, Client(base_url=BASE_URL, raise_on_unexpected_status=True))
    seen = must("get_invite", InviteView, get_invite.sync(link.token, client=anonymous))
    if not seen.usable or seen.game.id != waiting.id:
        raise ApiError(f"invite: the link is not usable: {seen.to_dict()}")
    seated = must("accept_invite", GameResource, accept_invite.sync(link.token, client=guest, body=AcceptInviteRequest()))
    if seated.your_seat != 1 or seated.status != "in_progress":
        raise ApiError(f"invite: the guest sits at {seated.your_seat}, the game is {seated.status}")
    print(f"invite: {link.path} seated the guest at seat 1 of {waiting.id}")
    guest_id = seated.seats[1].player_id
    if not isinstance(guest_id, str):
        raise ApiError("invite: the guest's seat names nobody")
    ask = CreateChallengeRequest(kind="lost-heir", config=config, challenged=[guest_id])
    asked = must("create_challenge", ChallengeResource, create_challenge.sync(client=host, body=ask))
    inbox = must("get_inbox", Inbox, get_inbox.sync(client=guest))
    if not any(c.id == asked.id for c in inbox.challenges):
        raise ApiError("challenge: not in the guest's inbox")
    accepted = must("accept_challenge", ChallengeResource, accept_challenge.sync(asked.id, client=guest))
    game_id = accepted.game_id
    if accepted.status != "accepted" or not isinstance(game_id, str):
        raise ApiError(f"challenge: {accepted.status}, no game")
    print(f"challenge: {asked.id} accepted, game {game_id} started")
    moves = play_to_end([host, guest], "lost-heir", game_id)
    game = must("get_game", GameResource, get_game.sync(game_id, client=host))
    return check_record(host, "lost-heir", game_id, moves, game.config.to_dict())


def main() -> int:
    try:
        client = new_player("Python client")
        played = [
            play_one(client, LostHeirConfigInput(players=2, partnerships=False, target=40)),
            play_one(client, CancellationHeartsConfigInput(players=6, target=100, all_cancelled="extend")),
            quick_play(),
            same_table(),
        ]
    except (ApiError, errors.UnexpectedStatus, httpx.HTTPError) as e:
        print(f"python client: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    moves = sum(p.moves for p in played)
    replayed = sum(p.replayed for p in played)
    print(f"python client: {len(played)} games played, {moves} moves made ({replayed} with the bots'), {len(played)} verified")
    return 0


if __name__ == "__main__":
    sys.exit(main())
