"""``python -m referee.wording.catalogue``: docs/messages.md, written from the catalogue."""

from referee.wording.table import markdown

print(markdown(), end="")
