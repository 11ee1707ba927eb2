"""A bot in 20 lines: seeks a rated table (bots fill the empty seats after a
second; SEEK=0: no seek), accepts the challenges made to it
(ACCEPT_CHALLENGES=1), plays every game its account sits in, passes when it
may, and otherwise plays any legal move. KIND=cancellation-hearts for the other game."""

import os

from cardgames_client.models import BotsFallback, CreateSeekRequest, GameResource, LegalMovesResource
from cardgames_client.models.game_kind_name import GameKindName

from cardgames_sdk import CardClient, Move, any_legal_move, listed_moves, run_bot

BASE_URL = os.environ.get("BASE_URL", "http://127.0.0.1:8080")
KIND: GameKindName = "cancellation-hearts" if os.environ.get("KIND") == "cancellation-hearts" else "lost-heir"
TOKEN = os.environ.get("TOKEN")
client = CardClient(BASE_URL, token=TOKEN) if TOKEN else CardClient.register(BASE_URL, "Python example bot")


def choose(game: GameResource, legal: LegalMovesResource) -> Move | None:
    return next((m for m in listed_moves(legal) if m.type_ == "pass"), None) or any_legal_move(legal)


seek = None if os.environ.get("SEEK") == "0" else CreateSeekRequest(kind=KIND, rated=True, bots=BotsFallback(after_secs=1))
summary = run_bot(
    client,
    choose,
    seek=seek,
    games=int(os.environ.get("GAMES", "1")),
    accept_challenges=os.environ.get("ACCEPT_CHALLENGES") == "1",
    log=lambda line: print(f"  {line}"),
)
print(f"python bot: {summary.games_over} games over, {summary.moves} moves, {summary.refusals} refused")
