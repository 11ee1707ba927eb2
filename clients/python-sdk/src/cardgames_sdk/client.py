"""The client: the generated operations (``cardgames_client``, from
openapi-python-client) over an httpx transport that retries with idempotency
keys, plus what generation cannot give: answers unwrapped or raised as
ProblemError, ``If-Match`` on moves, and typed, resumable streams."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast
from urllib.parse import quote, urlencode

import httpx
from cardgames_client import AuthenticatedClient, Client
from cardgames_client.api.challenges import accept_challenge, decline_challenge
from cardgames_client.api.games import create_game, get_game
from cardgames_client.api.moves import get_legal_moves, post_move
from cardgames_client.api.players import get_inbox, register_player
from cardgames_client.api.seeks import cancel_seek, create_seek
from cardgames_client.api.streams import create_stream_ticket
from cardgames_client.models import (
    ChallengeResource,
    CreateGameRequest,
    CreateSeekRequest,
    GameResource,
    Inbox,
    LegalMovesResource,
    MoveAccepted,
    PlayerCreated,
    RegisterPlayerRequest,
    SeekResource,
    StreamTicket,
)
from cardgames_client.types import Response

from .moves import Move
from .problem import ProblemError
from .retry import RetryPolicy, RetryTransport
from .sse import EventStream
from .streams import (
    GAME_STREAM_TYPES,
    PLAYER_STREAM_TYPES,
    GameFrame,
    PlayerFrame,
    decode_frame,
    ends_game_stream,
)

T = TypeVar("T")


def expect(answer: Response[Any], expected: type[T]) -> T:
    """A call's data (checked to be an ``expected``), or its refusal raised as a ProblemError."""
    parsed = answer.parsed
    if isinstance(parsed, expected) and 200 <= answer.status_code < 300:
        return parsed
    raise ProblemError.from_answer(answer.status_code, httpx.Headers(answer.headers), answer.content)


class CardClient:
    """A player's (or an anonymous) connection to the server.

    ``client.api`` is the generated client: call any operation with it
    (``get_game.sync_detailed(game_id, client=client.api)``) and ``expect``
    its answer; the methods here cover what a bot needs."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        retry: RetryPolicy | None = None,
        transport: httpx.BaseTransport | None = None,
        timeout: float = 30.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        inner = transport or httpx.HTTPTransport()
        httpx_args = {"transport": RetryTransport(inner, retry or RetryPolicy())}
        # Operations with any `security` are typed as needing an
        # AuthenticatedClient, even public ones (register_player): an
        # anonymous Client stands in for it, which they accept at run time.
        self.api: AuthenticatedClient = (
            AuthenticatedClient(base_url=self.base_url, token=token, timeout=httpx.Timeout(timeout), httpx_args=httpx_args)
            if token is not None
            else cast(AuthenticatedClient, Client(base_url=self.base_url, timeout=httpx.Timeout(timeout), httpx_args=httpx_args))
        )
        # Streams have their own connection pool and no retrying transport:
        # the stream reader reconnects and resumes by itself.
        self.streams = httpx.Client(transport=inner)

    @classmethod
    def register(cls, base_url: str, display_name: str, retry: RetryPolicy | None = None) -> CardClient:
        """Registers a new player; returns a client holding its token."""
        anonymous = cls(base_url, retry=retry)
        player = expect(
            register_player.sync_detailed(client=anonymous.api, body=RegisterPlayerRequest(display_name=display_name)),
            PlayerCreated,
        )
        anonymous.close()
        return cls(base_url, token=player.token, retry=retry)

    def close(self) -> None:
        self.api.get_httpx_client().close()
        self.streams.close()

    def __enter__(self) -> CardClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def game(self, game_id: str) -> GameResource:
        return expect(get_game.sync_detailed(game_id, client=self.api), GameResource)

    def legal_moves(self, game_id: str) -> LegalMovesResource:
        return expect(get_legal_moves.sync_detailed(game_id, client=self.api), LegalMovesResource)

    def move(self, game_id: str, move: Move, version: int | None = None) -> MoveAccepted:
        """Plays a move. With ``version`` (the game version it was decided on)
        it is sent as ``If-Match``: a game that moved since answers 412
        ``version_mismatch`` instead of taking a move meant for another moment."""
        if version is None:
            return expect(post_move.sync_detailed(game_id, client=self.api, body=move), MoveAccepted)
        return expect(
            post_move.sync_detailed(game_id, client=self.api, body=move, if_match=f'"{version}"'), MoveAccepted
        )

    def create_game(self, request: CreateGameRequest) -> GameResource:
        return expect(create_game.sync_detailed(client=self.api, body=request), GameResource)

    def create_seek(self, request: CreateSeekRequest) -> SeekResource:
        return expect(create_seek.sync_detailed(client=self.api, body=request), SeekResource)

    def cancel_seek(self, seek_id: str) -> SeekResource:
        return expect(cancel_seek.sync_detailed(seek_id, client=self.api), SeekResource)

    def accept_challenge(self, challenge_id: str) -> ChallengeResource:
        """Accepts a challenge; the last acceptance makes the game (``game_id``)."""
        return expect(accept_challenge.sync_detailed(challenge_id, client=self.api), ChallengeResource)

    def decline_challenge(self, challenge_id: str) -> ChallengeResource:
        """Declines a challenge: it ends for everyone, no game."""
        return expect(decline_challenge.sync_detailed(challenge_id, client=self.api), ChallengeResource)

    def inbox(self) -> Inbox:
        return expect(get_inbox.sync_detailed(client=self.api), Inbox)

    def stream_ticket(self) -> str:
        """A stream ticket (60 s) for ``?ticket=``: a browser's EventSource cannot send Authorization."""
        return expect(create_stream_ticket.sync_detailed(client=self.api), StreamTicket).ticket

    def follow_game(
        self,
        game_id: str,
        last_event_id: str | None = None,
        use_tickets: bool = False,
        on_reconnect: Callable[[int, str], None] | None = None,
    ) -> EventStream[GameFrame]:
        """A game's stream, typed (``snapshot``, each log event, ``state``,
        ``message``), resumed by ``Last-Event-ID`` across reconnects; it ends
        after ``game_finished`` (or 204 on a finished game)."""
        path = f"/v1/games/{quote(game_id, safe='')}/stream"
        return EventStream[GameFrame](
            self.streams,
            self._connector(path, use_tickets),
            lambda raw: decode_frame(GAME_STREAM_TYPES, raw),
            ends_game_stream,
            last_event_id=last_event_id,
            on_reconnect=on_reconnect,
        )

    def follow_player(
        self,
        last_event_id: str | None = None,
        use_tickets: bool = False,
        on_reconnect: Callable[[int, str], None] | None = None,
    ) -> EventStream[PlayerFrame]:
        """The player's own stream (``your_turn``, ``seek_matched``, ...), resumed by its opaque ids."""
        return EventStream[PlayerFrame](
            self.streams,
            self._connector("/v1/players/me/stream", use_tickets),
            lambda raw: decode_frame(PLAYER_STREAM_TYPES, raw),
            lambda _frame: False,
            last_event_id=last_event_id,
            on_reconnect=on_reconnect,
        )

    def _connector(self, path: str, use_tickets: bool) -> Callable[[str | None], httpx.Request]:
        def connect(last_event_id: str | None) -> httpx.Request:
            headers = {"Accept": "text/event-stream"}
            query: dict[str, str] = {}
            if use_tickets and self.token is not None:
                # A ticket lasts a minute: a fresh one for each connection.
                query["ticket"] = self.stream_ticket()
                if last_event_id is not None:
                    query["after"] = last_event_id
            else:
                if self.token is not None:
                    headers["Authorization"] = f"Bearer {self.token}"
                if last_event_id is not None:
                    headers["Last-Event-ID"] = last_event_id
            url = f"{self.base_url}{path}" + (f"?{urlencode(query)}" if query else "")
            return self.streams.build_request("GET", url, headers=headers)

        return connect
