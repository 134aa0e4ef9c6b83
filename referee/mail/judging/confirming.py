"""Commands that change someone's standing, written to the referee's own address, wait for
that address to confirm them, as a mailing list confirms a subscription.

A reply in a game carries the player's key, which only their own mail reveals; a mail to the
referee's own address carries nothing but its From, which anyone can write. So ``away``,
``back``, ``language``, ``timezone``, ``mail``, ``watch``, ``unwatch`` and ``new`` (the
commands marked ``confirmed``) written there are kept, not carried out, and the address is
asked to confirm: a letter whose reply address (and Message-ID) carries a token made from
the secret, the address and the command. A reply to it from that address carries the command
out as written; anyone else's is refused; after :data:`CONFIRM_WITHIN` it lapses.

No confirmation is asked when the receiving server the game master trusts
(``trusted_authserv_id``) vouches for the sender in its Authentication-Results (DMARC, or
DKIM aligned with From: :mod:`referee.mail.reading.authentication`).
"""

from __future__ import annotations

from dataclasses import replace

from referee.mail.judging.commands import Found
from referee.mail.judging.commands.requests import to_sender
from referee.mail.judging.ruling import AskConfirmation, Context, Ruling
from referee.mail.reading.authentication import vouched_for
from referee.mail.reading.routing import confirmation_token
from referee.mail.state.ledger import CONFIRM_WITHIN, Pending
from referee.wording.messages import say

__all__ = ["CONFIRM_WITHIN", "ask", "needs_asking", "unknown"]

#: The most of a command line kept and quoted back.
LINE_AT_MOST = 300


def needs_asking(ctx: Context, found: Found) -> bool:
    """Whether ``found`` must be confirmed before it is carried out: a command that changes
    the sender's standing, written to the referee's own address by a sender no trusted server
    vouches for."""
    if ctx.scope != "referee" or not found.command.confirmed:
        return False
    inbound, trusted = ctx.inbound, ctx.seen.trusted_authserv_id
    return vouched_for(inbound.authentication, inbound.sender, trusted) is None


def ask(ctx: Context, found: Found) -> Ruling:
    """Keep the command and ask its address to confirm it (once a day for the same command:
    a loop of forged mail is not answered over and over)."""
    line, name = found.line[:LINE_AT_MOST], ctx.inbound.sender_name[:LINE_AT_MOST]
    # (a worker's own: the reply comes back to it, docs/scaling.md)
    token = ctx.seen.shards.settle(confirmation_token(ctx.secret, ctx.sender, line))
    says = [
        say("confirm.ask", line=line),
        say("confirm.why", within=int(CONFIRM_WITHIN.total_seconds())),
    ]
    if "game" in found.command.scopes:
        says.append(say("confirm.in_a_game"))
    subject = say("subject.confirm", command=line[:60])
    letter = replace(to_sender(ctx, "confirm", subject, says), confirms=token)
    return Ruling(
        "answered",
        "done",
        f"{found.command.word}: waits for {ctx.sender} to confirm it",
        letters=[letter],
        limit=f"confirm:{token}",
        effects=[AskConfirmation(Pending(token, ctx.sender, line, ctx.now, name))],
    )


def unknown(ctx: Context, token: str) -> Ruling:
    """A reply to a confirmation that no longer waits (carried out, or lapsed)."""
    says = [say("confirm.unknown", within=int(CONFIRM_WITHIN.total_seconds()))]
    letter = to_sender(ctx, "confirm-unknown", say("subject.confirm_unknown"), says)
    return Ruling(
        "refused",
        "refused",
        f"a confirmation ({token}) that no longer waits",
        letters=[letter],
        limit="confirm-unknown",
    )
