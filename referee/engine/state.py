"""The immutable game state and the read-only questions asked of it.

A :class:`GameState` is everything the referee knows, secrets included (deck order, blind
reserved cards). It never leaves the referee whole: what a player or the public may see comes
from :func:`referee.engine.view.view`.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal

from referee.engine.cards import (
    CARDS,
    NO_GEMS,
    NO_TOKENS,
    NOBLES,
    TOKEN_COLOURS,
    Card,
    Gems,
    Tokens,
)

Status = Literal["playing", "last_round", "finished"]

#: A player holding more tokens than this returns some at the end of the turn.
TOKEN_LIMIT = 10
#: A player may hold at most this many reserved cards.
RESERVE_LIMIT = 3
#: Two tokens of one colour may be taken only when the bank holds at least this many of it.
TWO_OF_A_COLOUR_FROM = 4
SLOTS_PER_LEVEL = 4


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options a game is played with."""

    points_to_win: int = 15
    gold: int = 5


@dataclass(frozen=True, slots=True)
class Reservation:
    """A card in a player's hand of reserved cards; ``blind`` when taken unseen from a deck."""

    card: str
    blind: bool

    @property
    def level(self) -> int:
        return CARDS[self.card].level


@dataclass(frozen=True, slots=True)
class Player:
    """One seat: tokens held, cards bought (in order), reserved cards, nobles and prestige.

    ``bonuses`` and ``points`` follow from ``cards`` and ``nobles``; they are kept alongside
    because every legal-move question asks for them.
    """

    name: str
    tokens: Tokens = NO_TOKENS
    cards: tuple[str, ...] = ()
    bonuses: Gems = NO_GEMS
    reserved: tuple[Reservation, ...] = ()
    nobles: tuple[str, ...] = ()
    points: int = 0

    @property
    def token_count(self) -> int:
        return sum(self.tokens)


@dataclass(frozen=True, slots=True)
class GameState:
    """A position: the bank, the board, the decks, the nobles on the table and the players.

    ``board[i]`` and ``decks[i]`` belong to level ``i + 1``; a board slot is a card id or
    ``None`` when its deck ran out; decks are listed top first. ``turn`` counts the moves made,
    ``passes`` the passes made in a row just now by players still in the game.

    ``resigned`` lists the seats that left the game, in the order they resigned; ``left``
    the cards that left the game with them (their reserved cards, face down), in that order.
    Both are kept here rather than on :class:`Player`: they are facts of the seating (like
    ``to_move``), the hot paths that rebuild a player on every move need not carry them,
    and "has anyone resigned?" is one test of an empty tuple.
    """

    rules: Rules
    players: tuple[Player, ...]
    bank: Tokens
    board: tuple[tuple[str | None, ...], ...]
    decks: tuple[tuple[str, ...], ...]
    nobles: tuple[str, ...]
    to_move: int = 0
    turn: int = 0
    passes: int = 0
    status: Status = "playing"
    resigned: tuple[int, ...] = ()
    left: tuple[str, ...] = ()

    @property
    def player(self) -> Player:
        """The player whose turn it is."""
        return self.players[self.to_move]

    def still_in(self) -> list[int]:
        """The seats of the players still in the game (not resigned), in seat order."""
        return [seat for seat in range(len(self.players)) if seat not in self.resigned]

    def seat_of(self, name: str) -> int:
        """The seat of the player called ``name`` (case-insensitive)."""
        wanted = name.casefold()
        for seat, player in enumerate(self.players):
            if player.name.casefold() == wanted:
                return seat
        names = ", ".join(p.name for p in self.players)
        raise KeyError(f"no player called {name!r} in this game; the players are {names}")

    def face_up(self) -> list[str]:
        """The face-up cards on the board, level by level, slot by slot."""
        return [card for row in self.board for card in row if card is not None]


#: The fields of :class:`Player` and of :class:`GameState`, in order (see :func:`new_state`).
PLAYER_FIELDS: Final = ("name", "tokens", "cards", "bonuses", "reserved", "nobles", "points")
STATE_FIELDS: Final = (
    "rules",
    "players",
    "bank",
    "board",
    "decks",
    "nobles",
    "to_move",
    "turn",
    "passes",
    "status",
    "resigned",
    "left",
)


# ---------------------------------------------------------------------------------------------
# Made quickly
#
# ``apply`` makes a new GameState and a new Player on every move. A frozen dataclass's
# ``__init__`` sets each field through ``object.__setattr__``; these functions make the very
# same objects (all fields set, by position, in field order) by calling each slot's own
# setter, in half the time. They are for the engine's hot paths; everywhere else, call the
# class. The engine's tests check that they and the classes agree, field for field.

_new = object.__new__
(
    _set_name,
    _set_tokens,
    _set_cards,
    _set_bonuses,
    _set_reserved,
    _set_player_nobles,
    _set_points,
) = (Player.__dict__[name].__set__ for name in PLAYER_FIELDS)
(
    _set_rules,
    _set_players,
    _set_bank,
    _set_board,
    _set_decks,
    _set_nobles,
    _set_to_move,
    _set_turn,
    _set_passes,
    _set_status,
    _set_resigned,
    _set_left,
) = (GameState.__dict__[name].__set__ for name in STATE_FIELDS)


def new_player(
    name: str,
    tokens: Tokens,
    cards: tuple[str, ...],
    bonuses: Gems,
    reserved: tuple[Reservation, ...],
    nobles: tuple[str, ...],
    points: int,
) -> Player:
    """``Player(name, tokens, cards, bonuses, reserved, nobles, points)``, made quickly."""
    player: Player = _new(Player)
    _set_name(player, name)
    _set_tokens(player, tokens)
    _set_cards(player, cards)
    _set_bonuses(player, bonuses)
    _set_reserved(player, reserved)
    _set_player_nobles(player, nobles)
    _set_points(player, points)
    return player


def new_state(
    rules: Rules,
    players: tuple[Player, ...],
    bank: Tokens,
    board: tuple[tuple[str | None, ...], ...],
    decks: tuple[tuple[str, ...], ...],
    nobles: tuple[str, ...],
    to_move: int,
    turn: int,
    passes: int,
    status: Status,
    resigned: tuple[int, ...],
    left: tuple[str, ...],
) -> GameState:
    """``GameState(...)`` with every field given by position, made quickly."""
    state: GameState = _new(GameState)
    _set_rules(state, rules)
    _set_players(state, players)
    _set_bank(state, bank)
    _set_board(state, board)
    _set_decks(state, decks)
    _set_nobles(state, nobles)
    _set_to_move(state, to_move)
    _set_turn(state, turn)
    _set_passes(state, passes)
    _set_status(state, status)
    _set_resigned(state, resigned)
    _set_left(state, left)
    return state


def need(card: Card, bonuses: Gems) -> Gems:
    """What ``card`` still costs per gem colour after the ``bonuses`` (never below 0)."""
    c, b = card.cost, bonuses
    return (
        max(c[0] - b[0], 0),
        max(c[1] - b[1], 0),
        max(c[2] - b[2], 0),
        max(c[3] - b[3], 0),
        max(c[4] - b[4], 0),
    )


def shortfall(need_: Gems, held: Tokens) -> int:
    """How many gold tokens a purchase needs once every coloured token held is spent."""
    return sum(max(n - h, 0) for n, h in zip(need_, held, strict=False))


def can_afford(card: Card, player: Player) -> bool:
    return shortfall(need(card, player.bonuses), player.tokens) <= player.tokens[5]


#: Each card's cost by id: one dictionary look-up where ``CARDS[id].cost`` takes two steps.
COSTS: Final = MappingProxyType({card.id: card.cost for card in CARDS.values()})
#: Each noble's requirement by id.
REQUIREMENTS: Final = MappingProxyType({noble.id: noble.requires for noble in NOBLES.values()})
#: The fewest bonuses in all that any noble requires: with fewer, no noble can visit.
FEWEST_FOR_A_NOBLE: Final = min((sum(n.requires) for n in NOBLES.values()), default=0)


def affordable(cards: list[str], bonuses: Gems, held: Tokens) -> list[str]:
    """The cards among ``cards`` that ``bonuses`` and the tokens ``held`` (gold standing in
    for any shortfall) can pay for.

    The same question as :func:`can_afford`, asked of every card in sight on every move, so
    it is written out colour by colour: the gold needed is the sum over colours of
    ``cost - bonus - tokens`` where that is above 0.
    """
    bw, bu, bg, br, bk = bonuses
    hw, hu, hg, hr, hk, gold = held
    found = []
    for card_id in cards:
        w, u, g, r, k = CARDS[card_id].cost
        w -= bw + hw
        u -= bu + hu
        g -= bg + hg
        r -= br + hr
        k -= bk + hk
        short = (w if w > 0 else 0) + (u if u > 0 else 0) + (g if g > 0 else 0)
        short += (r if r > 0 else 0) + (k if k > 0 else 0)
        if short <= gold:
            found.append(card_id)
    return found


def qualifying_nobles(nobles: tuple[str, ...], bonuses: Gems) -> list[str]:
    """The nobles among ``nobles`` whose requirements ``bonuses`` meet."""
    w, u, g, r, k = bonuses
    if w + u + g + r + k < FEWEST_FOR_A_NOBLE:
        return []
    requirements = REQUIREMENTS
    found = []
    for noble_id in nobles:
        rw, ru, rg, rr, rk = requirements[noble_id]
        if w >= rw and u >= ru and g >= rg and r >= rr and k >= rk:
            found.append(noble_id)
    return found


def describe_tokens(counts: tuple[int, ...], zero: str = "nothing") -> str:
    """``(0, 0, 0, 2, 0, 1)`` -> ``"2 red, 1 gold"``: counts for people, in colour order.

    Works for gem counts (5-tuples) too, as the gem colours come first.
    """
    parts = [f"{n} {TOKEN_COLOURS[kind]}" for kind, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else zero
