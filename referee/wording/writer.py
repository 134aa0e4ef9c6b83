"""The one letter writer: a :class:`~referee.wording.letter.Letter` (who, what they are told,
the board they may see) into words, through the templates: a :class:`Written` letter.

The templates live in the repository's top-level ``templates/`` folder (in a wheel, the
package ``referee.templates``); a game master may restyle them with a folder of their own
(the setting ``templates_dir``): a template found there is used, any other falls back to the
shipped one. A :class:`Writer` owns its Jinja environments: two writers with different
templates can work side by side, and nothing global is set.

A writer writes in one language for one time zone; :meth:`Writer.reading` is the writer
for another reader (kept, with its own environment: the templates' fixed texts are
translated by ``jinja2.ext.i18n`` with that language's gettext catalogue).
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import (
    BaseLoader,
    BytecodeCache,
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    StrictUndefined,
    pass_context,
    select_autoescape,
)
from jinja2.bccache import Bucket
from jinja2.runtime import Context
from markupsafe import Markup

from referee.engine.cards import NOBLE_POINTS, TOKEN_COLOURS
from referee.engine.view import GameView
from referee.wording.board import board_context, card_facts
from referee.wording.choices import choices
from referee.wording.letter import Board, Letter, Written
from referee.wording.messages import Message, say
from referee.wording.translations import translations
from referee.wording.vocabulary import LATIN_DIGITS, vocabulary
from referee.wording.words import Words, pad, width, words_for

#: The longest list of moves a letter shows before saying how many more there are.
OPTIONS_SHOWN = 30
#: The fonts of the HTML, in order: the usual sans-serifs, then fonts with Bengali letters
#: (Noto Sans Bengali on Linux and Android, Nirmala UI and Vrinda on Windows, Kohinoor
#: Bangla on Apple's systems): a browser takes each letter from the first font that has it.
FONTS = Markup(
    "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,'Noto Sans Bengali','Noto Sans',"
    "'Nirmala UI',Vrinda,'Kohinoor Bangla','Bangla Sangam MN',sans-serif"
)


def shipped_templates() -> Path:
    """The folder of the shipped templates: ``referee/templates`` in an installed wheel, the
    repository's ``templates/`` in a checkout or an editable install."""
    inside = Path(__file__).parents[1] / "templates"
    if inside.is_dir():
        return inside
    spec = importlib.util.find_spec("referee.templates")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(__file__).parents[2] / "templates"


class _CompiledTemplates(BytecodeCache):
    """Templates compiled once in a process, for every environment made with the same
    options (every :func:`templates`): Jinja keys each by its name and file and checks it
    against the template's source, so a template edited or restyled is compiled again.
    Without it each writer parses and compiles every template it renders anew."""

    def __init__(self) -> None:
        self._compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        compiled = self._compiled.get(bucket.key)
        if compiled is not None:
            bucket.bytecode_from_string(compiled)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._compiled[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _CompiledTemplates()


def templates(templates_dir: Path | None = None, language: str = "en") -> Environment:
    """The templates: those in ``templates_dir`` first (when given), then the shipped ones;
    their fixed texts in ``language``."""
    loaders: list[BaseLoader] = [FileSystemLoader(shipped_templates())]
    if templates_dir is not None:
        loaders.insert(0, FileSystemLoader(templates_dir))
    environment = Environment(
        loader=ChoiceLoader(loaders),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        autoescape=select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
        extensions=["jinja2.ext.i18n"],
        bytecode_cache=_COMPILED,
    )
    environment.install_gettext_translations(translations(language), newstyle=True)  # type: ignore[attr-defined]
    words = vocabulary(language)
    count = words.count
    for name in ("gettext", "_", "ngettext", "pgettext", "npgettext"):
        said = environment.globals.get(name)
        if callable(said) and words.digits != LATIN_DIGITS:  # (Latin digits: as it is)
            environment.globals[name] = _counting(said, count)
    environment.globals.update(
        language=language,
        fonts=FONTS,
        markup=Markup,
        digits=words.digits,  # (the page's script writes numbers with them)
        noble_points=NOBLE_POINTS,
    )
    environment.filters.update(pad=pad, width=width, n=count)  # (never on a constant: Jinja
    # folds it when the template is compiled, once for every language)
    return environment


def _counting(said: Callable[..., str], count: Callable[[object], str]) -> Callable[..., str]:
    """A template's gettext that writes the numbers it is given in the language's digits
    (``[marks] digits``): "পালা ৬"; the number that chooses a plural form stays a number."""

    @pass_context
    def counted(context: Context, *args: Any, **variables: Any) -> str:
        written = {k: count(v) if type(v) is int else v for k, v in variables.items()}
        numbers = [a for a in args if type(a) is int]
        if numbers and "num" not in written:
            written["num"] = count(numbers[-1])
        return said(context, *args, **written)

    return counted


@dataclass(frozen=True)
class Reader:
    """Whom a letter is worded for: their language, and the time zone their times are shown
    in (None: UTC)."""

    language: str = "en"
    zone: str | None = None


class Writer:
    """Words letters and boards with one set of templates, in one language, for readers in
    one time zone."""

    def __init__(
        self, templates_dir: Path | None = None, reader: Reader = Reader()
    ) -> None:
        self.templates_dir = templates_dir
        self.reader = reader
        self.environment = templates(templates_dir, reader.language)
        self.words: Words = words_for(reader.language, reader.zone)
        self._card_boxes: dict[str, Markup] = {}
        self._parts: dict[tuple[Any, ...], Markup] = {}
        self.environment.globals.update(chip=self._chip, tile=self._tile)
        self._others: dict[Reader, Writer] = {reader: self}

    @classmethod
    def with_templates(cls, templates_dir: Path | None) -> Writer:
        """A writer with the shipped templates, restyled by those in ``templates_dir``."""
        return cls(templates_dir)

    def reading(self, reader: Reader) -> Writer:
        """The writer with these templates for ``reader`` (made once)."""
        other = self._others.get(reader)
        if other is None:
            other = Writer(self.templates_dir, reader)
            other._others = self._others
            self._others[reader] = other
        return other

    @property
    def language(self) -> str:
        return self.reader.language

    def render(self, template: str, context: dict[str, Any]) -> str:
        """One template, filled in."""
        return self.environment.get_template(template).render(context)

    def say(self, message: Message) -> str:
        return self.words.say(message)

    # -- letters ---------------------------------------------------------------------------

    def write(self, letter: Letter) -> Written:
        """``letter`` in words: its subject, its text and (for a letter, not a notice) HTML."""
        subject = self.say(letter.subject)
        if letter.form == "notice":
            paragraphs = [self.say(m) for m in letter.says]
            text = self.render("notice.txt.j2", {"paragraphs": paragraphs})
            return Written(
                letter.to, letter.name, subject, text, None, letter.kind, self.language,
                self.say(say("letter.sender")),
            )  # fmt: skip
        context = self._letter_context(letter, subject)
        return Written(
            letter.to,
            letter.name,
            subject,
            self.render("mail.txt.j2", context),
            self.render("mail.html.j2", context),
            letter.kind,
            self.language,
            self.say(say("letter.sender")),
        )

    def _letter_context(self, letter: Letter, subject: str) -> dict[str, Any]:
        grouped = bool(letter.options) and not letter.all_options and not letter.options_title
        options = [] if grouped else [self.words.move(o) for o in letter.options]
        shown = options if letter.all_options else options[:OPTIONS_SHOWN]
        title = letter.options_title or (say("letter.options") if options else None)
        context: dict[str, Any] = {
            "name": letter.name,
            "subject": subject,
            "paragraphs": [self.say(m) for m in letter.says],
            "quoted": list(letter.quoted),
            "quoted_from": letter.quoted_from,
            "reason": self._reason(letter),
            "options": shown,
            "options_more": len(options) - len(shown),
            "options_title": self.say(title) if title is not None else "",
            "help": letter.help,
            "board": letter.board is not None,
            "listing": [self.say(m) for m in letter.listing],
            "listing_title": self.say(letter.listing_title) if letter.listing_title else "",
            "commands": [(self.say(u), self.say(s)) for u, s in letter.commands],
            "due_line": self._due_line(letter.board, letter.name),
            "command_words": self._command_words,
            "choices": self._choices(letter.options) if grouped else [],
            "choices_title": self.say(say("choices.title")) if grouped else "",
        }
        if letter.help:
            context["howto"], context["howto_more"] = self._howto()
            outside = letter.seat is None  # help to the referee's own address: no game yet
            context["howto_title"] = self.say(say("howto.outside_a_game")) if outside else ""
            context["howto_width"] = max(width(example) for example, _ in context["howto"]) + 2
        if letter.board is not None:
            context |= self.board(letter.board, letter.game)
        return context

    def _choices(self, options: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The moves the reader may make, grouped (see :mod:`referee.wording.choices`): each
        group's title, one move of it in full in the reader's words, and the cards to buy."""
        return [
            {
                "title": self.say(c.title),
                "example": self.words.move(c.example),
                "moves": [self.words.move(m) for m in c.moves],
                "note": self.say(c.note) if c.note is not None else "",
            }
            for c in choices(options)
        ]

    @functools.cached_property
    def _command_words(self) -> dict[str, str]:
        """How the reader writes each command, in their language."""
        written = self.words.vocabulary.written
        return {k.partition(".")[2]: v for k, v in written.items() if k.startswith("commands.")}

    def _reason(self, letter: Letter) -> str | None:
        """What a refusal says was wrong, said alone as a sentence ("There is no card 1-99:
        …."): a capital and a full stop, which the message has not, since it is also said
        after a colon."""
        return None if letter.reason is None else self.words.sentence(self.say(letter.reason))

    def _howto(self) -> tuple[list[tuple[str, str]], str]:
        """The example moves of "how to move", in the reader's words, each with what it
        does; and the paragraph after them."""
        vocabulary = self.words.vocabulary
        w, n = vocabulary.word, self.words.count
        taking, paying = vocabulary.notation_case("take"), vocabulary.notation_case("pay")

        def counted(number: int, colour: str, case: str) -> str:  # as a move: "2 goch"
            return vocabulary.counted(number, colour, case, notation=True)

        red, green, blue = (  # one of each, as the notation writes it: "prenu ruĝan"
            vocabulary.counted_word(1, c, taking) for c in ("red", "green", "blue")
        )
        white = vocabulary.counted_word(1, "white", vocabulary.notation_case("return"))
        pay = f"{w('pay')} {counted(2, 'red', paying)} {counted(1, 'gold', paying)}"
        examples = [
            (f"{w('take')} {red} {green} {blue}", "howto.take_three", {}),
            (f"{w('take')} {counted(2, 'red', taking)}", "howto.take_two", {}),
            (f"{w('reserve')} 2-07", "howto.reserve", {}),
            (f"{w('reserve')} {w('deck')} {n(3)}", "howto.reserve_deck", {}),
            (f"{w('buy')} 1-12", "howto.buy", {"pay": pay}),
            (w("pass"), "howto.pass", {}),
        ]
        shown = [(example, self.say(say(code, **params))) for example, code, params in examples]
        commands = self._command_words
        colours = " ".join(self.words.colour(c) for c in TOKEN_COLOURS)
        more = say(
            "howto.more",
            returned=f"{w('return')} {white}",
            noble=f"{w('noble')} N4",
            colours=colours,
            board=commands["board"],
            moves=commands["moves"],
            help=commands["help"],
        )
        return shown, self.say(more)

    def _due_line(self, board: Board | None, name: str) -> str:
        """When the move now awaited is due, above the board ("" when none is)."""
        if board is None or not board.due or board.view.to_move is None:
            return ""
        if board.view.status == "finished":
            return ""
        if board.view.to_move == name:
            return self.say(say("board.due.yours", due=board.due))
        return self.say(say("board.due", player=board.view.to_move, due=board.due))

    # -- boards ----------------------------------------------------------------------------

    @functools.cached_property
    def _pieces(self) -> Any:
        """The macros of ``parts.html.j2``, the pieces the HTML board is made of."""
        return self.environment.get_template("parts.html.j2").module

    def _chip(self, gem: Mapping[str, Any], size: int = 18) -> Markup:
        """A chip of the HTML board, drawn once for each colour, count and size."""
        key = ("chip", gem["key"], gem["count"], size)
        drawn = self._parts.get(key)
        if drawn is None:
            drawn = self._parts[key] = Markup(self._pieces.chip(gem, size))
        return drawn

    def _tile(self, card: Mapping[str, Any], label: str = "") -> Markup:
        """A card's tile on the HTML board, drawn once for each card, newness and label (a
        card's face never changes)."""
        key = ("tile", card["id"], bool(card["new"]), str(label))
        drawn = self._parts.get(key)
        if drawn is None:
            drawn = self._parts[key] = Markup(self._pieces.tile(card, label))
        return drawn

    def board(self, board: Board, game: str) -> dict[str, Any]:
        """What the board templates print of ``board``, its face-up cards drawn once."""
        context = board_context(board.view, game, self.words, board.last)
        for level in context["levels"]:
            level["card_boxes"] = [self.card_box(c) if c else None for c in level["card_ids"]]
        return context

    def board_text(self, shown: GameView, game: str) -> str:
        """The board as text, as ``shown``'s viewer may see it (``referee show``)."""
        return self.render("board.txt.j2", self.board(Board(shown), game))

    def card_box(self, card_id: str) -> Markup:
        """A face-up card in HTML: the same in every letter, so made once."""
        box = self._card_boxes.get(card_id)
        if box is None:
            facts = card_facts(card_id, self.words)
            box = Markup(self.render("card.html.j2", {"card": facts}).strip("\n"))
            self._card_boxes[card_id] = box
        return box
