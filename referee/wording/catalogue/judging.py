"""What the judge says to a player (:mod:`referee.mail.judging.judge`): a refused move, a
stale reply, a reply with no move or no command, and an error said as it is."""

from referee.wording.catalogue import entry

entry(
    "error.said",
    "{text}",
    {"text": "text"},
    when="an error given as a sentence (for the game master), said as it is",
)
entry(
    "reading.not_a_move",
    "'{line}' was not read as a move: {reason}",
    {"line": "text", "reason": "message"},
    when="a reply with no move, one of whose lines began like a move",
)
entry(
    "judge.no_move",
    "Your reply held no move, so nothing was played.",
    when="a reply in a game with no move and no request",
)
entry(
    "judge.reading",
    "I read your reply as: {move}. Nothing is played yet: reply {yes} to play it (at this turn "
    "only), or write your move again.",
    {"move": "move", "yes": "word"},
    when="a reply whose move the referee read in its sentences but is not sure of: it asks "
    "before it plays (yes: the command word for yes)",
)
entry(
    "judge.reading.unplaced",
    "I could not place these words: {words}.",
    {"words": "text"},
    when="with judge.reading or a refusal: the words of the reply the referee did not know, "
    "as written, with commas between",
)
entry(
    "judge.read_as",
    "I read your reply as: {move}.",
    {"move": "move"},
    when="a refusal of a move the referee read in a reply's sentences (not written as a move)",
)
entry(
    "yes.nothing_asked",
    "There is no move of yours waiting for {yes} at this turn: write your move.",
    {"yes": "word"},
    when="a reply yes when the referee asked the player nothing at this turn",
)
entry(
    "judge.no_move.how",
    "Write your move as you would say it, or the way the referee writes moves, like "
    "{examples:or,quoted}. Reply {moves} for every move you may make now, or {board} for the "
    "board.",
    {"examples": "moves", "moves": "word", "board": "word"},
    when="a reply with no move, from the player to move: how a move is written, with moves "
    "they may make (moves, board: the command words)",
)
entry(
    "judge.no_move.say",
    "To write to the other players, begin a line with {say}: {say} Good luck, all!",
    {"say": "word"},
    when="a reply with no move: how to talk to the table instead (say: the command word)",
)
entry(
    "judge.stale",
    "Your reply answered the mail of turn {answered}, but the game has moved on to turn "
    "{now} since. Nothing was played: here is the board now. If your move still stands, reply "
    "to this mail with it.",
    {"answered": "number", "now": "number"},
    when="a reply to an older turn's mail",
)
entry(
    "judge.invalid",
    "Your move could not be read, so nothing was played.",
    when="a move that is not move notation",
)
entry(
    "judge.illegal",
    "Your move is not allowed, so nothing was played.",
    when="a move the rules forbid now",
)
entry(
    "judge.ambiguous",
    "Your move could mean more than one thing, so nothing was played.",
    when="a move that fits several legal moves",
)
entry(
    "judge.which_one",
    "Say which one you mean; each of these can be sent back as it is:",
    when="above the moves an ambiguous move could mean",
)
entry(
    "judge.no_command.referee",
    "The referee read your mail but found no command in it, so nothing was done. Write one of "
    "these as the first line of a mail to the referee:",
    when="a mail to the referee's address with no command",
)
entry(
    "judge.no_command.invitation",
    "Your reply held no answer to the invitation, so nothing was done. Reply with 'accept' "
    "(or 'accept as NAME') to play, or 'decline':",
    when="a reply to an invitation with no answer",
)
entry(
    "judge.looks_like_a_move",
    "Your mail looks like a move, but it was not written as a reply in a game: to move, reply "
    "to the referee's latest board mail of your game.",
    when="a move written to the referee's own address",
)
entry(
    "subject.no_command",
    "Splendor referee: no command found",
    when="the subject of the answer to a mail with no command",
)
entry(
    "judge.command_refused",
    "Your command '{command}' was not carried out, so nothing changed.",
    {"command": "word"},
    when="a command that could not be carried out",
)
entry(
    "subject.command_refused",
    "Splendor referee: '{command}' not carried out",
    {"command": "word"},
    when="the subject of the answer to a command that could not be carried out",
)

entry(
    "judge.unreadable",
    "The referee could not read your mail ({why}), so nothing was played. Please send your "
    "move again as a reply to this mail, written in plain text at the top.",
    {"why": "english"},
    when="a player's reply in a game whose text could not be read (broken MIME, an unknown "
    "charset): why, and how to send it again",
)
