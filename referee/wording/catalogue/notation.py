"""The messages of the move notation (:mod:`referee.notation`): text that is not a move
(``notation.*``), a JSON move object that is not one (``json_move.*``), and a move that
cannot be resolved against the game (an unknown player, not the writer's turn, several legal
moves fitting). ``str()`` of a move error puts the text it is about in front: ``'take':``.
"""

from __future__ import annotations

from referee.wording.catalogue import entry

#: The moves shown when a text says no move at all (part of the English of those entries).
EXAMPLES = (
    "take red green blue | take 2 red | reserve 2-07 | reserve deck 3 | buy 1-12 | "
    "buy 1-12 pay 2 red 1 gold | pass (and, when needed, return white | noble N4)"
)

_COLOURS_WRITTEN = (
    "white, blue, green, red, black, gold, their stones (diamond, sapphire, emerald, ruby, "
    "onyx) or letters w u g r k *"
)

# -- notation: text that is not a move ----------------------------------------------------------

entry(
    "notation.too_long",
    "a move is at most {limit} characters; this text has {length}",
    {"limit": "number", "length": "number"},
    when="the text of a move is longer than a move may be; it is not read",
)
entry(
    "notation.no_move",
    "no move found: write one of " + EXAMPLES,
    when="the text of a move has no words at all",
)
entry(
    "notation.not_sure",
    "the word {word} says not, or leaves a choice, so nothing in that sentence is played: "
    "write the one move you mean",
    {"word": "quoted"},
    when="a reply whose sentence with a move word in it also says not (not, never) or leaves "
    "a choice (or, maybe, if): it is never played, nor offered",
)
entry(
    "notation.no_action",
    "a move needs an action, take, reserve, buy or pass: write one of " + EXAMPLES,
    when="the text has clauses (return, noble, pay) but no action",
)
entry(
    "notation.not_an_action",
    "a move starts with take, reserve, buy or pass, not {word}: write one of " + EXAMPLES,
    {"word": "quoted"},
    when="the first word of a move is neither an action nor a clause",
)
entry(
    "notation.one_at_a_time",
    "one move at a time: found {actions:and}; write a single take, reserve, buy or pass",
    {"actions": "names"},
    when="the text names more than one action (the actions as written)",
)
entry(
    "notation.resign_alone",
    "resign stands alone: write just 'resign' to leave the game",
    when="something follows resign, or comes with it",
)
entry(
    "notation.pass_alone",
    "pass takes nothing after it; found {found}",
    {"found": "quoted"},
    when="words follow pass (what follows, as written)",
)
entry(
    "notation.two_nobles",
    "only one noble visits per turn; found noble {first} and {second}",
    {"first": "noble", "second": "noble"},
    when="the text names two different nobles",
)
entry(
    "notation.pay_with_buy",
    "'pay' goes with buy, not with {action}",
    {"action": "word"},
    when="a payment is given with a move that is not a buy (the action, in the reader's words)",
)
entry(
    "notation.pay_once",
    "say 'pay' once, listing every token paid",
    when="a buy says pay twice",
)
entry(
    "notation.two_numbers",
    "two numbers in a row after {head}: {word}",
    {"head": "quoted", "word": "quoted"},
    when="a count follows a count in a list of colours (after take, return or pay)",
)
entry(
    "notation.b_is_ambiguous",
    "'b' could be blue or black: write 'u' for blue (sapphire), 'k' for black (onyx)",
    when="a list of colours has the letter b",
)
entry(
    "notation.card_not_colour",
    "{head} lists colours, not a card like {word}",
    {"head": "quoted", "word": "quoted"},
    when="a list of colours (after take, return or pay) has a card id",
)
entry(
    "notation.not_a_colour",
    "{word} is not a colour after {head}: use " + _COLOURS_WRITTEN,
    {"word": "quoted", "head": "quoted"},
    when="a list of colours (after take, return or pay) has a word that is not a colour",
)
entry(
    "notation.count_before_colour",
    "a count goes before one colour: write '{count} red', not '{count} {word}'",
    {"count": "number", "word": "text"},
    when="a count is followed by a run of colour letters (2 rgu)",
)
entry(
    "notation.count_without_colour",
    "{count} of what? name a colour after the number",
    {"count": "number"},
    when="a list of colours ends with a count",
)
entry(
    "notation.take_needs_colours",
    "'take' needs colours, for example 'take red green blue'",
    when="take names no colour",
)
entry(
    "notation.return_needs_colours",
    "'return' needs colours, for example 'return white'",
    when="return names no colour",
)
entry(
    "notation.pay_needs_colours",
    "'pay' needs colours, for example 'pay 2 red'",
    when="pay names no colour",
)
entry(
    "notation.needs_colours",
    "'{head}' needs colours, for example '{head} red'",
    {"head": "text"},
    when="another word for take or return (get, discard) names no colour",
)
entry(
    "notation.not_a_card",
    "{word} is not a card id: card ids look like 2-07",
    {"word": "quoted"},
    when="a buy or reserve names something that is not a card id",
)
entry(
    "notation.no_card_with_bonus",
    "no card with a {colour} bonus fits this move now: name the card by its id, as the board "
    "shows it (like 2-07)",
    {"colour": "colour"},
    when="a sentence names the card to buy or reserve by its bonus colour ('buy the black "
    "card') and no card the move could have has that bonus",
)
entry(
    "notation.no_card_in_hand_with_bonus",
    "you hold no reserved card with a {colour} bonus that you can buy now: name the card by "
    "its id, as your hand shows it (like 2-07)",
    {"colour": "colour"},
    when="a sentence names a card in the writer's hand by its bonus colour ('buy the black "
    "card in my hand') and none of their reserved cards with that bonus can be bought",
)
entry(
    "notation.no_card_in_hand",
    "you hold no reserved card that you can buy now: name the card by its id, as your hand "
    "shows it (like 2-07)",
    when="a sentence names the card to buy as the one in the writer's hand ('buy the card I "
    "reserved') and none of their reserved cards can be bought",
)
entry(
    "notation.no_such_card",
    "there is no card {card}: level {level} runs {level}-01 … {last}",
    {"card": "text", "level": "number", "last": "card"},
    when="a card id is well-formed but no card has it (the last card of that level)",
)
entry(
    "notation.card_missing",
    "{action} names one card, like '{action} 1-12'; got 'nothing'",
    {"action": "text"},
    when="buy or reserve names no card (the action as written)",
)
entry(
    "notation.not_one_card",
    "{action} names one card, like '{action} 1-12'; got {found}",
    {"action": "text", "found": "quoted"},
    when="buy or reserve is followed by more (or other) than one card id",
)
entry(
    "notation.deck_level",
    "reserve from a deck names its level: 'reserve deck 1', 'deck 2' or 'deck 3'",
    when="reserve deck names no level, or one that is not 1, 2 or 3",
)
entry(
    "notation.reserve_which",
    "reserve which card? write 'reserve deck {level}' for the top card of that deck, "
    "or a card id like 'reserve 2-07'",
    {"level": "number"},
    when="reserve is followed by a bare level (reserve 2)",
)
entry(
    "notation.noble_missing",
    "noble names one noble, N1 … N10, like 'noble N4'; got 'nothing'",
    when="noble names no noble",
)
entry(
    "notation.not_a_noble",
    "noble names one noble, N1 … N10, like 'noble N4'; got {found}",
    {"found": "quoted"},
    when="noble is followed by something other than one noble id",
)

# -- json_move: a JSON move object that is not a move --------------------------------------------

entry(
    "json_move.not_json",
    "not valid JSON: {problem}",
    {"problem": "english"},
    when="a move starting with { is not JSON (the JSON reader's own words)",
)
entry(
    "json_move.not_an_object",
    'a JSON move is an object like {{"type": "pass"}}',
    when="a JSON move is not an object",
)
entry(
    "json_move.unknown_keys",
    "unknown keys {keys}: a move has ['card', 'deck', 'gems', 'noble', 'pay', 'return', 'type']",
    {"keys": "text"},
    when="a JSON move has keys a move does not have (the keys, as a JSON-like list)",
)
entry(
    "json_move.bad_type",
    '"type" must be take, reserve, buy, pass or resign, not {value}',
    {"value": "text"},
    when='a JSON move\'s "type" is not an action (the value as written)',
)
entry(
    "json_move.resign_alone",
    'a resignation is just {{"type": "resign"}}; found {keys}',
    {"keys": "text"},
    when="a JSON resignation has other keys set (the keys, as a JSON-like list)",
)
entry(
    "json_move.card_or_deck",
    'a reserve has either "card" or "deck"',
    when="a JSON reserve has both a card and a deck, or neither",
)
entry(
    "json_move.bad_deck",
    '"deck" is 1, 2 or 3, not {value}',
    {"value": "text"},
    when="a JSON reserve's deck is not 1, 2 or 3 (the value as written)",
)
entry(
    "json_move.buy_card",
    'a buy has "card", a card id like "1-12"',
    when="a JSON buy has no card id",
)
entry(
    "json_move.bad_noble",
    '"noble" is a noble id like "N4", not {value}',
    {"value": "text"},
    when="a JSON move's noble is not text (the value as written)",
)
entry(
    "json_move.not_counts",
    '"{key}" is an object of colour counts like {{"red": 2}}',
    {"key": "text"},
    when="a JSON move's gems, pay or return is not an object of counts (the key)",
)
entry(
    "json_move.not_a_colour",
    '"{key}" has {colour}: colours are white, blue, green, red, black, gold',
    {"key": "text", "colour": "text"},
    when="a JSON move's counts name something that is not a colour (as written)",
)
entry(
    "json_move.not_a_count",
    '"{key}".{colour} must be a whole number, not {value}',
    {"key": "text", "colour": "text", "value": "text"},
    when="a JSON move's count is not a whole number from 0 to 99 (the value as written)",
)

# -- a move against the game ----------------------------------------------------------------------

entry(
    "player.unknown",
    "no player called {name} in this game; the players are {players}",
    {"name": "quoted", "players": "names"},
    when="a move or request names a player who is not in the game",
)
entry(
    "notation.game_over",
    "the game is over: no more moves can be played",
    when="a move is sent after the game has ended",
)
entry(
    "notation.resigned",
    "{name} has resigned: they are out of the game and make no more moves",
    {"name": "name"},
    when="a player who has resigned sends a move",
)
entry(
    "notation.not_your_turn",
    "it is {to_move}'s turn, not {name}'s",
    {"to_move": "name", "name": "name"},
    when="a player sends a move when it is another player's turn",
)
entry(
    "notation.default_would_be_legal",
    "no legal move fits; {move} would be legal",
    {"move": "move"},
    when="no legal move fits a buy as written, but the buy with the usual payment would be legal",
)
entry(
    "notation.ambiguous_return",
    "after this move you would hold {after} tokens: say which {excess} to return, "
    "for example '{example}'. {candidates}",
    {"after": "number", "excess": "number", "example": "move", "candidates": "message"},
    when="a move takes a player above 10 tokens and does not say which to return",
)
entry(
    "notation.ambiguous_noble",
    "more than one noble would visit; choose one: {choices}. {candidates}",
    {"choices": "message", "candidates": "message"},
    when="several nobles could visit and the move does not say which (each as noble N4)",
)
entry(
    "notation.ambiguous",
    "this fits more than one legal move. {candidates}",
    {"candidates": "message"},
    when="a move fits several legal moves for another reason",
)
entry(
    "notation.candidates",
    "Candidates: {moves:semicolon}",
    {"moves": "moves"},
    when="closes an ambiguous move's message: the legal moves that fit",
)
entry(
    "notation.candidates_more",
    "Candidates: {moves:semicolon}; … ({count} in all)",
    {"moves": "moves", "count": "number"},
    when="closes an ambiguous move's message when more than 12 legal moves fit: the first 12",
)
