"""``pybabel extract`` reads the catalogue through this extractor (babel.cfg names it): each
entry of a catalogue module becomes a message whose context is its code, whose id is its
English (with its English plural), and whose translator comment says when it is said and
what its parameters are.

The entries are read by importing the catalogue, not by parsing its source, so an entry's
text may be built from parts (``RULES + "."``) and still be extracted as it is said.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from referee.wording.catalogue import KINDS, Entry, entries


def comment_of(found: Entry) -> list[str]:
    """What a translator is told of ``found``: when it is said, and each parameter's kind."""
    lines = [f"{found.code}: {found.when}"] if found.when else [found.code]
    lines.extend(f"{{{name}}}: {KINDS[kind]}" for name, kind in found.params.items())
    if found.count:
        lines.append(f"the plural form is chosen by {{{found.count}}}")
    return lines


def extract_catalogue(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str, tuple[str, ...], list[str]]]:
    """Babel's extractor interface: the messages of the catalogue module ``fileobj`` is."""
    module = "referee.wording.catalogue." + Path(str(getattr(fileobj, "name", ""))).stem
    found = [e for e in entries() if e.origin[0] == module]
    for each in sorted(found, key=lambda e: e.origin[1]):
        if each.plural is None:
            yield each.origin[1], "pgettext", (each.code, each.text), comment_of(each)
        else:
            yield each.origin[1], "npgettext", (each.code, each.text, each.plural), comment_of(each)
