"""docs/messages.md: the table of every message of the catalogue (code, parameters, when it is
said, its English), written from the catalogue itself so that the two never differ."""

from __future__ import annotations

from referee.wording.catalogue import KINDS, Entry, entries

HEAD = """# Messages

Everything the referee tells a player, a spectator or the game master by mail, and every
refusal of the engine and of the move notation, is decided as a **message**: a stable code
and its parameters. Only the letter writer (`referee/wording/`) turns a message into words,
through the catalogue (`referee/wording/catalogue/`), in the reader's language. An error's
code is in `--json` output as `"code"`; its English is its message.

This file is written from the catalogue: `python -m referee.wording.catalogue >
docs/messages.md` (a test fails when they differ).

## Kinds of parameters

| kind | what it is |
|---|---|
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def _row(found: Entry) -> str:
    params = ", ".join(f"`{name}` ({kind})" for name, kind in found.params.items()) or "none"
    english = found.text if found.plural is None else f"{found.text} / {found.plural}"
    return f"| `{found.code}` | {params} | {_cell(found.when)} | {_cell(english)} |"


def markdown() -> str:
    """The whole of docs/messages.md."""
    lines = [HEAD.rstrip("\n")]
    lines += [f"| `{kind}` | {what} |" for kind, what in KINDS.items()]
    areas: dict[str, list[Entry]] = {}
    for found in entries():
        areas.setdefault(found.code.split(".")[0], []).append(found)
    for area, said in areas.items():
        lines += [
            "",
            f"## `{area}`",
            "",
            "| code | parameters | when | English |",
            "|---|---|---|---|",
        ]
        lines += [_row(f) for f in said]
    return "\n".join(lines) + "\n"
