"""A letter as data: who it is to, what they are told (messages), and the board they may see.

Deciding code (the judge, the commands, the deadline runner, the herald) makes
:class:`Letter` s; they wait in the outbox as JSON; the one letter writer
(:mod:`referee.wording.writer`) words each, in its reader's language, into a
:class:`Written` letter (subject, text and HTML) when it is sent.

A letter's board is a :class:`~referee.engine.view.GameView`, the reader's own, never a
state: a letter cannot show a reader another player's blind reserved card or a deck's order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from referee.engine.state import Rules
from referee.engine.view import GameView, PlayerView, ReservedView
from referee.wording.messages import Message

#: How a letter is laid out: ``letter`` (a greeting, its parts, a board, text and HTML) or
#: ``notice`` (a short note in plain text only, to someone who is not reading a game).
Form = Literal["letter", "notice"]


@dataclass(frozen=True)
class LastMove:
    """The move that led to the board a letter shows, for the board to tell and highlight:
    the move (its JSON object), who made it, and the board before it (the slots it
    refilled)."""

    move: Mapping[str, Any]
    player: str
    board_before: tuple[tuple[str | None, ...], ...]


@dataclass(frozen=True)
class Board:
    """The board a letter shows: the reader's own view, when the move now awaited is due
    (ISO 8601; None: nothing is awaited), and the move that led to it."""

    view: GameView
    due: str | None = None
    last: LastMove | None = None


@dataclass(frozen=True)
class Letter:
    """One letter to one reader, before it is worded.

    ``game`` and ``seat`` give it a reply address in that game (``seat`` None: none);
    ``turn`` is the turn it is about. ``says`` are its paragraphs; ``quoted`` what the reader
    wrote, quoted back; ``reason`` why something was refused; ``options`` the moves the
    reader may make (or choose among), each as its JSON object, cut at a screenful unless
    ``all_options``; ``listing`` lines of a list (games, turns); ``commands`` the commands
    help lists; ``help`` adds how to move. ``answers`` is the Message-ID of the mail it
    answers; ``origin`` the mail whose judging queued it."""

    game: str
    seat: int | None
    to: str
    name: str
    turn: int
    kind: str
    subject: Message
    says: tuple[Message, ...] = ()
    board: Board | None = None
    quoted: tuple[str, ...] = ()
    reason: Message | None = None
    options: tuple[Mapping[str, Any], ...] = ()
    options_title: Message | None = None
    all_options: bool = False
    listing: tuple[Message, ...] = ()
    listing_title: Message | None = None
    commands: tuple[tuple[Message, Message], ...] = ()  # (how it is written, what it does)
    help: bool = False
    answers: str | None = None
    origin: str | None = None
    form: Form = "letter"
    #: the token of the confirmation it asks for: its reply address carries it
    confirms: str | None = None
    #: the language to word it in when its reader chose none and ``game`` says none: the
    #: language of the game the mail it answers was written in, or of that mail's words
    language: str | None = None
    #: who wrote what ``quoted`` holds ("": the reader, under "You wrote:"; a player's name
    #: for what they said to the table, under the letter's last paragraph, which names them:
    #: "bo says, in game g1:")
    quoted_from: str = ""

    def to_json(self) -> dict[str, Any]:
        """The letter as JSON, as it waits in the outbox."""
        return {
            "game": self.game,
            "seat": self.seat,
            "to": self.to,
            "name": self.name,
            "turn": self.turn,
            "kind": self.kind,
            "subject": self.subject.to_json(),
            "says": [m.to_json() for m in self.says],
            "board": None if self.board is None else _board_json(self.board),
            "quoted": list(self.quoted),
            "reason": None if self.reason is None else self.reason.to_json(),
            "options": [dict(o) for o in self.options],
            "options_title": _maybe(self.options_title),
            "all_options": self.all_options,
            "listing": [m.to_json() for m in self.listing],
            "listing_title": _maybe(self.listing_title),
            "commands": [[usage.to_json(), summary.to_json()] for usage, summary in self.commands],
            "help": self.help,
            "answers": self.answers,
            "origin": self.origin,
            "form": self.form,
            "confirms": self.confirms,
            "language": self.language,
            "quoted_from": self.quoted_from,
        }

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> Letter:
        return cls(
            game=str(body["game"]),
            seat=body.get("seat"),
            to=str(body["to"]),
            name=str(body["name"]),
            turn=int(body["turn"]),
            kind=str(body["kind"]),
            subject=Message.from_json(body["subject"]),
            says=tuple(Message.from_json(m) for m in body.get("says", [])),
            board=None if body.get("board") is None else _board_back(body["board"]),
            quoted=tuple(body.get("quoted", [])),
            reason=_maybe_back(body.get("reason")),
            options=tuple(body.get("options", [])),
            options_title=_maybe_back(body.get("options_title")),
            all_options=bool(body.get("all_options")),
            listing=tuple(Message.from_json(m) for m in body.get("listing", [])),
            listing_title=_maybe_back(body.get("listing_title")),
            commands=tuple(
                (Message.from_json(u), Message.from_json(s)) for u, s in body.get("commands", [])
            ),
            help=bool(body.get("help")),
            answers=body.get("answers"),
            origin=body.get("origin"),
            form=body.get("form", "letter"),
            confirms=body.get("confirms"),
            language=body.get("language"),
            quoted_from=str(body.get("quoted_from", "")),
        )


@dataclass(frozen=True)
class Written:
    """A letter in words: what the envelope carries
    (:func:`referee.mail.transports.compose.to_bytes`)."""

    to: str
    name: str
    subject: str
    text: str
    html: str | None = None
    kind: str = ""
    language: str = "en"  # the language it is written in (its Content-Language)
    #: the name it comes from, in its language (letter.sender; a letter worded by an older
    #: referee has the English, which is also the name replies are recognised by)
    sender: str = "Splendor referee"


def _maybe(message: Message | None) -> dict[str, Any] | None:
    return None if message is None else message.to_json()


def _maybe_back(body: Mapping[str, Any] | None) -> Message | None:
    return None if body is None else Message.from_json(body)


# -- a view as JSON (the outbox keeps the board a letter shows) ----------------------------------


def _board_json(board: Board) -> dict[str, Any]:
    last = board.last
    return {
        "view": view_json(board.view),
        "due": board.due,
        "last": None
        if last is None
        else {
            "move": dict(last.move),
            "player": last.player,
            "board_before": [list(row) for row in last.board_before],
        },
    }


def _board_back(body: Mapping[str, Any]) -> Board:
    last = body.get("last")
    return Board(
        view=view_back(body["view"]),
        due=body.get("due"),
        last=None
        if last is None
        else LastMove(last["move"], last["player"], _rows(last["board_before"])),
    )


def view_json(shown: GameView) -> dict[str, Any]:
    """A view as JSON, every field of it (the viewer's hidden cards are not in it)."""
    return {
        "viewer": shown.viewer,
        "turn": shown.turn,
        "status": shown.status,
        "to_move": shown.to_move,
        "winners": list(shown.winners),
        "rules": {"points_to_win": shown.rules.points_to_win, "gold": shown.rules.gold},
        "bank": list(shown.bank),
        "board": [list(row) for row in shown.board],
        "deck_sizes": list(shown.deck_sizes),
        "nobles": list(shown.nobles),
        "players": [
            {
                "name": p.name,
                "tokens": list(p.tokens),
                "bonuses": list(p.bonuses),
                "cards": list(p.cards),
                "nobles": list(p.nobles),
                "points": p.points,
                "reserved": [[r.card, r.level, r.blind] for r in p.reserved],
                "resigned": p.resigned,
            }
            for p in shown.players
        ],
    }


def view_back(body: Mapping[str, Any]) -> GameView:
    """The view :func:`view_json` wrote."""
    return GameView(
        viewer=body["viewer"],
        turn=int(body["turn"]),
        status=body["status"],
        to_move=body["to_move"],
        winners=tuple(body["winners"]),
        rules=Rules(**body["rules"]),
        bank=_six(body["bank"]),
        board=_rows(body["board"]),
        deck_sizes=tuple(body["deck_sizes"]),
        nobles=tuple(body["nobles"]),
        players=tuple(
            PlayerView(
                name=p["name"],
                tokens=_six(p["tokens"]),
                bonuses=_five(p["bonuses"]),
                cards=tuple(p["cards"]),
                nobles=tuple(p["nobles"]),
                points=int(p["points"]),
                reserved=tuple(
                    ReservedView(card, int(level), bool(blind))
                    for card, level, blind in p["reserved"]
                ),
                resigned=bool(p["resigned"]),
            )
            for p in body["players"]
        ),
    )


def _rows(rows: Sequence[Sequence[str | None]]) -> tuple[tuple[str | None, ...], ...]:
    return tuple(tuple(row) for row in rows)


def _six(values: Sequence[int]) -> tuple[int, int, int, int, int, int]:
    w, u, g, r, k, o = (int(v) for v in values)
    return (w, u, g, r, k, o)


def _five(values: Sequence[int]) -> tuple[int, int, int, int, int]:
    w, u, g, r, k = (int(v) for v in values)
    return (w, u, g, r, k)
