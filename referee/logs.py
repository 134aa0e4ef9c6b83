"""How the service's log is written: a line of text per event, or a JSON object per line
(``serve --log-format json``) for a log collector.

At the default level (info) the log says one line per mail handled and per letter sent, and
what the game master must know (a server lost and found again, a mail set aside); the
libraries' own chatter (aiosmtpd's every LMTP session, a login, a connection closed) is
told at debug level (``serve --log-level debug``). Text from mail in a line is shown, never
obeyed by a terminal (:mod:`referee.terminal`), and stays on its line.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Literal

from referee.terminal import json_visible, visible

LogFormat = Literal["text", "json"]
LogLevel = Literal["debug", "info", "warning"]
TEXT_LOG_FORMAT = "%(asctime)s referee: %(message)s"
#: The loggers that are the referee's own: everything else is a library's.
OWN = "referee"


class TextLines(logging.Formatter):
    """A line of text per event: a mail's words in it shown as escapes, on one line; a
    traceback below it, its control characters shown too."""

    def __init__(self) -> None:
        super().__init__(TEXT_LOG_FORMAT)

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 (logging's name)
        return visible(super().formatMessage(record), one_line=True)

    def formatException(self, ei: logging._SysExcInfoType) -> str:  # noqa: N802
        return visible(super().formatException(ei))


class JsonLines(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, and the
    traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        body = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            body["traceback"] = self.formatException(record.exc_info)
        return json_visible(json.dumps(body, ensure_ascii=False))


class LibrariesAtDebug(logging.Filter):
    """A library's info (aiosmtpd's "connection lost", "handling connection", a peer's
    every command) is told as debug: shown only when the log's level is debug."""

    def __init__(self, level: int) -> None:
        super().__init__()
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        own = record.name == OWN or record.name.startswith(OWN + ".")
        if own or record.levelno > logging.INFO:
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return self.level <= logging.DEBUG


def start_logging(log_format: LogFormat = "text", level: LogLevel = "info") -> None:
    """The service's log, on stderr (which systemd gives to its journal): ``log_format``
    text or json, at ``level``."""
    threshold = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING}[level]
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines() if log_format == "json" else TextLines())
    handler.addFilter(LibrariesAtDebug(threshold))
    logging.basicConfig(level=threshold, handlers=[handler], force=True)
