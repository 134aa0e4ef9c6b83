"""Short notices with no board: to the sender of a mail (not read as a move, too large, or
not handled), and to the game master, who can have a mail read again. Pure: what happened
in, a :class:`Letter` out."""

from __future__ import annotations

from referee.mail.compose import Letter
from referee.mail.inbound import Inbound

_SIGNED = "\n-- \nThe Splendor referee (this notice is sent at most once a day)\n"


def reply_notice(inbound: Inbound, kind: str, subject: str, text: str) -> Letter:
    """A notice of ``kind`` answering a mail, to its sender: no game, no board."""
    return Letter(
        game="",
        seat=None,
        to=inbound.sender,
        name=inbound.sender,
        turn=0,
        kind=kind,
        subject=subject,
        text=text,
        answers=inbound.message_id,
    )


def not_handled(inbound: Inbound, told_game_master: bool) -> Letter:
    """To the sender of a mail set aside: it was not their fault, and it is not lost."""
    who = (
        "The game master has been told, and will have it read again once the problem is "
        "mended: you need not send it again."
        if told_game_master
        else "It is kept for the game master, who can have it read again once the problem "
        "is mended: you need not send it again."
    )
    return reply_notice(
        inbound,
        "set-aside",
        "Splendor referee: your mail could not be read yet",
        f"Hello,\n\nThe Splendor referee could not read your mail ({_quoted(inbound.subject)}) "
        "because of a problem on its side, not because of what you wrote. Nothing was played."
        f"\n\n{who}\n{_SIGNED}",
    )


def set_aside_for_game_master(
    game_master: str, inbound: Inbound, short: str, reason: str, game: str | None
) -> Letter:
    """To the game master: which mail was set aside, why, and how to have it read again."""
    about = f" about game {game}" if game else ""
    return Letter(
        game="",
        seat=None,
        to=game_master,
        name="game master",
        turn=0,
        kind="set-aside-gm",
        subject=f"Splendor referee: a mail{about} was set aside ({short})",
        text=(
            f"Hello,\n\nThe referee service could not handle a mail{about} and set it aside "
            f"unplayed:\n\n  from     {inbound.sender or '(no sender)'}\n"
            f"  subject  {_quoted(inbound.subject)}\n"
            f"  id       {short}\n  why      {reason}\n\n"
            "Its sender was told that it is kept. Once what stopped it is mended, hand it "
            f"back to the service with:\n\n  referee inbox retry {short}\n\n"
            "Every mail set aside or refused, with why: referee inbox. (Further mails set "
            "aside for the same reason today are not told of again.)\n" + _SIGNED
        ),
    )


def _quoted(subject: str) -> str:
    text = " ".join(subject.split())
    return f'"{text[:120]}"' if text else "with no subject"
