"""Views to text: the board a terminal shows and a plain-text mail carries.

Renderers take a :class:`~referee.engine.view.GameView`, never a state, so what they show is
only what that viewer may see. The layout lives in the Jinja2 templates in the repository's
top-level ``templates/`` folder (in a wheel, the package ``referee.templates``); a game master
may restyle them with a folder of their own (the setting ``templates_dir``): a template found
there is used, any other falls back to the shipped one. This module turns a view into the
words and numbers the templates print.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from typing import Any

from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    StrictUndefined,
    select_autoescape,
)
from markupsafe import Markup

from referee.engine import CARDS, NOBLES, Buy, Move, Pass, Reserve, Resign, Take
from referee.engine.cards import GEM_COLOURS, TOKEN_COLOURS
from referee.engine.view import GameView, ReservedView


def shipped_templates() -> Path:
    """The folder of the shipped templates: ``referee/templates`` in an installed wheel, the
    repository's ``templates/`` in a checkout or an editable install."""
    inside = Path(__file__).parent / "templates"
    if inside.is_dir():
        return inside
    spec = importlib.util.find_spec("referee.templates")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(__file__).parents[1] / "templates"


def environment(templates_dir: Path | None = None) -> Environment:
    """The templates: those in ``templates_dir`` first (when given), then the shipped ones."""
    loaders: list[BaseLoader] = [FileSystemLoader(shipped_templates())]
    if templates_dir is not None:
        loaders.insert(0, FileSystemLoader(templates_dir))
    return Environment(
        loader=ChoiceLoader(loaders),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        autoescape=select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
    )


_ENV = environment()


def use_templates(templates_dir: Path | None) -> None:
    """Render with the templates in ``templates_dir`` (None: the shipped ones only)."""
    global _ENV
    _ENV = environment(templates_dir)
    _card_box.cache_clear()


#: How each token colour is painted in HTML mails.
FILLS = {
    "white": "#f7f7f2",
    "blue": "#2f6fd6",
    "green": "#2e9e5b",
    "red": "#d43c3c",
    "black": "#2b2b2b",
    "gold": "#e8b923",
}


def render(template: str, context: dict[str, Any]) -> str:
    """Render one of the package's templates."""
    return _ENV.get_template(template).render(context)


def _gems(values: tuple[int, ...]) -> list[dict[str, Any]]:
    return [
        {"colour": TOKEN_COLOURS[k], "count": n, "fill": FILLS[TOKEN_COLOURS[k]]}
        for k, n in enumerate(values)
        if n
    ]


def counts(values: tuple[int, ...], zero: str = "none") -> str:
    """``(0, 0, 0, 2, 0, 1)`` -> ``"2 red, 1 gold"``."""
    parts = [f"{n} {TOKEN_COLOURS[kind]}" for kind, n in enumerate(values) if n]
    return ", ".join(parts) or zero


def told(move: Move, player: str, viewer: str | None = None) -> str:
    """A move in words, as the other players are told it: ``alice took blue, green and red``.

    A blind reservation names its card only to the player who made it (``viewer``)."""
    you = player == viewer
    who = "you" if you else player
    match move:
        case Take(gems=gems):
            what = f"{who} took {_listed(gems)}"
        case Reserve(card=card, deck=deck):
            if card:
                what = f"{who} reserved {card}"
            else:
                what = f"{who} reserved a level {deck} card from the deck, unseen"
        case Buy(card=card, pay=pay):
            paid = counts(pay, "nothing")
            what = f"{who} bought {card} ({CARDS[card].bonus_colour}), paying {paid}"
        case Pass():
            what = f"{who} passed: no other move was possible"
        case Resign():
            what = f"{who} resigned and left the game"
    if any(move.returned):
        what += f", returning {counts(move.returned)}"
    if move.noble:
        what += f"; noble {move.noble} visited {'you' if you else player}"
    return what


def _listed(values: tuple[int, ...]) -> str:
    names = [
        f"{n} {TOKEN_COLOURS[k]}" if n > 1 else TOKEN_COLOURS[k] for k, n in enumerate(values) if n
    ]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def card_line(card_id: str) -> str:
    """``1-12  blue   0 pts  costs 1 white, 2 black``: a card as the board lists it."""
    card = CARDS[card_id]
    points = f"{card.points} pt{'' if card.points == 1 else 's'}" if card.points else ""
    return f"{card_id}  {card.bonus_colour:<5}  {points:<5}  costs {counts(card.cost)}"


def _reserved(r: ReservedView) -> str:
    if r.card is None:
        return f"a level {r.level} card, reserved blind (hidden)"
    blind = " (reserved blind)" if r.blind else ""
    return card_line(r.card) + blind


def board_context(
    view: GameView,
    game: str,
    last_move: Move | None = None,
    last_player: str | None = None,
    before_board: tuple[tuple[str | None, ...], ...] | None = None,
) -> dict[str, Any]:
    """Everything the board templates print, in words, from a view. With the move that led
    to it (``last_move`` by ``last_player``) the HTML board highlights it; with the board
    before it (``before_board``), the slots it refilled."""
    if view.status == "finished":
        winners = " and ".join(view.winners)
        headline = f"finished: {winners} win{'s' if len(view.winners) == 1 else ''}"
    elif view.status == "last_round":
        last = [p.name for p in view.players if not p.resigned][-1]
        headline = f"{view.to_move} to move · last round: the game ends after {last}'s turn"
    else:
        headline = f"{view.to_move} to move"
    changed = {
        (level, slot)
        for level, row in enumerate(view.board, start=1)
        for slot, card in enumerate(row)
        if before_board is not None and before_board[level - 1][slot] != card
    }
    levels: list[dict[str, Any]] = []
    for number in (3, 2, 1):
        row = view.board[number - 1]
        size = view.deck_sizes[number - 1]
        levels.append(
            {
                "number": number,
                "deck": f"{size} card{'' if size == 1 else 's'} left in the deck",
                "cards": [card_line(c) if c else "(empty: the deck ran out)" for c in row],
                "card_boxes": [_card_box(c) if c else None for c in row],
                "tiles": [
                    _tile(c, (number, slot) in changed) if c else None for slot, c in enumerate(row)
                ],
                "deck_size": size,
            }
        )
    players = [
        {
            "name": p.name,
            "marker": " (to move)" if p.name == view.to_move else "",
            "resigned": " (resigned: out of the game, cannot win)" if p.resigned else "",
            "points": p.points,
            "tokens": f"{counts(p.tokens)} ({sum(p.tokens)} of 10)",
            "bonuses": ", ".join(f"{n} {GEM_COLOURS[g]}" for g, n in enumerate(p.bonuses) if n)
            or "none",
            "cards": ", ".join(p.cards) or "none",
            "nobles": ", ".join(p.nobles) or "none",
            "reserved": [_reserved(r) for r in p.reserved],
        }
        for p in view.players
    ]
    me = next((p for p in view.players if p.name == view.viewer), None)
    return {
        "game": game,
        "turn": view.turn,
        "headline": headline,
        "last": _last(last_move, last_player, view.viewer) if last_move and last_player else "",
        "last_card": _moved_card(last_move),
        "hand": _hand(me, _moved_card(last_move)) if me is not None else None,
        "others": [_compact(p, view) for p in view.players if p is not me],
        "noble_tiles": [{"id": n, "needs": _gems(NOBLES[n].requires)} for n in view.nobles],
        "viewer": view.viewer,
        "bank": "  ".join(
            f"{colour} {n}" for colour, n in zip(TOKEN_COLOURS, view.bank, strict=True)
        ),
        "bank_gems": [
            {"colour": c, "count": n, "fill": FILLS[c]}
            for c, n in zip(TOKEN_COLOURS, view.bank, strict=True)
        ],
        "nobles": [{"id": n, "needs": counts(NOBLES[n].requires)} for n in view.nobles],
        "levels": levels,
        "players": players,
    }


def _tile(card_id: str, new: bool = False) -> dict[str, Any]:
    """A card's face, for the HTML board's tiles."""
    card = CARDS[card_id]
    return {
        "id": card_id,
        "colour": card.bonus_colour,
        "fill": FILLS[card.bonus_colour],
        "points": card.points,
        "cost": _gems(card.cost),
        "new": new,
    }


def _moved_card(move: Move | None) -> str | None:
    """The face-up card a move took (bought or reserved), if any."""
    if isinstance(move, Buy | Reserve) and move.card:
        return move.card
    return None


def _last(move: Move, player: str, viewer: str | None) -> str:
    said = told(move, player, viewer)
    return said[0].upper() + said[1:]


def _hand(p: Any, moved: str | None) -> dict[str, Any]:
    """The reader's own hand, set apart on the HTML board."""
    return {
        "name": p.name,
        "points": p.points,
        "tokens": _gems(p.tokens),
        "token_count": sum(p.tokens),
        "bonuses": _gems(p.bonuses),
        "cards": len(p.cards),
        "nobles": ", ".join(p.nobles),
        "reserved": [
            {**_tile(r.card, r.card == moved), "blind": r.blind}
            if r.card
            else {"id": None, "level": r.level, "blind": True}
            for r in p.reserved
        ],
        "resigned": p.resigned,
    }


def _compact(p: Any, view: GameView) -> dict[str, Any]:
    """Another player, in one row of the HTML board."""
    return {
        "name": p.name,
        "points": p.points,
        "to_move": p.name == view.to_move,
        "token_count": sum(p.tokens),
        "tokens": _gems(p.tokens),
        "bonuses": _gems(p.bonuses),
        "reserved": [r.card if r.card else f"L{r.level} (blind)" for r in p.reserved],
        "nobles": ", ".join(p.nobles),
        "resigned": p.resigned,
    }


@functools.cache
def _card_box(card_id: str) -> Markup:
    """A face-up card in HTML: the same in every mail, so made once."""
    card = CARDS[card_id]
    facts = {
        "id": card_id,
        "colour": card.bonus_colour,
        "fill": FILLS[card.bonus_colour],
        "points": card.points,
        "cost": _gems(card.cost),
    }
    return Markup(render("card.html.j2", {"card": facts}).strip("\n"))


def board_text(view: GameView, game: str) -> str:
    """The board as text, as ``view``'s viewer may see it."""
    return render("board.txt.j2", board_context(view, game))
