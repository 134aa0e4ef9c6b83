"""What the language tests look for in a letter: stretches of the referee's English (three
words or more, from the catalogue and the templates) that a letter in another language must
not carry, unless that language's translation keeps them on purpose."""

from __future__ import annotations

import functools
import html
import re
import string
from email.message import EmailMessage
from pathlib import Path

from referee.wording.catalogue import entries
from referee.wording.translations import po_catalog


def _msgid(msgid: str | tuple[str, ...]) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


@functools.cache
def english_pieces() -> tuple[str, ...]:
    """Each catalogue text's and template text's stretches of fixed words between fields."""
    pieces: list[str] = []
    for found in entries():
        for text in (found.text, found.plural):
            if text:
                pieces += [lit for lit, _, _, _ in string.Formatter().parse(text) if lit]
    for message in po_catalog("cy"):  # every .po holds every template text
        if message.id and message.context is None:
            pieces += re.split(r"%\(\w+\)s", _msgid(message.id))
    return tuple(sorted({p.strip(" .,:;()'") for p in pieces if len(p.split()) >= 3}))


@functools.cache
def leak_checks(language: str) -> tuple[str, ...]:
    """The English pieces a letter in ``language`` must not carry."""
    kept: list[str] = []
    for message in po_catalog(language):
        strings = message.string if isinstance(message.string, tuple | list) else [message.string]
        kept += [str(s) for s in strings if s]
    said = "\n".join(kept)
    return tuple(p for p in english_pieces() if p not in said)


def english_in(text: str, language: str) -> list[str]:
    """The referee's English found in ``text`` (a letter in ``language``)."""
    seen = html.unescape(text)
    return [p for p in leak_checks(language) if p in seen]


def mail_text(message: EmailMessage) -> str:
    """A mail's subject, text and HTML, as one text to look through."""
    parts = [str(message["Subject"])]
    for kind in ("plain", "html"):
        part = message.get_body((kind,))
        if part is not None:
            parts.append(str(part.get_content()))
    return "\n".join(parts)


def a_language(folder: Path, words: str, code: str = "xx") -> Path:
    """``folder`` made a folder of languages (for :func:`languages_in`): English's words, and
    a language ``code`` whose words.toml is ``words``."""
    english = Path(__file__).parents[1] / "referee" / "locale" / "en" / "words.toml"
    (folder / "en").mkdir(parents=True, exist_ok=True)
    (folder / "en" / "words.toml").write_text(english.read_text(encoding="utf-8"))
    (folder / code).mkdir(exist_ok=True)
    (folder / code / "words.toml").write_text(words, encoding="utf-8")
    return folder
