"""Short notices with no board: to the sender of a mail (not read as a move, too large, or
not handled), and to the game master, who can have a mail read again, or must make room on
a full disk. Pure: what happened in, a :class:`~referee.wording.letter.Letter` of form
``notice`` out (plain text only)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from referee.mail.judging.telling import to_someone
from referee.mail.reading.inbound import Inbound
from referee.wording.letter import Letter
from referee.wording.messages import Message, say


def reply_notice(inbound: Inbound, kind: str, subject: Message, says: Sequence[Message]) -> Letter:
    """A notice of ``kind`` answering a mail, to its sender: no game, no board."""
    return Letter(
        game="",
        seat=None,
        to=inbound.sender,
        name=inbound.sender,
        turn=0,
        kind=kind,
        subject=subject,
        says=tuple(says),
        answers=inbound.message_id,
        form="notice",
    )


def not_a_move(inbound: Inbound, kind: str) -> Letter:
    """To someone who may not move where they wrote: never a board or a hand."""
    return reply_notice(
        inbound,
        kind,
        say("subject.notice.not_a_move"),
        [say("notice.not_a_move"), say("notice.not_a_move.player")],
    )


def too_large(inbound: Inbound, size: int, limit: int) -> Letter:
    """To the sender of a mail too large to read."""
    return reply_notice(
        inbound,
        "oversized",
        say("subject.notice.too_large"),
        [say("notice.too_large", size=size, limit=limit), say("notice.too_large.again")],
    )


def not_handled(inbound: Inbound, told_game_master: bool) -> Letter:
    """To the sender of a mail set aside: it was not their fault, and it is not lost."""
    who = "notice.not_handled.told" if told_game_master else "notice.not_handled.kept"
    return reply_notice(
        inbound,
        "set-aside",
        say("subject.notice.not_handled"),
        [say("notice.not_handled", subject=_subject(inbound.subject)), say(who)],
    )


def set_aside_for_game_master(
    game_master: str, inbound: Inbound, short: str, reason: str, game: str | None
) -> Letter:
    """To the game master: which mail was set aside, why, and how to have it read again."""
    about = {"game": game} if game else {}
    aside = "notice.aside.game" if game else "notice.aside"
    return _to_game_master(
        game_master,
        "set-aside-gm",
        say(f"subject.{aside}", id=short, **about),
        [
            say(aside, **about),
            say(
                "notice.aside.facts",
                sender=inbound.sender or "-",
                subject=_subject(inbound.subject),
                id=short,
                why=reason,
            ),
            say("notice.aside.retry"),
            say("notice.aside.command", id=short),
            say("notice.aside.more"),
        ],
    )


def no_room_for_game_master(game_master: str, folder: str, free: int, why: str) -> Letter:
    """To the game master: the games folder takes no writes (full, or read-only), so mail
    waits unread in the mailbox until it does. Sent straight, not through the outbox, which
    is on that disk too (see Intake)."""
    return _to_game_master(
        game_master,
        "no-room-gm",
        say("subject.notice.no_room"),
        [
            say("notice.no_room"),
            say("notice.no_room.facts", folder=folder, free=free, why=why),
            say("notice.no_room.mend"),
        ],
    )


def _to_game_master(to: str, kind: str, subject: Message, says: Sequence[Message]) -> Letter:
    """A notice to the game master, greeted without a name."""
    return replace(to_someone(to, "", kind, subject, says), form="notice")


def _subject(subject: str) -> Message:
    text = " ".join(subject.split())
    return say("notice.subject", subject=text[:120]) if text else say("notice.no_subject")
