"""The letters that follow a game (:mod:`referee.mail.judging.telling`): the welcome, the
board after every move, whose turn it is, subjects, reminders, and the game master's notice
of a game stuck past a deadline."""

from referee.wording.catalogue import entry

YOURS = "It is your turn: reply to this mail with your move."
THEIRS = "It is {player}'s turn; you will get the board after every move."
LAST_ROUND = " This is the last round: the game ends after {last}'s turn."
#: What every board letter's subject ends with: what matters comes first (your move).
SUBJECT = " · Splendor {game} · turn {turn}"

entry(
    "letter.seat",
    "{player} (seat {seat})",
    {"player": "name", "seat": "number"},
    when="in the welcome: each player and their seat",
)
entry(
    "letter.welcome",
    "Welcome to Splendor game {game}. The players, in turn order: {seats:comma}. The first "
    "to {points} points ends the game at the end of that round. Each move is due "
    "{deadline} after the one before.",
    {"game": "text", "seats": "messages", "points": "number", "deadline": "duration"},
    when="the first letter of a game, to every player",
)
entry(
    "letter.first.yours",
    "You move first: reply to this mail with your move.",
    when="the welcome, to the player who moves first",
)
entry(
    "letter.first",
    "{player} moves first; you will get the board after every move.",
    {"player": "name"},
    when="the welcome, to the other players",
)
entry(
    "letter.turn",
    "Turn {turn}: {told}.",
    {"turn": "number", "told": "message"},
    when="after every move: what happened",
)
entry(
    "letter.ruling",
    "The game master ruled that {player}'s move was sent in time, at {sent}, and played it. "
    "The reason given: {reason}",
    {"player": "name", "sent": "when", "reason": "text"},
    when="after a move the game master played by a ruling (referee move --as-of --reason)",
)
entry(
    "letter.watching",
    "You are watching game {game}: write 'unwatch {game}' to the referee to stop.",
    {"game": "text"},
    when="a board letter to a spectator",
)
entry(
    "letter.address",
    "The game master has changed your address in Splendor game {game} from {was} to "
    "{address}: from now on only mail from {address}, replying to the referee's mails sent "
    "there, can move for you.",
    {"game": "text", "was": "text", "address": "text"},
    when="a game master gave a player a new address (referee player --email)",
)
entry("letter.status.yours", YOURS, when="a board letter to the player to move")
entry(
    "letter.status.yours.last_round",
    YOURS + LAST_ROUND,
    {"last": "name"},
    when="a board letter to the player to move, in the last round",
)
entry(
    "letter.status.theirs",
    THEIRS,
    {"player": "name"},
    when="a board letter to anyone but the player to move",
)
entry(
    "letter.status.theirs.last_round",
    THEIRS + LAST_ROUND,
    {"player": "name", "last": "name"},
    when="a board letter to anyone but the player to move, in the last round",
)
entry(
    "letter.over",
    "The game is over: {winners:and} wins with {points} points.",
    {"winners": "names", "points": "number"},
    plural="The game is over: {winners:and} win with {points} points.",
    count="winners",
    when="any letter about a finished game",
)
entry(
    "letter.ruling.you",
    "The game master ruled that your move was sent in time, at {sent}, and played it. The "
    "reason given: {reason}",
    {"sent": "when", "reason": "text"},
    when="after a move the game master played by a ruling, to the player whose move it was",
)
entry(
    "letter.rolled_back",
    "The game master has taken game {game} back to turn {turn}: the moves after it are "
    "undone (and kept in the game's record). The reason given: {reason}",
    {"game": "text", "turn": "number", "reason": "text"},
    when="to every player, after a game master's rollback (referee rollback --reason)",
)
entry(
    "letter.rematch",
    "To play again with the same players, reply 'rematch': each of them is invited to a new "
    "game on the same terms.",
    when="the last letter of a game, to each player",
)
entry(
    "subject.digest",
    "Splendor referee: what happened in your games",
    when="the subject of a daily digest (mail digest)",
)
entry(
    "digest.intro",
    "Here is what happened in your games since you last heard from the referee. You get the "
    "board as soon as it is your move.",
    when="a daily digest, to a player who chose 'mail digest'",
)
entry("digest.listing", "Moves made:", when="a daily digest: above its list of turns")
entry(
    "digest.line",
    "game {game}, turn {turn}: {told}",
    {"game": "text", "turn": "number", "told": "message"},
    when="a daily digest: one turn",
)
entry("letter.options", "What you may do now:", when="above the moves the reader may make")
entry(
    "letter.sender",
    "Splendor referee",
    when="the name every letter comes from (From and Reply-To), as its subjects begin",
)

entry(
    "subject.not_played",
    "Move not played" + SUBJECT,
    {"game": "text", "turn": "number"},
    when="the subject of a refusal in a game",
)
entry(
    "subject.over",
    "Game over: {winners:and} wins" + SUBJECT,
    {"game": "text", "turn": "number", "winners": "names"},
    plural="Game over: {winners:and} win" + SUBJECT,
    count="winners",
    when="the subject of a letter about a finished game",
)
entry(
    "subject.reading",
    "Is this your move?" + SUBJECT,
    {"game": "text", "turn": "number"},
    when="the subject of a letter asking whether the referee read a player's move right",
)
entry(
    "subject.your_move",
    "Your move" + SUBJECT,
    {"game": "text", "turn": "number"},
    when="the subject of a letter to the player to move",
)
entry(
    "subject.to_move",
    "{player} to move" + SUBJECT,
    {"game": "text", "turn": "number", "player": "name"},
    when="the subject of a letter to anyone else in a game",
)

REMINDER_REST = (
    "; write 'away 5d' (or a date) to the referee to pause your deadlines while you cannot "
    "play, or 'resign' in a game you will not finish."
)
entry(
    "subject.reminder.late",
    "Splendor referee: your move is overdue",
    when="the subject of a reminder of a move past its deadline",
)
entry(
    "subject.reminder.soon",
    "Splendor referee: your move is due soon",
    when="the subject of a reminder of a move due soon",
)
entry(
    "reminder.late",
    "A move of yours is past its deadline; the other players are waiting for it.",
    when="a reminder of a move past its deadline",
)
entry("reminder.soon", "A move of yours is due soon.", when="a reminder of a move due soon")
entry(
    "reminder.reply.one",
    "Reply to this mail with your move" + REMINDER_REST,
    when="a reminder about one game",
)
entry(
    "reminder.reply.many",
    "Reply to the latest board mail of each game with your move" + REMINDER_REST,
    when="a reminder about several games",
)
entry("reminder.listing", "Your moves to make:", when="a reminder: above its list of games")
entry(
    "reminder.line",
    "game {game}, turn {turn}: due by {due}",
    {"game": "text", "turn": "number", "due": "when"},
    when="a reminder: one game whose move is due",
)
entry(
    "reminder.line.late",
    "game {game}, turn {turn}: was due by {due}",
    {"game": "text", "turn": "number", "due": "when"},
    when="a reminder: one game whose move is past its deadline",
)
entry(
    "subject.overdue",
    "Splendor referee: game {game} is stuck on {player}'s move",
    {"game": "text", "player": "name"},
    when="to the game master: a game waits past a deadline",
)
entry(
    "overdue.waiting",
    "In game {game}, {player}'s move (turn {turn}) was due by {due} and has not come. The "
    "game's timeout policy is 'wait', so the referee keeps reminding them once a day and the "
    "game waits. You are told once.",
    {"game": "text", "player": "name", "turn": "number", "due": "when"},
    when="to the game master: a game waits past a deadline",
)
entry(
    "overdue.settle",
    "To settle it: referee resign {game} {player} (they leave the game), or referee player "
    "{game} {player} --email ADDRESS --reason WHY (another address plays on).",
    {"game": "text", "player": "name"},
    when="to the game master: how to settle a game stuck past a deadline",
)

entry(
    "timeout.stand_in",
    "{player}'s move was not made by its deadline, so a bot ({level}) played this one turn for "
    "them ({why}); {player} plays again from their next turn.",
    {"player": "name", "level": "text", "why": "message"},
    when="the board after a bot stood in for a player at their deadline (timeout bot)",
)
entry(
    "timeout.forfeit",
    "{player}'s move was not made by its deadline, and this game resigns a player who lets a "
    "deadline pass.",
    {"player": "name"},
    when="the board after a player was resigned at their deadline (timeout forfeit)",
)
entry(
    "timeout.forfeit.you",
    "Your move was not made by its deadline, and this game resigns a player who lets a "
    "deadline pass: you are out of the game.",
    when="timeout.forfeit, to the player who was resigned",
)
entry(
    "timeout.stand_in.you",
    "Your move was not made by its deadline, so a bot ({level}) played this one turn for you "
    "({why}); you play again from your next turn.",
    {"level": "text", "why": "message"},
    when="timeout.stand_in, to the player a bot stood in for",
)
