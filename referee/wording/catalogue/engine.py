"""The rules engine's refusals (:mod:`referee.engine`): why a move is illegal (``take.*``,
``reserve.*``, ``buy.*``, ``pass.*``, ``return.*``, ``noble.*``, ``resign.*``, ``game.*``,
``card.*``, ``move.*``) and why a set-up cannot start a game (``setup.*``).

A parameter of kind ``text`` holding something as it was given (``got (1, 2)``) is that
value's Python ``repr``: it is not a count or a name, but whatever malformed thing came in.
"""

from referee.wording.catalogue import entry

# -- the cards -------------------------------------------------------------------------------

entry(
    "card.unknown",
    "there is no card {card}: card ids run 1-01 … 3-20",
    {"card": "quoted"},
    when="a reserve or buy names a card id that no card has",
)

# -- the whole move --------------------------------------------------------------------------

entry(
    "move.unknown",
    "{move} is not a move: expected take, reserve, buy, pass or resign",
    {"move": "text"},
    when="the engine is given something that is not a move at all",
)
entry(
    "game.over",
    "the game is over: no more moves can be played",
    when="a move is made in a finished game",
)
entry(
    "game.over_resign",
    "the game is over: {player} cannot resign from a finished game",
    {"player": "name"},
    when="a player resigns from a finished game",
)

# -- taking tokens ---------------------------------------------------------------------------

entry(
    "take.not_a_count",
    "a take needs a count per colour, got {gems}",
    {"gems": "text"},
    when="a take's tokens are not six whole numbers of 0 or more",
)
entry(
    "take.gold",
    "gold cannot be taken: a player gets gold only by reserving a card",
    when="a take includes gold",
)
entry(
    "take.bank_short",
    "the bank has only {left} {colour} left: you cannot take {wanted}",
    {"left": "number", "colour": "colour", "wanted": "number"},
    when="a take asks for more of a colour than the bank has (it has some)",
)
entry(
    "take.bank_none",
    "the bank has none {colour} left: you cannot take {wanted}",
    {"colour": "colour", "wanted": "number"},
    when="a take asks for a colour the bank has none of",
)
entry(
    "take.two_needs_four",
    "taking 2 {colour} needs at least 4 {colour} in the bank before taking; it has {left}: "
    "take 3 different colours instead",
    {"colour": "colour", "left": "number"},
    when="a take of 2 of one colour when the bank has fewer than 4 of it",
)
entry(
    "take.not_a_take",
    "take {gems} is not a take: take 3 tokens of different colours, or 2 of one colour",
    {"gems": "tokens"},
    when="a take mixes colours with more than one of some colour",
)
entry(
    "take.too_many",
    "take {gems} is too many: take at most 3 tokens of different colours",
    {"gems": "tokens"},
    when="a take of more than 3 different colours",
)
entry(
    "take.too_few",
    "take {gems} is too few: the bank has {available}, so take 3 different colours",
    {"gems": "tokens", "available": "colours"},
    when="a take of fewer than 3 colours while the bank has 3 colours or more",
)
entry(
    "take.too_few_left",
    "take {gems} is too few: take one of each colour the bank has ({available})",
    {"gems": "tokens", "available": "colours"},
    when="a take leaves out a colour while the bank has fewer than 3 colours",
)
entry(
    "take.nothing",
    "a take must take at least one token",
    when="a take of no tokens at all",
)

# -- reserving -------------------------------------------------------------------------------

entry(
    "reserve.card_or_deck",
    "a reserve names either a face-up card or a deck level, not both",
    when="a reserve names both a card and a deck, or neither",
)
entry(
    "reserve.limit",
    "you already hold {limit} reserved cards, the most allowed: buy one of them before "
    "reserving another",
    {"limit": "number"},
    when="a reserve by a player who holds the most reserved cards allowed",
)
entry(
    "reserve.not_face_up",
    "{card} is not face up on the board: you can reserve a face-up card ({face_up})",
    {"card": "card", "face_up": "cards"},
    when="a reserve of a card that is not face up on the board",
)
entry(
    "reserve.not_face_up_board_empty",
    "{card} is not face up on the board: you can reserve a face-up card (none)",
    {"card": "card"},
    when="a reserve of a card when no card is face up on the board",
)
entry(
    "reserve.no_such_deck",
    "there is no level {level} deck: the levels are 1, 2 and 3",
    {"level": "number"},
    when="a reserve from a deck level that does not exist",
)
entry(
    "reserve.deck_empty",
    "the level {level} deck is empty: reserve a face-up card or another level",
    {"level": "number"},
    when="a reserve from a deck that has run out",
)

# -- buying ----------------------------------------------------------------------------------

entry(
    "buy.not_available",
    "{card} is not face up on the board nor among your reserved cards: you can buy a "
    "face-up card ({face_up}) or one you reserved",
    {"card": "card", "face_up": "cards"},
    when="a buy of a card neither face up nor reserved by the buyer",
)
entry(
    "buy.not_available_board_empty",
    "{card} is not face up on the board nor among your reserved cards: you can buy a "
    "face-up card (none) or one you reserved",
    {"card": "card"},
    when="a buy of a card not reserved by the buyer, when no card is face up",
)
entry(
    "buy.pay_not_a_count",
    "a payment needs a count per colour, got {pay}",
    {"pay": "text"},
    when="a buy's payment is not six whole numbers of 0 or more",
)
entry(
    "buy.cannot_afford",
    "you cannot afford {card}: it costs {cost}; after your bonuses ({bonus:none}) you need "
    "{need} and hold {held:none of those} and {gold} gold, short by {short}: {gold_short} "
    "gold would be needed",
    {
        "card": "card",
        "cost": "tokens",
        "bonus": "tokens",
        "need": "tokens",
        "held": "tokens",
        "gold": "number",
        "short": "tokens",
        "gold_short": "number",
    },
    when="a buy of a card the buyer cannot pay for, even with all their gold",
)
entry(
    "buy.overpay",
    "you pay {paid} {colour} but {card} needs only {needed} {colour} after your bonuses: "
    "pay {suggested}",
    {
        "paid": "number",
        "colour": "colour",
        "card": "card",
        "needed": "number",
        "suggested": "tokens",
    },
    when="a payment of more of a colour than the card still costs",
)
entry(
    "buy.pay_more_than_held",
    "you pay {paid} {colour} but hold only {held}: pay {suggested}",
    {"paid": "number", "colour": "colour", "held": "number", "suggested": "tokens"},
    when="a payment of more of a colour than the buyer holds",
)
entry(
    "buy.gold_mismatch",
    "{card} needs {need} after your bonuses; paying {paid} leaves {due} to pay in gold, not "
    "{gold}: pay {suggested}",
    {
        "card": "card",
        "need": "tokens",
        "paid": "tokens",
        "due": "number",
        "gold": "number",
        "suggested": "tokens",
    },
    when="a payment whose gold does not make up exactly what the colours leave unpaid",
)
entry(
    "buy.gold_more_than_held",
    "you pay {paid} gold but hold only {held}: pay {suggested}",
    {"paid": "number", "held": "number", "suggested": "tokens"},
    when="a payment of more gold than the buyer holds",
)

# -- passing ---------------------------------------------------------------------------------

entry(
    "pass.not_allowed",
    "you cannot pass while another action is possible: you can still {actions:or} (legal "
    "moves: {legal}; ask for the list of moves)",
    {"actions": "words", "legal": "number"},
    when="a pass while another action is legal; actions are the kinds of move open "
    "(buy, reserve, take: the move types of docs/interface.md)",
)

# -- returning tokens ------------------------------------------------------------------------

entry(
    "return.not_a_count",
    "a return needs a count per colour, got {returned}",
    {"returned": "text"},
    when="a move's returned tokens are not six whole numbers of 0 or more",
)
entry(
    "return.not_needed",
    "returning tokens is only for a player above {limit}; after this move you hold {count}: "
    "leave out the return",
    {"limit": "number", "count": "number"},
    when="a move returns tokens though the player would not hold more than 10",
)
entry(
    "return.wrong_count",
    "after this move you hold {count} tokens ({held}): return exactly {excess} to keep "
    "{limit}, not {given}",
    {
        "count": "number",
        "held": "tokens",
        "excess": "number",
        "limit": "number",
        "given": "number",
    },
    when="a move returns more or fewer tokens than bring the player down to 10",
)
entry(
    "return.more_than_held",
    "you cannot return {returned} {colour}: after this move you hold {have} ({held})",
    {"returned": "number", "colour": "colour", "have": "number", "held": "tokens"},
    when="a move returns more of a colour than the player would hold",
)

# -- nobles ----------------------------------------------------------------------------------

entry(
    "noble.must_choose",
    "{nobles:and} visits at the end of this move and cannot be refused; add {choices}",
    {"nobles": "nobles", "choices": "message"},
    plural="one of {nobles:and} visits at the end of this move and cannot be refused; add "
    "{choices}",
    count="nobles",
    when="a move names no noble though one or more would visit; choices is a noble.choice",
)
entry(
    "noble.choice",
    "noble {noble}",
    {"noble": "noble"},
    when="within noble.must_choose: the last (or only) noble that may be added",
)
entry(
    "noble.choice_or",
    "noble {noble} or {more}",
    {"noble": "noble", "more": "message"},
    when="within noble.must_choose: a noble that may be added, then the others "
    "(a noble.choice_or or noble.choice)",
)
entry(
    "noble.not_on_table",
    "{noble} is not on the table (nobles there: {table})",
    {"noble": "noble", "table": "nobles"},
    when="a move names a noble that is not on the table",
)
entry(
    "noble.not_on_table_none",
    "{noble} is not on the table (nobles there: none)",
    {"noble": "noble"},
    when="a move names a noble when none is left on the table",
)
entry(
    "noble.not_qualified",
    "{noble} requires bonuses of {requires}; after this move yours are {bonuses:none}",
    {"noble": "noble", "requires": "tokens", "bonuses": "tokens"},
    when="a move names a noble whose bonuses the player lacks, and no noble can visit",
)
entry(
    "noble.not_qualified_others",
    "{noble} requires bonuses of {requires}; after this move yours are {bonuses:none}: only "
    "{qualifying} can visit",
    {"noble": "noble", "requires": "tokens", "bonuses": "tokens", "qualifying": "nobles"},
    when="a move names a noble whose bonuses the player lacks, while others can visit",
)

# -- resigning -------------------------------------------------------------------------------

entry(
    "resign.no_such_seat",
    "there is no seat {seat}: the seats are 0 to {last}",
    {"seat": "text", "last": "number"},
    when="a resignation for a seat the game does not have",
)
entry(
    "resign.already",
    "{player} has resigned already and is out of the game: only a player still in "
    "({still_in}) can resign",
    {"player": "name", "still_in": "names"},
    when="a resignation by a player who has resigned already",
)

# -- setting up ------------------------------------------------------------------------------

entry(
    "setup.players",
    "Splendor is played by {fewest} to {most} players, not {given}",
    {"fewest": "number", "most": "number", "given": "number"},
    when="a game set up for too few or too many players",
)
entry(
    "setup.name",
    "player name {name} must be one word of printable characters (no spaces)",
    {"name": "quoted"},
    when="a player's name is empty, has spaces or characters that do not print",
)
entry(
    "setup.name_twice",
    "two players are called {name}: each player needs their own name",
    {"name": "quoted"},
    when="two players' names are the same (ignoring case)",
)
entry(
    "setup.points_to_win",
    "points_to_win = {given}: it must be 1 or more",
    {"given": "number"},
    when="the rule option points_to_win is below 1",
)
entry(
    "setup.gold",
    "gold = {given}: it must be 0 or more",
    {"given": "number"},
    when="the rule option gold is below 0",
)
entry(
    "setup.deck_levels",
    "decks lists level {levels}: the levels are 1, 2, 3",
    {"levels": "text"},
    when="a set-up gives a deck for a level that does not exist",
)
entry(
    "setup.deck_wrong_cards",
    "the level {level} deck lists cards that are not level {level}: {cards}",
    {"level": "number", "cards": "message"},
    when="a set-up's deck lists cards of another level or no card at all; cards is a "
    "setup.deck_card_* or setup.deck_cards_more",
)
entry(
    "setup.deck_card_level",
    "{card} (level {level})",
    {"card": "card", "level": "number"},
    when="within setup.deck_wrong_cards: a card of another level",
)
entry(
    "setup.deck_card_unknown",
    "{card} (no such card)",
    {"card": "card"},
    when="within setup.deck_wrong_cards: an id that no card has",
)
entry(
    "setup.deck_cards_more",
    "{card}, {more}",
    {"card": "message", "more": "message"},
    when="within setup.deck_wrong_cards: a wrong card, then the others",
)
entry(
    "setup.deck_twice",
    "the level {level} deck lists {cards} more than once",
    {"level": "number", "cards": "cards"},
    when="a set-up's deck lists a card more than once",
)
entry(
    "setup.deck_missing",
    "the level {level} deck must list all {size} level {level} cards; missing: {missing}",
    {"level": "number", "size": "number", "missing": "cards"},
    when="a set-up's deck leaves out cards of its level",
)
entry(
    "setup.noble_unknown",
    "no such noble: {nobles} (nobles are N1 … N10)",
    {"nobles": "nobles"},
    when="a set-up reveals a noble id that no noble has",
)
entry(
    "setup.noble_twice",
    "nobles {nobles} name a noble more than once",
    {"nobles": "text"},
    when="a set-up reveals a noble more than once",
)
entry(
    "setup.noble_count",
    "{players} players play with {revealed} nobles revealed, not {given}",
    {"players": "number", "revealed": "number", "given": "number"},
    when="a set-up reveals too few or too many nobles for the players",
)
entry(
    "setup.bank_colour",
    "bank lists {colour}: the colours are {colours}",
    {"colour": "quoted", "colours": "colours"},
    when="a set-up's bank names a colour that does not exist",
)
entry(
    "setup.bank_count",
    "bank {colour} = {count}: a token count is a whole number, 0 or more",
    {"colour": "text", "count": "text"},
    when="a set-up's bank gives a colour a count that is not a whole number of 0 or more",
)
entry(
    "setup.bank_gold",
    "the bank has {bank} gold but the rule option gold is {gold}: set the gold option to "
    "{bank} or leave gold out of the bank",
    {"bank": "number", "gold": "number"},
    when="a set-up's bank has another number of gold than the rule option gold says",
)
