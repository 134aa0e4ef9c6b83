"""The words of the board (:mod:`referee.wording.board`): in every board letter, on the
command line's ``referee show`` and on the replay page."""

from referee.wording.catalogue import entry

BOARD = "on every board"

entry("board.to_move", "{player} to move", {"player": "name"}, when=BOARD + ": who moves")
entry(
    "board.last_round",
    "{player} to move · last round: the game ends after {last}'s turn",
    {"player": "name", "last": "name"},
    when=BOARD + ": who moves, in the last round",
)
entry(
    "board.finished",
    "finished: {winners:and} wins",
    {"winners": "names"},
    plural="finished: {winners:and} win",
    count="winners",
    when=BOARD + " of a finished game",
)
entry(
    "board.deck",
    "{cards} card left in the deck",
    {"cards": "number"},
    plural="{cards} cards left in the deck",
    count="cards",
    when=BOARD + ": each level's deck",
)
entry("board.empty_slot", "(empty: the deck ran out)", when=BOARD + ": a slot left empty")
entry(
    "board.points",
    "{points} pt",
    {"points": "number"},
    plural="{points} pts",
    count="points",
    when=BOARD + ": a card's or a player's points, short",
)
entry(
    "board.player_points",
    "{points} point",
    {"points": "number"},
    plural="{points} points",
    count="points",
    when=BOARD + ": a player's points",
)
entry(
    "board.cards",
    "{cards} card",
    {"cards": "number"},
    plural="{cards} cards",
    count="cards",
    when=BOARD + ": how many cards a player bought",
)
entry(
    "board.token_count",
    "{tokens} token",
    {"tokens": "number"},
    plural="{tokens} tokens",
    count="tokens",
    when=BOARD + ": how many tokens a player holds",
)
entry("board.costs", "costs {cost}", {"cost": "tokens"}, when=BOARD + ": a card's cost")
entry(
    "board.tokens",
    "{tokens:none} ({count} of 10)",
    {"tokens": "tokens", "count": "number"},
    when=BOARD + ": a player's tokens",
)
entry("board.none", "none", when=BOARD + ": an empty list (tokens, bonuses, cards, nobles)")
entry(
    "board.reserved_hidden",
    "a level {level} card, reserved blind (hidden)",
    {"level": "number"},
    when=BOARD + ": another player's blind reserved card",
)
entry(
    "board.reserved_blind",
    "{card} (reserved blind)",
    {"card": "text"},
    when=BOARD + ": the reader's own blind reserved card",
)
entry(
    "board.reserved_level",
    "L{level} (blind)",
    {"level": "number"},
    when="on the HTML board: another player's blind reserved card",
)
entry("board.marker_to_move", " (to move)", when=BOARD + ": beside the player to move")
entry(
    "board.marker_resigned",
    " (resigned: out of the game, cannot win)",
    when=BOARD + ": beside a player who resigned",
)
entry(
    "board.due.yours",
    "Your move is due by {due}.",
    {"due": "when"},
    when="above the board of a letter to the player to move",
)
entry(
    "board.due",
    "{player}'s move is due by {due}.",
    {"player": "name", "due": "when"},
    when="above the board of a letter to anyone else",
)
