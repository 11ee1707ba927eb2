"""Moves built from what ``get_legal_moves`` says. Most prompts list every
legal move in ``moves``; a pass or a discard of several cards from a large
hand has too many to list (``moves`` is None), so ``legal`` describes it."""

from __future__ import annotations

import random
from typing import Union

from cardgames_client.models import (
    CancellationHeartsLegalDiscard,
    CancellationHeartsLegalMoon,
    CancellationHeartsLegalPassCards,
    CancellationHeartsMoveDiscard,
    CancellationHeartsMoveMoon,
    CancellationHeartsMovePassCards,
    CancellationHeartsMovePlay,
    LegalMovesResource,
    LostHeirLegalNameTrumps,
    LostHeirMoveAccept,
    LostHeirMoveBid,
    LostHeirMoveNameTrumps,
    LostHeirMovePass,
    LostHeirMovePlay,
    LostHeirMoveReject,
)

Move = Union[
    LostHeirMoveBid,
    LostHeirMovePass,
    LostHeirMoveAccept,
    LostHeirMoveReject,
    LostHeirMoveNameTrumps,
    LostHeirMovePlay,
    CancellationHeartsMovePassCards,
    CancellationHeartsMovePlay,
    CancellationHeartsMoveDiscard,
    CancellationHeartsMoveMoon,
]
"""A move of either kind (``post_move``'s body)."""


def listed_moves(legal: LegalMovesResource) -> list[Move]:
    """The legal moves the server listed (empty when there are too many to list)."""
    return list(legal.moves) if isinstance(legal.moves, list) else []


def any_legal_move(legal: LegalMovesResource, rng: random.Random | None = None) -> Move | None:
    """Some legal move (at random), or None when the seat has nothing to do."""
    rng = rng or random.Random()
    listed = listed_moves(legal)
    if listed:
        return rng.choice(listed)
    options = legal.legal
    if isinstance(options, CancellationHeartsLegalPassCards):
        return CancellationHeartsMovePassCards(type_="pass_cards", cards=rng.sample(options.from_, options.count))
    if isinstance(options, CancellationHeartsLegalDiscard):
        return CancellationHeartsMoveDiscard(type_="discard", cards=rng.sample(options.from_, options.count))
    if isinstance(options, LostHeirLegalNameTrumps) and options.cities:
        return LostHeirMoveNameTrumps(type_="name_trumps", city=rng.choice(options.cities))
    if isinstance(options, CancellationHeartsLegalMoon) and options.choices:
        return CancellationHeartsMoveMoon(type_="moon", choice=rng.choice(options.choices))
    return None
