"""Short notices with no board (:mod:`referee.mail.judging.notices`), to whoever
wrote a mail that was not read as a move, and to the game master of a mail set aside."""

from referee.wording.catalogue import entry

entry(
    "subject.notice.not_a_move",
    "Splendor referee: your mail was not read as a move",
    when="the subject of a notice to someone who may not move there",
)
entry(
    "notice.not_a_move",
    "The Splendor referee received your mail but did not read it as a move: only a player "
    "of a game, replying from their registered address to a mail the referee sent them, can "
    "move.",
    when="to someone who may not move where they wrote (at most once a day)",
)
entry(
    "notice.not_a_move.player",
    "If you are a player, reply to the latest mail from the referee from the address you "
    "registered with.",
    when="to someone who may not move where they wrote",
)
entry(
    "subject.notice.too_large",
    "Splendor referee: your mail was too large to read",
    when="the subject of a notice of a mail too large to read",
)
entry(
    "notice.too_large",
    "Your mail of {size:,} bytes is larger than the Splendor referee reads ({limit:,} "
    "bytes), so it was set aside unread and nothing was played.",
    {"size": "number", "limit": "number"},
    when="to the sender of a mail too large to read (at most once a day)",
)
entry(
    "notice.too_large.again",
    "Please reply again with your move as plain text, without attachments or pictures.",
    when="to the sender of a mail too large to read",
)
entry(
    "subject.notice.not_handled",
    "Splendor referee: your mail could not be read yet",
    when="the subject of a notice of a mail set aside",
)
entry(
    "notice.not_handled",
    "The Splendor referee could not read your mail ({subject}) because of a problem on its "
    "side, not because of what you wrote. Nothing was played.",
    {"subject": "message"},
    when="to the sender of a mail the service set aside",
)
entry(
    "notice.not_handled.told",
    "The game master has been told, and will have it read again once the problem is mended: "
    "you need not send it again.",
    when="to the sender of a mail set aside, when there is a game master",
)
entry(
    "notice.not_handled.kept",
    "It is kept for the game master, who can have it read again once the problem is "
    "mended: you need not send it again.",
    when="to the sender of a mail set aside, when there is no game master",
)
entry("notice.subject", '"{subject}"', {"subject": "text"}, when="a mail's subject, quoted")
entry("notice.no_subject", "with no subject", when="a mail that had no subject")
entry(
    "subject.notice.aside",
    "Splendor referee: a mail was set aside ({id})",
    {"id": "text"},
    when="to the game master: the subject of a notice of a mail set aside",
)
entry(
    "subject.notice.aside.game",
    "Splendor referee: a mail about game {game} was set aside ({id})",
    {"id": "text", "game": "text"},
    when="to the game master: the subject of a notice of a mail about a game set aside",
)
entry(
    "notice.aside",
    "The referee service could not handle a mail and set it aside unplayed:",
    when="to the game master: a mail was set aside",
)
entry(
    "notice.aside.game",
    "The referee service could not handle a mail about game {game} and set it aside unplayed:",
    {"game": "text"},
    when="to the game master: a mail about a game was set aside",
)
entry(
    "notice.aside.facts",
    "  from     {sender}\n  subject  {subject}\n  id       {id}\n  why      {why}",
    {"sender": "text", "subject": "message", "id": "text", "why": "text"},
    when="to the game master: the mail set aside",
)
entry(
    "notice.aside.retry",
    "Its sender was told that it is kept. Once what stopped it is mended, hand it back to the "
    "service with:",
    when="to the game master: how to have a mail read again",
)
entry(
    "notice.aside.command",
    "  referee inbox retry {id}",
    {"id": "text"},
    when="to the game master: the command that hands a mail back",
)
entry(
    "notice.aside.more",
    "Every mail set aside or refused, with why: referee inbox. (Further mails set aside for "
    "the same reason today are not told of again.)",
    when="to the game master: where every mail set aside is listed",
)
entry(
    "subject.notice.no_room",
    "Splendor referee: its games folder takes no more writes; mail waits unread",
    when="to the game master: the subject of a notice that the games folder is full",
)
entry(
    "notice.no_room",
    "The referee service cannot write to its games folder, so it has stopped reading mail. "
    "Every mail waits in the mailbox as it came: nothing was played, refused or lost, and no "
    "player was told anything.",
    when="to the game master: the games folder is full (or read-only), once each time",
)
entry(
    "notice.no_room.facts",
    "  folder  {folder}\n  free    {free:,} bytes\n  why     {why}",
    {"folder": "text", "free": "number", "why": "english"},
    when="to the game master: the folder that takes no writes, its free space, the error",
)
entry(
    "notice.no_room.mend",
    "Free some space there (or, if it is read-only, make it writable again). The service "
    "tries again by itself at every look for mail and carries on where it stopped: nothing "
    "needs restarting, and no one needs to send their mail again. You are not told again "
    "until it has read mail since; its log says when it does.",
    when="to the game master: what to do about a games folder that takes no writes",
)
