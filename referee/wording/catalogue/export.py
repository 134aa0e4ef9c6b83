"""The replay page (:mod:`referee.export`)."""

from referee.wording.catalogue import entry

entry(
    "export.turns",
    "{turns} turn",
    {"turns": "number"},
    plural="{turns} turns",
    count="turns",
    when="the replay page: how many turns the game has",
)
entry(
    "export.setup",
    "The set-up: the cards are dealt and the nobles drawn; {player} moves first.",
    {"player": "name"},
    when="the replay page: turn 0",
)
entry("export.move", "{told}.", {"told": "message"}, when="the replay page: a turn's move")
entry(
    "export.move.timeout",
    "{told} when the deadline passed.",
    {"told": "message"},
    when="the replay page: a player resigned at their deadline",
)
entry(
    "export.over.nobody",
    "The game is over: nobody is left to win it.",
    when="the replay page: a game that ended with no winner",
)
entry(
    "export.over.one",
    "The game is over: {winner} wins.",
    {"winner": "name"},
    when="the replay page: the winner",
)
entry(
    "export.over.shared",
    "The game is over: {winners:and} share the win.",
    {"winners": "names"},
    when="the replay page: a shared win",
)
entry(
    "export.not_finished",
    "cannot export game {game} as {player}: it is not finished (turn {turn}, {to_move} to "
    "move), and {player}'s view shows cards the others may not see yet; leave out --as for "
    "the public view, or export as {player} once the game is over",
    {"game": "text", "player": "name", "turn": "number", "to_move": "name"},
    when="referee export --as, of a game not finished",
)
