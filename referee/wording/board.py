"""The board in words: what the board templates print, from one view.

Built from a :class:`~referee.engine.view.GameView`, never a state, so what it shows is only
what that viewer may see. The layout is the templates' (``board.txt.j2``,
``board.html.j2``); this module words the view for them through the catalogue's ``board.*``
messages and :class:`~referee.wording.words.Words`.
"""

from __future__ import annotations

import functools
from typing import Any

from referee.engine import CARDS, NOBLES, Move
from referee.engine.cards import TOKEN_COLOURS
from referee.engine.moves import Buy, Reserve, move_from_json
from referee.engine.view import GameView, PlayerView, ReservedView
from referee.wording.letter import LastMove
from referee.wording.messages import say
from referee.wording.told import told
from referee.wording.words import Words, pad, width, words_for

#: How each token colour is painted in HTML.
FILLS = {
    "white": "#f7f7f2",
    "blue": "#2f6fd6",
    "green": "#2e9e5b",
    "red": "#d43c3c",
    "black": "#2b2b2b",
    "gold": "#e8b923",
}


def gems(values: tuple[int, ...], words: Words) -> list[dict[str, Any]]:
    """Counts per colour as the HTML paints them: a coloured chip each, and the count in
    words (``counted``: ``2 red``; Welsh ``2 goch``)."""
    return [
        {
            "colour": words.colour(TOKEN_COLOURS[k]),
            "key": TOKEN_COLOURS[k],
            "count": n,
            "counted": words.counted(n, TOKEN_COLOURS[k]),
            "fill": FILLS[TOKEN_COLOURS[k]],
        }
        for k, n in enumerate(values)
        if n
    ]


def card_colour(colour: str, words: Words) -> str:
    """A card's bonus colour, agreeing with the one card (Icelandic ``rautt``, the neuter)."""
    return words.colour_as(colour, "one,nominative")


@functools.cache
def card_line(card_id: str, words: Words) -> str:
    """``1-12  blue   0 pts  costs 1 white, 2 black``: a card as the text board lists it
    (worded once for each card and reader's words, which are kept: :func:`words_for`)."""
    card = CARDS[card_id]
    points = words.say(say("board.points", points=card.points)) if card.points else ""
    costs = words.say(say("board.costs", cost=list(card.cost)))
    colours, pointed = _columns(words.language)
    colour = pad(card_colour(card.bonus_colour, words), colours)
    return f"{card_id}  {colour}  {pad(points, pointed)}  {costs}"


@functools.cache
def _columns(language: str) -> tuple[int, int]:
    """How wide the text board's colour and points columns are in ``language`` (English: 5
    and 5): as wide as the longest colour word and the longest points, so cards line up."""
    words = words_for(language)
    colours = max(width(card_colour(c, words)) for c in TOKEN_COLOURS[:5])
    points = max(width(words.say(say("board.points", points=n))) for n in range(1, 6))
    return max(colours, 5), max(points, 5)


def card_facts(card_id: str, words: Words, new: bool = False) -> dict[str, Any]:
    """A card's face, for the HTML board's tiles and card boxes."""
    return {**_card_face(card_id, words), "new": new}


@functools.cache
def _card_face(card_id: str, words: Words) -> dict[str, Any]:
    """A card's face in ``words`` (worded once; never changed: card_facts copies it)."""
    card = CARDS[card_id]
    return {
        "id": card_id,
        "colour": card_colour(card.bonus_colour, words),
        "key": card.bonus_colour,
        "fill": FILLS[card.bonus_colour],
        "points": card.points,
        "points_said": words.say(say("board.points", points=card.points)),
        "cost": gems(card.cost, words),
    }


def board_context(
    shown: GameView, game: str, words: Words, last: LastMove | None = None
) -> dict[str, Any]:
    """Everything the board templates print, in words, from one view. With the move that
    led to it (``last``) the board tells it and highlights it, and the slots it refilled."""
    moved = move_from_json(last.move) if last is not None else None
    changed = {
        (level, slot)
        for level, row in enumerate(shown.board, start=1)
        for slot, card in enumerate(row)
        if last is not None and last.board_before[level - 1][slot] != card
    }
    levels = [_level(shown, number, changed, words) for number in (3, 2, 1)]
    me = next((p for p in shown.players if p.name == shown.viewer), None)
    taken = _moved_card(moved)
    return {
        "game": game,
        "turn": shown.turn,
        "headline": _headline(shown, words),
        "last": ""
        if last is None or moved is None
        else words.capital(words.say(told(moved, last.player, shown.viewer))),
        "last_card": taken,
        "hand": _hand(me, taken, words) if me is not None else None,
        "others": [_compact(p, shown, words) for p in shown.players if p is not me],
        "noble_tiles": [{"id": n, "needs": gems(NOBLES[n].requires, words)} for n in shown.nobles],
        "viewer": shown.viewer,
        "bank": "  ".join(
            f"{words.colour(colour)} {words.count(n)}"
            for colour, n in zip(TOKEN_COLOURS, shown.bank, strict=True)
        ),
        "bank_gems": [
            {
                "colour": words.colour(c),
                "key": c,
                "count": n,
                "counted": words.counted(n, c),
                "word": words.vocabulary.counted_word(n, c),  # (beside its count's chip)
                "fill": FILLS[c],
            }
            for c, n in zip(TOKEN_COLOURS, shown.bank, strict=True)
        ],
        "nobles": [
            {"id": n, "needs": words.tokens(NOBLES[n].requires, _none(words))} for n in shown.nobles
        ],
        "levels": levels,
        "players": [_player(p, shown, words) for p in shown.players],
    }


def _none(words: Words) -> str:
    return words.say(say("board.none"))


def _headline(shown: GameView, words: Words) -> str:
    if shown.status == "finished":
        return words.say(say("board.finished", winners=list(shown.winners)))
    if shown.status == "last_round":
        last = [p.name for p in shown.players if not p.resigned][-1]
        return words.say(say("board.last_round", player=shown.to_move, last=last))
    return words.say(say("board.to_move", player=shown.to_move))


def _level(
    shown: GameView, number: int, changed: set[tuple[int, int]], words: Words
) -> dict[str, Any]:
    row = shown.board[number - 1]
    size = shown.deck_sizes[number - 1]
    empty = words.say(say("board.empty_slot"))
    return {
        "number": number,
        "deck": words.say(say("board.deck", cards=size)),
        "cards": [card_line(c, words) if c else empty for c in row],
        "card_ids": list(row),
        "tiles": [
            card_facts(c, words, (number, slot) in changed) if c else None
            for slot, c in enumerate(row)
        ],
        "deck_size": size,
    }


def _reserved(r: ReservedView, words: Words) -> str:
    if r.card is None:
        return words.say(say("board.reserved_hidden", level=r.level))
    line = card_line(r.card, words)
    return words.say(say("board.reserved_blind", card=line)) if r.blind else line


def _player(p: PlayerView, shown: GameView, words: Words) -> dict[str, Any]:
    none = _none(words)
    return {
        "name": p.name,
        "marker": words.say(say("board.marker_to_move")) if p.name == shown.to_move else "",
        "resigned": words.say(say("board.marker_resigned")) if p.resigned else "",
        "points": words.say(say("board.player_points", points=p.points)),
        "tokens": words.say(say("board.tokens", tokens=list(p.tokens), count=sum(p.tokens))),
        "bonuses": words.tokens(p.bonuses, none),
        "cards": ", ".join(p.cards) or none,
        "nobles": ", ".join(p.nobles) or none,
        "reserved": [_reserved(r, words) for r in p.reserved],
    }


def _moved_card(move: Move | None) -> str | None:
    """The face-up card a move took (bought or reserved), if any."""
    if isinstance(move, Buy | Reserve) and move.card:
        return move.card
    return None


def _hand(p: PlayerView, moved: str | None, words: Words) -> dict[str, Any]:
    """The reader's own hand, set apart on the HTML board."""
    return {
        "name": p.name,
        "points": p.points,
        "points_said": words.say(say("board.player_points", points=p.points)),
        "tokens": gems(p.tokens, words),
        "token_count": sum(p.tokens),
        "bonuses": gems(p.bonuses, words),
        "cards": len(p.cards),
        "cards_said": words.say(say("board.cards", cards=len(p.cards))),
        "nobles": ", ".join(p.nobles),
        "reserved": [
            {**card_facts(r.card, words, r.card == moved), "blind": r.blind}
            if r.card
            else {"id": None, "level": r.level, "blind": True}
            for r in p.reserved
        ],
        "resigned": p.resigned,
    }


def _compact(p: PlayerView, shown: GameView, words: Words) -> dict[str, Any]:
    """Another player, in one row of the HTML board."""
    return {
        "name": p.name,
        "points": p.points,
        "points_said": words.say(say("board.points", points=p.points)),
        "tokens_said": words.say(say("board.token_count", tokens=sum(p.tokens))),
        "to_move": p.name == shown.to_move,
        "token_count": sum(p.tokens),
        "tokens": gems(p.tokens, words),
        "bonuses": gems(p.bonuses, words),
        "reserved": [
            r.card if r.card else words.say(say("board.reserved_level", level=r.level))
            for r in p.reserved
        ],
        "nobles": ", ".join(p.nobles),
        "resigned": p.resigned,
    }
