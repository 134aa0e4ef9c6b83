"""What a reply says: the move its writer wrote first, their requests, and what is passed over.

:func:`read_reply` reads what :func:`referee.mail.reading.inbound.reply_text` kept of a reply (no
quoted text, attribution lines, copies of our boards, or anything after a ``-- `` signature
delimiter). The rules, as docs/mail.md states them for players:

1. A mail program's footer ("Sent from my iPhone", "Get Outlook for Android", in many
   languages: :mod:`referee.mail.reading.footers`) is never read; once the move has begun, a footer
   ends what the person wrote.
2. A *move line* starts with a move word (take, get, reserve, buy, purchase, pass, return,
   discard, noble, pay, or one of any language's words for them) and goes on to say what a
   move says (colours, a count, a card, a deck, a noble), or is that word alone (``pass``);
   or it is a JSON move (``{`` … ``}``, over as many lines as its braces need). "Take care"
   and "Buy me a coffee" are not move lines: they are passed over like any greeting; nor is
   a line that ends in a question mark ("take green red black?"), which the sentences read
   and the judge asks about (rule 5).
3. The move is the move lines of the first paragraph (lines between blank lines) that has
   any. A later paragraph joins the move when it completes it (``return white`` or ``noble
   N4`` on its own after a blank line); a later paragraph that is a move of its own makes
   the reply two moves, which is refused; any other later paragraph is passed over.
4. Without a move, the one-word lines ``help``, ``board`` and ``moves`` are requests, in
   any language (a word of a words file's ``[commands]`` for one of them: Welsh ``cymorth``
   is ``help``).
5. Whatever the move lines say, the sentences of the reply are read too
   (:mod:`referee.sentences`): "Hi all, I'll take a white, a blue and a green, please" is a
   move written as people write, with no move line in it; the judge plays such a reading
   when it is sure, and asks the player about it when it is not.

Every language is read at once: nothing here needs to know the writer's language.

Pure: text in, a :class:`Reading` out.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from referee.errors import MoveError
from referee.mail.reading.footers import is_footer
from referee.notation import parse_request, plain, says_a_move, starts_with_a_move_word
from referee.sentences import MoveReading, read_move
from referee.wording.messages import Message, message_of, say
from referee.wording.vocabulary import reading_vocabulary

#: The one-word requests a player may write instead of a move.
REQUESTS = ("help", "board", "moves")


@dataclass(frozen=True)
class Reading:
    """A reply, read: the move's lines as written (none: no move), the requests, and the
    lines passed over (greetings, chit-chat, footers)."""

    move: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)
    #: the move its sentences say, as people write (see rule 5)
    sentences: MoveReading = field(default_factory=MoveReading)

    def near_miss(self) -> Message | None:
        """Why the first line passed over that starts with a move word is not a move (a
        move with a typo: "take bleu vert rouge"), to tell a player whose reply held none."""
        for line in self.passed:
            if starts_with_a_move_word(line):
                try:
                    parse_request(line)
                except MoveError as err:
                    return say("reading.not_a_move", line=line, reason=message_of(err))
        return None


def read_reply(text: str) -> Reading:
    """The move, requests and other lines of what a person wrote (see the module's rules).
    The same text is read once: judging a mail asks what it says more than once (is it a
    move, a command said in a sentence, a yes?)."""
    return _read_reply(text)


@functools.lru_cache(maxsize=64)
def _read_reply(text: str) -> Reading:
    move: list[str] = []
    requests: list[str] = []
    passed: list[str] = []
    for paragraph in _paragraphs(plain(text)):
        kept: list[str] = []
        ended = False
        for n, line in enumerate(paragraph):
            if is_footer(line):
                begun = bool(move) or any(says_a_move(k) for k in kept)
                passed.extend(paragraph[n:] if begun else [line])
                if begun:
                    ended = True
                    break
            else:
                kept.append(line)
        _read_paragraph(kept, move, requests, passed)
        if ended:
            break
    return Reading(move, requests if not move else [], passed, read_move(written_text(text)))


def written_text(text: str) -> str:
    """What a person wrote of ``text``: its lines without the footers of mail programs, up
    to the first footer after something was written."""
    kept: list[str] = []
    for raw in plain(text).splitlines():
        line = raw.strip()
        if is_footer(line):
            if any(kept):
                break
            continue
        kept.append(line)
    return "\n".join(kept)


def _read_paragraph(
    paragraph: list[str], move: list[str], requests: list[str], passed: list[str]
) -> None:
    """Add one paragraph's lines to the move, the requests or the lines passed over."""
    units = [_unglued(u) for u in _units(paragraph)]
    lines: list[str] = []
    others: list[str] = []
    for unit in units:
        if says_a_move(unit) and not _asks(unit):
            lines.append(_unemphasised(unit))
        else:
            others.append(unit)
    if not move:
        move += lines
    elif lines and (_parses(lines) or _parses(move + lines)):
        move += lines  # a move of its own (refused as a second move), or the rest of this one
    else:
        others = units
    for line in others:
        request = request_of(line)
        if request is not None:
            requests.append(request)
        else:
            passed.append(line)


def request_of(line: str) -> str | None:
    """The request (``help``, ``board``, ``moves``) a line is, when it is one word that is
    one of them in some language (the first such meaning: English's, then the languages'
    in their order); None when it is not."""
    word = line.strip(" .!?*_\u0964").casefold()
    if word in REQUESTS:
        return word
    for command in reading_vocabulary().commands_of(word):
        if command in REQUESTS:
            return command
    return None


def _asks(line: str) -> bool:
    """Whether a line ends in a question mark ("take green red black?"): a question, not a
    move line; the sentences read it, and a move it asks about is asked back, not played."""
    return line.rstrip(" *_").endswith("?")


def _unglued(line: str) -> str:
    """A line that starts with a move word, without a footer glued on after it (HTML turned
    into text can run "Sent from my iPhone" onto the move's line)."""
    if not starts_with_a_move_word(line):
        return line
    words = line.split()
    for n in range(1, len(words)):
        if is_footer(" ".join(words[n:])):
            return " ".join(words[:n])
    return line


def _unemphasised(line: str) -> str:
    """A line without the marks of emphasis around it (``*take red green blue*``); a ``*``
    inside stays, being gold."""
    for mark in ("**", "__", "*", "_"):
        if len(line) > 2 * len(mark) and line.startswith(mark) and line.endswith(mark):
            return line[len(mark) : -len(mark)].strip()
    return line


def _parses(lines: list[str]) -> bool:
    try:
        parse_request("\n".join(lines))
    except MoveError:
        return False
    return True


def _paragraphs(text: str) -> list[list[str]]:
    """The non-blank lines of ``text``, stripped, grouped into paragraphs."""
    paragraphs: list[list[str]] = [[]]
    for raw in text.splitlines():
        line = raw.strip()
        if line:
            paragraphs[-1].append(line)
        elif paragraphs[-1]:
            paragraphs.append([])
    return [p for p in paragraphs if p]


def _units(paragraph: list[str]) -> list[str]:
    """A paragraph's lines, with the lines of a JSON move (from a ``{`` to the brace that
    closes it) joined into one."""
    units: list[str] = []
    depth = 0
    for line in paragraph:
        if depth > 0:
            units[-1] += "\n" + line
        else:
            units.append(line)
            if not line.startswith("{"):
                continue
        depth = max(depth + line.count("{") - line.count("}"), 0)
    return units
