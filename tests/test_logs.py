"""The service's log (referee.logs): at the default level a line for what the referee says,
and the libraries' own info (aiosmtpd's every LMTP session) only at debug."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest

from referee.logs import start_logging


@pytest.fixture(autouse=True)
def _logging_as_it_was() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:], root.level = handlers, level


def said(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err


def test_at_the_default_level_a_librarys_info_is_not_said_but_its_warnings_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    start_logging("text", "info")
    aiosmtpd = logging.getLogger("mail.log")
    aiosmtpd.info("('127.0.0.1', 4242) Connection lost during _handle_client()")
    logging.getLogger("referee.service").info("mail <a@b>: played: turn 1: ann take red")
    aiosmtpd.warning("('127.0.0.1', 4242) unrecognised: FOO")
    lines = said(capsys).splitlines()
    assert len(lines) == 2
    assert lines[0].endswith("referee: mail <a@b>: played: turn 1: ann take red")
    assert lines[1].endswith("unrecognised: FOO")


def test_at_debug_a_librarys_info_is_said_as_debug(capsys: pytest.CaptureFixture[str]) -> None:
    start_logging("json", "debug")
    logging.getLogger("mail.log").info("('127.0.0.1', 4242) handling connection")
    (line,) = said(capsys).splitlines()
    body = json.loads(line)
    assert body["level"] == "debug" and body["logger"] == "mail.log"


def test_at_warning_only_what_needs_the_game_master_is_said(
    capsys: pytest.CaptureFixture[str],
) -> None:
    start_logging("text", "warning")
    logging.getLogger("referee.service").info("letter to ann@example.org sent: Your move")
    logging.getLogger("referee.service").warning("IMAP server cannot be reached")
    assert said(capsys).splitlines()[0].endswith("IMAP server cannot be reached")
