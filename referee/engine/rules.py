"""The rules: which moves are legal, what a move does, and who has won.

``legal_moves(state)`` lists every distinct legal move of the player to move, each payment,
each multiset of returned tokens and each noble choice as a move of its own.
``apply(state, move)`` checks the move rule by rule and returns the new state, or raises
:class:`~referee.errors.IllegalMoveError` naming the rule broken and the facts behind it.
``outcome(state)`` names the winners of a finished game.

Resigning (:class:`~referee.engine.moves.Resign`) is the exception: any player still in may
resign at any time, so ``legal_moves`` never lists it (it would be in every list, and random
playouts would resign at once); ``apply`` accepts it for any seat still in, whoever is to
move. Turns pass over resigned seats; the last round ends after the last seat still in has
moved; passes in a row end the game when there are as many as players still in; when one
player is left the game ends and they win. A resigned player never wins.

The two are written separately (generation for speed, checking for good reasons) and the test
suite holds them to each other: ``apply`` accepts a move exactly when ``legal_moves`` lists it.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product
from typing import TypeVar

from referee.engine.cards import (
    CARDS,
    GEM_COLOURS,
    GEMS,
    GOLD,
    NO_TOKENS,
    NOBLES,
    TOKEN_COLOURS,
    Gems,
    Tokens,
)
from referee.engine.moves import Buy, Move, Pass, Reserve, Resign, Take
from referee.engine.state import (
    RESERVE_LIMIT,
    TOKEN_LIMIT,
    GameState,
    Player,
    Reservation,
    Status,
    affordable,
    describe_tokens,
    need,
    qualifying_nobles,
    shortfall,
)
from referee.errors import IllegalMoveError

# ---------------------------------------------------------------------------------------------
# Generation


@lru_cache(maxsize=4096)
def token_takes(bank: Tokens) -> tuple[Tokens, ...]:
    """Every legal take from ``bank``: 3 different colours (or every colour left, when fewer
    than 3 have tokens), and 2 of any colour with at least 4 in the bank."""
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
        if bank[g] >= 4:
            counts = [0] * 6
            counts[g] = 2
            takes.append(_tokens(counts))
    return tuple(takes)


@lru_cache(maxsize=8192)
def token_returns(held: Tokens) -> tuple[Tokens, ...]:
    """Every multiset of tokens that brings ``held`` down to exactly 10 (just the empty return
    when 10 or fewer are held)."""
    excess = sum(held) - TOKEN_LIMIT
    if excess <= 0:
        return (NO_TOKENS,)
    ranges = [range(min(h, excess) + 1) for h in held]
    return tuple(_tokens(r) for r in product(*ranges) if sum(r) == excess)


@lru_cache(maxsize=16384)
def payments(need_: Gems, held: Tokens) -> tuple[Tokens, ...]:
    """Every distinct way to pay ``need_`` from ``held``: for each colour, any split between
    that colour's tokens and gold; gold may stand in even where the colour is held."""
    gold = held[GOLD]
    ranges = [range(max(n - h, 0), n + 1) for n, h in zip(need_, held, strict=False)]
    if sum(r.start for r in ranges) > gold:
        return ()
    pays = []
    for golds in product(*ranges):
        spent = sum(golds)
        if spent <= gold:
            w, u, g, r, k = (n - x for n, x in zip(need_, golds, strict=True))
            pays.append((w, u, g, r, k, spent))
    return tuple(pays)


def default_payment(need_: Gems, held: Tokens) -> Tokens:
    """The payment used when a buy names none: coloured tokens first, gold for the rest."""
    w, u, g, r, k = (min(n, h) for n, h in zip(need_, held, strict=False))
    return (w, u, g, r, k, shortfall(need_, held))


def _noble_choices(nobles: tuple[str, ...], bonuses: Gems) -> list[str | None]:
    return list(qualifying_nobles(nobles, bonuses)) or [None]


@lru_cache(maxsize=4096)
def _plain_takes(bank: Tokens) -> tuple[Take, ...]:
    """The takes from ``bank`` for a player who needs no return and gets no noble."""
    return tuple(Take(gems) for gems in token_takes(bank))


#: Reserving each card, or from each deck, for a player who needs no return and gets no noble.
_PLAIN_RESERVES = {card: Reserve(card) for card in CARDS}
_PLAIN_DECK_RESERVES = {level: Reserve(None, level) for level in (1, 2, 3)}


def legal_moves(state: GameState) -> list[Move]:
    """Every distinct legal move of the player to move (empty once the game is finished).

    Resigning is left out: it is always open to every player still in (see the module)."""
    if state.status == "finished":
        return []
    player = state.player
    held = player.tokens
    moves: list[Move] = []
    nobles_now = _noble_choices(state.nobles, player.bonuses)
    # Most turns need no return and bring no noble: their takes and reserves are built once.
    plain = nobles_now == [None]
    count = sum(held)

    if plain and count + 3 <= TOKEN_LIMIT:
        moves.extend(_plain_takes(state.bank))
    else:
        for gems in token_takes(state.bank):
            for returned in token_returns(_add(held, gems)):
                for noble in nobles_now:
                    moves.append(Take(gems, returned, noble))

    face_up = state.face_up()
    if len(player.reserved) < RESERVE_LIMIT:
        gain = _GOLD_ONE if state.bank[GOLD] else NO_TOKENS
        decks = [level for level, deck in enumerate(state.decks, start=1) if deck]
        if plain and count + gain[GOLD] <= TOKEN_LIMIT:
            moves.extend(_PLAIN_RESERVES[card] for card in face_up)
            moves.extend(_PLAIN_DECK_RESERVES[level] for level in decks)
        else:
            endings = [(r, n) for r in token_returns(_add(held, gain)) for n in nobles_now]
            moves.extend(Reserve(card, None, r, n) for card in face_up for r, n in endings)
            moves.extend(Reserve(None, level, r, n) for level in decks for r, n in endings)

    bonuses = player.bonuses
    for card_id in affordable(face_up + [r.card for r in player.reserved], bonuses, held):
        bought = CARDS[card_id]
        nobles_after = _noble_choices(state.nobles, _add_bonus(bonuses, bought.bonus))
        for pay in payments(need(bought, bonuses), held):
            for noble in nobles_after:
                moves.append(Buy(card_id, pay, NO_TOKENS, noble))

    if not moves:
        moves = [Pass(NO_TOKENS, noble) for noble in nobles_now]
    return moves


# ---------------------------------------------------------------------------------------------
# Applying a move


def apply(state: GameState, move: Move) -> GameState:
    """Play ``move`` for the player to move (a resignation: for the seat it names); the new
    state, or IllegalMoveError saying why."""
    if state.status == "finished":
        raise IllegalMoveError(_over(state, move))
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
            raise IllegalMoveError(
                f"{move!r} is not a move: expected take, reserve, buy, pass or resign"
            )

    tokens, bank = _check_return(player.tokens, bank, move.returned)
    if tokens is not player.tokens:
        player = _with(player, tokens=tokens)
    player, nobles = _visit(state.nobles, player, move.noble)
    return _next_turn(state, player, bank, board, decks, nobles, isinstance(move, Pass))


def _over(state: GameState, move: Move) -> str:
    if isinstance(move, Resign) and move.seat in range(len(state.players)):
        name = state.players[move.seat].name
        return f"the game is over: {name} cannot resign from a finished game"
    return "the game is over: no more moves can be played"


def _take(
    state: GameState, player: Player, move: Take
) -> tuple[Player, Tokens, tuple[tuple[str | None, ...], ...], tuple[tuple[str, ...], ...]]:
    gems, bank = move.gems, state.bank
    if not _is_count(gems):
        raise IllegalMoveError(f"a take needs a count per colour, got {gems!r}")
    if gems[GOLD]:
        raise IllegalMoveError("gold cannot be taken: a player gets gold only by reserving a card")
    colours = [g for g in GEMS if gems[g]]
    for g in colours:
        if gems[g] > bank[g]:
            have = f"only {bank[g]}" if bank[g] else "none"
            raise IllegalMoveError(
                f"the bank has {have} {GEM_COLOURS[g]} left: you cannot take {gems[g]}"
            )
    total = sum(gems)
    available = [GEM_COLOURS[g] for g in GEMS if bank[g] > 0]
    if len(colours) == 1 and total == 2:
        g = colours[0]
        if bank[g] < 4:
            raise IllegalMoveError(
                f"taking 2 {GEM_COLOURS[g]} needs at least 4 {GEM_COLOURS[g]} in the bank "
                f"before taking; it has {bank[g]}: take 3 different colours instead"
            )
    elif total != len(colours):
        raise IllegalMoveError(
            f"take {describe_tokens(gems)} is not a take: take 3 tokens of different "
            "colours, or 2 of one colour"
        )
    elif total > 3:
        raise IllegalMoveError(
            f"take {describe_tokens(gems)} is too many: take at most 3 tokens of different colours"
        )
    elif total < min(3, len(available)):
        raise IllegalMoveError(
            f"take {describe_tokens(gems)} is too few: the bank has "
            f"{', '.join(available)}, so take 3 different colours"
            if len(available) >= 3
            else f"take {describe_tokens(gems)} is too few: take one of each colour the bank "
            f"has ({', '.join(available)})"
        )
    elif total == 0:
        raise IllegalMoveError("a take must take at least one token")
    new = _with(player, tokens=_add(player.tokens, gems))
    return new, _sub(bank, gems), state.board, state.decks


def _reserve(
    state: GameState, player: Player, move: Reserve
) -> tuple[Player, Tokens, tuple[tuple[str | None, ...], ...], tuple[tuple[str, ...], ...]]:
    if (move.card is None) == (move.deck is None):
        raise IllegalMoveError("a reserve names either a face-up card or a deck level, not both")
    if len(player.reserved) >= RESERVE_LIMIT:
        raise IllegalMoveError(
            f"you already hold {RESERVE_LIMIT} reserved cards, the most allowed: buy one of "
            "them before reserving another"
        )
    board, decks = state.board, state.decks
    if move.card is not None:
        level, slot = _find_on_board(state, move.card, "reserve")
        reservation = Reservation(move.card, blind=False)
        board, decks = _refill(board, decks, level, slot)
    else:
        level = move.deck or 0
        if level not in (1, 2, 3):
            raise IllegalMoveError(f"there is no level {level} deck: the levels are 1, 2 and 3")
        deck = decks[level - 1]
        if not deck:
            raise IllegalMoveError(
                f"the level {level} deck is empty: reserve a face-up card or another level"
            )
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
        raise IllegalMoveError(f"there is no card {card_id!r}: card ids run 1-01 … 3-20")
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
        raise IllegalMoveError(f"a payment needs a count per colour, got {pay!r}")
    needed = need(card, player.bonuses)
    gold_short = shortfall(needed, held)
    if gold_short > held[GOLD]:
        raise IllegalMoveError(_unaffordable(card_id, needed, player, gold_short))
    for g in GEMS:
        if pay[g] > needed[g]:
            raise IllegalMoveError(
                f"you pay {pay[g]} {GEM_COLOURS[g]} but {card_id} needs only {needed[g]} "
                f"{GEM_COLOURS[g]} after your bonuses: pay {_payment_hint(needed, held)}"
            )
        if pay[g] > held[g]:
            raise IllegalMoveError(
                f"you pay {pay[g]} {GEM_COLOURS[g]} but hold only {held[g]}: pay "
                f"{_payment_hint(needed, held)}"
            )
    gold_due = sum(needed) - sum(pay[:GOLD])
    if pay[GOLD] != gold_due:
        raise IllegalMoveError(
            f"{card_id} needs {describe_tokens(needed)} after your bonuses; paying "
            f"{describe_tokens(pay)} leaves {gold_due} to pay in gold, not {pay[GOLD]}: pay "
            f"{_payment_hint(needed, held)}"
        )
    if pay[GOLD] > held[GOLD]:
        raise IllegalMoveError(
            f"you pay {pay[GOLD]} gold but hold only {held[GOLD]}: pay "
            f"{_payment_hint(needed, held)}"
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


def _unaffordable(card_id: str, needed: Gems, player: Player, gold_short: int) -> str:
    card = CARDS[card_id]
    held = player.tokens
    bonus = tuple(min(b, c) for b, c in zip(player.bonuses, card.cost, strict=True))
    short = tuple(max(n - h, 0) for n, h in zip(needed, held, strict=False))
    held_gems = tuple(held[g] if needed[g] else 0 for g in GEMS)
    return (
        f"you cannot afford {card_id}: it costs {describe_tokens(card.cost)}; after your "
        f"bonuses ({describe_tokens(bonus, 'none')}) you need {describe_tokens(needed)} and "
        f"hold {describe_tokens(held_gems, 'none of those')} and {held[GOLD]} gold, short by "
        f"{describe_tokens(short)}: {gold_short} gold would be needed"
    )


def _payment_hint(needed: Gems, held: Tokens) -> str:
    return describe_tokens(default_payment(needed, held))


def _check_pass(state: GameState, player: Player) -> None:
    others = [m for m in legal_moves(state) if not isinstance(m, Pass)]
    if others:
        kinds = sorted({type(m).__name__.lower() for m in others})
        raise IllegalMoveError(
            f"you cannot pass while another action is possible: you can still "
            f"{' or '.join(kinds)} ({len(others)} legal moves; ask for the list of moves)"
        )


def _check_return(held: Tokens, bank: Tokens, returned: Tokens) -> tuple[Tokens, Tokens]:
    """The tokens and bank after the returns, checking the 10-token limit."""
    if not _is_count(returned):
        raise IllegalMoveError(f"a return needs a count per colour, got {returned!r}")
    count, giving = sum(held), sum(returned)
    excess = count - TOKEN_LIMIT
    if excess <= 0:
        if giving:
            raise IllegalMoveError(
                f"returning tokens is only for a player above {TOKEN_LIMIT}; after this move "
                f"you hold {count}: leave out the return"
            )
        return held, bank
    if giving != excess:
        raise IllegalMoveError(
            f"after this move you hold {count} tokens ({describe_tokens(held)}): return "
            f"exactly {excess} to keep {TOKEN_LIMIT}, not {giving}"
        )
    for kind, n in enumerate(returned):
        if n > held[kind]:
            raise IllegalMoveError(
                f"you cannot return {n} {TOKEN_COLOURS[kind]}: after this move you hold "
                f"{held[kind]} ({describe_tokens(held)})"
            )
    return _sub(held, returned), _add(bank, returned)


def _visit(
    nobles: tuple[str, ...], player: Player, noble: str | None
) -> tuple[Player, tuple[str, ...]]:
    """The noble visit at the end of the turn: one at most, the player's choice, not refusable."""
    qualifying = qualifying_nobles(nobles, player.bonuses)
    if noble is None:
        if qualifying:
            choices = " or ".join(f"noble {n}" for n in qualifying)
            raise IllegalMoveError(
                f"{' and '.join(qualifying)} visit{'s' if len(qualifying) == 1 else ''} at the "
                f"end of this move and cannot be refused; add {choices}"
            )
        return player, nobles
    if noble not in qualifying:
        if noble not in nobles:
            table = ", ".join(nobles) or "none"
            raise IllegalMoveError(f"{noble} is not on the table (nobles there: {table})")
        req = NOBLES[noble].requires
        raise IllegalMoveError(
            f"{noble} requires bonuses of {describe_tokens(req)}; after this move yours are "
            f"{describe_tokens(player.bonuses, 'none')}"
            + (f": only {', '.join(qualifying)} can visit" if qualifying else "")
        )
    visited = _with(
        player,
        nobles=(*player.nobles, noble),
        points=player.points + NOBLES[noble].points,
    )
    return visited, tuple(n for n in nobles if n != noble)


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
    # Positional, in field order: the one GameState made on every move, so made quickly.
    return GameState(
        state.rules,
        _replace_at(state.players, seat, player),
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
    game face down, cards and nobles kept but counting for nothing (RULES.md, "Leaving")."""
    seat, seats = move.seat, len(state.players)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise IllegalMoveError(f"there is no seat {seat!r}: the seats are 0 to {seats - 1}")
    player = state.players[seat]
    if seat in state.resigned:
        others = ", ".join(state.players[s].name for s in state.still_in())
        raise IllegalMoveError(
            f"{player.name} has resigned already and is out of the game: only a player still "
            f"in ({others}) can resign"
        )
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
    counts = list(bonuses)
    counts[colour] += 1
    w, u, g, r, k = counts
    return (w, u, g, r, k)


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
        raise IllegalMoveError(f"there is no card {card_id!r}: card ids run 1-01 … 3-20")
    where = "face up on the board" + (" nor among your reserved cards" if verb == "buy" else "")
    face_up = ", ".join(state.face_up()) or "none"
    raise IllegalMoveError(
        f"{card_id} is not {where}: you can {verb} a face-up card ({face_up})"
        + (" or one you reserved" if verb == "buy" else "")
    )


def _refill(
    board: tuple[tuple[str | None, ...], ...],
    decks: tuple[tuple[str, ...], ...],
    level: int,
    slot: int,
) -> tuple[tuple[tuple[str | None, ...], ...], tuple[tuple[str, ...], ...]]:
    """Refill ``slot`` of ``level`` from the top of that level's deck, or leave it empty."""
    deck = decks[level - 1]
    new_card = deck[0] if deck else None
    row = _replace_at(board[level - 1], slot, new_card)
    board = _replace_at(board, level - 1, row)
    if deck:
        decks = _replace_at(decks, level - 1, deck[1:])
    return board, decks
