"""``yes``: play the move the referee read in the player's last reply and asked them about.

When the referee reads a move in a reply's sentences but is not sure of its reading, it does
not play it: it answers with the reading ("I read your reply as: take red green blue …") and
keeps it (:class:`~referee.mail.state.ledger.AskedReading`). A reply ``yes`` (in the player's
language) at the same turn plays it: the judge does that (:func:`referee.mail.judging.judge.judge`),
as it plays any move. This handler answers a ``yes`` when nothing was asked at this turn.
"""

from __future__ import annotations

from referee.errors import RequestError
from referee.mail.judging.commands import command
from referee.mail.judging.ruling import Context, Ruling


@command("yes", example="yes", scopes=("game",), argument="text", order=12)
def yes(ctx: Context, argument: str) -> Ruling:
    raise RequestError.of("yes.nothing_asked", yes="commands.yes")
