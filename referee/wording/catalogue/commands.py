"""Commands by mail (:mod:`referee.mail.judging.commands`): how each is written and what it does (as
``help`` lists them), and what each answers."""

from referee.wording.catalogue import entry

for key, usage, summary in [
    ("help", "help", "this list of commands (in a game: how to move, too)"),
    ("rules", "rules", "a summary of the rules of Splendor"),
    ("board", "board", "the board and your hand again"),
    (
        "yes",
        "yes",
        "play the move the referee read in your last reply and asked you about (at the same "
        "turn)",
    ),
    ("moves", "moves", "every move you may make now"),
    (
        "away",
        "away UNTIL",
        "pause your deadlines in every game until a date (2027-01-15) or for a time (5d)",
    ),
    ("back", "back", "you are back: your deadlines run again"),
    ("games", "games", "your games: running, finished in the last 30 days, and invitations"),
    (
        "standings",
        "standings",
        "who is ahead among you and the players you have finished games with",
    ),
    (
        "watch",
        "watch GAME",
        "get the public board after every turn of GAME (if it allows spectators)",
    ),
    ("unwatch", "unwatch GAME", "stop getting the boards of a game you watch"),
    (
        "history",
        "history [N]",
        "the last N turns (all when N is left out): turn, player, move, when",
    ),
    ("say", "say TEXT", "send TEXT to every other player (and spectator) of the game"),
    (
        "mail",
        "mail every-turn|my-turn|digest",
        "how much mail you get: a board after every turn; only when it is your move (with "
        "what happened since); or that, and once a day what happened meanwhile",
    ),
    (
        "rematch",
        "rematch",
        "once the game is over: invite the same players to a new game on the same terms",
    ),
    (
        "resign",
        "resign",
        "leave the game now: your tokens go back, your reserved cards leave unseen",
    ),
    (
        "undo",
        "undo",
        "ask to take back your last move, if it was a take of tokens and nobody has moved "
        "since; every other player must accept",
    ),
    ("accept", "accept", "agree to take back the move another player asked to undo"),
    ("decline", "decline", "refuse to take back the move another player asked to undo"),
    (
        "new",
        "new splendor with ADDRESS... [points N] [gold N] [deadline 3d] [timeout forfeit] "
        "[spectators] [language CODE]",
        "propose a game to 1-3 others: each gets an invitation to accept or decline",
    ),
    (
        "invitation.accept",
        "accept [as NAME]",
        "accept an invitation (NAME: the one-word name the others see)",
    ),
    ("invitation.decline", "decline", "decline an invitation (the game is called off)"),
]:
    entry(f"command.{key}.usage", usage, when=f"help: how {key} is written")
    entry(f"command.{key}.summary", summary, when=f"help: what {key} does")

# -- help, rules, board, moves --------------------------------------------------------------

entry("subject.help", "Splendor referee: commands", when="the subject of the answer to help")
entry(
    "help.referee",
    "Write these to the referee's own address, one at the top of a mail:",
    when="help, written to the referee's own address",
)
entry(
    "help.invitation",
    "Reply to your invitation with one of these:",
    when="help, written to an invitation",
)
entry(
    "help.in_game",
    "In a game, reply to the referee's latest mail with a move or one of: {commands:comma}.",
    {"commands": "messages"},
    when="help, written to the referee's own address: the commands of a game",
)
entry("subject.rules", "Splendor referee: the rules", when="the subject of the answer to rules")
entry(
    "rules.game",
    "In game {game}: {points} points to win.",
    {"game": "text", "points": "number"},
    when="rules, written in a game",
)
entry(
    "rules.summary.1",
    "Splendor for 2 to 4 players. On your turn do one thing: take 3 gem tokens of different "
    "colours; or take 2 of one colour when 4 or more of it are in the bank; or reserve a card "
    "(face up, or the top of a deck unseen) and take a gold token (a joker) if any is left, "
    "holding at most 3 reserved; or buy a face-up or reserved card, paying its cost less your "
    "bonuses, gold standing in for any colour. Pass only when nothing else is possible.",
    when="rules: a turn",
)
entry(
    "rules.summary.2",
    "Every card you buy is a permanent bonus of its colour, and some give prestige points. You "
    "may hold at most 10 tokens: return the extra at the end of your move. A noble visits at "
    "the end of your turn when your bonuses meet its needs (3 points; one a turn, your choice "
    "when several could).",
    when="rules: bonuses, tokens and nobles",
)
entry(
    "rules.summary.3",
    "When someone reaches 15 points (or the game's target) the round is finished so that "
    "everyone has had as many turns, and the game ends: most points wins, ties go to the "
    "fewest cards bought, and a tie after that is shared. If every player passes in a row, the "
    "game ends too.",
    when="rules: the end of the game",
)
entry(
    "rules.summary.4",
    "Leaving: a player may resign at any time (their tokens go back to the bank, their "
    "reserved cards leave the game unseen, they cannot win); turns pass over them, and the "
    "last player left wins. A player whose move's deadline passes may be resigned, when the "
    "game was made so.",
    when="rules: leaving a game",
)
entry(
    "requests.answer",
    "Nothing was played; here is what you asked for.",
    when="the answer to board, moves or help in a game",
)
entry(
    "requests.every_move",
    "Every move you may make now ({count}):",
    {"count": "number"},
    when="the answer to moves: above every legal move",
)
entry(
    "requests.not_your_turn",
    "It is not your turn, so you have no moves to make now.",
    when="moves, asked by a player whose turn it is not",
)

# -- away, back -------------------------------------------------------------------------------

entry(
    "away.needs_time",
    "'away' needs a date or a time after it, like: away 5d, or away 2027-01-15",
    when="away written without a date or time",
)
entry(
    "away.passed",
    "'away {argument}' ends at {until}, which has passed: give a later date, or a time like 5d",
    {"argument": "text", "until": "when"},
    when="away with a date that has passed",
)
entry(
    "away.answer",
    "You are away until {until}: your deadlines in every game pause until then. Write 'back' "
    "when you return earlier.",
    {"until": "when"},
    when="the answer to away",
)
entry(
    "away.answer.capped",
    "You are away until {until}: your deadlines in every game pause until then. You asked for "
    "longer, but {longest} is the longest one can be away at once: write 'away' again before "
    "then to stay away longer, or 'resign' in a game you will not come back to. Write 'back' "
    "when you return earlier.",
    {"until": "when", "longest": "duration"},
    when="the answer to away for longer than one may be away",
)
entry(
    "away.told",
    "{player} is away until {until}: their deadlines pause until then.",
    {"player": "name", "until": "when"},
    when="to the other players of a player who wrote away",
)
entry("subject.away", "Splendor referee: away", when="the subject of the answer to away")
entry("subject.back", "Splendor referee: back", when="the subject of the answer to back")
entry(
    "back.not_away",
    "You were not away, so nothing changed.",
    when="back, from someone who was not away",
)
entry("back.answer", "Welcome back: your deadlines run again from now.", when="the answer to back")
entry(
    "back.told",
    "{player} is back: their deadlines run again.",
    {"player": "name"},
    when="to the other players of a player who wrote back",
)

# -- games ----------------------------------------------------------------------------------

entry("subject.games", "Splendor referee: your games", when="the subject of the answer to games")
entry(
    "games.answer",
    "Here are the games of {address}.",
    {"address": "text"},
    when="the answer to games",
)
entry(
    "games.none",
    "{address} has no games here. To start one, write 'new splendor with ADDRESS' to the "
    "referee, naming the addresses of 1 to 3 friends.",
    {"address": "text"},
    when="the answer to games, from someone with none",
)
entry(
    "games.listing",
    "Your games ({count}):",
    {"count": "number"},
    when="the answer to games: above the list",
)
entry("games.playing", "playing", when="games: a game being played")
entry("games.last_round", "last round", when="games: a game in its last round")
RUNNING = "{game} · {status} · turn {turn} · "
for yours, who, whose in [(".yours", "you", {}), ("", "{player}", {"player": "name"})]:
    base = {"game": "text", "status": "message", "turn": "number", **whose}
    entry(f"games.running{yours}", RUNNING + who + " to move", base, when="games: a running game")
    entry(
        f"games.running{yours}.due",
        RUNNING + who + " to move, due by {due}",
        {**base, "due": "when"},
        when="games: a running game, and when its move is due",
    )
entry(
    "games.finished",
    "{game} · finished · turn {turn} · won by {winners:and}",
    {"game": "text", "turn": "number", "winners": "names"},
    when="games: a game finished in the last 30 days",
)
entry(
    "games.invited",
    "{game} · invited · proposed by {proposer} · waiting for {waiting:comma} · expires {expires}",
    {"game": "text", "proposer": "text", "waiting": "names", "expires": "when"},
    when="games: an invitation still open",
)
entry(
    "games.invited.nobody",
    "{game} · invited · proposed by {proposer} · waiting for nobody · expires {expires}",
    {"game": "text", "proposer": "text", "expires": "when"},
    when="games: an invitation everyone has answered",
)

# -- mail ------------------------------------------------------------------------------------

entry(
    "subject.mail",
    "Splendor referee: how much mail you get",
    when="the subject of the answer to mail",
)
entry(
    "mail.answer.every-turn",
    "From now on you get the board after every turn, in each of your games.",
    when="the answer to 'mail every-turn'",
)
entry(
    "mail.answer.my-turn",
    "From now on you get a letter only when it is your move (telling what happened since "
    "your last move) and when a game ends. To get every board again, write 'mail every-turn'.",
    when="the answer to 'mail my-turn'",
)
entry(
    "mail.answer.digest",
    "From now on you get a letter when it is your move (telling what happened since your "
    "last move) and when a game ends, and at most once a day a letter of what happened in "
    "your games meanwhile. To get every board again, write 'mail every-turn'.",
    when="the answer to 'mail digest'",
)
entry(
    "mail.unknown",
    "{written} is not one of the choices: write 'mail every-turn' (the board after every "
    "turn), 'mail my-turn' (only when it is your move) or 'mail digest' (when it is your "
    "move, and once a day what happened)",
    {"written": "quoted"},
    when="mail with something else than every-turn, my-turn or digest",
)

# -- standings ---------------------------------------------------------------------------------

entry(
    "subject.standings",
    "Splendor referee: standings",
    when="the subject of the answer to standings",
)
entry(
    "standings.answer",
    "Here is how you stand with the players you have finished games with, best first, over "
    "your {games} finished games and theirs. Each game counts as it ended; the rating is "
    "OpenSkill's (a newcomer starts at 0 and it rises as wins show your skill).",
    {"games": "number"},
    when="the answer to standings",
)
entry(
    "standings.none",
    "You have not finished a game here yet: the standings count finished games only.",
    when="the answer to standings, from someone with no finished game",
)
entry(
    "standings.listing",
    "Standings ({count}):",
    {"count": "number"},
    when="the answer to standings: above the list",
)
SCORES = " · played {played} · won {won} · shared {shared} · resigned {resigned} · rating {rating}"
COUNTS = {k: "number" for k in ("place", "played", "won", "shared", "resigned", "rating")}
entry(
    "standings.line",
    "{place}. {name}" + SCORES,
    {**COUNTS, "name": "name"},
    when="standings: a player's line (won: wins alone; shared: wins tied with others)",
)
entry(
    "standings.line.you",
    "{place}. you" + SCORES,
    COUNTS,
    when="standings: the line of whoever asked",
)

# -- watch, unwatch -----------------------------------------------------------------------------

entry(
    "watch.needs_game",
    "'{verb}' needs the game's id after it, like: {verb} g1",
    {"verb": "text"},
    when="watch or unwatch written without a game",
)
entry(
    "watch.no_game",
    "there is no game {argument}: write '{verb} GAME' with the id of a game (the players see "
    "it in every subject line)",
    {"argument": "quoted", "verb": "text"},
    when="watch or unwatch naming no game",
)
entry(
    "watch.unreadable",
    "game {game} cannot be read just now; try later",
    {"game": "text"},
    when="watch or unwatch naming a game that cannot be read",
)
entry(
    "watch.no_spectators",
    "game {game} was not created with spectators, so it cannot be watched; only games made "
    "with 'spectators' (or referee new --spectators) can",
    {"game": "text"},
    when="watch, of a game made without spectators",
)
entry(
    "watch.playing",
    "you play in game {game}, so you get its board after every turn already",
    {"game": "text"},
    when="watch, by a player of the game",
)
entry(
    "subject.watching",
    "Splendor {game} · turn {turn} · watching",
    {"game": "text", "turn": "number"},
    when="the subject of the answer to watch",
)
entry(
    "watch.answer",
    "You are now watching game {game}: you will get the public board after every turn. Write "
    "'unwatch {game}' to the referee to stop.",
    {"game": "text"},
    when="the answer to watch",
)
entry(
    "subject.unwatched",
    "Splendor referee: you no longer watch {game}",
    {"game": "text"},
    when="the subject of the answer to unwatch",
)
entry(
    "unwatch.answer",
    "You no longer watch game {game}.",
    {"game": "text"},
    when="the answer to unwatch",
)
entry(
    "unwatch.not_watching",
    "You were not watching game {game}; nothing changed.",
    {"game": "text"},
    when="unwatch, of a game the sender did not watch",
)

# -- history ------------------------------------------------------------------------------------

entry(
    "history.bad_count",
    "'history {argument}' asks for {asked} turns: write a whole number, like history 5, or "
    "history alone for every turn",
    {"argument": "text", "asked": "quoted"},
    when="history with something other than a number after it",
)
entry(
    "history.answer",
    "Nothing was played; here is the history you asked for.",
    when="the answer to history",
)
entry(
    "history.line",
    "turn {turn:>3} · {at} · {told}",
    {"turn": "number", "at": "when", "told": "message"},
    when="history: one turn",
)
entry("history.none", "No turn has been played yet.", when="history of a game just begun")
entry(
    "history.last",
    "The last {count} turn of game {game}:",
    {"count": "number", "game": "text"},
    plural="The last {count} turns of game {game}:",
    count="count",
    when="history N: above the list",
)
entry(
    "history.every",
    "Every turn of game {game} ({count}):",
    {"count": "number", "game": "text"},
    when="history: above the list of every turn",
)

# -- say --------------------------------------------------------------------------------------

entry(
    "say.needs_text",
    "'say' needs the text to send after it, like: say Good luck!",
    when="say written with nothing after it",
)
entry(
    "say.told",
    "{player} says, in game {game}:",
    {"player": "name", "game": "text"},
    when="to the other players: what a player wrote with say (quoted below)",
)
entry(
    "say.told.watching",
    "{player} says, in game {game} (you are watching it; write 'unwatch {game}' to the "
    "referee to stop):",
    {"player": "name", "game": "text"},
    when="to a spectator: what a player wrote with say",
)
entry(
    "subject.said",
    "Splendor {game} · {player} says",
    {"game": "text", "player": "name"},
    when="the subject of what a player wrote with say, to a spectator",
)
entry(
    "say.sent",
    "Your message was sent to {count} other in game {game}.",
    {"count": "number", "game": "text"},
    plural="Your message was sent to {count} others in game {game}.",
    count="count",
    when="the answer to say",
)
entry(
    "say.sent.cut",
    "Your message was sent to {count} other in game {game}. Your message was {length:,} "
    "characters long; only the first {most:,} were sent.",
    {"count": "number", "game": "text", "length": "number", "most": "number"},
    plural="Your message was sent to {count} others in game {game}. Your message was "
    "{length:,} characters long; only the first {most:,} were sent.",
    count="count",
    when="the answer to say, when what was written was too long and was cut",
)

# -- undo, accept, decline ------------------------------------------------------------------------

entry("undo.over", "the game is over, so no move can be taken back", when="undo in a finished game")
entry(
    "undo.not_yours",
    "only the last move of the game can be taken back, and it is not yours",
    when="undo before any move",
)
entry(
    "undo.not_yours.turn",
    "only the last move of the game can be taken back, and it is not yours (turn {turn} was "
    "{player}'s)",
    {"turn": "number", "player": "name"},
    when="undo by a player who did not make the last move",
)
entry(
    "undo.not_a_take",
    "turn {turn} ({move}) showed or changed cards, so it cannot be taken back: only a take of "
    "tokens can",
    {"turn": "number", "move": "move"},
    when="undo of a move that was not a take",
)
entry(
    "undo.asked_already",
    "you asked to take back turn {turn} already; the others are asked",
    {"turn": "number"},
    when="undo asked twice",
)
entry(
    "undo.asked",
    "{player} asks to take back turn {turn} ({told}). Reply 'accept' to agree or 'decline' to "
    "refuse. It is taken back when every other player accepts; a decline, or the next move, "
    "ends the request.",
    {"player": "name", "turn": "number", "told": "message"},
    when="to the other players: a player asks to undo their move",
)
entry(
    "undo.sent",
    "You asked to take back turn {turn}: {others:comma} is asked to accept.",
    {"turn": "number", "others": "names"},
    plural="You asked to take back turn {turn}: {others:comma} are asked to accept.",
    count="others",
    when="the answer to undo",
)
entry(
    "undo.nothing_to_accept",
    "no undo is waiting for an answer in this game, so there is nothing to accept",
    when="accept in a game with no undo asked",
)
entry(
    "undo.accept_own",
    "you asked for this undo yourself: the other players must accept it",
    when="accept of one's own undo",
)
entry(
    "undo.accepted",
    "You accepted taking back turn {turn}; still to answer: {missing:comma}.",
    {"turn": "number", "missing": "names"},
    when="the answer to accept, while others have yet to answer",
)
entry(
    "undo.done",
    "Turn {turn} ({player}'s move) was taken back: {player} asked and {agreed:comma} accepted.",
    {"turn": "number", "player": "name", "agreed": "names"},
    when="to every player: a move was taken back, everyone having accepted",
)
entry(
    "undo.nothing_to_decline",
    "no undo is waiting for an answer in this game, so there is nothing to decline",
    when="decline in a game with no undo asked",
)
entry(
    "undo.decline_own",
    "you asked for this undo yourself; to let it drop, just play on",
    when="decline of one's own undo",
)
entry(
    "undo.declined",
    "{player} declined taking back turn {turn}: it stands.",
    {"player": "name", "turn": "number"},
    when="to the players: an undo was declined",
)

# -- new splendor with ... ------------------------------------------------------------------------

entry(
    "new.how",
    "to propose a game write: new splendor with ADDRESS ADDRESS (1 to 3 friends' mail "
    "addresses), and if you like: points 15, gold 5, deadline 3d, timeout forfeit, spectators",
    when="new written otherwise than new splendor with ...",
)
entry(
    "new.needs_value",
    "'{word}' needs a value after it, like {word} {example}",
    {"word": "text", "example": "word"},
    when="an option of new with no value",
)
entry(
    "new.out_of_range",
    "{key} {value} is out of range: give a whole number from {low} to {high}",
    {"key": "word", "value": "text", "low": "number", "high": "number"},
    when="points or gold out of range ({key}: the option's word)",
)
entry(
    "new.no_addresses",
    "name 1 to 3 friends' mail addresses after 'new splendor with'",
    when="new splendor with no addresses",
)
entry(
    "new.no_bot_level",
    "{address}: there is no bot level {level}; write bot (a {default} one) or bot:LEVEL, LEVEL "
    "one of {levels:comma}",
    {"address": "quoted", "level": "quoted", "default": "text", "levels": "names"},
    when="a bot of a level there is not",
)
entry(
    "new.not_an_address",
    "{reason}; write each friend's address in full, like bob@example.org",
    {"reason": "message"},
    when="a friend's address that is not a mail address",
)
entry(
    "new.special_use",
    "{address} cannot be invited: its domain ends in .{suffix}, a special-use name {purpose}, "
    "which mail from the internet never reaches; this referee plays only with addresses mail "
    "can reach; its game master can allow {allow} for a private mail system",
    {"address": "quoted", "suffix": "text", "purpose": "message", "allow": "text"},
    when="a friend's address in a special-use domain (.test, .local ...) not allowed here",
)
entry(
    "new.own_address",
    "{address} is your own address: you play already, name only the others",
    {"address": "text"},
    when="new naming the proposer's own address",
)
entry(
    "new.twice",
    "{address} is named twice: name each friend once",
    {"address": "text"},
    when="new naming an address twice",
)
entry(
    "rematch.not_over",
    "game {game} is not over yet: once it is, 'rematch' invites the same players again",
    {"game": "text"},
    when="rematch in a game still being played",
)
entry(
    "new.too_many",
    "you named {named} others, but Splendor is for 2 to 4 players: name 1 to {most}",
    {"named": "number", "most": "number"},
    when="new naming more than 3 others",
)
entry(
    "new.bad_timeout",
    "timeout {timeout} is not a policy: write timeout wait (remind and wait), timeout forfeit "
    "(resign a player whose deadline passes) or timeout bot (a bot plays that one turn for "
    "them)",
    {"timeout": "text"},
    when="new with an unknown timeout policy",
)
entry(
    "new.too_often",
    "you have proposed {count} games in the last hour, the most one may: try again later",
    {"count": "number"},
    when="a fourth proposal within an hour",
)
entry(
    "subject.proposed",
    "Splendor {game} · your game is proposed",
    {"game": "text"},
    when="the subject of the answer to new",
)
PROPOSED = (
    ". It starts when every one of them has accepted; it is cancelled if one declines, or if "
    "any has not answered by {expires}."
)
entry(
    "new.proposed",
    "Your game {game} is proposed to {people:comma}" + PROPOSED,
    {"game": "text", "people": "names", "expires": "when"},
    when="the answer to new",
)
entry(
    "new.proposed.bots",
    "Your game {game} is proposed to {people:comma} (and {bots} bot, who accepts at once)"
    + PROPOSED,
    {"game": "text", "people": "names", "bots": "number", "expires": "when"},
    plural="Your game {game} is proposed to {people:comma} (and {bots} bots, who accept at "
    "once)" + PROPOSED,
    count="bots",
    when="the answer to new, with bots among the players",
)
entry(
    "new.call_off",
    "Reply 'decline' to this mail to call the game off.",
    when="the answer to new: how to call the game off",
)
RULES = (
    "The rules: {points} points to win, {gold} gold tokens; each move is due {deadline} after "
    "the one before ({timeout})"
)
OPTIONS = {"points": "number", "gold": "number", "deadline": "duration", "timeout": "message"}
entry("options.rules", RULES + ".", OPTIONS, when="a game proposed: its rule options")
entry(
    "options.rules.spectators",
    RULES + "; anyone may watch the game.",
    OPTIONS,
    when="a game proposed with spectators: its rule options",
)
entry(
    "options.timeout.wait",
    "a player who lets it pass is reminded, and the game waits",
    when="a game proposed: the timeout wait",
)
entry(
    "options.timeout.forfeit",
    "a player who lets it pass is resigned",
    when="a game proposed: the timeout forfeit",
)
entry(
    "options.timeout.bot",
    "a bot plays that one turn for a player who lets it pass",
    when="a game proposed: the timeout bot",
)
entry(
    "subject.invitation",
    "Splendor {game} · {player} invites you to a game",
    {"game": "text", "player": "name"},
    when="the subject of an invitation",
)
entry("invite.someone", "{address}", {"address": "text"}, when="an invitation: someone invited")
entry(
    "invite.bot",
    "{player} (a {level} bot)",
    {"player": "name", "level": "text"},
    when="an invitation: a bot among the players",
)
entry(
    "invite.invites",
    "{player} ({proposer}) invites you to play Splendor by mail, game {game}: you, {everyone:and}.",
    {"player": "name", "proposer": "text", "game": "text", "everyone": "messages"},
    when="an invitation: who invites whom",
)
entry(
    "invite.how",
    "Reply to this mail with 'accept' to play (or 'accept as NAME' to choose the name the "
    "others see), or 'decline'. The game starts when everyone has accepted; if anyone has not "
    "answered by {expires}, it is called off.",
    {"expires": "when"},
    when="an invitation: how to answer it",
)
entry(
    "invite.unknown_sender",
    "If you do not know the sender, ignore this mail: nothing happens unless you reply.",
    when="an invitation: to someone who does not know the sender",
)

# -- accept, decline (an invitation) --------------------------------------------------------------

entry(
    "invite.called_off",
    "game {game} was called off: {why}",
    {"game": "text", "why": "message"},
    when="an answer to an invitation called off (why: as recorded)",
)
entry(
    "invite.started",
    "game {game} has started already",
    {"game": "text"},
    when="an answer to an invitation whose game has started",
)
entry(
    "invite.ran_out",
    "the invitation to game {game} ran out at {expires}",
    {"game": "text", "expires": "when"},
    when="an answer to an invitation that ran out",
)
entry(
    "invite.accepted_already",
    "you accepted this invitation already; an answer cannot be changed",
    when="a second answer from someone who accepted",
)
entry(
    "invite.declined_already",
    "you declined this invitation already; an answer cannot be changed",
    when="a second answer from someone who declined",
)
entry(
    "invite.accept_unclear",
    "'accept {wanted}' is not understood: write accept, or accept as NAME",
    {"wanted": "text"},
    when="accept followed by something other than as NAME",
)
entry(
    "invite.bad_name",
    "{name} cannot be a name: a name is one word of at most 20 letters or digits, like accept "
    "as Bob",
    {"name": "quoted"},
    when="accept as NAME with a name that cannot be one",
)
entry(
    "invite.name_taken",
    "another player is called {name} already: choose another name",
    {"name": "text"},
    when="accept as NAME with a name another has taken",
)
entry(
    "subject.accepted",
    "Splendor {game} · you accepted",
    {"game": "text"},
    when="the subject of the answer to accept",
)
entry(
    "invite.accepted",
    "You accepted game {game} as {name}. It starts when {waiting:comma} has accepted too (by "
    "{expires} at the latest).",
    {"game": "text", "name": "name", "waiting": "names", "expires": "when"},
    plural="You accepted game {game} as {name}. It starts when {waiting:comma} have accepted "
    "too (by {expires} at the latest).",
    count="waiting",
    when="the answer to accept, while others have yet to answer",
)
entry(
    "subject.cancelled",
    "Splendor {game} · called off",
    {"game": "text"},
    when="the subject of a game called off",
)
entry(
    "cancel.answer",
    "Game {game}, proposed by {proposer}, is called off: {why}",
    {"game": "text", "proposer": "text", "why": "message"},
    when="to everyone invited: the game is called off",
)
entry(
    "cancel.declined",
    "{address} declined.",
    {"address": "text"},
    when="a game called off: someone invited declined",
)
entry(
    "cancel.called_off",
    "{address} called it off.",
    {"address": "text"},
    when="a game called off by its proposer",
)
entry(
    "cancel.expired",
    "not everyone invited answered within 7 days.",
    when="a game called off: its invitation ran out",
)
entry(
    "cancel.another",
    "To propose another, write 'new splendor with ADDRESS...' to the referee.",
    when="a game called off: how to propose another",
)
