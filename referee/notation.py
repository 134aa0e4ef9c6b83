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
from referee.engine.moves import Buy, Move, Pass, Reserve, Resign, Take
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

_EXAMPLES = (
    "take red green blue | take 2 red | reserve 2-07 | reserve deck 3 | buy 1-12 | "
    "buy 1-12 pay 2 red 1 gold | pass (and, when needed, return white | noble N4)"
)


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
        raise InvalidMoveError(
            f"a move is at most {MAX_MOVE_TEXT} characters; this text has {len(text)}",
            text[:60] + "…",
        )
    if text.lstrip().startswith("{"):
        return _request_from_json_text(text)
    words = _WORD.findall(text.casefold())
    if not words:
        raise InvalidMoveError(f"no move found: write one of {_EXAMPLES}", text)
    if words[:2] == ["i", "resign"]:
        words = words[1:]
    clauses = list(_clauses(words, text))
    action_clauses = [c for c in clauses if c[0] in ACTIONS]
    if not action_clauses:
        raise InvalidMoveError(
            f"a move needs an action, take, reserve, buy or pass: write one of {_EXAMPLES}", text
        )
    if len(action_clauses) > 1:
        found = " and ".join(c[0] for c in action_clauses)
        raise InvalidMoveError(
            f"one move at a time: found {found}; write a single take, reserve, buy or pass",
            text,
        )
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
            raise InvalidMoveError(
                "resign stands alone: write just 'resign' to leave the game", text
            )
    elif args:
        raise InvalidMoveError(f"pass takes nothing after it; found {' '.join(args)!r}", text)
    for head, args in clauses:
        kind = CLAUSES.get(head)
        if kind == "return":
            given = _token_list(args, head, text, allow_nothing=True)
            merged = given if request.returned is None else _add(request.returned, given)
            request = replace(request, returned=merged)
        elif kind == "noble":
            noble = _noble_id(args, text)
            if request.noble is not None and request.noble != noble:
                raise InvalidMoveError(
                    f"only one noble visits per turn; found noble {request.noble} and {noble}",
                    text,
                )
            request = replace(request, noble=noble)
        elif kind == "pay":
            if action != "buy":
                raise InvalidMoveError(f"'pay' goes with buy, not with {head}", text)
            if request.pay is not None:
                raise InvalidMoveError("say 'pay' once, listing every token paid", text)
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
            raise InvalidMoveError(
                f"a move starts with take, reserve, buy or pass, not {word!r}: write one of "
                f"{_EXAMPLES}",
                text,
            )
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
                raise InvalidMoveError(f"two numbers in a row after {head!r}: {word!r}", text)
            pending = number
            continue
        kinds = _colours(word)
        if kinds is None:
            raise InvalidMoveError(_colour_hint(word, head), text)
        if pending is not None and len(kinds) != 1:
            raise InvalidMoveError(
                f"a count goes before one colour: write '{pending} red', not '{pending} {word}'",
                text,
            )
        for kind in kinds:
            counts[kind] += 1 if pending is None else pending
        pending = None
    if pending is not None:
        raise InvalidMoveError(f"{pending} of what? name a colour after the number", text)
    if not any(counts):
        example = {"take": "take red green blue", "return": "return white", "pay": "pay 2 red"}
        raise InvalidMoveError(
            f"{head!r} needs colours, for example '{example.get(head, head + ' red')}'", text
        )
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


def _colour_hint(word: str, head: str) -> str:
    if word == "b":
        return "'b' could be blue or black: write 'u' for blue (sapphire), 'k' for black (onyx)"
    if _CARD_ID.fullmatch(word):
        return f"{head!r} lists colours, not a card like {word!r}"
    return (
        f"{word!r} is not a colour after {head!r}: use white, blue, green, red, black, gold, "
        "their stones (diamond, sapphire, emerald, ruby, onyx) or letters w u g r k *"
    )


def _card_id(word: str, text: str | None) -> str:
    m = _CARD_ID.fullmatch(word)
    if not m:
        raise InvalidMoveError(f"{word!r} is not a card id: card ids look like 2-07", text)
    card = f"{m.group(1)}-{int(m.group(2)):02d}"
    if card not in CARDS:
        level = m.group(1)
        last = max(c for c in CARDS if c.startswith(level + "-"))
        raise InvalidMoveError(
            f"there is no card {card}: level {level} runs {level}-01 … {last}", text
        )
    return card


def _single_card(args: list[str], head: str, text: str) -> str:
    if len(args) != 1:
        got = " ".join(args) or "nothing"
        raise InvalidMoveError(f"{head} names one card, like '{head} 1-12'; got {got!r}", text)
    return _card_id(args[0], text)


def _reserve_args(request: MoveRequest, args: list[str], text: str) -> MoveRequest:
    if args and args[0] in ("deck", "level", "top"):
        rest = [a for a in args[1:] if a not in ("deck", "level")]
        if len(rest) == 1 and rest[0] in ("1", "2", "3"):
            return replace(request, deck=int(rest[0]))
        raise InvalidMoveError(
            "reserve from a deck names its level: 'reserve deck 1', 'deck 2' or 'deck 3'", text
        )
    if len(args) == 1 and args[0] in ("1", "2", "3"):
        raise InvalidMoveError(
            f"reserve which card? write 'reserve deck {args[0]}' for the top card of that deck, "
            "or a card id like 'reserve 2-07'",
            text,
        )
    return replace(request, card=_single_card(args, "reserve", text))


def _noble_id(args: list[str], text: str | None) -> str:
    m = _NOBLE_ID.fullmatch(args[0]) if len(args) == 1 else None
    noble = f"N{int(m.group(1))}" if m else None
    if noble is None or noble not in NOBLES:
        got = " ".join(args) or "nothing"
        raise InvalidMoveError(
            f"noble names one noble, N1 … N10, like 'noble N4'; got {got!r}", text
        )
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
        raise InvalidMoveError(f"not valid JSON: {err}", text) from None
    return request_from_json(obj, text)


def request_from_json(obj: Any, text: str | None = None) -> MoveRequest:
    """A JSON move object (INTERFACE.md) as a request; ``return``/``noble``/``pay`` optional."""
    if not isinstance(obj, Mapping):
        raise InvalidMoveError('a JSON move is an object like {"type": "pass"}', text)
    known = {"type", "gems", "card", "deck", "pay", "return", "noble"}
    extra = sorted(set(obj) - known)
    if extra:
        raise InvalidMoveError(f"unknown keys {extra}: a move has {sorted(known)}", text)
    action = obj.get("type")
    if action not in ("take", "reserve", "buy", "pass", "resign"):
        raise InvalidMoveError(
            f'"type" must be take, reserve, buy, pass or resign, not {action!r}', text
        )
    request = MoveRequest(action=action, text=text)
    if action == "resign":
        said = sorted(k for k in set(obj) - {"type"} if obj[k] not in (None, {}))
        if said:
            raise InvalidMoveError(
                f'a resignation is just {{"type": "resign"}}; found {said}', text
            )
        return request
    if action == "take":
        request = replace(request, gems=_json_tokens(obj.get("gems"), "gems", text))
    elif action == "reserve":
        card, deck = obj.get("card"), obj.get("deck")
        if (card is None) == (deck is None):
            raise InvalidMoveError('a reserve has either "card" or "deck"', text)
        if card is not None:
            request = replace(request, card=_card_id(str(card).casefold(), text))
        elif deck in (1, 2, 3) and not isinstance(deck, bool):
            request = replace(request, deck=deck)
        else:
            raise InvalidMoveError(f'"deck" is 1, 2 or 3, not {deck!r}', text)
    elif action == "buy":
        if not isinstance(obj.get("card"), str):
            raise InvalidMoveError('a buy has "card", a card id like "1-12"', text)
        request = replace(request, card=_card_id(obj["card"].casefold(), text))
        if obj.get("pay") is not None:
            request = replace(request, pay=_json_tokens(obj["pay"], "pay", text, empty_ok=True))
    if obj.get("return") is not None:
        returned = _json_tokens(obj["return"], "return", text, empty_ok=True)
        request = replace(request, returned=returned)
    noble = obj.get("noble")
    if noble is not None:
        if not isinstance(noble, str):
            raise InvalidMoveError(f'"noble" is a noble id like "N4", not {noble!r}', text)
        request = replace(request, noble=_noble_id([noble.casefold()], text))
    return request


def _json_tokens(value: Any, key: str, text: str | None, empty_ok: bool = False) -> Tokens:
    if not isinstance(value, Mapping) or (not value and not empty_ok):
        raise InvalidMoveError(f'"{key}" is an object of colour counts like {{"red": 2}}', text)
    counts = [0] * 6
    for colour, n in value.items():
        if colour not in TOKEN_COLOURS:
            raise InvalidMoveError(
                f'"{key}" has {colour!r}: colours are {", ".join(TOKEN_COLOURS)}', text
            )
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 99:
            raise InvalidMoveError(f'"{key}".{colour} must be a whole number, not {n!r}', text)
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
        try:
            seat = state.seat_of(player)
        except KeyError as err:
            raise IllegalMoveError(str(err.args[0]), text) from None
    if request.action == "resign":
        resign = Resign(seat)
        try:
            apply(state, resign)
        except IllegalMoveError as err:
            raise IllegalMoveError(err.reason, text) from None
        return resign
    if state.status == "finished":
        raise IllegalMoveError("the game is over: no more moves can be played", text)
    if seat in state.resigned:
        raise IllegalMoveError(
            f"{state.players[seat].name} has resigned: they are out of the game and make no "
            "more moves",
            text,
        )
    if seat != state.to_move:
        raise IllegalMoveError(
            f"it is {state.player.name}'s turn, not {state.players[seat].name}'s", text
        )
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
        try:
            return Resign(state.seat_of(player))
        except KeyError as err:
            raise IllegalMoveError(str(err.args[0]), request.text) from None
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


def _illegal(state: GameState, request: MoveRequest) -> MoveError:
    move = as_move(state, request)
    try:
        apply(state, move)
    except IllegalMoveError as err:
        return IllegalMoveError(err.reason, request.text)
    # The engine accepts the filled-in move although no legal move fits the request: only a
    # buy's default payment can differ from what was asked, so say what would work.
    return IllegalMoveError(f"no legal move fits; {format_move(move)} would be legal", request.text)


def _ambiguous(state: GameState, request: MoveRequest, fits: list[Move]) -> AmbiguousMoveError:
    candidates = [format_move(m) for m in fits]
    shown = "; ".join(candidates[:12]) + (
        f"; … ({len(candidates)} in all)" if len(fits) > 12 else ""
    )
    if len({m.returned for m in fits}) > 1:
        after = sum(state.player.tokens) + _gain(request)
        excess = after - 10
        reason = (
            f"after this move you would hold {after} tokens: say which {excess} to return, "
            f"for example '{candidates[0]}'"
        )
    elif len({m.noble for m in fits}) > 1:
        nobles = " or ".join(f"noble {m.noble}" for m in fits)
        reason = f"more than one noble would visit; choose one: {nobles}"
    else:
        reason = "this fits more than one legal move"
    return AmbiguousMoveError(f"{reason}. Candidates: {shown}", candidates, request.text)


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
