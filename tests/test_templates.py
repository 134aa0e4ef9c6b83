"""The templates: shipped at the top of the repository and in the wheel, restyled by a game
master's templates_dir file by file, and checked before the service uses them."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from referee.errors import ConfigurationError
from referee.mail.samples import check_templates, sample_letters
from referee.mail.transports.directory import DirTransport
from referee.service import Service
from referee.settings import Settings
from referee.wording.letter import Board
from referee.wording.writer import Writer, shipped_templates

ROOT = Path(__file__).parents[1]


def test_the_shipped_templates_are_the_repositorys_top_level_folder() -> None:
    assert shipped_templates().resolve() == (ROOT / "templates").resolve()
    assert not (ROOT / "referee" / "templates").exists()


def test_a_template_in_templates_dir_is_used_and_the_others_fall_back(tmp_path: Path) -> None:
    (tmp_path / "mail.txt.j2").write_text("Dear {{ name }}: restyled.\n")
    writer = Writer.with_templates(tmp_path)  # notices have a template of their own
    letters = [writer.write(m) for m in sample_letters() if m.form == "letter"]
    assert all(m.text.startswith("Dear ") for m in letters)
    assert all(m.html is not None and "<html" in m.html for m in letters)  # shipped HTML


def test_a_template_edited_between_two_writers_is_compiled_again(tmp_path: Path) -> None:
    """Templates are compiled once in a process (shared between writers), but a template
    whose source changed is never served from what was compiled before."""
    template = tmp_path / "mail.txt.j2"
    template.write_text("Dear {{ name }}: first.\n")
    first = Writer.with_templates(tmp_path).write(sample_letters()[0])
    template.write_text("Dear {{ name }}: second.\n")
    second = Writer.with_templates(tmp_path).write(sample_letters()[0])
    assert "first." in first.text and "second." in second.text


def test_templates_that_fail_to_render_are_refused_naming_the_template_and_line(
    tmp_path: Path,
) -> None:
    (tmp_path / "mail.html.j2").write_text("<p>\n{{ name }}\n{{ no_such_thing }}</p>\n")
    with pytest.raises(ConfigurationError, match=r"mail\.html\.j2, line 3: 'no_such_thing'"):
        check_templates(tmp_path)
    (tmp_path / "mail.html.j2").write_text("<p>{% if name %}</p>\n")
    with pytest.raises(ConfigurationError, match=r"mail\.html\.j2, line 1"):
        check_templates(tmp_path)


def test_the_service_refuses_to_start_with_templates_that_fail(tmp_path: Path) -> None:
    broken = tmp_path / "templates"
    broken.mkdir()
    (broken / "board.txt.j2").write_text("{{ bank.nope.deeper }}\n")
    settings = Settings(
        games_dir=tmp_path / "games", mail_dir=tmp_path / "mail", templates_dir=broken
    )
    with pytest.raises(ConfigurationError, match=r"board\.txt\.j2, line 1"):
        Service(settings, DirTransport(tmp_path / "mail"))


def test_every_kind_of_letter_renders_with_the_shipped_templates() -> None:
    assert check_templates(None) >= 15
    writer = Writer()
    assert "Splendor · game" in writer.render("board.txt.j2", _board(writer))


def _board(writer: Writer) -> dict[str, object]:
    from referee.engine import view
    from referee.mail.samples import sample_game

    return writer.board(Board(view(sample_game().state)), "sample")


def test_the_wheel_carries_the_templates(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(tmp_path), str(ROOT)],
        check=True,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("referee-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for template in (ROOT / "templates").glob("*.j2"):
        assert f"referee/templates/{template.name}" in names
    assert "referee/data/cards.csv" in names
    for language in (ROOT / "referee" / "locale").iterdir():  # every language's words and texts
        for found in [*language.glob("words.toml"), *language.glob("LC_MESSAGES/*.po")]:
            assert str(found.relative_to(ROOT)) in names, found
    for module in (ROOT / "referee").rglob("*.py"):  # every package listed in pyproject.toml
        assert str(module.relative_to(ROOT)) in names, module
