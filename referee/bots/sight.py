"""What a seat's view tells a bot, and the positions consistent with it (determinisations).

A bot is handed a :class:`~referee.engine.view.GameView`, never the referee's
:class:`~referee.engine.state.GameState`. The engine's rules work on states, so a bot builds
states of its own from what it sees: :func:`determinise` deals the cards the viewer has not
seen (the *unseen* cards: each level's cards that are neither face up, nor bought, nor in a
hand where the viewer can see them) into the decks, into the other players' blind reserved
cards and, for what is left over, into the cards that left the game with resigned players.
Every state it builds gives the same view to the viewer as the real one, so whatever a bot
decides from it can only depend on what the view shows.

What a view does not say and a determinisation has to assume:

* ``passes`` (passes made in a row just now) is not in a view: a determinisation says 0.
  It only matters to a playout that ends in a run of passes.
* the order in which players resigned, and how many cards left the game with them (a
  resigned player's reserved cards leave face down): seats in seat order, and every unseen
  card not needed for the decks or blind cards is put among the cards that left.

The player's own legal moves never depend on what is hidden (their blind cards are visible
to them, deck sizes are public), so :func:`own_moves` lists them from a determinisation made
without randomness: any determinisation gives the same list.
"""

from __future__ import annotations

import random

from referee.engine import (
    GameState,
    GameView,
    Move,
    Player,
    Reservation,
    ReservedView,
    legal_moves,
)
from referee.engine.cards import LEVEL_CARDS, LEVELS


class ViewError(ValueError):
    """A view a bot cannot play from: the public view, the game over, not the viewer's turn,
    or a view no position could give (more hidden cards than unseen ones)."""


def viewer_seat(seen: GameView) -> int:
    """The seat of the view's viewer, who must be the player to move."""
    if not isinstance(seen, GameView):
        # A bot takes a view and nothing else: a GameState (or anything holding one) is
        # refused here even when the type checker is bypassed.
        raise TypeError(f"a bot plays from a GameView, not from {type(seen).__name__}")
    if seen.status == "finished" or seen.to_move is None:
        raise ViewError("the game is over: there is no move to choose")
    if seen.viewer is None:
        raise ViewError("a bot plays from its own seat's view, not from the public view")
    if seen.viewer != seen.to_move:
        raise ViewError(f"it is {seen.to_move}'s turn, not {seen.viewer}'s")
    names = [p.name for p in seen.players]
    return names.index(seen.viewer)


def unseen_cards(seen: GameView) -> dict[int, list[str]]:
    """Per level, the cards the viewer has not seen, in id order: the pool a determinisation
    deals the decks, the others' blind reserved cards and the cards that left the game from."""
    known: set[str] = {card for row in seen.board for card in row if card is not None}
    for p in seen.players:
        known.update(p.cards)
        known.update(r.card for r in p.reserved if r.card is not None)
    return {level: [c for c in LEVEL_CARDS[level] if c not in known] for level in LEVELS}


class Dealer:
    """Deals positions consistent with one view: what is fixed is worked out once, so that
    a search dealing a position for every playout pays only for the shuffles."""

    def __init__(self, seen: GameView) -> None:
        self.seen = seen
        self.seat = viewer_seat(seen)
        self.pools = unseen_cards(seen)
        # The players as the view shows them; None for a hand with hidden (blind) cards.
        self.players: list[Player | None] = []
        for s, p in enumerate(seen.players):
            hidden = any(r.card is None for r in p.reserved)
            if hidden and s == self.seat:
                raise ViewError("the view hides one of the viewer's own reserved cards")
            self.players.append(None if hidden else self._player(s, p.reserved))
        hidden_count = {level: 0 for level in LEVELS}
        for p in seen.players:
            for r in p.reserved:
                if r.card is None:
                    hidden_count[r.level] += 1
        for level, size in zip(LEVELS, seen.deck_sizes, strict=True):
            if hidden_count[level] + size > len(self.pools[level]):
                raise ViewError(
                    f"the view hides {hidden_count[level] + size} level {level} cards but "
                    f"only {len(self.pools[level])} are unseen"
                )
        self.resigned = tuple(s for s, p in enumerate(seen.players) if p.resigned)

    def _player(self, seat: int, reserved: tuple[ReservedView, ...]) -> Player:
        p = self.seen.players[seat]
        return Player(
            name=p.name,
            tokens=p.tokens,
            cards=p.cards,
            bonuses=p.bonuses,
            reserved=tuple(Reservation(r.card or "", r.blind) for r in reserved),
            nobles=p.nobles,
            points=p.points,
        )

    def deal(self, rng: random.Random | None) -> GameState:
        """A position: the unseen cards shuffled by ``rng`` (kept in id order when None) into
        the others' blind reserved cards, then the decks; the rest left the game."""
        seen = self.seen
        pools = {level: list(pool) for level, pool in self.pools.items()}
        if rng is not None:
            for level in LEVELS:
                rng.shuffle(pools[level])
        players = list(self.players)
        for s, player in enumerate(players):
            if player is None:
                dealt = []
                for r in seen.players[s].reserved:
                    card = r.card if r.card is not None else pools[r.level].pop()
                    dealt.append(ReservedView(card, r.level, r.blind))
                players[s] = self._player(s, tuple(dealt))
        decks = tuple(
            tuple(pools[level][:size]) for level, size in zip(LEVELS, seen.deck_sizes, strict=True)
        )
        left = tuple(
            c
            for level, size in zip(LEVELS, seen.deck_sizes, strict=True)
            for c in pools[level][size:]
        )
        return GameState(
            rules=seen.rules,
            players=tuple(p for p in players if p is not None),
            bank=seen.bank,
            board=seen.board,
            decks=decks,
            nobles=seen.nobles,
            to_move=self.seat,
            turn=seen.turn,
            passes=0,
            status=seen.status,
            resigned=self.resigned,
            left=left,
        )


def determinise(seen: GameView, rng: random.Random | None) -> GameState:
    """A position consistent with ``seen``: the unseen cards dealt at random from ``rng`` (in
    id order when ``rng`` is None) into the others' blind reserved cards and the decks."""
    return Dealer(seen).deal(rng)


def own_moves(seen: GameView) -> list[Move]:
    """Every legal move of the viewer (the player to move), as the engine lists them."""
    return legal_moves(determinise(seen, None))
