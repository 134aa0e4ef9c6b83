"""A name takes the ending its language's grammar gives it where a message asks
(``{player:genitive}``), from the ``[names]`` data of the language's words.toml
(docs/translating.md, "Names"): Bengali joins the genitive to a Bengali name, "রহিমের" after
a consonant and "সীমার" after a vowel, and writes "alice-এর" after a name in Latin letters."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.wording.messages import say
from referee.wording.vocabulary import languages_in, vocabulary
from referee.wording.words import words_for
from tests.wording_checks import a_language


@pytest.mark.parametrize(
    ("name", "genitive"),
    [
        ("রহিম", "রহিমের"),  # a consonant
        ("আদিত্য", "আদিত্যের"),  # a consonant with its ya-phala
        ("সীমা", "সীমার"),  # the vowel sign aa
        ("রবি", "রবির"),  # the vowel sign i
        ("মধু", "মধুর"),  # the vowel sign u
        ("alice", "alice-এর"),  # Latin letters
        ("Bob2", "Bob2-এর"),
    ],
)
def test_a_bengali_name_takes_the_genitive_as_it_ends(name: str, genitive: str) -> None:
    assert vocabulary("bn").name_in(name, "genitive") == genitive


def test_a_bengali_letter_joins_the_genitive_to_the_players_name() -> None:
    said = words_for("bn").say(say("told.noble", move={"code": "told.take", "params": {
        "player": "রহিম", "gems": [1, 1, 1, 0, 0, 0]}}, noble="N4", player="রহিম"))  # fmt: skip
    assert "রহিমের" in said and "রহিম-এর" not in said, said


def test_a_language_that_gives_no_endings_writes_the_name_as_it_is() -> None:
    assert vocabulary("eo").name_in("Rahim", "genitive") == "Rahim"
    assert vocabulary("bn").name_in("রহিম", "dative") == "রহিম"


def test_a_words_file_whose_names_are_no_case_is_refused_with_what_is_wrong(
    tmp_path: Path,
) -> None:
    a_language(tmp_path, '[names.possessive]\notherwise = "s"\n')
    with languages_in(tmp_path), pytest.raises(ValueError, match="'possessive' is no case"):
        vocabulary("xx")
