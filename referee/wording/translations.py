"""The translations: one gettext catalogue per language,
``referee/locale/<language>/LC_MESSAGES/referee.po``, whose messages are the catalogue's
(context: the message's code; id: its English) and the templates' fixed texts.

The .po files are read as they are (compiled in memory when first used), so a corrected
translation is used without a build step; ``pybabel compile`` still makes .mo files for
anyone who wants them (docs/translating.md). :func:`problems` is what the tests and
``python -m referee.wording.translations`` report: a message missing, fuzzy, or with
fields that differ from the English.
"""

from __future__ import annotations

import functools
import io
import string
import sys
from collections.abc import Mapping
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.support import NullTranslations, Translations

from referee.engine.cards import TOKEN_COLOURS
from referee.wording.catalogue import entries
from referee.wording.vocabulary import (
    NOMINATIVE,
    PLURAL_CATEGORIES,
    counted_spec,
    locale_folder,
    vocabulary,
)

DOMAIN = "referee"


def po_path(language: str) -> Path:
    return locale_folder() / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def po_catalog(language: str) -> Catalog:
    """The .po of ``language``, read."""
    with po_path(language).open("rb") as file:
        return read_po(file, locale=language, domain=DOMAIN)


@functools.cache
def translations(language: str) -> NullTranslations:
    """gettext for ``language`` (English: the texts as they are)."""
    if language == "en" or not po_path(language).is_file():
        return NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, po_catalog(language), use_fuzzy=False)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def fields(text: str) -> list[tuple[str, str]]:
    """A text's fields, each its name and format spec, sorted: what a translation keeps."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as err:
        return [("?", f"cannot be read: {err}")]
    return sorted((name, spec or "") for _, name, spec, _ in parsed if name is not None)


def problems(language: str) -> list[str]:
    """What is wrong with ``language``'s translation, one line each: a message of the
    catalogue missing, untranslated or fuzzy, or with fields that are not the English's."""
    if not po_path(language).is_file():
        return [f"{po_path(language)}: missing"]
    catalog = po_catalog(language)
    found: list[str] = []
    wanted = {(e.code, e.text) for e in entries()}
    own_zero = frozenset(vocabulary(language).zero)  # (the words a spec may add)
    date_forms = frozenset(vocabulary(language).date_forms)
    for each in entries():
        message = catalog.get(each.text, context=each.code)
        where = f"{language} {each.code}"
        if message is None:
            found.append(f"{where}: missing")
            continue
        if message.fuzzy:
            found.append(f"{where}: fuzzy")
        translated = _strings(message.string)
        if not all(translated):
            found.append(f"{where}: not translated")
            continue
        if each.plural is not None and len(translated) != catalog.num_plurals:
            found.append(f"{where}: {len(translated)} plural forms, not {catalog.num_plurals}")
        english = set(fields(each.text)) | set(fields(each.plural or each.text))
        specs = dict(english)
        for text in translated:
            said, named = _as_english(fields(text), each.params, own_zero, specs, date_forms)
            said |= {field for field in english if field[0] in named}  # {paid:colour}
            # a form may leave out the number its plural is chosen by ("buy the card"), as
            # the English singular may; msgfmt --check keeps it where a form needs it
            right = said <= english if each.plural is not None else said == english
            if not right:
                found.append(f"{where}: fields {sorted(said)} differ from {sorted(english)}")
    for message in catalog:
        if message.id and message.context is not None:
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            if (message.context, msgid) not in wanted:
                found.append(f"{language} {message.context}: no longer in the catalogue")
    for message in catalog:  # the templates' texts (no context)
        if message.id and message.context is None:
            translated = _strings(message.string)
            if message.fuzzy:
                found.append(f"{language} template text {message.id!r}: fuzzy")
            elif not all(translated):
                found.append(f"{language} template text {message.id!r}: not translated")
    return found


#: The flag Babel gives every message with ``{`` fields. The referee's fields are not
#: Python's format specs (``{tokens:none}``, ``{paid:colour,accusative}``): msgfmt and the
#: translators' tools would misread them, so the .po files do not claim it (:func:`problems`
#: checks the fields instead).
BRACE_FLAG = "python-brace-format"


def drop_brace_flags(language: str) -> int:
    """Take :data:`BRACE_FLAG` off every message of ``language``'s .po (``scripts/
    translations update`` does, after pybabel has merged the catalogue); how many had it."""
    catalog = po_catalog(language)
    flagged = [message for message in catalog if BRACE_FLAG in message.flags]
    if flagged:
        for message in flagged:
            message.flags.discard(BRACE_FLAG)
        with po_path(language).open("wb") as file:
            write_po(file, catalog, width=100, ignore_obsolete=True)
    po_catalog.cache_clear()
    translations.cache_clear()
    return len(flagged)


def _as_english(
    said: list[tuple[str, str]],
    kinds: Mapping[str, str],
    own_zero: frozenset[str] = frozenset(),
    english: Mapping[str, str] | None = None,
    date_forms: frozenset[str] = frozenset(),
) -> tuple[set[tuple[str, str]], set[str]]:
    """A translation's fields as the English writes them: without the case a counted field
    names (``{paid:accusative}``), the colour a number is counted in (``{paid:colour}``) or
    the form a colour takes (``{colour:two}``), the case of a name (``{player:genitive}``) or
    the form of a date its ``date_forms`` name (``{until:soft}``),
    which only a translation adds, nor the word of its own ``[zero]`` (``own_zero``) that
    no tokens read as where the English (``english``: name -> spec) names none
    (``{paid:free}``); and the colour fields so named (a translation may write ``{colour}``
    only through them)."""
    plain: set[tuple[str, str]] = set()
    named: set[str] = set()
    for name, spec in said:
        kind = kinds.get(name)
        if kind in ("tokens", "taken") and spec and english is not None and not english.get(name):
            spec = ",".join(p for p in spec.split(",") if p.strip() not in own_zero)
        if kind in ("tokens", "taken", "number", "colour", "name") and spec:
            case, rest = counted_spec(spec)
            colours = [p for p in rest if p in TOKEN_COLOURS or kinds.get(p) == "colour"]
            if kind == "colour":  # {colour:two,accusative}
                colours = [p for p in rest if p in PLURAL_CATEGORIES]
            if colours or case != NOMINATIVE or "nominative" in spec:
                named.update(p for p in colours if kinds.get(p) == "colour")
                spec = ",".join(p for p in rest if p not in colours)
        if kind == "when" and spec in date_forms:  # {until:soft}: a form of [dates.forms]
            spec = ""
        plain.add((name, spec))
    return plain, named


def _strings(string: object) -> tuple[str, ...]:
    """A message's translation as a tuple of its forms (one unless it has plurals)."""
    if isinstance(string, list | tuple):
        return tuple(str(s or "") for s in string)
    return (str(string or ""),)


def main(argv: list[str]) -> int:
    """``python -m referee.wording.translations [LANGUAGE...]``: each problem, one a line."""
    from referee.wording.vocabulary import languages

    chosen = argv or [code for code in languages() if code != "en"]
    found = [line for code in chosen for line in problems(code)]
    print("\n".join(found) or f"no problems in {', '.join(chosen)}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
