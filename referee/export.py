"""A game as one self-contained HTML page that replays it turn by turn (``referee export``).

The page holds every position of the game, from the set-up (turn 0) to the last turn, each
as the shared HTML board (``templates/board.html.j2``) with the move that led to it in words
and who made it; a little inline script shows one turn at a time, with buttons, the arrow
keys and a slider to step and jump. Without scripts the page still reads: every turn, one
after the other. Nothing is fetched from anywhere: the styles and the script are inline and
the page forbids any other load (a Content-Security-Policy of ``default-src 'none'``).

Every turn's board is built from :func:`referee.engine.view` of that position, for the public
or for one player, and from nothing else: a card reserved blind never reaches the page of a
viewer who may not see it. A player's own view (``--as``) is given only for a finished game:
while it is played, a page holding a player's blind cards could reach the others. From a
replayed game to text, through the templates; no games folder, no clock.
"""

from __future__ import annotations

import html as htmllib
import re
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import TemplateError, TemplateSyntaxError
from markupsafe import Markup

from referee.engine import GameView, Move, Resign, move_json, view
from referee.errors import ConfigurationError, RequestError
from referee.record import Replayed, TurnRecord
from referee.wording.letter import Board, LastMove
from referee.wording.messages import say
from referee.wording.told import ruled, told
from referee.wording.writer import Writer


class _Styles:
    """The boards' inline styles made into classes of one style sheet.

    The board template styles every element inline, as mail programs need; repeated on every
    turn of a long game that would make the page several megabytes. Each distinct ``style``
    attribute becomes a class (``bs0``, ``bs1`` ...) with the same declarations, so the boards
    look exactly as they do in a mail. A style that could not sit safely in a style sheet
    stays inline."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def classed(self, html: str) -> str:
        return _START_TAG.sub(self._tag, html)

    def _tag(self, match: re.Match[str]) -> str:
        tag = match.group(0)
        style = _STYLE.search(tag)
        if style is None:
            return tag
        declarations = htmllib.unescape(style.group(1)).strip()
        if not declarations or any(c in declarations for c in "<>{}\\"):
            return tag
        name = self.names.setdefault(declarations, f"bs{len(self.names)}")
        tag = tag[: style.start()] + tag[style.end() :]
        given = _CLASS.search(tag)
        if given is not None:
            return f"{tag[: given.end(1)]} {name}{tag[given.end(1) :]}"
        body, end = (tag[:-2], "/>") if tag.endswith("/>") else (tag[:-1], ">")
        return f'{body.rstrip()} class="{name}"{end}'

    def css(self) -> str:
        return "\n".join(f".{name} {{ {rule} }}" for rule, name in self.names.items())


_START_TAG = re.compile(r"<[a-zA-Z][a-zA-Z0-9]*\s[^<>]*>")
_STYLE = re.compile(r'\sstyle="([^"]*)"')
_CLASS = re.compile(r'\sclass="([^"]*)"')


@dataclass(frozen=True)
class Export:
    """A replay page and what it shows."""

    html: str
    #: The viewer whose view the page shows (None: the public view).
    viewer: str | None
    #: The last turn shown (turns 0, the set-up, to ``turns``).
    turns: int


def viewer_of(replayed: Replayed, game: str, as_player: str | None) -> str | None:
    """The player whose view an export of ``game`` shows (their name as recorded), or None
    for the public view; RequestError unless they play in it and it is finished."""
    if as_player is None:
        return None
    state = replayed.state
    try:
        name = state.players[state.seat_of(as_player)].name
    except KeyError:
        names = [p.name for p in state.players]
        raise RequestError.of("player.unknown", name=as_player, players=names) from None
    if state.status != "finished":
        raise RequestError.of(
            "export.not_finished",
            game=game,
            player=name,
            turn=state.turn,
            to_move=state.player.name,
        )
    return name


def replay_page(
    replayed: Replayed, game: str, as_player: str | None = None, writer: Writer | None = None
) -> Export:
    """The replay page of ``game``: the public view, or ``as_player``'s in a finished game,
    worded by ``writer`` (the shipped templates when None). ConfigurationError, naming the
    template and line, if a game master's template (the setting ``templates_dir``) fails to
    render."""
    viewer = viewer_of(replayed, game, as_player)
    try:
        return _page(replayed, game, viewer, writer or Writer())
    except TemplateError as err:
        raise ConfigurationError(
            f"the replay page cannot be made: {_where(err)}: {err.message}; mend that template "
            "in templates_dir, or remove it from there to use the shipped one"
        ) from None


def _where(err: TemplateError) -> str:
    """The template and line an error of rendering points at."""
    if isinstance(err, TemplateSyntaxError) and err.lineno:
        return f"{err.name or err.filename or 'a template'}, line {err.lineno}"
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        if frame.filename.endswith(".j2"):
            return f"{Path(frame.filename).name}, line {frame.lineno}"
    return "a template"


def _page(replayed: Replayed, game: str, viewer: str | None, writer: Writer) -> Export:
    moves = replayed.moves()
    styles = _Styles()
    turns = []
    before: GameView | None = None
    for number, state in enumerate(replayed.states):
        shown = view(state, viewer)
        record = replayed.turns[number - 1] if number else None
        move = moves[number - 1] if number else None
        turns.append(_turn(writer, shown, before, game, (record, move), styles))
        before = shown
    last = view(replayed.state, viewer)
    context = {
        "game": game,
        "viewer": viewer,
        "players": [p.name for p in last.players],
        "last": last.turn,
        "turns_said": writer.say(say("export.turns", turns=last.turn)),
        "turns": turns,
        "result": _result(last, writer),
        "board_styles": Markup(styles.css()),
    }
    html = writer.render("replay.html.j2", context)
    return Export(html=html, viewer=viewer, turns=last.turn)


def _turn(
    writer: Writer,
    shown: GameView,
    before: GameView | None,
    game: str,
    played: tuple[TurnRecord | None, Move | None],
    styles: _Styles,
) -> dict[str, Any]:
    """One turn of the page: its number, the move that led to it in words, who made it and
    when, and the board after it (the move highlighted, and the slots it refilled)."""
    record, move = played
    if record is None or move is None:
        words = writer.say(say("export.setup", player=shown.to_move or ""))
        player, at = None, None
        board = Board(shown)
    else:
        timed_out = isinstance(move, Resign) and record.source.kind == "timeout"
        said = told(move, record.player, shown.viewer)
        words = writer.say(say("export.move.timeout" if timed_out else "export.move", told=said))
        if (ruling := ruled(record, shown.viewer)) is not None:
            words = f"{words} {writer.say(ruling)}"
        player, at = record.player, writer.words.when(record.at)
        rows = shown.board if before is None else before.board
        board = Board(shown, last=LastMove(move_json(move), record.player, rows))
    context = writer.board(board, game)
    html = Markup(styles.classed(writer.render("board.html.j2", context).strip()))
    return {"number": shown.turn, "player": player, "at": at, "words": words, "board": html}


def _result(last: GameView, writer: Writer) -> dict[str, Any] | None:
    """How the game ended: the winners and everyone's points, best first (None while it goes
    on)."""
    if last.status != "finished":
        return None
    winners = list(last.winners)
    if not winners:
        headline = writer.say(say("export.over.nobody"))
    elif len(winners) == 1:
        headline = writer.say(say("export.over.one", winner=winners[0]))
    else:
        headline = writer.say(say("export.over.shared", winners=winners))
    standings = sorted(last.players, key=lambda p: (p.resigned, -p.points, len(p.cards)))
    return {
        "headline": headline,
        "standings": [
            {
                "name": p.name,
                "points": p.points,
                "cards": len(p.cards),
                "nobles": len(p.nobles),
                "winner": p.name in winners,
                "resigned": p.resigned,
            }
            for p in standings
        ],
    }
