"""How the service's log is written: a line of text per event, or a JSON object per line
(``serve --log-format json``) for a log collector."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Literal

LogFormat = Literal["text", "json"]
TEXT_LOG_FORMAT = "%(asctime)s referee: %(message)s"


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
        return json.dumps(body, ensure_ascii=False)
