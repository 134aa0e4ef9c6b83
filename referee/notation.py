"""Move notation: what players write in a mail, and the canonical text of a move.

Two steps, as python-chess does it:

* :func:`parse_request` reads text (or a JSON move object) into a :class:`MoveRequest`, which
  may leave out what the writer did not say (returns, noble, payment). Syntax only; raises
  :class:`~referee.errors.InvalidMoveError` saying what was expected.
* :func:`resolve` matches a request against the legal moves of a position: exactly one fits,
  and that is the move; none fits, and the engine's reason is raised as
  :class:`~referee.errors.IllegalMoveError`; several fit, and
  :class:`~referee.errors.AmbiguousMoveError` lists them. A buy that names no payment pays
  coloured tokens first and gold for the rest.

:func:`parse` does both; :func:`format_move` gives the canonical text, which parses back to
the same move. ``docs/notation.md`` describes the notation for players.

``resign`` (or ``I resign``; JSON ``{"type": "resign"}``) is a move of the player who writes
it, not of the player to move: it resolves to that player's seat, their turn or not. Every
other move is refused when it is not the writer's turn.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from referee.engine.cards import (
    CARDS,
    NO_TOKENS,
    NOBLES,
    STONE_NAMES,
    TOKEN_COLOURS,
    Tokens,
)
from referee.engine.moves import Buy, Move, Pass, Reserve, Resign, Take, move_json
from referee.engine.rules import apply, default_payment, legal_moves
from referee.engine.state import GameState, need
from referee.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, MoveError

Action = Literal["take", "reserve", "buy", "pass", "resign"]

#: The longest text a move may be; longer input is refused before it is read.
MAX_MOVE_TEXT = 2000

ACTIONS: dict[str, Action] = {
    "take": "take",
    "get": "take",
    "reserve": "reserve",
    "buy": "buy",
    "purchase": "buy",
    "pass": "pass",
    "resign": "resign",
}
CLAUSES = {"return": "return", "discard": "return", "noble": "noble", "pay": "pay"}
FILLERS = frozenset({"and", "then", "the", "card", "token", "tokens", "gem", "gems", "of"})
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
NOTHING = frozenset({"nothing", "none", "0"})

#: Colour words (colour names, stone names, plurals, one-letter abbreviations) -> token kind.
COLOUR_WORDS: dict[str, int] = {}
for _kind, (_colour, _stone) in enumerate(zip(TOKEN_COLOURS, STONE_NAMES, strict=True)):
    COLOUR_WORDS[_colour] = COLOUR_WORDS[_colour + "s"] = _kind
    COLOUR_WORDS[_stone] = _kind
COLOUR_WORDS.update(
    {"diamonds": 0, "sapphires": 1, "emeralds": 2, "rubies": 3, "onyxes": 4, "onyxs": 4}
)
COLOUR_LETTERS = {"w": 0, "u": 1, "g": 2, "r": 3, "k": 4, "*": 5}
COLOUR_WORDS.update(COLOUR_LETTERS)
COLOUR_WORDS.update({"joker": 5, "jokers": 5})

_WORD = re.compile(r"[^\s,;:.!?()\[\]{}\"'`]+")
_CARD_ID = re.compile(r"([123])-0*(\d{1,2})")
_NOBLE_ID = re.compile(r"n?0*(\d{1,2})")

#: How many of the legal moves that fit an ambiguous move its error shows.
SHOWN_CANDIDATES = 12


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """A move as written: ``returned``, ``noble`` and ``pay`` are None where not said."""

    action: Action
    gems: Tokens | None = None
    card: str | None = None
    deck: int | None = None
    pay: Tokens | None = None
    returned: Tokens | None = None
    noble: str | None = None
    text: str | None = None


# ---------------------------------------------------------------------------------------------
# Text -> request (syntax only)


#: Characters that mail programs and phones put around or inside words, and how they are read:
#: a byte-order mark and zero-width characters are dropped, no-break and other odd spaces are
#: spaces, typographic quotes are plain quotes (so that a JSON move keeps working).
_PLAIN = str.maketrans(
    {
        **dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060\u00ad"), None),
        **dict.fromkeys(map(ord, "\u00a0\u2007\u202f\u2009\u200a\u2002\u2003\u3000"), " "),
        **dict.fromkeys(map(ord, "\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033"), '"'),
        **dict.fromkeys(map(ord, "\u2018\u2019\u201a\u201b\u2039\u203a\u2032"), "'"),
    }
)


_ODD = re.compile("[" + "".join(map(chr, _PLAIN)) + "]")


def plain(text: str) -> str:
    """``text`` without the invisible and typographic characters that mail programs add: a
    byte-order mark, zero-width spaces, no-break spaces, smart quotes."""
    if text.isascii() or not _ODD.search(text):
        return text  # most text: found out at C speed (translate is slow on long text)
    return text.translate(_PLAIN)


def starts_with_a_move_word(line: str) -> bool:
    """Whether the first word of ``line`` is an action or a clause (take, get, buy, return…)."""
    words = _WORD.findall(plain(line).casefold()[:40])
    return bool(words) and (words[0] in ACTIONS or words[0] in CLAUSES)


def says_a_move(line: str) -> bool:
    """Whether a line that starts with a move word goes on to say what a move says (colours,
    a count, a card, a deck, a noble, ``nothing``) in at least half of its other words, or
    is that word alone: ``take red green blue``, ``pass``, ``return 2 white`` and ``buy 1-12
    please`` do; ``Take care``, ``Buy me a coffee``, ``Get 2 more friends for the next one``
    and ``Get Outlook for Android`` do not. A JSON move (a line starting with ``{``) does."""
    text = plain(line).strip().strip("\"'*_`").strip()
    if text.startswith("{"):
        return True
    words = _WORD.findall(text.casefold())
    if not words or (words[0] not in ACTIONS and words[0] not in CLAUSES):
        return False
    rest = [w for w in words[1:] if w not in FILLERS]
    said = sum(1 for w in rest if _move_word(w) or w in ACTIONS or w in CLAUSES)
    return not rest or (said > 0 and 2 * said >= len(rest))


def _move_word(word: str) -> bool:
    return (
        _number(word) is not None
        or _colours(word) is not None
        or word in NOTHING
        or word in ("deck", "level", "top")
        or bool(_CARD_ID.fullmatch(word) or re.fullmatch(r"n\d{1,2}", word))
    )


def parse_request(text: str) -> MoveRequest:
    """Read move notation (or a JSON move object, text starting with ``{``) into a request."""
    text = plain(text)
    if len(text) > MAX_MOVE_TEXT:
        raise InvalidMoveError.of("notation.too_long", limit=MAX_MOVE_TEXT, length=len(text)).about(
            text[:60] + "…"
        )
    if text.lstrip().startswith("{"):
        return _request_from_json_text(text)
    words = _WORD.findall(text.casefold())
    if not words:
        raise InvalidMoveError.of("notation.no_move").about(text)
    if words[:2] == ["i", "resign"]:
        words = words[1:]
    clauses = list(_clauses(words, text))
    action_clauses = [c for c in clauses if c[0] in ACTIONS]
    if not action_clauses:
        raise InvalidMoveError.of("notation.no_action").about(text)
    if len(action_clauses) > 1:
        actions = [c[0] for c in action_clauses]
        raise InvalidMoveError.of("notation.one_at_a_time", actions=actions).about(text)
    head, args = action_clauses[0]
    action = ACTIONS[head]
    request = MoveRequest(action=action, text=text)
    if action == "take":
        request = replace(request, gems=_token_list(args, head, text))
    elif action == "reserve":
        request = _reserve_args(request, args, text)
    elif action == "buy":
        request = replace(request, card=_single_card(args, head, text))
    elif action == "resign":
        if args or len(clauses) > 1:
            raise InvalidMoveError.of("notation.resign_alone").about(text)
    elif args:
        raise InvalidMoveError.of("notation.pass_alone", found=" ".join(args)).about(text)
    for head, args in clauses:
        kind = CLAUSES.get(head)
        if kind == "return":
            given = _token_list(args, head, text, allow_nothing=True)
            merged = given if request.returned is None else _add(request.returned, given)
            request = replace(request, returned=merged)
        elif kind == "noble":
            noble = _noble_id(args, text)
            if request.noble is not None and request.noble != noble:
                raise InvalidMoveError.of(
                    "notation.two_nobles", first=request.noble, second=noble
                ).about(text)
            request = replace(request, noble=noble)
        elif kind == "pay":
            if action != "buy":
                raise InvalidMoveError.of("notation.pay_with_buy", action=action).about(text)
            if request.pay is not None:
                raise InvalidMoveError.of("notation.pay_once").about(text)
            request = replace(request, pay=_token_list(args, head, text, allow_nothing=True))
    return request


def _clauses(words: list[str], text: str) -> Iterator[tuple[str, list[str]]]:
    """Split the words into clauses, each led by a keyword (take, return, noble, pay, …)."""
    head: str | None = None
    args: list[str] = []
    for word in words:
        if word in ACTIONS or word in CLAUSES:
            if head is not None:
                yield head, args
            head, args = word, []
        elif word in FILLERS:
            continue
        elif head is None:
            raise InvalidMoveError.of("notation.not_an_action", word=word).about(text)
        else:
            args.append(word)
    if head is not None:
        yield head, args


def _token_list(args: list[str], head: str, text: str, allow_nothing: bool = False) -> Tokens:
    """``2 red white``, ``red red``, ``r g u``, ``rgu``, ``2 ruby 1 gold`` -> token counts."""
    if allow_nothing and len(args) == 1 and args[0] in NOTHING:
        return NO_TOKENS
    counts = [0] * 6
    pending: int | None = None
    for word in args:
        number = _number(word)
        if number is not None:
            if pending is not None:
                raise InvalidMoveError.of("notation.two_numbers", head=head, word=word).about(text)
            pending = number
            continue
        kinds = _colours(word)
        if kinds is None:
            raise _colour_hint(word, head).about(text)
        if pending is not None and len(kinds) != 1:
            raise InvalidMoveError.of(
                "notation.count_before_colour", count=pending, word=word
            ).about(text)
        for kind in kinds:
            counts[kind] += 1 if pending is None else pending
        pending = None
    if pending is not None:
        raise InvalidMoveError.of("notation.count_without_colour", count=pending).about(text)
    if not any(counts):
        if head == "take":
            raise InvalidMoveError.of("notation.take_needs_colours").about(text)
        if head == "return":
            raise InvalidMoveError.of("notation.return_needs_colours").about(text)
        if head == "pay":
            raise InvalidMoveError.of("notation.pay_needs_colours").about(text)
        raise InvalidMoveError.of("notation.needs_colours", head=head).about(text)
    w, u, g, r, k, o = counts
    return (w, u, g, r, k, o)


def _number(word: str) -> int | None:
    if word.isdecimal() and len(word) <= 2:
        return int(word)
    return NUMBER_WORDS.get(word)


def _colours(word: str) -> list[int] | None:
    """The token kinds a word names: one colour word, or a run of colour letters (``rgu``)."""
    if word in COLOUR_WORDS:
        return [COLOUR_WORDS[word]]
    if len(word) <= 6 and all(ch in COLOUR_LETTERS for ch in word):
        return [COLOUR_LETTERS[ch] for ch in word]
    return None


def _colour_hint(word: str, head: str) -> InvalidMoveError:
    """The error for ``word``, in a list of colours after ``head``, that is not a colour."""
    if word == "b":
        return InvalidMoveError.of("notation.b_is_ambiguous")
    if _CARD_ID.fullmatch(word):
        return InvalidMoveError.of("notation.card_not_colour", head=head, word=word)
    return InvalidMoveError.of("notation.not_a_colour", word=word, head=head)


def _card_id(word: str, text: str | None) -> str:
    m = _CARD_ID.fullmatch(word)
    if not m:
        raise InvalidMoveError.of("notation.not_a_card", word=word).about(text)
    card = f"{m.group(1)}-{int(m.group(2)):02d}"
    if card not in CARDS:
        level = m.group(1)
        last = max(c for c in CARDS if c.startswith(level + "-"))
        raise InvalidMoveError.of(
            "notation.no_such_card", card=card, level=int(level), last=last
        ).about(text)
    return card


def _single_card(args: list[str], head: str, text: str) -> str:
    if len(args) != 1:
        if not args:
            raise InvalidMoveError.of("notation.card_missing", action=head).about(text)
        found = " ".join(args)
        raise InvalidMoveError.of("notation.not_one_card", action=head, found=found).about(text)
    return _card_id(args[0], text)


def _reserve_args(request: MoveRequest, args: list[str], text: str) -> MoveRequest:
    if args and args[0] in ("deck", "level", "top"):
        rest = [a for a in args[1:] if a not in ("deck", "level")]
        if len(rest) == 1 and rest[0] in ("1", "2", "3"):
            return replace(request, deck=int(rest[0]))
        raise InvalidMoveError.of("notation.deck_level").about(text)
    if len(args) == 1 and args[0] in ("1", "2", "3"):
        raise InvalidMoveError.of("notation.reserve_which", level=int(args[0])).about(text)
    return replace(request, card=_single_card(args, "reserve", text))


def _noble_id(args: list[str], text: str | None) -> str:
    m = _NOBLE_ID.fullmatch(args[0]) if len(args) == 1 else None
    noble = f"N{int(m.group(1))}" if m else None
    if noble is None or noble not in NOBLES:
        found = " ".join(args)
        if not found:
            raise InvalidMoveError.of("notation.noble_missing").about(text)
        raise InvalidMoveError.of("notation.not_a_noble", found=found).about(text)
    return noble


def _add(a: Tokens, b: Tokens) -> Tokens:
    w, u, g, r, k, o = (x + y for x, y in zip(a, b, strict=True))
    return (w, u, g, r, k, o)


# ---------------------------------------------------------------------------------------------
# JSON -> request


def _request_from_json_text(text: str) -> MoveRequest:
    try:
        obj = json.loads(text)
    except ValueError as err:
        raise InvalidMoveError.of("json_move.not_json", problem=str(err)).about(text) from None
    return request_from_json(obj, text)


def request_from_json(obj: Any, text: str | None = None) -> MoveRequest:
    """A JSON move object (INTERFACE.md) as a request; ``return``/``noble``/``pay`` optional."""
    if not isinstance(obj, Mapping):
        raise InvalidMoveError.of("json_move.not_an_object").about(text)
    known = {"type", "gems", "card", "deck", "pay", "return", "noble"}
    extra = sorted(set(obj) - known)
    if extra:
        raise InvalidMoveError.of("json_move.unknown_keys", keys=str(extra)).about(text)
    action = obj.get("type")
    if action not in ("take", "reserve", "buy", "pass", "resign"):
        raise InvalidMoveError.of("json_move.bad_type", value=repr(action)).about(text)
    request = MoveRequest(action=action, text=text)
    if action == "resign":
        said = sorted(k for k in set(obj) - {"type"} if obj[k] not in (None, {}))
        if said:
            raise InvalidMoveError.of("json_move.resign_alone", keys=str(said)).about(text)
        return request
    if action == "take":
        request = replace(request, gems=_json_tokens(obj.get("gems"), "gems", text))
    elif action == "reserve":
        card, deck = obj.get("card"), obj.get("deck")
        if (card is None) == (deck is None):
            raise InvalidMoveError.of("json_move.card_or_deck").about(text)
        if card is not None:
            request = replace(request, card=_card_id(str(card).casefold(), text))
        elif deck in (1, 2, 3) and not isinstance(deck, bool):
            request = replace(request, deck=deck)
        else:
            raise InvalidMoveError.of("json_move.bad_deck", value=repr(deck)).about(text)
    elif action == "buy":
        if not isinstance(obj.get("card"), str):
            raise InvalidMoveError.of("json_move.buy_card").about(text)
        request = replace(request, card=_card_id(obj["card"].casefold(), text))
        if obj.get("pay") is not None:
            request = replace(request, pay=_json_tokens(obj["pay"], "pay", text, empty_ok=True))
    if obj.get("return") is not None:
        returned = _json_tokens(obj["return"], "return", text, empty_ok=True)
        request = replace(request, returned=returned)
    noble = obj.get("noble")
    if noble is not None:
        if not isinstance(noble, str):
            raise InvalidMoveError.of("json_move.bad_noble", value=repr(noble)).about(text)
        request = replace(request, noble=_noble_id([noble.casefold()], text))
    return request


def _json_tokens(value: Any, key: str, text: str | None, empty_ok: bool = False) -> Tokens:
    if not isinstance(value, Mapping) or (not value and not empty_ok):
        raise InvalidMoveError.of("json_move.not_counts", key=key).about(text)
    counts = [0] * 6
    for colour, n in value.items():
        if colour not in TOKEN_COLOURS:
            raise InvalidMoveError.of("json_move.not_a_colour", key=key, colour=repr(colour)).about(
                text
            )
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 99:
            raise InvalidMoveError.of(
                "json_move.not_a_count", key=key, colour=colour, value=repr(n)
            ).about(text)
        counts[TOKEN_COLOURS.index(colour)] = n
    w, u, g, r, k, o = counts
    return (w, u, g, r, k, o)


# ---------------------------------------------------------------------------------------------
# Request -> move (against a position)


def parse(state: GameState, text: str, player: str | None = None) -> Move:
    """The legal move ``text`` means in ``state`` (for ``player``, when named; else for the
    player to move)."""
    return resolve(state, parse_request(text), player)


def resolve(state: GameState, request: MoveRequest, player: str | None = None) -> Move:
    """The one legal move that fits ``request``; else IllegalMoveError or AmbiguousMoveError.

    A resignation is ``player``'s (the player to move's when None), whoever is to move."""
    text = request.text
    seat = state.to_move
    if player is not None:
        seat = _seat_of(state, player, text)
    if request.action == "resign":
        resign = Resign(seat)
        try:
            apply(state, resign)
        except IllegalMoveError as err:
            raise err.about(text) from None
        return resign
    if state.status == "finished":
        raise IllegalMoveError.of("notation.game_over").about(text)
    if seat in state.resigned:
        raise IllegalMoveError.of("notation.resigned", name=state.players[seat].name).about(text)
    if seat != state.to_move:
        raise IllegalMoveError.of(
            "notation.not_your_turn", to_move=state.player.name, name=state.players[seat].name
        ).about(text)
    fits = [m for m in legal_moves(state) if _fits(request, m)]
    if request.action == "buy" and request.pay is None and len(fits) > 1:
        assert request.card is not None
        usual = default_payment(
            need(CARDS[request.card], state.player.bonuses), state.player.tokens
        )
        fits = [m for m in fits if isinstance(m, Buy) and m.pay == usual]
    if len(fits) == 1:
        return fits[0]
    if not fits:
        raise _illegal(state, request)
    raise _ambiguous(state, request, fits)


def _fits(request: MoveRequest, move: Move) -> bool:
    if request.returned is not None and move.returned != request.returned:
        return False
    if request.noble is not None and move.noble != request.noble:
        return False
    match move:
        case Take(gems=gems):
            return request.action == "take" and gems == request.gems
        case Reserve(card=card, deck=deck):
            return request.action == "reserve" and card == request.card and deck == request.deck
        case Buy(card=card, pay=pay):
            return (
                request.action == "buy"
                and card == request.card
                and (request.pay is None or pay == request.pay)
            )
        case Pass():
            return request.action == "pass"
    return False


def as_move(state: GameState, request: MoveRequest, player: str | None = None) -> Move:
    """The request made whole with the plain defaults (no return, no noble, the usual pay),
    without asking whether it is legal: :func:`~referee.engine.apply` judges that. A
    resignation is ``player``'s (the player to move's when None); IllegalMoveError when
    ``player`` is not in the game."""
    if request.action == "resign":
        if player is None:
            return Resign(state.to_move)
        return Resign(_seat_of(state, player, request.text))
    returned = request.returned or NO_TOKENS
    if request.action == "take":
        assert request.gems is not None
        return Take(request.gems, returned, request.noble)
    if request.action == "reserve":
        return Reserve(request.card, request.deck, returned, request.noble)
    if request.action == "buy":
        assert request.card is not None
        pay = request.pay
        if pay is None:
            mover = state.player
            pay = default_payment(need(CARDS[request.card], mover.bonuses), mover.tokens)
        return Buy(request.card, pay, returned, request.noble)
    return Pass(returned, request.noble)


def _seat_of(state: GameState, player: str, text: str | None) -> int:
    """The seat of ``player``; IllegalMoveError naming the players when none is called so."""
    try:
        return state.seat_of(player)
    except KeyError:
        names = [p.name for p in state.players]
        raise IllegalMoveError.of("player.unknown", name=player, players=names).about(
            text
        ) from None


def _illegal(state: GameState, request: MoveRequest) -> MoveError:
    move = as_move(state, request)
    try:
        apply(state, move)
    except IllegalMoveError as err:
        return err.about(request.text)
    # The engine accepts the filled-in move although no legal move fits the request: only a
    # buy's default payment can differ from what was asked, so say what would work.
    return IllegalMoveError.of("notation.default_would_be_legal", move=move_json(move)).about(
        request.text
    )


def _ambiguous(state: GameState, request: MoveRequest, fits: list[Move]) -> AmbiguousMoveError:
    shown = [move_json(m) for m in fits[:SHOWN_CANDIDATES]]
    candidates: dict[str, object] = {"code": "notation.candidates", "params": {"moves": shown}}
    if len(fits) > SHOWN_CANDIDATES:
        candidates = {
            "code": "notation.candidates_more",
            "params": {"moves": shown, "count": len(fits)},
        }
    params: dict[str, object] = {"candidates": candidates}
    if len({m.returned for m in fits}) > 1:
        after = sum(state.player.tokens) + _gain(request)
        code = "notation.ambiguous_return"
        params.update(after=after, excess=after - 10, example=move_json(fits[0]))
    elif len({m.noble for m in fits}) > 1:
        code = "notation.ambiguous_noble"
        params.update(choices=[f"noble {m.noble}" for m in fits])
    else:
        code = "notation.ambiguous"
    found = AmbiguousMoveError(
        code=code,
        params=params,
        candidates=[format_move(m) for m in fits],
        text=request.text,
    )
    found.moves = [move_json(m) for m in fits]
    return found


def _gain(request: MoveRequest) -> int:
    if request.action == "take" and request.gems is not None:
        return sum(request.gems)
    return 1 if request.action == "reserve" else 0


# ---------------------------------------------------------------------------------------------
# Move -> canonical text


def format_move(move: Move) -> str:
    """The canonical notation of a move; :func:`parse` reads it back as the same move."""
    match move:
        case Resign():
            return "resign"
        case Take(gems=gems):
            parts = [f"take {_list(gems)}"]
        case Reserve(card=card, deck=deck):
            parts = [f"reserve {card}" if card else f"reserve deck {deck}"]
        case Buy(card=card, pay=pay):
            paid = " ".join(f"{n} {TOKEN_COLOURS[k]}" for k, n in enumerate(pay) if n)
            parts = [f"buy {card} pay {paid}" if paid else f"buy {card} pay nothing"]
        case Pass():
            parts = ["pass"]
    if any(move.returned):
        parts.append(f"return {_list(move.returned)}")
    if move.noble:
        parts.append(f"noble {move.noble}")
    return ", ".join(parts)


def _list(counts: Tokens) -> str:
    return " ".join(
        TOKEN_COLOURS[k] if n == 1 else f"{n} {TOKEN_COLOURS[k]}" for k, n in enumerate(counts) if n
    )


__all__ = [
    "MoveRequest",
    "as_move",
    "format_move",
    "parse",
    "parse_request",
    "request_from_json",
    "resolve",
]
