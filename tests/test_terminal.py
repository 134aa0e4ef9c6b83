"""Text for a terminal (referee.terminal): every control character, escape sequence and bidi
control is shown as a visible escape, newline and tab kept; JSON stays JSON."""

from __future__ import annotations

import json
import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.logs import JsonLines, TextLines
from referee.terminal import json_visible, visible

#: What a terminal obeys: C0 but tab and newline, DEL, C1.
OBEYED = {*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F, *range(0x80, 0xA0)}


def obeyed(text: str) -> list[str]:
    return [c for c in text if ord(c) in OBEYED or 0x202A <= ord(c) <= 0x202E]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"),  # a window title set
        ("\x1b[2J\x1b[31mred", "\\x1b[2J\\x1b[31mred"),  # the screen cleared, recoloured
        ("a\x00b\x01c", "a\\x00b\\x01c"),
        ("hidden\rshown", "hidden\\rshown"),  # a carriage return hides what came before
        ("\x9b31m", "\\x9b31m"),  # C1's one-character CSI
        ("\x7f", "\\x7f"),
        ("evil\u202etxt.exe", "evil\\u202etxt.exe"),  # a bidi override turns text round
        ("bad \udcff byte", "bad \\udcff byte"),  # a byte that was not UTF-8
    ],
)
def test_control_characters_and_escape_sequences_are_shown_as_escapes(
    text: str, shown: str
) -> None:
    assert visible(text) == shown


def test_newline_and_tab_are_kept_unless_the_text_must_stay_on_its_line() -> None:
    assert visible("take red\tgreen\nblue") == "take red\tgreen\nblue"
    assert visible("take red\tgreen\nblue", one_line=True) == "take red\\tgreen\\nblue"


def test_every_language_s_letters_pass_unchanged() -> None:
    words = "Cymerodd Siân ddau goch · tvö hvít · ĉiuj ŝtonoj · নিন ২টি লাল (ZWJ\u200d) 🎲 «»"
    assert visible(words) == words


@given(st.text())
def test_nothing_a_terminal_obeys_is_left_in_any_text(text: str) -> None:
    assert obeyed(visible(text)) == []
    assert obeyed(visible(text, one_line=True)) == [] and "\n" not in visible(text, one_line=True)


JSON_BODIES = st.recursive(
    st.text() | st.integers(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)
)


@given(JSON_BODIES)
def test_json_made_visible_is_the_same_json_with_nothing_a_terminal_obeys(body: object) -> None:
    text = json_visible(json.dumps(body, ensure_ascii=False))
    assert json.loads(text) == body
    assert obeyed(text) == []


def _record(message: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord("referee.service", logging.INFO, __file__, 1, message, args, None)


def test_a_log_line_shows_a_mail_s_control_characters_and_stays_one_line() -> None:
    line = TextLines().format(_record("mail %s: refused: %s", "<a\x1b]0;t\x07@x>", "one\ntwo"))
    assert "\x1b" not in line and "\x07" not in line and "\n" not in line
    assert line.endswith("mail <a\\x1b]0;t\\x07@x>: refused: one\\ntwo")


def test_a_json_log_line_has_nothing_a_terminal_obeys() -> None:
    line = JsonLines().format(_record("subject %s", "\x9b2J\u202e"))
    assert obeyed(line) == [] and json.loads(line)["message"] == "subject \x9b2J\u202e"
