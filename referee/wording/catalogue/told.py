"""Moves as the players are told them (:mod:`referee.wording.told`): in every board letter,
the history, and the replay page."""

from referee.wording.catalogue import entry

for code, text, params in [
    ("take", "{player} took {gems}", {"gems": "taken"}),
    ("reserve", "{player} reserved {card}", {"card": "card"}),
    (
        "reserve_blind",
        "{player} reserved a level {level} card from the deck, unseen",
        {"level": "number"},
    ),
    (
        "buy",
        "{player} bought {card} ({colour}), paying {paid}",
        {"card": "card", "colour": "colour", "paid": "tokens"},
    ),
    ("pass", "{player} passed: no other move was possible", {}),
    ("resign", "{player} resigned and left the game", {}),
]:
    entry(f"told.{code}", text, {"player": "name", **params}, when=f"a {code} by another player")
    entry(
        f"told.{code}.you",
        "you" + text.removeprefix("{player}"),
        params,
        when=f"a {code} by the reader",
    )

entry(
    "told.returning",
    "{move}, returning {tokens}",
    {"move": "message", "tokens": "tokens"},
    when="a move that returned tokens (over 10)",
)
entry(
    "told.noble",
    "{move}; noble {noble} visited {player}",
    {"move": "message", "noble": "noble", "player": "name"},
    when="a move after which a noble visited another player",
)
entry(
    "told.noble.you",
    "{move}; noble {noble} visited you",
    {"move": "message", "noble": "noble"},
    when="a move after which a noble visited the reader",
)
