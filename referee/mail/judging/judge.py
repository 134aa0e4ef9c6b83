"""Judging a mail: pure. (the mail, read; a snapshot of what is known) -> a ruling.

A ruling is a turn to record with the letters that announce it, or letters that answer or
refuse, or silence; the effects a command asks for; and the folder the mail is filed in. The
letters are data (what each reader is told, as messages): the letter writer words them. Nothing
here touches the disk, the clock or the network: the service reads what a mail needs into a
:class:`~referee.mail.judging.facts.Snapshot` first (:func:`read` says what that is), and
carries the ruling out after.

What players may write in a reply: one move, or the requests ``help``, ``board`` and
``moves``, or a command; how a reply is read is :mod:`referee.mail.reading.reply`'s job.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from referee.engine import Buy, GameState, Move, Reserve, Take, legal_moves, move_json, view
from referee.errors import AmbiguousMoveError, InvalidMoveError, MoveError, RequestError
from referee.games import Played, judge_move
from referee.mail.judging import confirming
from referee.mail.judging.commands import Found, read_command, read_command_in_sentences
from referee.mail.judging.commands.requests import answer_requests, help_commands
from referee.mail.judging.facts import Snapshot
from referee.mail.judging.notices import not_a_move, too_large
from referee.mail.judging.ruling import AskReading, Context, EndConfirmation, Folder, Ruling, Scope
from referee.mail.judging.telling import (
    legal_moves_of,
    over,
    status,
    to_player,
    to_someone,
    turn_letters,
)
from referee.mail.reading.footers import is_footer
from referee.mail.reading.inbound import DOCTOR_TEST, Inbound, reply_text
from referee.mail.reading.reply import read_reply
from referee.mail.reading.routing import Route, authentic, authentic_invitation
from referee.mail.state.ledger import AskedReading, Pending
from referee.notation import (
    MoveRequest,
    as_move,
    format_move,
    parse_request,
    resolve,
    says_a_move,
)
from referee.record import Replayed, SourceEntry
from referee.sentences import MoveReading
from referee.wording.letter import Board, Letter
from referee.wording.messages import Message, message_of, say
from referee.wording.vocabulary import reading_vocabulary
from referee.wording.words import ENGLISH
from referee.wording.written_language import written_language

__all__ = ["Folder", "Received", "Ruling", "judge", "oversized", "read", "read_confirmation"]


@dataclass(frozen=True)
class Received:
    """A mail as it arrived and was read: where it was written (``scope``; None when it is
    not read at all: automatic, forged or unreadable), what its writer wrote (quotes and
    footers left out) and the command it holds, if any."""

    inbound: Inbound
    route: Route | None
    scope: Scope | None
    written: str = ""
    found: Found | None = None
    #: the token of the confirmation it answers (see :func:`read_confirmation`)
    confirms: str | None = None

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(self.written.splitlines())

    @property
    def needs(self) -> frozenset[str]:
        """What the command it holds needs to know beyond its game (see Command.needs)."""
        return self.found.command.needs if self.found is not None else frozenset()


def read(inbound: Inbound, route: Route | None, scope: Scope) -> Received:
    """What a mail says, before anything else is known: ``scope`` is where it was written
    (to the referee's own address, in a game, or to an invitation: the service knows which
    its route names)."""
    if inbound.unreadable or inbound.automatic or inbound.spoofed:
        return Received(inbound, route, None)
    written = reply_text(inbound.text)
    found = read_command(scope, written)
    if found is None and (scope != "game" or _no_move_in(written)):
        found = read_command_in_sentences(scope, written)  # "I'm away until Friday"
    return Received(inbound, route, scope, written, found)


def _plain_yes(written: str) -> bool:
    """Whether a reply that begins with yes says yes and nothing else: polite words, but no
    move, no not or but, no question, and no word the reader does not know beside it ("Yes
    please!", "Ie, diolch"; not "Yes but not the blue one", "Yeah no", "Jæja, ég veit ekki")."""
    sentences = read_reply(written).sentences.sentences
    if any(s.moving or s.doubt is not None or s.asks for s in sentences):
        return False
    vocabulary = reading_vocabulary()
    said = [w for s in sentences for w in s.unplaced]
    return all("yes" in vocabulary.commands_of(w) for w in said)


def _no_move_in(written: str) -> bool:
    """Whether a reply holds no move (no move line, no move read in its sentences: a move
    word in chat, "the nobles", leaves a command said beside it a command)."""
    reading = read_reply(written)
    return not reading.move and reading.sentences.request is None


def read_confirmation(inbound: Inbound, token: str, pending: Pending | None) -> Received:
    """A reply to a confirmation (:mod:`referee.mail.judging.confirming`): what it confirms is the
    command kept with it (``pending``), whatever the reply itself says."""
    if inbound.unreadable or inbound.automatic or inbound.spoofed or pending is None:
        return Received(inbound, None, None, confirms=token)
    found = read_command("referee", pending.line)
    return Received(inbound, None, "referee", pending.line, found, confirms=token)


def judge(mail: Received, seen: Snapshot, now: datetime) -> Ruling:
    """The ruling on one mail that arrived at ``now`` (the time a move is recorded at),
    knowing ``seen``; its letters to the writer worded in their language."""
    return _in_the_writers_language(_judged(mail, seen, now), mail, seen)


def _in_the_writers_thread(ruling: Ruling, ctx: Context) -> Ruling:
    """``ruling`` on a player's mail in their game (``ctx``, the sender proven that player)
    with the letters that answer them about no game of their own (the rules, their games,
    standings, away…) kept in that game's thread: its reply address (a reply to them is a
    reply in the game, at the turn now), and the player greeted by their name there."""
    assert ctx.facts is not None and ctx.seat is not None
    game, seat, turn = ctx.record.id, ctx.seat, ctx.facts.game.state.turn
    letters = [
        replace(letter, game=game, seat=seat, turn=turn, name=ctx.name)
        if letter.to == ctx.sender and not letter.game and letter.seat is None
        else letter
        for letter in ruling.letters
    ]
    return replace(ruling, letters=letters)


def _in_the_writers_language(ruling: Ruling, mail: Received, seen: Snapshot) -> Ruling:
    """``ruling`` with the letters that answer the writer of ``mail`` given the language to
    word them in when the writer chose none and the letter is about no game: that of the
    game or invitation the mail was written in (none: the service's, as every letter of that
    game), else, for a mail to the referee's own address, that of its words
    (docs/languages.md, "The language of a letter")."""
    sender = mail.inbound.sender
    if not any(letter.to == sender and letter.language is None for letter in ruling.letters):
        return ruling
    if mail.scope == "game":
        language = seen.game.game.record.language if seen.game is not None else None
    elif mail.scope == "invitation":
        language = seen.invitation.language if seen.invitation is not None else None
    else:  # (a mail program's footer, "Sent from my iPhone", is not the writer's language)
        own = "\n".join(line for line in mail.lines if not is_footer(line))
        language = written_language(own)
    if language is None:
        return ruling
    letters = [
        replace(letter, language=language)
        if letter.to == sender and letter.language is None
        else letter
        for letter in ruling.letters
    ]
    return replace(ruling, letters=letters)


def _judged(mail: Received, seen: Snapshot, now: datetime) -> Ruling:
    inbound = mail.inbound
    if inbound.automatic:
        why = f"automatic mail: {inbound.automatic}"
        return Ruling("ignored", "quarantine", why, listed=inbound.automatic != DOCTOR_TEST)
    if inbound.spoofed:  # answering would send mail to someone who did not write
        return Ruling("ignored", "quarantine", f"forged sender: {inbound.spoofed}")
    if inbound.unreadable:
        return _unreadable(mail, seen)
    route = mail.route
    if mail.confirms is not None:
        return _confirming(Context("referee", inbound, now, seen, lines=mail.lines), mail)
    if route is None or mail.scope == "referee":
        return _commanded(Context("referee", inbound, now, seen, lines=mail.lines), mail.found)
    if seen.game is None:
        invitation = seen.invitation
        if invitation is None:
            return _stranger(inbound, f"no game {route.game!r}", "no-game")
        refused = authentic_invitation(route, invitation, inbound.sender, seen.secret)
        if refused:
            return _stranger(inbound, refused, "unauthorised")
        ctx = Context("invitation", inbound, now, seen, seat=route.seat, lines=mail.lines)
        return _commanded(ctx, mail.found)
    game = seen.game.game
    refused = authentic(route, game.record, inbound.sender, seen.secret)
    if refused:
        return _stranger(inbound, refused, "unauthorised")
    ctx = Context(
        "game", inbound, now, seen, seat=route.seat, route_turn=route.turn, lines=mail.lines
    )
    return _in_the_writers_thread(_in_game(ctx, mail), ctx)


def _in_game(ctx: Context, mail: Received) -> Ruling:
    """A mail of a player in their game (the sender proven that player): a command, a yes
    to a move asked about, or a move."""
    seen, route = ctx.seen, mail.route
    assert seen.game is not None and route is not None
    if mail.found is not None and mail.found.command.key == "yes":
        asked = seen.game.asked(route.seat)
        if asked is not None and _plain_yes(mail.written):
            return _yes(ctx, mail, asked)
        if asked is not None or read_reply(mail.written).sentences.moving:
            return _move(ctx, mail)  # ("yes, but take two blacks": that move, or none)
        if not _plain_yes(mail.written):  # ("iawn dwi nôl!! … rhowch fi nôl yn y gêm": a
            said = read_command_in_sentences("game", mail.written)  # "right" before
            if said is not None:  # a command said in a sentence, nothing asked)
                return _commanded(ctx, said)
    if mail.found is not None:
        return _commanded(ctx, mail.found)
    return _move(ctx, mail)


def _move(ctx: Context, mail: Received) -> Ruling:
    """A reply in a game that holds no command: a move, requests, or neither."""
    assert ctx.facts is not None and ctx.seat is not None
    game, seat = ctx.facts.game, ctx.seat
    state, name = game.state, ctx.name
    reading = read_reply(mail.written)
    moves, requests = reading.move, reading.requests
    answers = ctx.inbound.message_id

    def refuse(kind: str, says: Sequence[Message], note: str) -> tuple[Letter, Ruling]:
        letter = to_player(game.record, seat, kind, says, Board(view(state, name)))
        letter = replace(letter, answers=answers)
        limit = _limit(kind, state.turn, moves)
        return letter, Ruling("refused", "refused", note, letters=[letter], limit=limit)

    sentences = reading.sentences
    if state.status == "finished":
        return refuse("over", [over(state)], note="the game is over")[1]
    if not moves and sentences.request is None and sentences.trouble is not None:
        return _refusal(game, seat, sentences_read(sentences), sentences.trouble, answers)
    if not moves and sentences.request is None:
        if requests:
            return answer_requests(ctx, requests)
        says = [say("judge.no_move"), *_how_to_move(state, name)]
        letter, ruling = refuse("no-move", says, note="no move in the reply")
        told = replace(  # short: no board, no list of commands (a chat, most often)
            letter, quoted=tuple(reading.passed[:10]), reason=reading.near_miss(), board=None
        )
        return replace(ruling, letters=[told])
    route_turn = ctx.route_turn
    if route_turn is not None and route_turn < state.turn:
        letter, ruling = refuse(
            "stale",
            [say("judge.stale", answered=route_turn, now=state.turn)],
            note=f"stale: answers turn {route_turn}, the game is at turn {state.turn}",
        )
        quoted = tuple(moves or sentences_read(sentences))
        return replace(ruling, letters=[replace(letter, quoted=quoted)])
    if moves:
        source = SourceEntry(kind="mail", message_id=ctx.inbound.message_id)
        try:
            played = judge_move(game, name, "\n".join(moves), source, at=ctx.now)
        except MoveError as err:
            otherwise = None if sentences.request is None else _read_otherwise(sentences, moves)
            if otherwise is None:
                return _refusal(game, seat, moves, err, answers)
            if not isinstance(err, InvalidMoveError):
                sentences = otherwise
        else:
            return _played(ctx, played)
    return _read_in_sentences(ctx, sentences)


def _read_otherwise(sentences: MoveReading, moves: list[str]) -> MoveReading | None:
    """The sentences' reading, to be judged in place of the move lines that were not allowed:
    as it is when it says more than they do (a return, a payment, a noble on a line of its
    own: "give back: 1 black, 1 green"), never sure when it reads them as another move ("Tek
    3: hvítan, grænan, rauðan" is no take of three whites); None when it reads them as the
    same move, or when the lines are no move at all (then the sentences are read as they are,
    the caller sees to that)."""
    request = sentences.request
    assert request is not None
    try:
        lines = parse_request("\n".join(moves))
    except MoveError:
        return sentences

    def bare(said: MoveRequest) -> MoveRequest:
        return replace(said, returned=None, pay=None, noble=None, text=None, others=())

    if bare(request) != bare(lines):
        return replace(sentences, sure=False)
    more = any(
        getattr(lines, part) is None and getattr(request, part) is not None
        for part in ("returned", "pay", "noble")
    )
    return sentences if more else None


def _how_to_move(state: GameState, name: str) -> list[Message]:
    """How a move is written, with moves the player may make now as examples (when it is
    their turn), and how to talk to the table."""
    examples: list[dict[str, object]] = []
    if state.status != "finished" and state.player.name == name:
        moves = legal_moves(state)
        for kind in (Take, Reserve, Buy):  # one of each kind there is
            found = next((m for m in moves if isinstance(m, kind) and _plain(m)), None)
            if found is not None:
                examples.append(move_json(found))
    how = []
    if examples:
        words = {"moves": "commands.moves", "board": "commands.board"}
        how.append(say("judge.no_move.how", examples=examples, **words))
    how.append(say("judge.no_move.say", say="commands.say"))
    return how


def _plain(move: Move) -> bool:
    """Whether a move is a plain example: three colours, a face-up card, nothing returned."""
    if isinstance(move, Take):
        return sum(move.gems) == 3 and not any(move.returned)
    if isinstance(move, Reserve):
        return move.card is not None and not any(move.returned)
    return isinstance(move, Buy) and not any(move.returned)


def _played(ctx: Context, played: Played) -> Ruling:
    """A turn played by a mail, and the letters that tell of it."""
    assert ctx.facts is not None
    game = ctx.facts.game
    return Ruling(
        "played",
        "done",
        f"turn {played.turn.turn}: {ctx.name} {format_move(played.move)}",
        played=played,
        letters=turn_letters(game, played, ctx.facts, ctx.inbound.message_id),
    )


def sentences_read(sentences: MoveReading) -> list[str]:
    """The sentences of a reply that hold its move, as written (what a letter quotes)."""
    return [s.text for s in sentences.sentences if s.moving or s.bare][:5]


def _read_in_sentences(ctx: Context, sentences: MoveReading) -> Ruling:
    """A move read in a reply's sentences: played when the reading is sure; asked about
    when it is not (the reading kept, for a ``yes``); refused, saying how it was read, when
    it is not allowed."""
    assert ctx.facts is not None and ctx.seat is not None and sentences.request is not None
    game, seat, name = ctx.facts.game, ctx.seat, ctx.name
    state, answers = game.state, ctx.inbound.message_id
    quoted = sentences_read(sentences)
    sure = sentences.sure
    try:
        move = resolve(state, sentences.request, name)
    except MoveError as err:
        paid_as_usual = _without_the_payment(state, sentences.request, name)
        if paid_as_usual is None:
            ruling = _refusal(game, seat, quoted, err, answers)
            return _read_as(ruling, sentences, as_read(state, sentences.request, name))
        move, sure = paid_as_usual, False  # (the payment read does not pay: asked about)
    text = format_move(move)
    if sure:
        source = SourceEntry(kind="mail", message_id=answers)
        try:
            return _played(ctx, judge_move(game, name, text, source, at=ctx.now))
        except MoveError as err:
            return _refusal(game, seat, quoted, err, answers)
    says = [say("judge.reading", move=move_json(move), yes="commands.yes")]
    if sentences.unplaced:
        says.append(say("judge.reading.unplaced", words=", ".join(sentences.unplaced)))
    letter = to_player(game.record, seat, "reading", says, Board(view(state, name)))
    letter = replace(letter, quoted=tuple(quoted), answers=answers)
    asked = AskedReading(seat, state.turn, text, ctx.now, answers or "")
    return Ruling(
        "answered",
        "done",
        f"asked: read as {text}",
        letters=[letter],
        effects=[AskReading(game.record.id, seat, asked)],
    )


def _without_the_payment(state: GameState, request: MoveRequest, name: str) -> Move | None:
    """A buy whose payment, as read, does not pay (the card can be bought all the same):
    the buy paid as usual, to be asked about; None for anything else."""
    if request.action != "buy" or request.pay is None:
        return None
    try:
        return resolve(state, replace(request, pay=None, others=()), name)
    except MoveError:
        return None


def as_read(state: GameState, request: MoveRequest, name: str) -> Move | None:
    """The move a request reads as, made whole without asking whether it is legal (None when
    it cannot be made whole: a player not in the game)."""
    try:
        return as_move(state, request, name)
    except MoveError:
        return None


def _read_as(ruling: Ruling, sentences: MoveReading, move: Move | None) -> Ruling:
    """A refusal of a move read in sentences, saying how it was read, and the words it could
    not place."""
    if move is None or not ruling.letters:
        return ruling
    letter = ruling.letters[0]
    says = [say("judge.read_as", move=move_json(move)), *letter.says]
    if sentences.unplaced:
        says.insert(1, say("judge.reading.unplaced", words=", ".join(sentences.unplaced)))
    return replace(ruling, letters=[replace(letter, says=tuple(says)), *ruling.letters[1:]])


def _yes(ctx: Context, mail: Received, asked: AskedReading) -> Ruling:
    """A ``yes`` to a reading asked about at this turn: the move read is played, as if the
    player had written it so."""
    assert ctx.facts is not None and ctx.seat is not None
    game, seat = ctx.facts.game, ctx.seat
    source = SourceEntry(kind="mail", message_id=ctx.inbound.message_id)
    try:
        played = judge_move(game, ctx.name, asked.move, source, at=ctx.now)
    except MoveError as err:
        return _refusal(game, seat, [asked.move], err, ctx.inbound.message_id)
    ruling = _played(ctx, played)
    return replace(ruling, effects=[*ruling.effects, AskReading(game.record.id, seat, None)])


def _unreadable(mail: Received, seen: Snapshot) -> Ruling:
    """A mail whose text could not be read (broken MIME, a charset no one knows): ignored,
    unless a player of a game wrote it, replying with their own key, who is told it could not
    be read and how to send it again (once a day)."""
    inbound, route, facts = mail.inbound, mail.route, seen.game
    why = str(inbound.unreadable)
    if route is None or facts is None or not inbound.sender:
        return Ruling("ignored", "quarantine", why)
    record = facts.game.record
    if authentic(route, record, inbound.sender, seen.secret):
        return Ruling("ignored", "quarantine", why)
    state = facts.game.state
    name = record.players[route.seat].name
    says = [say("judge.unreadable", why=why), status(state, name)]
    letter = to_player(record, route.seat, "unreadable", says, Board(view(state, name)))
    letter = replace(letter, answers=inbound.message_id)
    return Ruling("refused", "quarantine", why, letters=[letter], limit="unreadable")


def _confirming(ctx: Context, mail: Received) -> Ruling:
    """A reply to a confirmation: the command kept with it, carried out, when it comes from
    the address the confirmation was asked of."""
    pending, token = ctx.seen.pending, str(mail.confirms)
    if pending is None or pending.lapsed(ctx.now) or mail.found is None:
        return confirming.unknown(ctx, token)
    if pending.address.lower() != ctx.sender.lower():
        why = f"it confirms a command of {pending.address}, not of {ctx.sender or 'no address'}"
        return _stranger(ctx.inbound, why, "unauthorised")
    if pending.name:  # the name the command's own mail gave ("Alice Smith" invites you)
        ctx = replace(ctx, inbound=replace(ctx.inbound, sender_name=pending.name))
    ruling = _commanded(ctx, mail.found, confirmed=True)
    return replace(
        ruling,
        note=f"confirmed by {ctx.sender}: {ruling.note}",
        effects=[*ruling.effects, EndConfirmation(token)],
    )


def _commanded(ctx: Context, found: Found | None, confirmed: bool = False) -> Ruling:
    """Carry out the command a mail holds (one that must be confirmed first: ask for that,
    unless it is being ``confirmed``), or say that it held none."""
    if found is None:
        return _no_command(ctx)
    if not confirmed and confirming.needs_asking(ctx, found):
        return confirming.ask(ctx, found)
    try:
        return found.command.handle(ctx, found.argument)
    except (RequestError, MoveError) as err:
        return _command_refused(ctx, found, message_of(err))


def _no_command(ctx: Context) -> Ruling:
    """A mail to the referee (or an invitation reply) that holds no command: what would work."""
    says = [say(f"judge.no_command.{ctx.scope}")]
    if ctx.scope == "referee" and any(says_a_move(line) for line in ctx.lines):
        says.insert(0, say("judge.looks_like_a_move"))
    letter = _to_sender(ctx, "no-command", say("subject.no_command"), says)
    letter = replace(letter, commands=tuple(help_commands(ctx.scope)))
    return Ruling(
        "refused",
        "refused",
        "no command in the mail",
        letters=[letter],
        limit=f"no-command:{ctx.scope}",
    )


def _command_refused(ctx: Context, found: Found, reason: Message) -> Ruling:
    """A command that could not be carried out: why, and how it is written."""
    command = found.command
    named = f"commands.{command.word}"  # (its name in the letter's language)
    says = [say("judge.command_refused", command=named)]
    usage = (command.described(),)
    kind = f"refused-{command.word}"
    if ctx.facts is not None and ctx.seat is not None:
        state = ctx.facts.game.state
        says.append(status(state, ctx.name))
        letter = to_player(ctx.record, ctx.seat, kind, says, Board(view(state, ctx.name)))
    else:
        subject = say("subject.command_refused", command=named)
        letter = _to_sender(ctx, kind, subject, says)
    letter = replace(
        letter,
        quoted=(found.line[:200],),
        reason=reason,
        commands=usage,
        answers=ctx.inbound.message_id,
    )
    turn = ctx.facts.game.state.turn if ctx.facts is not None else 0
    return Ruling(
        "refused",
        "refused",
        f"{command.word}: {ENGLISH.say(reason)}",
        letters=[letter],
        limit=_limit(f"command-{command.word}", turn, [found.line]),
    )


def _to_sender(ctx: Context, kind: str, subject: Message, says: Sequence[Message]) -> Letter:
    """A letter to whoever wrote, answering their mail; to an invitation's reply address when
    they wrote as someone invited."""
    letter = to_someone(ctx.sender, ctx.inbound.sender_name or ctx.sender, kind, subject, says)
    letter = replace(letter, answers=ctx.inbound.message_id)
    invitation = ctx.seen.invitation
    if ctx.scope == "invitation" and invitation is not None:
        return replace(letter, game=invitation.game, seat=ctx.seat)
    return letter


def _refusal(
    game: Replayed, seat: int, moves: list[str], err: MoveError, answers: str | None
) -> Ruling:
    state = game.state
    name = game.record.players[seat].name
    kind = {"InvalidMoveError": "invalid", "IllegalMoveError": "illegal"}.get(
        type(err).__name__, "ambiguous"
    )
    choices: tuple[dict[str, object], ...] = ()
    title = None
    if isinstance(err, AmbiguousMoveError):
        choices = tuple(err.moves)
        title = say("judge.which_one")
    elif state.player.name == name:
        choices = legal_moves_of(state)
    says = [say(f"judge.{kind}"), status(state, name)]
    letter = to_player(game.record, seat, f"refused-{kind}", says, Board(view(state, name)))
    letter = replace(
        letter,
        quoted=tuple(moves),
        reason=message_of(err),
        options=choices,
        options_title=title,
        help=kind == "invalid",
        answers=answers,
        all_options=isinstance(err, AmbiguousMoveError),
    )
    return Ruling(
        "refused",
        "refused",
        f"{kind}: {err.reason}",
        letters=[letter],
        limit=_limit(kind, state.turn, moves),
    )


def _limit(kind: str, turn: int, written: list[str]) -> str:
    """The kind of an error reply to a player, for the once-a-day limit: the same refusal of
    the same words at the same turn (a mail loop) is sent once; a new attempt is answered."""
    said = " ".join(" ".join(written).casefold().split())
    return f"{kind}@{turn}:{said}"


def _stranger(inbound: Inbound, why: str, kind: str) -> Ruling:
    """A short refusal to someone who may not move here: never a board or a hand."""
    letter = not_a_move(inbound, kind)
    return Ruling(
        "refused", "refused", f"not a player's reply: {why}", letters=[letter], limit=kind
    )


def oversized(inbound: Inbound, size: int, limit: int) -> Ruling:
    """A mail too large to read: set aside unread, its sender told (once a day)."""
    if inbound.automatic or not inbound.sender or inbound.spoofed:
        why = inbound.automatic or inbound.spoofed or "no sender"
        return Ruling("ignored", "quarantine", f"oversized ({size} bytes) and {why}")
    return Ruling(
        "refused",
        "quarantine",
        f"oversized: {size} bytes",
        letters=[too_large(inbound, size, limit)],
        limit="oversized",
    )
