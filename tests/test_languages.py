"""The five languages: every message translated with the English's fields, the catalogues
extracted and checked by the gettext tools, CLDR's plural forms (Welsh has six), numbers,
lists and times for each language, and every kind of letter written wholly in its reader's
language (no English sentence left in a Welsh letter)."""

from __future__ import annotations

import email
import email.policy
import html
import re
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po
from wcwidth import wcswidth

from referee.engine.cards import TOKEN_COLOURS
from referee.engine.rules import noble_choices
from referee.export import replay_page
from referee.mail.judging.commands.inviting import why_called_off
from referee.mail.samples import sample_letters
from referee.mail.transports.compose import Envelope, to_bytes
from referee.store import Store
from referee.wording.catalogue import entries
from referee.wording.messages import Message
from referee.wording.translations import po_catalog, po_path, problems, translations
from referee.wording.vocabulary import languages, vocabulary
from referee.wording.words import Words, width
from referee.wording.writer import Reader, Writer
from tests.wording_checks import english_in, leak_checks

ROOT = Path(__file__).parents[1]
LANGUAGES = ("en", "cy", "is", "eo", "bn")
TRANSLATED = LANGUAGES[1:]
AT = datetime(2026, 12, 8, 14, 0, tzinfo=UTC)


def test_the_referee_writes_english_welsh_icelandic_esperanto_and_bengali() -> None:
    assert set(languages()) == set(LANGUAGES) and languages()[0] == "en"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_not_fuzzy_and_keeps_the_englishs_fields(
    language: str,
) -> None:
    assert problems(language) == []


def test_msgfmt_check_passes_for_every_language() -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.fail("msgfmt is missing: apt-get install gettext (scripts/test does, as root)")
    for language in TRANSLATED:
        done = subprocess.run(
            [msgfmt, "--check", "-o", "/dev/null", str(po_path(language))],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr


def test_pybabel_extract_finds_every_message_and_each_po_has_exactly_those(
    tmp_path: Path,
) -> None:
    pot = tmp_path / "referee.pot"
    subprocess.run(
        [str(Path(sys.executable).parent / "pybabel"), "extract", "-F", "babel.cfg",
         "-o", str(pot), "--no-location", "."],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    with pot.open("rb") as file:
        extracted = {(m.context, _msgid(m.id)) for m in read_po(file) if m.id}
    assert {(e.code, e.text) for e in entries()} <= extracted
    template_texts = {key for key in extracted if key[0] is None}
    assert (None, "Hello %(name)s,") in template_texts and len(template_texts) > 50
    for language in TRANSLATED:
        kept = {(m.context, _msgid(m.id)) for m in po_catalog(language) if m.id}
        assert kept == extracted, (language, sorted(kept ^ extracted)[:5])


def _msgid(msgid: str | tuple[str, ...]) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


# -- plurals, numbers, lists and times ---------------------------------------------------------


def test_welsh_counts_take_the_cldr_form_of_zero_one_two_few_many_and_other() -> None:
    welsh = Words("cy")
    forms = po_catalog("cy").get("{cards} card", context="board.cards").string
    assert isinstance(forms, tuple | list) and len(forms) == 6
    order = ("zero", "one", "two", "few", "many", "other")
    rule = Locale.parse("cy").plural_form
    expected = {0: "zero", 1: "one", 2: "two", 3: "few", 4: "other", 6: "many", 11: "other"}
    for n, category in expected.items():
        assert rule(n) == category
        said = welsh.say(Message("board.cards", {"cards": n}))
        assert said == forms[order.index(category)].format(cards=n), n


def test_numbers_are_written_in_each_languages_digits_and_either_digits_read() -> None:
    for language in LANGUAGES:
        said = Words(language).say(Message("board.deck", {"cards": 26}))
        assert ("২৬" if language == "bn" else "26") in said, (language, said)
    assert vocabulary("bn").fold("২-০৭") == "2-07"  # noqa: RUF001 (Bengali digits)
    assert Words("bn").when(AT).startswith("মঙ্গলবার, ৮ ডিসেম্বর ২০২৬, ১৪:০০")  # noqa: RUF001


#: What stays in Latin digits in a Bengali letter: card, noble and game ids, addresses and
#: links, a mail's id (what every player of a mixed game shares, and the records write).
SHARED_IDS = re.compile(r"\b[1-3]-\d\d\b|\bN\d+\b|[\w.+-]+@[\w.-]+|https?://\S+|\bg\d+\b|\bab12\b")


def _latin_numbers(text: str) -> list[str]:
    """The numbers written in Latin digits in what a reader sees of ``text`` (its HTML's
    tags and styles left out), but for the ids all players share."""
    seen = re.sub(r"(?s)<style.*?</style>|<script.*?</script>|<[^>]+>", " ", text)
    return re.findall(r".{0,20}[0-9].{0,20}", SHARED_IDS.sub(" ", html.unescape(seen)))


def test_a_bengali_letter_writes_every_number_in_bengali_digits() -> None:
    for letter in sample_letters():  # (each template compiled in English first: nothing the
        Writer().write(letter)  # compiler works out in one language may show in another)
    writer = Writer().reading(Reader("bn"))
    for letter in sample_letters():
        written = writer.write(letter)
        for text in (written.subject, written.text, written.html or ""):
            assert _latin_numbers(text) == [], letter.kind
    game = Store(ROOT / "games").load("example")
    page = replay_page(game, "example", None, writer)
    body = page.html[page.html.index("<body") :]
    assert _latin_numbers(body) == []


def test_times_are_shown_in_the_readers_language_and_time_zone() -> None:
    assert Words("en").when(AT) == "Tue 8 Dec 2026, 14:00 UTC"
    assert Words("en", "Asia/Dhaka").when(AT) == "Tue 8 Dec 2026, 20:00 +06"
    assert Words("cy").when(AT) == "dydd Mawrth 8 Rhagfyr 2026, 14:00 UTC"
    assert Words("is", "Atlantic/Reykjavik").when(AT).startswith("þri. 8. desember 2026, 14:00")
    assert Words("eo").when(AT) == "mardo, la 8-a de decembro 2026, 14:00 UTC"
    bengali = Words("bn", "Asia/Dhaka").when(AT)
    assert "ডিসেম্বর" in bengali and "২০:০০" in bengali and "২০২৬" in bengali  # noqa: RUF001


def test_a_welsh_date_after_tan_takes_the_soft_mutation_its_words_give() -> None:
    assert Words("cy").when(AT, "soft") == "ddydd Mawrth 8 Rhagfyr 2026, 14:00 UTC"
    told = Words("cy").say(Message("away.told", {"player": "Bob", "until": AT.isoformat()}))
    assert "tan ddydd Mawrth 8 Rhagfyr" in told
    assert Words("eo").when(AT, "soft") == Words("eo").when(AT)  # a form it has not: plain


def test_lengths_of_time_are_words_of_the_language_as_people_write_them() -> None:
    assert Words("en").duration(7 * 86400) == "7 days"  # not "1w": a deadline reads so
    assert Words("en").duration(36 * 3600) == "36 hours"
    assert Words("cy").duration(3 * 86400) == "3 diwrnod"
    assert Words("is").duration(7 * 86400) == "7 dagar"
    assert Words("eo").duration(36 * 3600) == "36 horoj"


def test_lists_are_joined_as_each_language_joins_them() -> None:
    assert Words("en").listed(["ann", "bob", "cat"], "and") == "ann and bob and cat"
    assert Words("en").listed(["ann", "bob", "cat"], "or") == "ann, bob or cat"
    assert Words("is").listed(["ann", "bob", "cat"], "and") == "ann, bob og cat"
    assert Words("eo").listed(["ann", "bob"], "or") == "ann aŭ bob"
    assert Words("bn").listed(["ann", "bob"], "and") == "ann এবং bob"
    welsh = Words("cy")
    assert welsh.listed(["Bob", "Ann"], "and") == "Bob ac Ann"  # "ac" before a vowel
    assert welsh.listed(["gwyn", "glas", "coch"], "series") == "gwyn, glas a choch"
    assert welsh.listed(["Ann", "Bob"], "and") == "Ann a Bob"
    assert welsh.listed(["N4", "N7"], "and") == "N4 ac N7"  # N is said "en"
    assert welsh.listed(["2-07", "1-12"], "and") == "2-07 ac 1-12"  # 1 is "un"
    assert welsh.listed(["gwyn", "du"], "or") == "gwyn neu ddu"  # the soft mutation after neu
    assert welsh.listed(["Ann", "Bob"], "or") == "Ann neu Bob"  # names never mutate


def test_a_move_is_written_in_the_readers_words_and_records_keep_english() -> None:
    take = {"type": "take", "gems": {"red": 1, "green": 1, "blue": 1}, "return": {}}
    assert Words("en").move(take) == "take blue green red"
    for language in TRANSLATED:
        words = vocabulary(language)
        said = Words(language).move(take)
        case = words.notation_case("take")  # (one of a colour as the verb wants it)
        colours = (words.counted_word(1, c, case) for c in ("blue", "green", "red"))
        expected = [words.word("take"), *colours]
        assert said.split() == expected, language


# -- letters -------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_kind_of_letter_is_wholly_in_its_readers_language(language: str) -> None:
    writer = Writer().reading(Reader(language))
    assert len(leak_checks(language)) > 300
    letters = sample_letters()
    assert len({letter.kind for letter in letters}) >= 12
    for letter in letters:
        written = writer.write(letter)
        assert written.language == language
        seen = "\n".join([written.subject, written.text, written.html or ""])
        assert english_in(seen, language) == [], letter.kind
        if written.html is not None:
            assert f'<html lang="{language}">' in written.html
            assert "Noto Sans Bengali" in written.html


def test_a_letter_says_its_language_in_content_language_and_comes_from_a_name_in_it() -> None:
    letter = next(m for m in sample_letters() if m.form == "letter")
    written = Writer().reading(Reader("bn")).write(letter)
    envelope = Envelope(sender="referee@example.net", message_id="<x@example.net>")
    raw = to_bytes(written, envelope)
    assert b"\r\nContent-Language: bn\r\n" in raw
    english = to_bytes(Writer().write(letter), envelope)
    assert b"\r\nContent-Language: en\r\n" in english
    sender = email.message_from_bytes(raw, policy=email.policy.default)["From"]
    assert str(sender) == "Splendor রেফারি <referee@example.net>"  # the name, in Bengali


def test_the_colours_of_each_language_are_its_own_words() -> None:
    for language in TRANSLATED:
        words = Words(language)
        said = [words.colour(c) for c in TOKEN_COLOURS]
        assert len(set(said)) == 6 and not set(said) & set(TOKEN_COLOURS), (language, said)


@pytest.mark.parametrize("language", ["cy", "bn"])
def test_the_replay_page_is_written_in_the_language_asked_for(language: str) -> None:
    game = Store(ROOT / "games").load("example")
    page = replay_page(game, "example", None, Writer().reading(Reader(language)))
    assert f'<html lang="{language}">' in page.html
    assert english_in(page.html, language) == []
    moved = translations(language).gettext("%(player)s moved")
    assert moved != "%(player)s moved"


def test_why_a_game_was_called_off_is_said_in_the_readers_language() -> None:
    why = why_called_off("bob@example.org declined")
    called_off = Message("invite.called_off", {"game": "g1", "why": why})
    assert Words("en").say(called_off) == "game g1 was called off: bob@example.org declined."
    for language in TRANSLATED:
        said = Words(language).say(called_off)
        assert "bob@example.org" in said and "declined" not in said, language


def test_nobles_to_choose_between_are_named_in_the_readers_words() -> None:
    choices = noble_choices(["N4", "N7"])
    for language in TRANSLATED:
        said = Words(language).say(Message("noble.choice_or", choices["params"]))  # type: ignore[arg-type]
        assert "N4" in said and "N7" in said and "noble" not in said, (language, said)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_text_boards_card_columns_line_up_by_the_width_each_is_drawn(language: str) -> None:
    letter = next(m for m in sample_letters() if m.kind == "turn")
    text = Writer().reading(Reader(language)).write(letter).text
    cost = Words(language).say(Message("board.costs", {"cost": [1, 0, 0, 0, 0]})).split()[0]
    cards = [line for line in text.splitlines() if re.match(r"  [1-3]-\d\d  ", line)]
    assert len(cards) == 12
    assert len({width(line[: line.index(f" {cost} ")]) for line in cards}) == 1, cards
    assert width("ব্যাংক") == wcswidth("ব্যাংক") < len("ব্যাংক")  # (a conjunct: drawn narrower)
