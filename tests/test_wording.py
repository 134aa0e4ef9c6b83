"""Deciding apart from wording: what a reader is told is decided as messages (a code of the
catalogue and its parameters), and only the letter writer words it. Pinned here: the
catalogue is whole and consistent, docs/messages.md is written from it, the modules that
decide build no sentence a player reads, judging never reaches the letter writer, no
function that makes or writes letters takes more than 8 parameters, and a letter comes out of
the outbox's JSON worded exactly as it went in."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.mail.samples import sample_letters
from referee.wording import ENGLISH, Message
from referee.wording.catalogue import KINDS, entries, lookup
from referee.wording.letter import Letter
from referee.wording.table import markdown
from referee.wording.words import fields
from referee.wording.writer import Writer

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "referee"

#: The modules whose output reaches players and spectators: what they say is decided here,
#: and worded only by the letter writer (referee/wording/).
DECIDING = sorted(
    {
        *PACKAGE.glob("engine/*.py"),
        *PACKAGE.glob("bots/*.py"),
        *PACKAGE.glob("mail/judging/*.py"),
        *PACKAGE.glob("mail/judging/commands/*.py"),
        *(PACKAGE / name for name in (
            "notation.py", "timing.py", "bot_seats.py", "addresses.py", "export.py",
            "mail/reading/reply.py", "mail/runner.py", "mail/duties.py", "mail/desk.py",
            "mail/herald.py",
        )),
    }
)  # fmt: skip
#: Calls whose text is for the game master or a log, never a player: logging, warnings
#: said once, errors that stop the service or name a fault of the program, and the notes
#: and reasons a ruling or a record keeps.
NOT_FOR_PLAYERS = {
    "debug", "info", "warning", "error", "exception", "warn", "Ruling", "EndInvitation",
    "RollBack", "ConfigurationError", "StoreError", "RecordError", "ReplayError",
    "ConflictError", "ValueError", "KeyError", "TypeError", "AssertionError", "ViewError",
    "SourceEntry", "ModelError",
}  # fmt: skip
#: Keyword arguments and names that hold a note for the log or the record.
NOTES = {"note", "why", "reason", "example"}
WORDS = re.compile(r"[A-Za-z]{2,}")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _called(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def sentences(path: Path) -> list[str]:
    """The pieces of English in ``path`` that look like words for a reader (three words or
    more), outside docstrings and what is for the game master or the log."""
    tree = ast.parse(path.read_text(), str(path))
    parents = {id(c): n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
    skipped = _docstrings(tree)

    def for_players(node: ast.AST) -> bool:
        child = node
        while id(child) in parents:
            parent = parents[id(child)]
            if isinstance(parent, ast.Call) and _called(parent) in NOT_FOR_PLAYERS:
                return False
            if isinstance(parent, ast.Assert):  # a fault of the program's own
                return False
            if isinstance(parent, ast.keyword) and parent.arg in NOTES:
                return False
            if isinstance(parent, ast.Assign) and all(
                isinstance(t, ast.Name) and t.id in NOTES for t in parent.targets
            ):
                return False
            child = parent
        return True

    return [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skipped
        and len(WORDS.findall(node.value)) >= 3
        and " " in node.value.strip()
        and for_players(node)
    ]


def test_no_module_that_decides_builds_a_sentence_a_player_reads() -> None:
    assert all(path.is_file() for path in DECIDING)
    found = [line for path in DECIDING for line in sentences(path)]
    assert found == [], "say it with a message of the catalogue instead:\n" + "\n".join(found)


def test_the_sentence_check_finds_a_sentence_written_inline(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(
        'def answer(name):\n    """A docstring is never a letter."""\n'
        '    log.info("a line for the log only")\n'
        '    return f"Hello {name}, your move was not played"\n'
    )
    (found,) = [line.split(": ", 1)[1] for line in _relative(planted)]
    assert found == "', your move was not played'"


def _relative(path: Path) -> list[str]:
    copy = ROOT / "tests" / f"_{path.name}"
    copy.write_text(path.read_text())
    try:
        return sentences(copy)
    finally:
        copy.unlink()


def test_judging_never_reaches_the_letter_writer() -> None:
    """Following a mail from judge() it is decided into messages and letters as data; the
    writer, the envelope and the templates are reached only by the postman, when it sends."""
    code = (
        "import sys, referee.mail.judging.judge, referee.mail.desk;"
        "import referee.mail.judging.commands as c; c._load();"
        "print(' '.join(sorted(sys.modules)))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    for module in ("referee.wording.writer", "referee.mail.transports.compose", "jinja2"):
        assert module not in loaded, module


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    args = node.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    named = [a for a in every if a.arg not in ("self", "cls")]
    return len(named) + (args.vararg is not None) + (args.kwarg is not None)


def test_no_function_that_makes_or_writes_letters_takes_more_than_eight_parameters() -> None:
    places = [*DECIDING, *PACKAGE.glob("wording/*.py"), PACKAGE / "mail" / "postman.py"]
    found = []
    for path in places:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            returns = ast.unparse(node.returns) if node.returns else ""
            letters = "Letter" in returns or "Written" in returns or "Ruling" in returns
            if letters and _parameters(node) > 8:
                found.append(f"{path.name}:{node.name}: {_parameters(node)}")
    assert found == []


def test_the_service_is_a_thin_loop_over_its_units() -> None:
    assert len((PACKAGE / "service.py").read_text().splitlines()) < 300


# -- the catalogue --------------------------------------------------------------------------


def test_each_entry_says_exactly_its_parameters_of_known_kinds() -> None:
    for found in entries():
        said = [fields(text) for text in (found.text, found.plural or found.text)]
        assert set().union(*said) == set(found.params), found.code
        if found.plural is None or found.count is None:
            assert said[0] == set(found.params), found.code
        else:  # the singular may leave out the number that chooses the form ("the card")
            assert said[1] == set(found.params), found.code
        assert set(found.params.values()) <= set(KINDS), found.code
        assert found.when, f"{found.code}: say when it is said"


def _codes_said() -> tuple[set[str], set[str]]:
    """The codes named in the package's source: whole (``say("a.b")``) and the constant
    beginnings of codes made with an f-string (``say(f"told.take{you}")``)."""
    whole, prefixes = set(), set()
    for path in PACKAGE.rglob("*.py"):
        if "catalogue" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            if _called(node) not in ("say", "say_", "of", "Message"):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                whole.add(first.value)
            elif isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant):
                prefixes.add(str(first.values[0].value))
    return whole, prefixes


def test_every_message_said_is_in_the_catalogue() -> None:
    whole, prefixes = _codes_said()
    known = {e.code for e in entries()}
    assert whole - known == set()
    for prefix in prefixes:
        assert any(code.startswith(prefix) for code in known), prefix


def test_the_docs_list_every_message_as_the_catalogue_has_it() -> None:
    written = (ROOT / "docs" / "messages.md").read_text()
    assert written == markdown(), "run: python -m referee.wording.catalogue > docs/messages.md"
    for found in entries():
        assert f"`{found.code}`" in written


def test_plurals_are_chosen_by_number_not_made_with_an_s() -> None:
    said = ENGLISH.say(Message("say.sent", {"count": 1, "game": "g1"}))
    assert said == "Your message was sent to 1 other in game g1."
    said = ENGLISH.say(Message("say.sent", {"count": 3, "game": "g1"}))
    assert said == "Your message was sent to 3 others in game g1."
    for path in DECIDING:
        assert "'s' if" not in path.read_text() and '"s" if' not in path.read_text(), path


def test_an_unknown_code_is_refused_naming_it() -> None:
    with pytest.raises(KeyError, match=r"no message 'no\.such' in the catalogue"):
        lookup("no.such")


# -- letters as data ------------------------------------------------------------------------


def test_every_kind_of_letter_is_worded_the_same_after_waiting_in_the_outbox() -> None:
    writer = Writer()
    for letter in sample_letters():
        again = Letter.from_json(json.loads(json.dumps(letter.to_json())))
        assert again == letter, letter.kind
        assert writer.write(again) == writer.write(letter), letter.kind


def test_a_writer_owns_its_templates_so_two_may_differ_side_by_side(tmp_path: Path) -> None:
    (tmp_path / "mail.txt.j2").write_text("Dear {{ name }}.\n")
    letter = next(m for m in sample_letters() if m.kind == "welcome")
    restyled, shipped = Writer.with_templates(tmp_path), Writer()
    assert restyled.write(letter).text == f"Dear {letter.name}.\n"
    assert shipped.write(letter).text.startswith(f"Hello {letter.name},")
