"""The rules: which moves are legal, what a move does, and who has won.

``legal_moves(state)`` lists every distinct legal move of the player to move, each payment,
each multiset of returned tokens and each noble choice as a move of its own.
``apply(state, move)`` checks the move rule by rule and returns the new state, or raises
:class:`~referee.errors.IllegalMoveError` naming the rule broken and the facts behind it: a
code of the catalogue and its parameters, as plain data (``buy.cannot_afford`` with the card,
its cost, the bonuses and tokens; :mod:`referee.wording.catalogue.engine` has the English).
``outcome(state)`` names the winners of a finished game.

Resigning (:class:`~referee.engine.moves.Resign`) is the exception: any player still in may
resign at any time, so ``legal_moves`` never lists it (it would be in every list, and random
playouts would resign at once); ``apply`` accepts it for any seat still in, whoever is to
move. Turns pass over resigned seats; the last round ends after the last seat still in has
moved; passes in a row end the game when there are as many as players still in; when one
player is left the game ends and they win. A resigned player never wins.

The two are written separately (generation for speed, checking for good reasons) and the test
suite holds them to each other: ``apply`` accepts a move exactly when ``legal_moves`` lists it.

Speed matters here (a search bot plays whole games by the thousand), so both are written for
it, as measured by ``benchmarks/engine.py``:

* What a list of legal moves is made of is built once and kept, the moves being immutable:
  the takes for each of the 243 kinds of bank (none, 1 to 3, or 4 and more of each colour),
  the reserves of each row of the board, the returns for each number of tokens held, the
  payments for each need and hand. Cards are tested for affordability in bulk, as sets of
  cards in whole numbers (``_OVER_*``: the cards costing more than a power in a colour).
* ``apply`` first tries :func:`_quick_apply`, for a move that is plainly legal (in the kept
  lists); it makes the new state by position (``state.new_state``). Anything else goes
  through :func:`_apply_checked`, the rule-by-rule checks that give the reasons. The tests
  hold the two paths to each other as well.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import TypeVar, cast

from referee.engine.cards import (
    CARDS,
    GEM_COLOURS,
    GEMS,
    GOLD,
    KINDS,
    NO_TOKENS,
    NOBLES,
    TOKEN_COLOURS,
    Gems,
    Tokens,
)
from referee.engine.moves import Buy, Move, Pass, Reserve, Resign, Take, new_buy
from referee.engine.state import (
    COSTS,
    FEWEST_FOR_A_NOBLE,
    RESERVE_LIMIT,
    TOKEN_LIMIT,
    TWO_OF_A_COLOUR_FROM,
    GameState,
    Player,
    Reservation,
    Status,
    need,
    new_player,
    new_state,
    qualifying_nobles,
    shortfall,
)
from referee.errors import IllegalMoveError

# ---------------------------------------------------------------------------------------------
# Small helpers on tuples


_GOLD_ONE: Tokens = (0, 0, 0, 0, 0, 1)
T = TypeVar("T")


def _tokens(counts: list[int] | tuple[int, ...]) -> Tokens:
    w, u, g, r, k, o = counts
    return (w, u, g, r, k, o)


def _add(a: Tokens, b: Tokens) -> Tokens:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5])


def _sub(a: Tokens, b: Tokens) -> Tokens:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4], a[5] - b[5])


def _add_bonus(bonuses: Gems, colour: int) -> Gems:
    w, u, g, r, k = bonuses
    if colour < 2:
        return (w + 1, u, g, r, k) if colour == 0 else (w, u + 1, g, r, k)
    if colour < 4:
        return (w, u, g + 1, r, k) if colour == 2 else (w, u, g, r + 1, k)
    return (w, u, g, r, k + 1)


def _is_count(counts: tuple[int, ...]) -> bool:
    """Whether ``counts`` is a count per token kind (six whole numbers, none below 0)."""
    return len(counts) == 6 and min(counts) >= 0


def _replace_at(items: tuple[T, ...], index: int, item: T) -> tuple[T, ...]:
    return (*items[:index], item, *items[index + 1 :])


def _with(
    player: Player,
    *,
    tokens: Tokens | None = None,
    reserved: tuple[Reservation, ...] | None = None,
    nobles: tuple[str, ...] | None = None,
    points: int | None = None,
) -> Player:
    return Player(
        name=player.name,
        tokens=player.tokens if tokens is None else tokens,
        cards=player.cards,
        bonuses=player.bonuses,
        reserved=player.reserved if reserved is None else reserved,
        nobles=player.nobles if nobles is None else nobles,
        points=player.points if points is None else points,
    )


def _find_on_board(state: GameState, card_id: str, verb: str) -> tuple[int, int]:
    for level, row in enumerate(state.board, start=1):
        for slot, card in enumerate(row):
            if card == card_id:
                return level, slot
    if card_id not in CARDS:
        raise IllegalMoveError.of("card.unknown", card=card_id)
    face_up = state.face_up()
    if verb == "buy":
        if not face_up:
            raise IllegalMoveError.of("buy.not_available_board_empty", card=card_id)
        raise IllegalMoveError.of("buy.not_available", card=card_id, face_up=face_up)
    if not face_up:
        raise IllegalMoveError.of("reserve.not_face_up_board_empty", card=card_id)
    raise IllegalMoveError.of("reserve.not_face_up", card=card_id, face_up=face_up)


def _refill(
    board: tuple[tuple[str | None, ...], ...],
    decks: tuple[tuple[str, ...], ...],
    level: int,
    slot: int,
) -> tuple[tuple[tuple[str | None, ...], ...], tuple[tuple[str, ...], ...]]:
    """Refill ``slot`` of ``level`` from the top of that level's deck, or leave it empty."""
    index = level - 1
    deck = decks[index]
    row = list(board[index])
    if deck:
        row[slot] = deck[0]
        piles = list(decks)
        piles[index] = deck[1:]
        decks = tuple(piles)
    else:
        row[slot] = None
    rows = list(board)
    rows[index] = tuple(row)
    return tuple(rows), decks


# ---------------------------------------------------------------------------------------------
# Generation
#
# Most of a list of legal moves is the same from one position to the next: the takes depend
# only on which colours the bank has none of, 1 to 3, or 4 and more; the reserves only on the
# board. Those parts are built once and kept (the moves are immutable, so lists may share
# them); what is left to do on each move is the affordability of the cards in sight.


def _take_class(count: int) -> int:
    """0: the bank has none of a colour; 1: 1 to 3 (one can be taken); 2: 4 or more (two)."""
    return 0 if count <= 0 else 1 if count < TWO_OF_A_COLOUR_FROM else 2


#: For each gem colour: a bank count -> its take class times 3 ** colour, so that the sum over
#: the colours numbers the 3 ** 5 kinds of bank (counts outside the table are worked out).
_WEIGHTS = (1, 3, 9, 27, 81)
_KIND_W, _KIND_U, _KIND_G, _KIND_R, _KIND_K = (
    {count: _take_class(count) * weight for count in range(-8, 65)} for weight in _WEIGHTS
)
_BANK_KINDS = 243


def _bank_kind(bank: Tokens) -> int:
    """Which of the 243 kinds of bank ``bank`` is, as far as taking tokens goes."""
    w, u, g, r, k, _gold = bank
    try:
        return _KIND_W[w] + _KIND_U[u] + _KIND_G[g] + _KIND_R[r] + _KIND_K[k]
    except KeyError:
        return sum(_take_class(bank[colour]) * _WEIGHTS[colour] for colour in GEMS)


def _takes_from(bank: Tokens) -> tuple[Tokens, ...]:
    available = [g for g in GEMS if bank[g] > 0]
    takes: list[Tokens] = []
    groups = combinations(available, 3) if len(available) >= 3 else [tuple(available)]
    for group in groups:
        if group:
            counts = [0] * 6
            for g in group:
                counts[g] = 1
            takes.append(_tokens(counts))
    for g in GEMS:
        if bank[g] >= TWO_OF_A_COLOUR_FROM:
            counts = [0] * 6
            counts[g] = 2
            takes.append(_tokens(counts))
    return tuple(takes)


def _bank_of_kind(kind: int) -> Tokens:
    """A bank of the given kind: 0, 1 or 4 of each colour."""
    w, u, g, r, k = ((0, 1, 4)[kind // weight % 3] for weight in _WEIGHTS)
    return (w, u, g, r, k, 0)


#: The takes from each kind of bank, as token counts, as a set, and as moves of a player who
#: needs no return and gets no noble (one Take object for each count, shared).
_TAKES: tuple[tuple[Tokens, ...], ...] = tuple(
    _takes_from(_bank_of_kind(kind)) for kind in range(_BANK_KINDS)
)
_TAKE_SETS = tuple(frozenset(takes) for takes in _TAKES)
_TAKE_MOVES = {gems: Take(gems) for takes in _TAKES for gems in takes}
_PLAIN_TAKES = tuple(tuple(_TAKE_MOVES[gems] for gems in takes) for takes in _TAKES)


def token_takes(bank: Tokens) -> tuple[Tokens, ...]:
    """Every legal take from ``bank``: 3 different colours (or every colour left, when fewer
    than 3 have tokens), and 2 of any colour with at least 4 in the bank."""
    return _TAKES[_bank_kind(bank)]


@lru_cache(maxsize=8192)
def token_returns(held: Tokens) -> tuple[Tokens, ...]:
    """Every multiset of tokens that brings ``held`` down to exactly 10 (just the empty return
    when 10 or fewer are held).

    Listed as ``itertools.product`` over the counts of each kind would list them, white
    first, fewest first. They depend only on how many to return and how many of each kind
    (up to that many) are held: few cases, each worked out once."""
    excess = sum(held) - TOKEN_LIMIT
    if excess <= 0:
        return (NO_TOKENS,)
    w, u, g, r, k, o = (h if h < excess else excess for h in held)
    return _returns_from((w, u, g, r, k, o), excess)


@lru_cache(maxsize=8192)
def _returns_from(caps: Tokens, excess: int) -> tuple[Tokens, ...]:
    """The returns of ``excess`` tokens, at most ``caps`` of each kind (see token_returns):
    built kind by kind, keeping only what can still add up."""
    # Whatever is left to return must fit in the kinds after this one.
    room = [sum(caps[kind + 1 :]) for kind in KINDS]
    partial: list[tuple[tuple[int, ...], int]] = [((), excess)]
    for cap, later in zip(caps, room, strict=True):
        partial = [
            ((*given, n), left - n)
            for given, left in partial
            for n in range(max(left - later, 0), min(cap, left) + 1)
        ]
    return tuple(_tokens(given) for given, _left in partial)


@lru_cache(maxsize=8192)
def _return_set(held: Tokens) -> frozenset[Tokens]:
    return frozenset(token_returns(held))


def payments(need_: Gems, held: Tokens) -> tuple[Tokens, ...]:
    """Every distinct way to pay ``need_`` from ``held``: for each colour, any split between
    that colour's tokens and gold; gold may stand in even where the colour is held.

    Listed by the gold spent on each colour, white first, fewest first: in the order of
    ``itertools.product`` over those ranges, which the lists of legal moves keep."""
    w, u, g, r, k = need_
    hw, hu, hg, hr, hk, gold = held
    if gold:
        # Only what the card needs matters of the tokens held: the rest is left out of the
        # key, so that many hands share one list.
        return _payments_with_gold(
            need_,
            (
                hw if hw < w else w,
                hu if hu < u else u,
                hg if hg < g else g,
                hr if hr < r else r,
                hk if hk < k else k,
                gold if gold < w + u + g + r + k else w + u + g + r + k,
            ),
        )
    if w <= hw and u <= hu and g <= hg and r <= hr and k <= hk:
        return ((w, u, g, r, k, 0),)
    return ()


@lru_cache(maxsize=16384)
def _payments_with_gold(need_: Gems, held: Tokens) -> tuple[Tokens, ...]:
    gold = held[GOLD]
    lows = [n - h if n > h else 0 for n, h in zip(need_, held, strict=False)]
    if sum(lows) > gold:
        return ()
    # Colour by colour: every partial payment so far (the coloured tokens, the gold spent),
    # extended by each amount of gold on the next colour that keeps within the gold held.
    partial: list[tuple[tuple[int, ...], int]] = [((), 0)]
    for n, low in zip(need_, lows, strict=True):
        partial = [
            ((*paid, n - x), spent + x)
            for paid, spent in partial
            for x in range(low, n + 1)
            if spent + x <= gold
        ]
    return tuple(_tokens((*paid, spent)) for paid, spent in partial)


def default_payment(need_: Gems, held: Tokens) -> Tokens:
    """The payment used when a buy names none: coloured tokens first, gold for the rest."""
    w, u, g, r, k = (min(n, h) for n, h in zip(need_, held, strict=False))
    return (w, u, g, r, k, shortfall(need_, held))


#: The noble choices of a move when no noble qualifies: just "no noble".
_NO_NOBLE: tuple[str | None, ...] = (None,)


#: Take objects by the tokens taken, then by the tokens returned (no noble), made once each
#: and shared.
_RETURNING_TAKES: dict[Tokens, dict[Tokens, Take]] = {gems: {} for gems in _TAKE_MOVES}


@lru_cache(maxsize=16384)
def _takes_then_returns(gems: Tokens, after: Tokens) -> tuple[Take, ...]:
    """Taking ``gems`` to hold ``after``, with each way of returning down to 10, no noble."""
    excess = sum(after) - TOKEN_LIMIT
    if excess <= 0:
        return (_TAKE_MOVES[gems],)
    w, u, g, r, k, o = (h if h < excess else excess for h in after)
    return _takes_returning(gems, (w, u, g, r, k, o), excess)


@lru_cache(maxsize=16384)
def _takes_returning(gems: Tokens, caps: Tokens, excess: int) -> tuple[Take, ...]:
    """Taking ``gems``, then returning ``excess`` tokens, at most ``caps`` of each kind."""
    made = _RETURNING_TAKES[gems]
    takes = []
    for returned in _returns_from(caps, excess):
        take = made.get(returned)
        if take is None:
            take = made[returned] = Take(gems, returned)
        takes.append(take)
    return tuple(takes)


def _takes_ending(
    takes: tuple[Tokens, ...], held: Tokens, nobles: tuple[str | None, ...]
) -> list[Move]:
    """The takes of a player who must return tokens after some of them, or gets a noble."""
    moves: list[Move] = []
    if nobles is _NO_NOBLE:
        for gems in takes:
            moves += _takes_then_returns(gems, _add(held, gems))
    else:
        for gems in takes:
            for returned in token_returns(_add(held, gems)):
                moves.extend(Take(gems, returned, noble) for noble in nobles)
    return moves


#: Reserving each card, or from each deck, for a player who needs no return and gets no noble.
_PLAIN_RESERVES = {card: Reserve(card) for card in CARDS}
_PLAIN_DECK_RESERVES = (Reserve(None, 1), Reserve(None, 2), Reserve(None, 3))


#: Each card's bit, for sets of cards kept as whole numbers.
_BITS = {card: 1 << index for index, card in enumerate(CARDS)}


def _costing_over(colour: int, power: int) -> int:
    """The set of cards costing more than ``power`` of ``colour``."""
    return sum(bit for card, bit in _BITS.items() if COSTS[card][colour] > power)


#: For each gem colour: a player's power in it (bonuses and tokens) -> the cards they cannot
#: pay for in that colour without gold; for the powers a player can have (others are worked
#: out). No card costs more than 7 of a colour, so the sets are empty from 7 on.
_OVER_W, _OVER_U, _OVER_G, _OVER_R, _OVER_K = (
    {power: _costing_over(colour, power) for power in range(65)} for colour in GEMS
)


def _cards_over(w: int, u: int, g: int, r: int, k: int) -> int:
    """The set of cards costing more than ``w`` white, or ``u`` blue, … or ``k`` black."""
    try:
        return _OVER_W[w] | _OVER_U[u] | _OVER_G[g] | _OVER_R[r] | _OVER_K[k]
    except KeyError:
        over = 0
        for colour, power in enumerate((w, u, g, r, k)):
            over |= _costing_over(colour, power)
        return over


RowCards = tuple[tuple[str, ...], tuple[Reserve, ...], int]

#: What _row_cards found, by row. Rows come and go (a buy or reserve from the board changes
#: one row and leaves two); the dictionary is emptied when it grows large.
_ROWS: dict[tuple[str | None, ...], RowCards] = {}
_ROWS_KEPT = 8192


def _row_cards(row: tuple[str | None, ...]) -> RowCards:
    """The face-up cards of a row of the board, reserving each (no return, no noble), and the
    set of them."""
    if None in row:
        cards = tuple([card for card in row if card is not None])
    else:
        cards = cast("tuple[str, ...]", row)
    in_row = 0
    for card in cards:
        in_row |= _BITS[card]
    found = cards, tuple([_PLAIN_RESERVES[card] for card in cards]), in_row
    if len(_ROWS) >= _ROWS_KEPT:
        _ROWS.clear()
    _ROWS[row] = found
    return found


#: Each card's bonus colour by id.
_BONUSES = {card.id: card.bonus for card in CARDS.values()}
#: Buying each card, by the payment, for a player who gets no noble: made once and shared.
_PLAIN_BUYS: dict[str, dict[Tokens, Buy]] = {card: {} for card in CARDS}


def legal_moves(state: GameState) -> list[Move]:
    """Every distinct legal move of the player to move (empty once the game is finished).

    Resigning is left out: it is always open to every player still in (see the module).

    Listed in a fixed order, which random playouts (and so the benchmark's games) depend on:
    takes (each with its returns, each with its noble), reserves of face-up cards then of
    decks, then buys of face-up then reserved cards, each payment, each noble."""
    if state.status == "finished":
        return []
    player = state.players[state.to_move]
    held = player.tokens
    bonuses = player.bonuses
    table = state.nobles
    bank = state.bank
    hw, hu, hg, hr, hk, gold = held
    count = hw + hu + hg + hr + hk + gold
    bw, bu, bg, br, bk = bonuses
    bonus_count = bw + bu + bg + br + bk
    # Most turns need no return and bring no noble: their takes and reserves are kept.
    visits = qualifying_nobles(table, bonuses) if bonus_count >= FEWEST_FOR_A_NOBLE else None
    nobles_now = tuple(visits) if visits else _NO_NOBLE

    moves: list[Move]
    if nobles_now is _NO_NOBLE and count + 3 <= TOKEN_LIMIT:
        moves = list(_PLAIN_TAKES[_bank_kind(bank)])
    else:
        moves = _takes_ending(_TAKES[_bank_kind(bank)], held, nobles_now)

    row1, row2, row3 = state.board
    rows = _ROWS
    cards1, reserves1, in_row1 = rows.get(row1) or _row_cards(row1)
    cards2, reserves2, in_row2 = rows.get(row2) or _row_cards(row2)
    cards3, reserves3, in_row3 = rows.get(row3) or _row_cards(row3)
    reserved = player.reserved
    if len(reserved) < RESERVE_LIMIT:
        gain = 1 if bank[GOLD] else 0
        if nobles_now is _NO_NOBLE and count + gain <= TOKEN_LIMIT:
            moves += reserves1
            moves += reserves2
            moves += reserves3
            deck1, deck2, deck3 = state.decks
            if deck1:
                moves.append(_PLAIN_DECK_RESERVES[0])
            if deck2:
                moves.append(_PLAIN_DECK_RESERVES[1])
            if deck3:
                moves.append(_PLAIN_DECK_RESERVES[2])
        else:
            after = (hw, hu, hg, hr, hk, gold + gain)
            endings = [(r, n) for r in token_returns(after) for n in nobles_now]
            face_up = cards1 + cards2 + cards3
            moves.extend(Reserve(card, None, r, n) for card in face_up for r, n in endings)
            decks = [level for level, deck in enumerate(state.decks, start=1) if deck]
            moves.extend(Reserve(None, level, r, n) for level in decks for r, n in endings)

    # Buys. A player cannot afford, without gold, the cards costing more in some colour than
    # their power in it (bonuses and tokens); nor, with gold, those costing more than their
    # power and all their gold in some colour. Only the cards in between need the gold they
    # lack summed up; rows with no affordable card are passed over.
    pw, pu, pg, pr, pk = bw + hw, bu + hu, bg + hg, br + hr, bk + hk
    try:
        over = _OVER_W[pw] | _OVER_U[pu] | _OVER_G[pg] | _OVER_R[pr] | _OVER_K[pk]
    except KeyError:
        over = _cards_over(pw, pu, pg, pr, pk)
    beyond = _cards_over(pw + gold, pu + gold, pg + gold, pr + gold, pk + gold) if gold else over
    bits = _BITS
    in_hand: tuple[str, ...] = ()
    in_hand_set = 0
    for reservation in reserved:
        card_id = reservation.card
        in_hand += (card_id,)
        in_hand_set |= bits[card_id]
    if (in_row1 | in_row2 | in_row3 | in_hand_set) & ~beyond:
        costs = COSTS
        for cards, in_cards in (
            (cards1, in_row1),
            (cards2, in_row2),
            (cards3, in_row3),
            (in_hand, in_hand_set),
        ):
            if not in_cards & ~beyond:
                continue
            for card_id in cards:
                bit = bits[card_id]
                if bit & beyond:
                    continue
                w, u, g, r, k = costs[card_id]
                if bit & over:
                    # The gold needed: the sum of cost - power, where above 0.
                    short = w - pw if w > pw else 0
                    if u > pu:
                        short += u - pu
                    if g > pg:
                        short += g - pg
                    if r > pr:
                        short += r - pr
                    if k > pk:
                        short += k - pk
                    if short > gold:
                        continue
                w = w - bw if w > bw else 0
                u = u - bu if u > bu else 0
                g = g - bg if g > bg else 0
                r = r - br if r > br else 0
                k = k - bk if k > bk else 0
                # Without gold there is one way to pay: the tokens needed (held, as it is
                # affordable).
                pays = payments((w, u, g, r, k), held) if gold else ((w, u, g, r, k, 0),)
                if bonus_count + 1 >= FEWEST_FOR_A_NOBLE:
                    visiting = qualifying_nobles(table, _add_bonus(bonuses, _BONUSES[card_id]))
                    if visiting:
                        moves.extend(
                            new_buy(card_id, pay, NO_TOKENS, noble)
                            for pay in pays
                            for noble in visiting
                        )
                        continue
                buys = _PLAIN_BUYS[card_id]
                for pay in pays:
                    buy = buys.get(pay)
                    if buy is None:
                        buy = buys[pay] = new_buy(card_id, pay, NO_TOKENS, None)
                    moves.append(buy)

    if not moves:
        moves = [Pass(NO_TOKENS, noble) for noble in nobles_now]
    return moves


# ---------------------------------------------------------------------------------------------
# Applying a move


def apply(state: GameState, move: Move) -> GameState:
    """Play ``move`` for the player to move (a resignation: for the seat it names); the new
    state, or IllegalMoveError saying why."""
    if state.status == "finished":
        raise _over(state, move)
    after = _quick_apply(state, move)
    return _apply_checked(state, move) if after is None else after


def _quick_apply(state: GameState, move: Move) -> GameState | None:
    """The state after ``move`` if it is plainly legal, else None (and the checks of
    :func:`_apply_checked`, rule by rule, decide and give the reasons).

    Plainly legal: a take among the takes from this bank, a reserve of a card on its row of
    the board or from a deck, a buy of a card in hand or on its row paid in one of the ways
    :func:`payments` lists; then no return or one among the legal returns, and the noble due
    (if any). This is the path of every move listed by :func:`legal_moves`, so it is written
    for speed: one function, and the new player and state made by position."""
    player = state.players[state.to_move]
    tokens, bank, board, decks = player.tokens, state.bank, state.board, state.decks
    cards, bonuses, reserved, points = player.cards, player.bonuses, player.reserved, player.points
    if isinstance(move, Take):
        gems = move.gems
        if type(gems) is not tuple or gems not in _TAKE_SETS[_bank_kind(bank)]:
            return None
        tokens, bank = _add(tokens, gems), _sub(bank, gems)
    elif isinstance(move, Buy):
        card_id, pay = move.card, move.pay
        cost = COSTS.get(card_id)
        if cost is None:
            return None
        for reservation in reserved:
            if reservation.card == card_id:
                reserved = tuple([r for r in reserved if r.card != card_id])
                break
        else:
            level = _LEVELS[card_id]
            row = board[level - 1]
            if card_id not in row:
                return None
            board, decks = _refill(board, decks, level, row.index(card_id))
        w, u, g, r, k = cost
        bw, bu, bg, br, bk = bonuses
        need_ = (
            w - bw if w > bw else 0,
            u - bu if u > bu else 0,
            g - bg if g > bg else 0,
            r - br if r > br else 0,
            k - bk if k > bk else 0,
        )
        if pay not in payments(need_, tokens):
            return None
        tokens, bank = _sub(tokens, pay), _add(bank, pay)
        cards = (*cards, card_id)
        bonuses = _add_bonus(bonuses, _BONUSES[card_id])
        points += _POINTS[card_id]
    elif isinstance(move, Reserve):
        if len(reserved) >= RESERVE_LIMIT:
            return None
        card, deck_level = move.card, move.deck
        if card is not None:
            if deck_level is not None:
                return None
            level_of_card = _LEVELS.get(card)
            if level_of_card is None:
                return None
            row = board[level_of_card - 1]
            if card not in row:
                return None
            board, decks = _refill(board, decks, level_of_card, row.index(card))
            reserved = (*reserved, _FACE_UP_RESERVATIONS[card])
        else:
            if type(deck_level) is not int or deck_level not in (1, 2, 3):
                return None
            deck = decks[deck_level - 1]
            blind = _BLIND_RESERVATIONS.get(deck[0]) if deck else None
            if blind is None:
                return None
            reserved = (*reserved, blind)
            decks = _replace_at(decks, deck_level - 1, deck[1:])
        if bank[GOLD]:
            bank, tokens = _sub(bank, _GOLD_ONE), _add(tokens, _GOLD_ONE)
    else:
        return None

    # The end of the turn: the return, then the noble.
    returned = move.returned
    if sum(tokens) > TOKEN_LIMIT:
        if type(returned) is not tuple or returned not in _return_set(tokens):
            return None
        tokens, bank = _sub(tokens, returned), _add(bank, returned)
    elif returned != NO_TOKENS:
        return None
    noble, table, nobles = move.noble, state.nobles, player.nobles
    if noble is None:
        if table and qualifying_nobles(table, bonuses):
            return None
    else:
        if noble not in qualifying_nobles(table, bonuses):
            return None
        nobles = (*nobles, noble)
        points += _NOBLE_POINTS[noble]
        table = tuple([n for n in table if n != noble])

    # The next turn, as in _next_turn (this is not a pass: no passes in a row).
    seat, rules, status = state.to_move, state.rules, state.status
    if status == "playing" and points >= rules.points_to_win:
        status = "last_round"
    players, resigned = list(state.players), state.resigned
    seats = len(players)
    if resigned:
        following = _next_seat(seat, seats, resigned)
    else:
        following = seat + 1 if seat + 1 < seats else 0
    if status == "last_round" and following <= seat:
        status = "finished"
    players[seat] = new_player(player.name, tokens, cards, bonuses, reserved, nobles, points)
    return new_state(
        rules,
        tuple(players),
        bank,
        board,
        decks,
        table,
        following,
        state.turn + 1,
        0,
        status,
        resigned,
        state.left,
    )


#: Per card id: its level, its points, and the reservation of it face up or blind (shared:
#: they are immutable).
_LEVELS = {card.id: card.level for card in CARDS.values()}
_POINTS = {card.id: card.points for card in CARDS.values()}
_FACE_UP_RESERVATIONS = {card: Reservation(card, blind=False) for card in CARDS}
_BLIND_RESERVATIONS = {card: Reservation(card, blind=True) for card in CARDS}
_NOBLE_POINTS = {noble.id: noble.points for noble in NOBLES.values()}


def _apply_checked(state: GameState, move: Move) -> GameState:
    """``apply``, checking every rule in turn: the reasons a move is illegal come from here."""
    player = state.player
    match move:
        case Take():
            player, bank, board, decks = _take(state, player, move)
        case Reserve():
            player, bank, board, decks = _reserve(state, player, move)
        case Buy():
            player, bank, board, decks = _buy(state, player, move)
        case Pass():
            _check_pass(state, player)
            bank, board, decks = state.bank, state.board, state.decks
        case Resign():
            return _resign(state, move)
        case _:
            raise IllegalMoveError.of("move.unknown", move=repr(move))

    tokens, bank = _check_return(player.tokens, bank, move.returned)
    if tokens is not player.tokens:
        player = _with(player, tokens=tokens)
    player, nobles = _visit(state.nobles, player, move.noble)
    return _next_turn(state, player, bank, board, decks, nobles, isinstance(move, Pass))


def _over(state: GameState, move: Move) -> IllegalMoveError:
    """Why no move can be played once the game is over."""
    if isinstance(move, Resign) and move.seat in range(len(state.players)):
        return IllegalMoveError.of("game.over_resign", player=state.players[move.seat].name)
    return IllegalMoveError.of("game.over")


def _take(
    state: GameState, player: Player, move: Take
) -> tuple[Player, Tokens, tuple[tuple[str | None, ...], ...], tuple[tuple[str, ...], ...]]:
    gems, bank = move.gems, state.bank
    if not _is_count(gems):
        raise IllegalMoveError.of("take.not_a_count", gems=repr(gems))
    if gems[GOLD]:
        raise IllegalMoveError.of("take.gold")
    colours = [g for g in GEMS if gems[g]]
    for g in colours:
        if gems[g] > bank[g]:
            if bank[g]:
                raise IllegalMoveError.of(
                    "take.bank_short", left=bank[g], colour=GEM_COLOURS[g], wanted=gems[g]
                )
            raise IllegalMoveError.of("take.bank_none", colour=GEM_COLOURS[g], wanted=gems[g])
    total = sum(gems)
    available = [GEM_COLOURS[g] for g in GEMS if bank[g] > 0]
    if len(colours) == 1 and total == 2:
        g = colours[0]
        if bank[g] < TWO_OF_A_COLOUR_FROM:
            raise IllegalMoveError.of("take.two_needs_four", colour=GEM_COLOURS[g], left=bank[g])
    elif total != len(colours):
        raise IllegalMoveError.of("take.not_a_take", gems=gems)
    elif total > 3:
        raise IllegalMoveError.of("take.too_many", gems=gems)
    elif total < min(3, len(available)):
        if len(available) >= 3:
            raise IllegalMoveError.of("take.too_few", gems=gems, available=available)
        raise IllegalMoveError.of("take.too_few_left", gems=gems, available=available)
    elif total == 0:
        raise IllegalMoveError.of("take.nothing")
    new = _with(player, tokens=_add(player.tokens, gems))
    return new, _sub(bank, gems), state.board, state.decks


def _reserve(
    state: GameState, player: Player, move: Reserve
) -> tuple[Player, Tokens, tuple[tuple[str | None, ...], ...], tuple[tuple[str, ...], ...]]:
    if (move.card is None) == (move.deck is None):
        raise IllegalMoveError.of("reserve.card_or_deck")
    if len(player.reserved) >= RESERVE_LIMIT:
        raise IllegalMoveError.of("reserve.limit", limit=RESERVE_LIMIT)
    board, decks = state.board, state.decks
    if move.card is not None:
        level, slot = _find_on_board(state, move.card, "reserve")
        reservation = Reservation(move.card, blind=False)
        board, decks = _refill(board, decks, level, slot)
    else:
        level = move.deck or 0
        if level not in (1, 2, 3):
            raise IllegalMoveError.of("reserve.no_such_deck", level=level)
        deck = decks[level - 1]
        if not deck:
            raise IllegalMoveError.of("reserve.deck_empty", level=level)
        reservation = Reservation(deck[0], blind=True)
        decks = _replace_at(decks, level - 1, deck[1:])
    bank = state.bank
    tokens = player.tokens
    if bank[GOLD]:
        bank = _sub(bank, _GOLD_ONE)
        tokens = _add(tokens, _GOLD_ONE)
    new = _with(player, tokens=tokens, reserved=(*player.reserved, reservation))
    return new, bank, board, decks


def _buy(
    state: GameState, player: Player, move: Buy
) -> tuple[Player, Tokens, tuple[tuple[str | None, ...], ...], tuple[tuple[str, ...], ...]]:
    card_id = move.card
    if card_id not in CARDS:
        raise IllegalMoveError.of("card.unknown", card=card_id)
    card = CARDS[card_id]
    board, decks = state.board, state.decks
    reserved = player.reserved
    mine = [r.card for r in reserved]
    if card_id in mine:
        reserved = tuple(r for r in reserved if r.card != card_id)
    else:
        level, slot = _find_on_board(state, card_id, "buy")
        board, decks = _refill(board, decks, level, slot)

    pay, held = move.pay, player.tokens
    if not _is_count(pay):
        raise IllegalMoveError.of("buy.pay_not_a_count", pay=repr(pay))
    needed = need(card, player.bonuses)
    gold_short = shortfall(needed, held)
    if gold_short > held[GOLD]:
        raise _unaffordable(card_id, needed, player, gold_short)
    suggested = default_payment(needed, held)
    for g in GEMS:
        if pay[g] > needed[g]:
            raise IllegalMoveError.of(
                "buy.overpay",
                paid=pay[g],
                colour=GEM_COLOURS[g],
                card=card_id,
                needed=needed[g],
                suggested=suggested,
            )
        if pay[g] > held[g]:
            raise IllegalMoveError.of(
                "buy.pay_more_than_held",
                paid=pay[g],
                colour=GEM_COLOURS[g],
                held=held[g],
                suggested=suggested,
            )
    gold_due = sum(needed) - sum(pay[:GOLD])
    if pay[GOLD] != gold_due:
        raise IllegalMoveError.of(
            "buy.gold_mismatch",
            card=card_id,
            need=needed,
            paid=pay,
            due=gold_due,
            gold=pay[GOLD],
            suggested=suggested,
        )
    if pay[GOLD] > held[GOLD]:
        raise IllegalMoveError.of(
            "buy.gold_more_than_held", paid=pay[GOLD], held=held[GOLD], suggested=suggested
        )
    new = Player(
        name=player.name,
        tokens=_sub(held, pay),
        cards=(*player.cards, card_id),
        bonuses=_add_bonus(player.bonuses, card.bonus),
        reserved=reserved,
        nobles=player.nobles,
        points=player.points + card.points,
    )
    return new, _add(state.bank, pay), board, decks


def _unaffordable(card_id: str, needed: Gems, player: Player, gold_short: int) -> IllegalMoveError:
    """Why ``player`` cannot buy ``card_id``: its cost, their bonuses, their tokens."""
    card = CARDS[card_id]
    held = player.tokens
    return IllegalMoveError.of(
        "buy.cannot_afford",
        card=card_id,
        cost=card.cost,
        bonus=tuple(min(b, c) for b, c in zip(player.bonuses, card.cost, strict=True)),
        need=needed,
        held=tuple(held[g] if needed[g] else 0 for g in GEMS),
        gold=held[GOLD],
        short=tuple(max(n - h, 0) for n, h in zip(needed, held, strict=False)),
        gold_short=gold_short,
    )


def _check_pass(state: GameState, player: Player) -> None:
    others = [m for m in legal_moves(state) if not isinstance(m, Pass)]
    if others:
        # The kinds of move still open, by their move type (docs/interface.md): buy, reserve, take.
        kinds = sorted({type(m).__name__.lower() for m in others})
        raise IllegalMoveError.of("pass.not_allowed", actions=kinds, legal=len(others))


def _check_return(held: Tokens, bank: Tokens, returned: Tokens) -> tuple[Tokens, Tokens]:
    """The tokens and bank after the returns, checking the 10-token limit."""
    if not _is_count(returned):
        raise IllegalMoveError.of("return.not_a_count", returned=repr(returned))
    count, giving = sum(held), sum(returned)
    excess = count - TOKEN_LIMIT
    if excess <= 0:
        if giving:
            raise IllegalMoveError.of("return.not_needed", limit=TOKEN_LIMIT, count=count)
        return held, bank
    if giving != excess:
        raise IllegalMoveError.of(
            "return.wrong_count",
            count=count,
            held=held,
            excess=excess,
            limit=TOKEN_LIMIT,
            given=giving,
        )
    for kind, n in enumerate(returned):
        if n > held[kind]:
            raise IllegalMoveError.of(
                "return.more_than_held",
                returned=n,
                colour=TOKEN_COLOURS[kind],
                have=held[kind],
                held=held,
            )
    return _sub(held, returned), _add(bank, returned)


def _visit(
    nobles: tuple[str, ...], player: Player, noble: str | None
) -> tuple[Player, tuple[str, ...]]:
    """The noble visit at the end of the turn: one at most, the player's choice, not refusable."""
    qualifying = qualifying_nobles(nobles, player.bonuses)
    if noble is None:
        if qualifying:
            raise IllegalMoveError.of(
                "noble.must_choose", nobles=qualifying, choices=noble_choices(qualifying)
            )
        return player, nobles
    if noble not in qualifying:
        if noble not in nobles:
            if not nobles:
                raise IllegalMoveError.of("noble.not_on_table_none", noble=noble)
            raise IllegalMoveError.of("noble.not_on_table", noble=noble, table=list(nobles))
        requires, bonuses = NOBLES[noble].requires, player.bonuses
        if qualifying:
            raise IllegalMoveError.of(
                "noble.not_qualified_others",
                noble=noble,
                requires=requires,
                bonuses=bonuses,
                qualifying=qualifying,
            )
        raise IllegalMoveError.of(
            "noble.not_qualified", noble=noble, requires=requires, bonuses=bonuses
        )
    visited = _with(
        player,
        nobles=(*player.nobles, noble),
        points=player.points + NOBLES[noble].points,
    )
    return visited, tuple(n for n in nobles if n != noble)


def noble_choices(qualifying: list[str]) -> dict[str, object]:
    """The nobles a player may add, as a message (``noble N1 or noble N2``): each but the
    last a ``noble.choice_or`` holding the rest, the last a ``noble.choice``."""
    said: dict[str, object] = {"code": "noble.choice", "params": {"noble": qualifying[-1]}}
    for noble in reversed(qualifying[:-1]):
        said = {"code": "noble.choice_or", "params": {"noble": noble, "more": said}}
    return said


def _next_turn(
    state: GameState,
    player: Player,
    bank: Tokens,
    board: tuple[tuple[str | None, ...], ...],
    decks: tuple[tuple[str, ...], ...],
    nobles: tuple[str, ...],
    passed: bool,
) -> GameState:
    seat, seats = state.to_move, len(state.players)
    passes = state.passes + 1 if passed else 0
    status: Status = state.status
    if status == "playing" and player.points >= state.rules.points_to_win:
        status = "last_round"
    resigned = state.resigned
    if not resigned:
        following = seat + 1 if seat + 1 < seats else 0
        still = seats
    else:
        following = _next_seat(seat, seats, resigned)
        still = seats - len(resigned)
    # The round is over when the turn goes round past the last seat still in.
    if (status == "last_round" and following <= seat) or passes >= still:
        status = "finished"
    players = list(state.players)
    players[seat] = player
    # The one GameState made on every move, so made quickly (see state.new_state).
    return new_state(
        state.rules,
        tuple(players),
        bank,
        board,
        decks,
        nobles,
        following,
        state.turn + 1,
        passes,
        status,
        resigned,
        state.left,
    )


def _next_seat(seat: int, seats: int, resigned: tuple[int, ...]) -> int:
    """The first seat after ``seat`` (going round) that has not resigned."""
    for step in range(1, seats):
        following = (seat + step) % seats
        if following not in resigned:
            return following
    return seat


# ---------------------------------------------------------------------------------------------
# Resigning


def _resign(state: GameState, move: Resign) -> GameState:
    """The player at ``move.seat`` leaves: tokens back to the bank, reserved cards out of the
    game face down, cards and nobles kept but counting for nothing (docs/rules.md, "Leaving")."""
    seat, seats = move.seat, len(state.players)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise IllegalMoveError.of("resign.no_such_seat", seat=repr(seat), last=seats - 1)
    player = state.players[seat]
    if seat in state.resigned:
        still_in = [state.players[s].name for s in state.still_in()]
        raise IllegalMoveError.of("resign.already", player=player.name, still_in=still_in)
    resigned = (*state.resigned, seat)
    still = [s for s in range(seats) if s not in resigned]
    passes = state.passes - 1 if _in_run_of_passes(state, seat) else state.passes
    status: Status = state.status
    to_move = state.to_move
    if len(still) == 1:
        status, to_move = "finished", still[0]
    else:
        if seat == to_move:
            to_move = _next_seat(seat, seats, resigned)
            if status == "last_round" and to_move <= seat:
                status = "finished"
        if passes >= len(still):
            status = "finished"
    out = Player(
        name=player.name,
        cards=player.cards,
        bonuses=player.bonuses,
        nobles=player.nobles,
        points=player.points,
    )
    return GameState(
        rules=state.rules,
        players=_replace_at(state.players, seat, out),
        bank=_add(state.bank, player.tokens),
        board=state.board,
        decks=state.decks,
        nobles=state.nobles,
        to_move=to_move,
        turn=state.turn + 1,
        passes=passes,
        status=status,
        resigned=resigned,
        left=(*state.left, *(r.card for r in player.reserved)),
    )


def _in_run_of_passes(state: GameState, seat: int) -> bool:
    """Whether ``seat``'s last move is one of the passes in a row just made: those are the
    moves of the ``state.passes`` seats still in just before the player to move."""
    counted, at, seats = 0, state.to_move, len(state.players)
    while counted < state.passes:
        at = (at - 1) % seats
        if at in state.resigned:
            continue
        if at == seat:
            return True
        counted += 1
    return False


def outcome(state: GameState) -> list[str]:
    """The winners' names once the game is finished (empty before): most prestige, then
    fewest development cards bought; players still tied share the win. A player who
    resigned never wins."""
    if state.status != "finished":
        return []
    players = state.players
    if state.resigned:
        players = tuple(p for s, p in enumerate(players) if s not in state.resigned)
    best = max((p.points, -len(p.cards)) for p in players)
    return [p.name for p in players if (p.points, -len(p.cards)) == best]
