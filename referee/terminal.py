"""Text for a terminal: what came in by mail, shown and never obeyed.

A mail's subject, body, sender or Message-ID may hold control characters: ``ESC ] 0 ; title
BEL`` sets a terminal's title, other escape sequences move the cursor, recolour or rewrite
what is on the screen, a carriage return hides what came before it on its line, and bidi
overrides turn text around. Every command that prints text passes it through
:func:`visible` (the command line's ``echo``), which shows each such character as a visible
escape (``\\x1b``, ``\\r``, ``\\x9b``, ``\\u202e``) and keeps newline and tab; the rest of an
escape sequence is plain text once its ESC is shown. JSON output escapes the C0 characters
by construction; :func:`json_visible` escapes the others there too.
"""

from __future__ import annotations

import re

#: What a terminal would obey or that would turn text around, but newline and tab: C0 (but
#: \t \n), DEL, C1, the bidi embeddings, overrides and isolates, and lone surrogates (bytes
#: that were not UTF-8, which a terminal cannot even be given).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
#: The same, newline and tab included: for a field that must stay on its line.
_UNSAFE_IN_A_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
#: Inside JSON strings, which escape C0 already: the rest of :data:`_UNSAFE`.
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, *, one_line: bool = False) -> str:
    """``text`` with every control character, escape and bidi control shown as an escape
    (``\\x1b``); newline and tab kept, unless ``one_line`` (a field printed within a line,
    where a newline could pass for a line of the command's own)."""
    return (_UNSAFE_IN_A_LINE if one_line else _UNSAFE).sub(_escape, text)


def json_visible(text: str) -> str:
    """JSON text (from :func:`json.dumps` with ``ensure_ascii=False``) with the characters
    it leaves raw that a terminal would obey (DEL, C1, bidi controls, lone surrogates)
    written as ``\\u`` escapes: still the same JSON, for any parser."""
    return _UNSAFE_IN_JSON.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
