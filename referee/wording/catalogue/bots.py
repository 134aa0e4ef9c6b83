"""Why a bot plays its move (:mod:`referee.bots`): a line for ``referee hint``, and in the
letters when a bot stands in for a player at a deadline."""

from referee.wording.catalogue import entry

BONUS = {"card": "card", "points": "number", "colour": "colour"}
entry(
    "bot.buys",
    "buys {card}: {points} point and a {colour} bonus",
    BONUS,
    plural="buys {card}: {points} points and a {colour} bonus",
    count="points",
    when="a bot's buy",
)
entry(
    "bot.buys.toward",
    "buys {card}: {points} point and a {colour} bonus toward {noble}",
    {**BONUS, "noble": "noble"},
    plural="buys {card}: {points} points and a {colour} bonus toward {noble}",
    count="points",
    when="a bot's buy that brings a noble closer",
)
entry("bot.takes", "takes {tokens}", {"tokens": "tokens"}, when="a bot's take")
entry(
    "bot.takes.toward_affordable",
    "takes {tokens} toward {card} (affordable next turn)",
    {"tokens": "tokens", "card": "card"},
    when="a bot's take that makes a card affordable",
)
entry(
    "bot.takes.toward",
    "takes {tokens} toward {card} (then {short} short)",
    {"tokens": "tokens", "card": "card", "short": "number"},
    when="a bot's take toward a card",
)
for gold, more in [("", ""), (".gold", " and takes a gold")]:
    entry(
        f"bot.reserves{gold}",
        "reserves {card} ({points} point, a {colour} bonus)" + more,
        BONUS,
        plural="reserves {card} ({points} points, a {colour} bonus)" + more,
        count="points",
        when="a bot's reservation of a face-up card" + (", taking a gold" if gold else ""),
    )
    entry(
        f"bot.reserves_blind{gold}",
        "reserves the top card of the level {level} deck unseen" + more,
        {"level": "number"},
        when="a bot's blind reservation" + (", taking a gold" if gold else ""),
    )
entry("bot.passes", "passes: no other move is possible", when="a bot's pass")
entry("bot.resigns", "resigns", when="a bot's resignation")
entry(
    "bot.returning",
    "{move}, returning {tokens}",
    {"move": "message", "tokens": "tokens"},
    when="a bot's move that returns tokens",
)
entry(
    "bot.noble",
    "{move}; {noble} visits (3 points)",
    {"move": "message", "noble": "noble"},
    when="a bot's move after which a noble visits",
)
entry("bot.at_random", "{move} (at random)", {"move": "message"}, when="the random bot's move")
entry(
    "bot.searched",
    "{move} (searched: tried in {visits} of {playouts} playouts, scoring {score})",
    {"move": "message", "visits": "number", "playouts": "number", "score": "percent"},
    when="the search bot's move",
)
entry(
    "bot.only_move",
    "{move} (the only move)",
    {"move": "message"},
    when="a bot's move when there was no other",
)
entry(
    "bot.no_level",
    "there is no bot level {level}: the levels are {levels:comma}",
    {"level": "quoted", "levels": "names"},
    when="a bot of a level there is not (referee new --bot, referee hint --level)",
)
