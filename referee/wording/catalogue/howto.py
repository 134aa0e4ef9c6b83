"""How to move: the examples under "HOW TO MOVE" in a letter that helps (the examples
themselves are moves, written in the reader's words by the letter writer)."""

from referee.wording.catalogue import entry

HOWTO = "how to move, beside an example move"

entry(
    "howto.outside_a_game",
    "HOW MOVES ARE WRITTEN, once you play: reply to the latest mail of your game with one "
    "move at the top, for example",
    when="above the example moves in help written to the referee's own address (not a game)",
)

entry("howto.take_three", "3 tokens of different colours", when=HOWTO + ": take 3 colours")
entry(
    "howto.take_two",
    "2 of one colour (4 or more must be in the bank)",
    when=HOWTO + ": take 2 of one colour",
)
entry(
    "howto.reserve",
    "reserve a face-up card (and take a gold if any left)",
    when=HOWTO + ": reserve a face-up card",
)
entry(
    "howto.reserve_deck",
    "reserve the top card of a deck, unseen by the others",
    when=HOWTO + ": reserve the top of a deck",
)
entry(
    "howto.buy",
    "buy a card; add {pay} to choose how",
    {"pay": "quoted"},
    when=HOWTO + ": buy a card ({pay}: a pay clause, like pay 2 red 1 gold)",
)
entry("howto.pass", "only when nothing else is possible", when=HOWTO + ": pass")
entry(
    "howto.more",
    "When you would hold more than 10 tokens, add {returned}; when two nobles could visit, "
    "add {noble}. Colours: {colours}, or their stones (diamond, sapphire, emerald, ruby, "
    "onyx), or the letters w u g r k *. Reply {board} for this board again, {moves} for "
    "every move you may make, {help} for this.",
    {
        "returned": "quoted",
        "noble": "quoted",
        "colours": "text",
        "board": "quoted",
        "moves": "quoted",
        "help": "quoted",
    },
    when="after the example moves: returning tokens, choosing a noble, the colours' words, "
    "and the requests board, moves and help",
)
