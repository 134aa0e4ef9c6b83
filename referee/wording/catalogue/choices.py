"""The moves a board letter offers the player to move, grouped as a player thinks of them
(:mod:`referee.wording.choices`)."""

from referee.wording.catalogue import entry

entry(
    "choices.title",
    "What you may do now: reply with one move at the top of your mail, written as in the "
    "examples.",
    when="a board letter to the player to move: above the moves they may make, after the board",
)
entry(
    "choices.buy",
    "Buy the card you can afford, as written here (with what you would pay):",
    {"count": "number"},
    plural="Buy one of the {count} cards you can afford, each as written here (with what you "
    "would pay):",
    count="count",
    when="the moves the player may make: buying; each card follows, as its move",
)
entry(
    "choices.take_different",
    "Take any {count} of {colours:comma}",
    {"count": "number", "colours": "colours"},
    when="the moves the player may make: taking tokens of different colours",
)
entry(
    "choices.take_two",
    "Take two of one colour: {colours:or}",
    {"colours": "colours"},
    when="the moves the player may make: taking two tokens of one colour",
)
entry(
    "choices.reserve",
    "Reserve any face-up card, or the top card of deck {levels:or}",
    {"levels": "words"},
    when="the moves the player may make: reserving a card",
)
entry(
    "choices.reserve.face_up",
    "Reserve any face-up card",
    when="the moves the player may make: reserving, when every deck is empty",
)
entry(
    "choices.reserve.deck",
    "Reserve the top card of deck {levels:or}",
    {"levels": "words"},
    when="the moves the player may make: reserving, when no face-up card is left",
)
entry(
    "choices.pass",
    "Pass: there is no other move",
    when="the moves the player may make: only passing is possible",
)
entry(
    "choices.give_back",
    "You would hold more than 10 tokens: give back at least {count}, as the example does.",
    {"count": "number"},
    plural="You would hold more than 10 tokens: give back at least {count}, as the example "
    "does.",
    count="count",
    when="the moves the player may make: every such move must give tokens back",
)
