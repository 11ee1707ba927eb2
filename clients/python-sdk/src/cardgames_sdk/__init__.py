"""cardgames_sdk: the card table server's Python SDK, on the client generated
from its OpenAPI document (``cardgames_client``)."""

from .client import CardClient, expect
from .moves import Move, any_legal_move, listed_moves
from .problem import ProblemError
from .retry import RetryPolicy, RetryTransport, new_idempotency_key
from .runner import AcceptChallenges, Choose, RunSummary, run_bot
from .sse import EventStream, RawEvent, parse_event_stream
from .streams import (
    GAME_STREAM_TYPES,
    PLAYER_STREAM_TYPES,
    Frame,
    GameFrame,
    GameStreamData,
    LogEvent,
    PlayerFrame,
    PlayerStreamData,
)

__all__ = [
    "GAME_STREAM_TYPES",
    "PLAYER_STREAM_TYPES",
    "AcceptChallenges",
    "CardClient",
    "Choose",
    "EventStream",
    "Frame",
    "GameFrame",
    "GameStreamData",
    "LogEvent",
    "Move",
    "PlayerFrame",
    "PlayerStreamData",
    "ProblemError",
    "RawEvent",
    "RetryPolicy",
    "RetryTransport",
    "RunSummary",
    "any_legal_move",
    "expect",
    "listed_moves",
    "new_idempotency_key",
    "parse_event_stream",
    "run_bot",
]
