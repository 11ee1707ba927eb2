"""The streams' frames, typed: each ``event:`` name mapped to the generated
model of its ``data:`` (the document describes ``data`` only as a JSON string
with a ``contentSchema``, which generators do not read). A frame's ``data`` is
that model, so ``isinstance(frame.data, EventMove)`` narrows it."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, Union

from cardgames_client.models import (
    ChallengeResource,
    EventAutoplay,
    EventDeadlineExpired,
    EventGameExpired,
    EventGameFinished,
    EventGameStarted,
    EventHintGiven,
    EventMove,
    EventSeatLeft,
    EventSeatResigned,
    EventSeatTaken,
    GameNotice,
    GameResource,
    GameStateResource,
    MessageResource,
    SeekMatched,
    YourTurn,
)

from .sse import RawEvent

D = TypeVar("D")

LogEvent = Union[
    EventSeatTaken,
    EventSeatLeft,
    EventGameStarted,
    EventMove,
    EventGameFinished,
    EventAutoplay,
    EventDeadlineExpired,
    EventGameExpired,
    EventSeatResigned,
    EventHintGiven,
]
GameStreamData = Union[GameResource, GameStateResource, MessageResource, LogEvent]
PlayerStreamData = Union[YourTurn, SeekMatched, ChallengeResource, GameNotice]


@dataclass(frozen=True)
class Frame(Generic[D]):
    event: str
    id: str | None
    """The frame's ``id:`` (None when it had none)."""
    data: D


GameFrame = Frame[GameStreamData]
PlayerFrame = Frame[PlayerStreamData]

GAME_STREAM_TYPES: Mapping[str, Callable[[Mapping[str, Any]], GameStreamData]] = {
    "snapshot": GameResource.from_dict,
    "state": GameStateResource.from_dict,
    "message": MessageResource.from_dict,
    "seat_taken": EventSeatTaken.from_dict,
    "seat_left": EventSeatLeft.from_dict,
    "game_started": EventGameStarted.from_dict,
    "move": EventMove.from_dict,
    "game_finished": EventGameFinished.from_dict,
    "autoplay": EventAutoplay.from_dict,
    "deadline_expired": EventDeadlineExpired.from_dict,
    "game_expired": EventGameExpired.from_dict,
    "seat_resigned": EventSeatResigned.from_dict,
    "hint_given": EventHintGiven.from_dict,
}
"""``stream_game``: event name -> the model its data is read as."""

PLAYER_STREAM_TYPES: Mapping[str, Callable[[Mapping[str, Any]], PlayerStreamData]] = {
    "your_turn": YourTurn.from_dict,
    "seek_matched": SeekMatched.from_dict,
    "challenge": ChallengeResource.from_dict,
    "seat_taken": GameNotice.from_dict,
    "game_started": GameNotice.from_dict,
    "game_over": GameNotice.from_dict,
}
"""``stream_player``: event name -> the model its data is read as."""


def decode_frame(types: Mapping[str, Callable[[Mapping[str, Any]], D]], raw: RawEvent) -> Frame[D] | None:
    """A frame with its data read as its event's model; None for an event name
    this SDK does not know (a newer server's)."""
    read = types.get(raw.event)
    if read is None:
        return None
    return Frame(raw.event, raw.id if raw.has_id else None, read(json.loads(raw.data)))


def ends_game_stream(frame: GameFrame) -> bool:
    """The game stream's last frame: the game is over and the server closes it."""
    return isinstance(frame.data, (EventGameFinished, EventGameExpired))
