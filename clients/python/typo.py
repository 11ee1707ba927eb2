"""A negative fixture: scripts/generated-clients.sh asserts that `mypy --strict`
REJECTS this file, with exactly one error on each line marked TYPO (and none
elsewhere), so that a typo'd move cannot reach the server from a program built
on the generated client. Each line's expected error is in its comment."""

from cardgames_client import AuthenticatedClient
from cardgames_client.api.moves import post_move
from cardgames_client.models import CancellationHeartsMoveDiscard, CancellationHeartsMovePassCards


def typos(client: AuthenticatedClient) -> None:
    fine = CancellationHeartsMovePassCards(type_="pass_cards", cards=["2C", "3C", "QS"])  # the control
    post_move.sync("g", client=client, body=fine)  # the control
    post_move.sync("g", client=client, body={"type": "plya"})  # TYPO: a bare dict is no move
    CancellationHeartsMovePassCards(type_="pass_crads", cards=["2C", "3C", "QS"])  # TYPO: no such move type
    CancellationHeartsMovePassCards(type_="pass_cards", cards=["2C", "3C", "KZ"])  # TYPO: no such card
    CancellationHeartsMoveDiscard(type_="discard", cards="2C 3C")  # TYPO: cards is a list
