"""Confirming a command written to the referee's own address
(:mod:`referee.mail.judging.confirming`): what the address is asked, and what a reply to a
confirmation that is no longer waiting is told."""

from referee.wording.catalogue import entry

entry(
    "subject.confirm",
    "Splendor referee: please confirm '{command}'",
    {"command": "text"},
    when="the subject of the letter asking an address to confirm a command sent from it "
    "(command: the command as they wrote it, cut short)",
)
entry(
    "confirm.ask",
    "The referee got this from your address: {line}. To carry it out, reply to this mail; "
    "what you write in the reply does not matter. Until you do, nothing changes.",
    {"line": "quoted"},
    when="asking an address to confirm a command written to the referee's own address",
)
entry(
    "confirm.why",
    "Anyone can put your address on a mail, so the referee asks before it does something "
    "in your name. If you did not write this, do nothing: it lapses in {within}.",
    {"within": "duration"},
    when="why a command is to be confirmed, and that an unconfirmed one lapses",
)
entry(
    "confirm.in_a_game",
    "Written as a reply to a letter of one of your games, the same command takes effect at "
    "once, with no need to confirm.",
    when="the confirmation of a command that may also be written in a game (away, back, "
    "language, timezone, mail)",
)
entry(
    "subject.confirm_unknown",
    "Splendor referee: nothing to confirm",
    when="the subject of the answer to a reply to a confirmation that is no longer waiting",
)
entry(
    "confirm.unknown",
    "Your reply confirms nothing: the command it answers was carried out already, or it "
    "lapsed after {within}. Nothing changed. To do it now, write the command again to the "
    "referee's address.",
    {"within": "duration"},
    when="a reply to a confirmation that is no longer waiting (carried out or lapsed)",
)
