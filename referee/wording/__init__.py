"""Wording: what the referee says, in words. Everything a player or spectator reads is
decided elsewhere as :class:`Message` s (a code of the catalogue and its parameters) and
worded here: the catalogue of messages (:mod:`referee.wording.catalogue`), the words for
numbers, lists, plurals, times and the game's things (:mod:`referee.wording.words`), the
board (:mod:`referee.wording.board`) and the one letter writer
(:mod:`referee.wording.writer`), through the templates.
"""

from __future__ import annotations

from referee.errors import word_with
from referee.wording.messages import Message, say
from referee.wording.words import ENGLISH, Words, english

word_with(english)  # a coded error's str() is its English from now on

__all__ = ["ENGLISH", "Message", "Words", "english", "say"]
