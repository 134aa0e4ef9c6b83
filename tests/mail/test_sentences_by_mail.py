"""A move written as people write it, by mail (docs/mail.md, "How replies are read"): played
when the referee is sure of its reading; asked about when it is not ("I read your reply as
…: reply yes to play it"), and played on a yes at the same turn only; never played when the
sentence says not, or leaves a choice."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from referee.mail.judging.commands import read_command
from referee.mail.state.ledger import Ledger
from referee.store import Store
from tests.mail import corpus
from tests.mail.players import latest, reply, text_of


@pytest.fixture(scope="module")
def position(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return corpus.build(tmp_path_factory.mktemp("p1"), "P1")


def sent(position: Path, work: Path, text: str) -> corpus.Outcome:
    return corpus.send(position, work, corpus.Reply("en", 1, "P1", text, "", ""))


def answered(work: Path, text: str, n: int = 2) -> None:
    """ann answers the referee's latest letter to her with ``text``, and it is judged."""
    mail = work / "mail"
    reply(mail, latest(mail, corpus.ANN), corpus.ANN, text, message_id=f"<again.{n}@example.org>")
    corpus.serve(corpus.settings(work), corpus.NOW)


def turns(work: Path) -> list[str]:
    return [t.move.text for t in Store(work / "games").load("g1").turns]


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("Hi all, I'll take a white, a blue and a green, please.", "take white blue green"),
        ("Taking 2 green please", "take 2 green"),
        ("Reserve the top card of the level 3 deck pls", "reserve deck 3"),
        ("I'd like to reserve card 2-05 and take my gold.", "reserve 2-05"),
        ("I'll buy 1-23 with 1 white, 1 blue and 1 gold.\nCheers, Ann", "buy 1-23"),
    ],
)
def test_a_sentence_the_referee_is_sure_of_is_played(
    position: Path, tmp_path: Path, text: str, move: str
) -> None:
    outcome = sent(position, tmp_path / "w", text + "\n\nSent from my iPhone")
    assert outcome.played is not None and outcome.played.startswith(move), outcome.said()


def test_a_reading_not_sure_is_asked_about_and_a_yes_plays_it(
    position: Path, tmp_path: Path
) -> None:
    work = tmp_path / "w"
    outcome = sent(position, work, "Howdy partner, I fancy a white, a blue and a green")
    assert outcome.played is None and outcome.letters == ("reading",)
    assert outcome.asked == "take white blue green"
    letter = latest(work / "mail", corpus.ANN)
    assert str(letter["Subject"]).startswith("Is this your move? · Splendor g1 · turn 8")
    said = " ".join(text_of(letter).split())
    assert "I read your reply as: take white blue green. Nothing is played yet: reply yes" in said
    assert "I could not place these words: howdy, partner, fancy." in said
    answered(work, "Yes please!")
    assert turns(work)[-1] == "take white blue green"
    assert Ledger(work / "games" / ".mail").readings("g1") == {}  # asked once, played once


def test_a_yes_plays_nothing_once_the_game_has_moved_on(position: Path, tmp_path: Path) -> None:
    work = tmp_path / "w"
    assert sent(position, work, "Howdy, I fancy a white, a blue and a green").asked
    answered(work, "take 2 green")  # the player wrote a move after all: it is played
    assert turns(work)[-1] == "take 2 green"
    before = len(turns(work))
    answered(work, "yes", 3)  # (the reading was of turn 8)
    assert len(turns(work)) == before
    assert "There is no move of yours waiting for yes at this turn" in " ".join(
        text_of(latest(work / "mail", corpus.ANN)).split()
    )


def test_a_yes_that_writes_another_move_plays_that_one(position: Path, tmp_path: Path) -> None:
    work = tmp_path / "w"
    assert sent(position, work, "Howdy, I fancy a white, a blue and a green").asked
    answered(work, "Yes, but take two blacks please")
    assert turns(work)[-1] == "take 2 black"


@pytest.mark.parametrize(
    "text",
    [
        "I won't take red, green and blue",  # not
        "I'm not taking 2 green",
        "Take red or blue, whichever you think",  # a choice
        "Maybe reserve 3-12?",
        "If nobody minds I'd reserve 1-16",
    ],
)
def test_a_sentence_that_says_not_or_leaves_a_choice_is_never_played_nor_offered(
    position: Path, tmp_path: Path, text: str
) -> None:
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.played is None and outcome.asked is None, outcome.said()


@pytest.mark.parametrize(
    "text", ["Good luck everyone!", "Well played Bo, nice move", "I'll think about it tonight"]
)
def test_chat_with_no_move_word_is_never_played(position: Path, tmp_path: Path, text: str) -> None:
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.played is None and outcome.asked is None
    assert outcome.letters == ("no-move",)


def test_a_move_read_in_sentences_that_is_not_allowed_says_how_it_was_read(
    position: Path, tmp_path: Path
) -> None:
    work = tmp_path / "w"
    outcome = sent(position, work, "Hello! I'll buy 2-03 please.")
    assert outcome.played is None and outcome.letters == ("refused-illegal",)
    said = " ".join(text_of(latest(work / "mail", corpus.ANN)).split())
    assert "I read your reply as: buy 2-03" in said and "You cannot afford 2-03" in said


def test_away_said_in_a_sentence_sets_the_time_away(position: Path, tmp_path: Path) -> None:
    outcome = sent(position, tmp_path / "w", "Sorry all, I'm away until Friday. Back then!")
    assert outcome.played is None
    assert outcome.away_until == corpus.NOW.replace(day=11, hour=0)
    assert "away" in outcome.letters


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("I won't be around until Friday, sorry.", 11),
        ("Dw i ddim ar gael tan ddydd Gwener, mae'r gwaith yn wallgo.", 11),
        ("Ég verð ekki við tölvu til föstudags.", 11),
        ("Mi ne povos ludi ĝis vendredo.", 11),
        ("শুক্রবার পর্যন্ত আমি থাকছি না।", 11),
        ("I'm off skiing until Friday, could you put me on away?", 11),
        ("Ég er að fara á skíði til föstudags, getið þið merkt mig fjarverandi?", 11),
        ("Dim ond gair i ddweud y bydda i i ffwrdd tan ddydd Gwener.", 11),  # ("dim ond",
        # only: no "not")
    ],
)
def test_away_said_as_not_around_or_asked_for_sets_the_time_away(
    position: Path, tmp_path: Path, text: str, day: int
) -> None:
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.played is None, outcome.said()
    assert outcome.away_until == corpus.NOW.replace(day=day, hour=0), outcome.said()


def test_a_card_named_by_colour_and_level_is_asked_as_that_card_never_a_deck(
    position: Path, tmp_path: Path
) -> None:
    outcome = sent(position, tmp_path / "w", "Hmm. I'll reserve the red level 3 card.")
    assert outcome.played is None and (outcome.asked or "").startswith("reserve 3-13"), (
        outcome.said()
    )


def test_a_command_word_after_a_negation_is_no_command(position: Path, tmp_path: Path) -> None:
    outcome = sent(position, tmp_path / "w", "I'm not away until Friday, just slow.")
    assert outcome.away_until is None and outcome.played is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Can I see the board again? Deleted the last email by mistake.", "board"),
        ("What are my options this turn?", "moves"),
        ("Could you send me the history of the game so far?", "history"),
    ],
)
def test_a_request_said_in_a_sentence_is_answered(
    position: Path, tmp_path: Path, text: str, kind: str
) -> None:
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.played is None and kind in outcome.letters, outcome.said()


def test_a_command_word_beside_a_move_leaves_the_move_alone(position: Path, tmp_path: Path) -> None:
    outcome = sent(position, tmp_path / "w", "I'll take white, blue and black. Back to work now!")
    assert outcome.played == "take white blue black"


@pytest.mark.parametrize(
    "text",
    [
        "Thanks for the game, see you next week",
        "I was on holiday for a week, sorry",
        "Is Bo away until Friday?",
        "I'm not going to be away until Friday",
    ],
)
def test_away_is_never_read_from_chat_a_question_a_not_or_the_past(
    position: Path, tmp_path: Path, text: str
) -> None:
    assert sent(position, tmp_path / "w", text).away_until is None


@pytest.mark.parametrize("text", ["Yes but not the blue one", "Yeah no, that's not it", "yes?"])
def test_a_yes_that_says_more_than_yes_plays_nothing(
    position: Path, tmp_path: Path, text: str
) -> None:
    work = tmp_path / "w"
    assert sent(position, work, "Howdy, I fancy a white, a blue and a green").asked
    before = len(turns(work))
    answered(work, text)
    assert len(turns(work)) == before


@pytest.mark.parametrize(
    "text",
    [
        "Gonna buy the black card I've been hanging onto in my hand.",
        "Can I buy the card I reserved?",
        "অবশেষে রিজার্ভ করা কার্ডটা কিনে ফেললাম!",
    ],
)
def test_the_card_named_as_the_one_held_is_asked_about_as_that_card(
    position: Path, tmp_path: Path, text: str
) -> None:
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.played is None and (outcome.asked or "").startswith("buy 1-36 ")  # (black)


def test_a_card_named_by_a_colour_no_held_card_has_is_refused_saying_so(
    position: Path, tmp_path: Path
) -> None:
    work = tmp_path / "w"
    outcome = sent(position, work, "I'll buy the red card in my hand please")
    assert outcome.played is None and outcome.letters == ("refused-illegal",)
    said = " ".join(text_of(latest(work / "mail", corpus.ANN)).split())
    assert "You hold no reserved card with a red bonus that you can buy now" in said


@pytest.fixture(scope="module")
def nine_tokens(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return corpus.build(tmp_path_factory.mktemp("p2"), "P2")


def test_a_return_on_a_line_of_its_own_joins_a_move_line(nine_tokens: Path, tmp_path: Path) -> None:
    reply = corpus.Reply(
        "en", 1, "P2", "take white, green, red\ngive back: 1 black, 1 green", "", ""
    )
    outcome = corpus.send(nine_tokens, tmp_path / "w", reply)
    assert outcome.played == "take white green red, return green black", outcome.said()


def test_away_for_a_count_of_days_said_in_words_is_that_many_days(
    position: Path, tmp_path: Path
) -> None:
    outcome = sent(position, tmp_path / "w", "Sorry all, I'm away for ten days.")
    assert outcome.away_until == corpus.NOW.replace(day=19)
    outcome = sent(position, tmp_path / "x", "Sorry all, I'm away for a few days.")
    assert outcome.away_until is None  # ("a few" is no count: never guessed)


@pytest.mark.parametrize(
    ("text", "until"),
    [
        (
            "Ég er að fara til Tenerife í viku. Getið þið sett mig í frí á meðan?",
            corpus.NOW.replace(day=16),
        ),
        (
            "২০ ডিসেম্বর পর্যন্ত গ্রামের বাড়িতে থাকবো। ওই তারিখ পর্যন্ত আমাকে অনুপস্থিত ধরে নিবেন।",
            corpus.NOW.replace(day=20, hour=0),
        ),
    ],
)
def test_away_said_just_after_the_time_takes_that_time(
    position: Path, tmp_path: Path, text: str, until: object
) -> None:
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.away_until == until, outcome.said()


def test_a_phrase_that_says_back_is_back(position: Path, tmp_path: Path) -> None:
    """("taka", take, is no move in "takið mig úr fríinu": take me off holiday.)"""
    text = "Jæja, ég er komin heim. Þið megið taka mig úr fríinu."
    outcome = sent(position, tmp_path / "w", text)
    assert "ann@example.org back" in outcome.ruling and outcome.played is None, outcome.said()


def test_the_moves_asked_for_with_a_word_that_is_also_games_are_the_moves(
    position: Path, tmp_path: Path
) -> None:
    outcome = sent(position, tmp_path / "w", "Hvaða leikir eru löglegir hjá mér núna?")
    assert "moves" in outcome.letters and "games" not in outcome.letters, outcome.said()


@pytest.mark.parametrize(
    "text",
    [
        "I'm in Spain until Friday. Please set Bo away.",
        "My flight is on Friday. Please mark me away.",
    ],
)
def test_away_takes_the_time_before_it_only_for_the_writer_and_a_length_or_an_until(
    position: Path, tmp_path: Path, text: str
) -> None:
    assert sent(position, tmp_path / "w", text).away_until is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("What moves could I make?", "moves"),
        ("Which moves were played last round?", "history"),
        ("Could you send me the list of moves so far?", "history"),
        ("এখন পর্যন্ত কে কোন চাল দিয়েছে তার পুরো তালিকাটা একবার পাঠাবে?", "history"),
    ],
)
def test_the_moves_made_are_the_history_and_the_moves_one_could_make_are_the_moves(
    position: Path, tmp_path: Path, text: str, kind: str
) -> None:
    assert kind in sent(position, tmp_path / "w", text).letters


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("Work's gone mad this month - could you pause me for a fortnight?", 14),
        ("verd i burtu i 3 daga, tharf ad fara austur. kv A", 3),
    ],
)
def test_away_said_beside_another_time_or_without_accents_is_read(
    position: Path, tmp_path: Path, text: str, days: int
) -> None:
    """("this month" is no length; "verd", Icelandic "verð" typed plainly, is not
    Esperanto's green, and "3 daga" is no count of tokens.)"""
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.away_until == corpus.NOW + timedelta(days=days), outcome.said()


def test_a_phrase_that_puts_the_writer_back_in_is_back(position: Path, tmp_path: Path) -> None:
    outcome = sent(position, tmp_path / "w", "Ég er komin heim aftur. Setjið mig aftur inn.")
    assert "ann@example.org back" in outcome.ruling, outcome.said()


def test_a_yes_word_that_begins_a_command_said_in_a_sentence_leaves_the_command(
    position: Path, tmp_path: Path
) -> None:
    """("iawn", right, is Welsh's yes too: with nothing asked, the sentence says back.)"""
    text = "iawn dwi nôl!! arholiadau drosodd diolch byth, rhowch fi nôl yn y gêm plis"
    outcome = sent(position, tmp_path / "w", text)
    assert "ann@example.org back" in outcome.ruling, outcome.said()


def test_away_is_never_read_from_a_sentence_that_names_a_move_and_a_card(
    position: Path, tmp_path: Path
) -> None:
    """(Welsh "o fri", of renown, is Icelandic "frí", holiday, and English "Fri" typed
    plain: beside a move word and a card it says no away.)"""
    text = (
        "Wedi hir bendroni, dymunaf neilltuo'r cerdyn saffir sy'n werth un pwynt o fri, sef "
        "yr un sy'n gofyn am bedwar rhuddem (1-16)."
    )
    assert sent(position, tmp_path / "w", text).away_until is None


@pytest.mark.parametrize(
    "text",
    ["ok im back from finals, can play again", "Hi all, I am back from my trip!"],
)
def test_back_said_with_where_from_is_back(position: Path, tmp_path: Path, text: str) -> None:
    outcome = sent(position, tmp_path / "w", text)
    assert "ann@example.org back" in outcome.ruling and outcome.played is None, outcome.said()


def test_back_told_in_the_past_by_a_phrase_of_the_writer_is_back(
    position: Path, tmp_path: Path
) -> None:
    """("hieraŭ", yesterday, tells of what was; "mi revenis" is the writer back all the same.)"""
    text = "Jen mi denove ! Mi revenis el Parizo hierau vespere, do la ludo povas dauri kun mi."
    outcome = sent(position, tmp_path / "w", text)
    assert "ann@example.org back" in outcome.ruling and outcome.played is None, outcome.said()


def test_esperanto_ol_is_no_welsh_back(position: Path, tmp_path: Path) -> None:
    """("antaŭ ol", before: "ôl" alone is no command; Welsh says back as "nôl", "yn ôl".)"""
    text = "Antaŭ ol decidi, bonvolu sendi al mi la kompletan liston de ĉiuj movoj."
    outcome = sent(position, tmp_path / "w", text)
    assert "moves" in outcome.letters and "back" not in outcome.ruling, outcome.said()


def test_away_asked_for_with_please_could_is_a_request(position: Path, tmp_path: Path) -> None:
    text = "I shall be away until Monday 28th December, so please could the game wait for me?"
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.away_until == corpus.NOW.replace(day=28, hour=0), outcome.said()


def test_away_until_a_day_said_as_an_ordinal_word_is_that_day(
    position: Path, tmp_path: Path
) -> None:
    text = "Mi vojaĝos kaj ne havos aliron al retpoŝto ĝis la dudeka de decembro."
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.away_until == corpus.NOW.replace(day=20, hour=0), outcome.said()


@pytest.mark.parametrize(
    "text",
    ["Off to Spain tomorrow. I'm back on the 20th.", "I'm back at work on Monday so I'll be slow."],
)
def test_back_with_a_day_to_come_is_not_back_now(position: Path, tmp_path: Path, text: str) -> None:
    outcome = sent(position, tmp_path / "w", text)
    assert "back" not in outcome.ruling, outcome.said()


def test_a_card_line_pasted_from_the_board_is_that_card(position: Path, tmp_path: Path) -> None:
    outcome = sent(position, tmp_path / "w", "Cadw hwn plîs:\n\n  1-16  blue   1 pt   costs 4 red")
    assert outcome.played == "reserve 1-16", outcome.said()


def test_a_card_line_quoted_alone_above_this_one_is_that_card(
    position: Path, tmp_path: Path
) -> None:
    text = (
        "> LEVEL 3   16 cards left\n>   3-12  green  5 pts  costs 7 blue, 3 green\n\nTek þessa frá."
    )
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.asked == "reserve 3-12", outcome.said()


def test_a_command_word_that_begins_a_sentence_with_a_move_is_no_command(
    position: Path, tmp_path: Path
) -> None:
    """(Welsh "post", mail, is Esperanto "after".)"""
    text = "Post longa pripensado jen mia movo: mi rezervas la karton 2-05."
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.played == "reserve 2-05" or outcome.asked == "reserve 2-05", outcome.said()


def test_leaving_tomorrow_then_away_until_a_day_is_away_until_that_day(
    position: Path, tmp_path: Path
) -> None:
    text = "Mi forveturos morgaŭ al mia filino. Mi estos for ĝis la 20-a de decembro."
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.away_until is not None and outcome.away_until.day == 20, outcome.said()


def test_two_card_lines_pasted_are_never_one_of_them_guessed(
    position: Path, tmp_path: Path
) -> None:
    text = (
        "Buy:\n  1-23  green         costs 2 white, 1 blue\n"
        "    reserved  1-36  black         costs 1 white, 1 blue, 1 green, 1 red   <- this one"
    )
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.played is None and outcome.asked != "buy 1-23", outcome.said()


def test_a_command_word_as_a_label_over_a_move_is_no_command(
    position: Path, tmp_path: Path
) -> None:
    """("চাল:", my move:, is the Bengali for "moves" as a label, not the command.)"""
    outcome = sent(position, tmp_path / "w", "চাল:\nনিচ্ছি — সাদা ১, নীল ১, লাল ১")
    assert "moves" not in outcome.letters, outcome.said()


def test_the_word_that_is_away_is_not_also_its_time(position: Path, tmp_path: Path) -> None:
    """(Icelandic "frí" typed "fri" is no Friday: the ten days said before are the time.)"""
    outcome = sent(position, tmp_path / "w", "er a sjo naestu 10 daga, litid net. setjid mig i fri")
    assert outcome.away_until == corpus.NOW + timedelta(days=10), outcome.said()


@pytest.mark.parametrize(
    ("text", "argument"), [("away: 5d", "5d"), ("history: 5", "5"), ("say: hello all", "hello all")]
)
def test_a_command_word_with_a_colon_and_its_argument_is_the_command(
    text: str, argument: str
) -> None:
    found = read_command("game", text)
    assert found is not None and found.argument == argument


def test_a_polite_question_that_asks_to_be_marked_away_is_a_request(
    position: Path, tmp_path: Path
) -> None:
    text = "A fyddech cystal â fy nodi i'n absennol o heddiw hyd at y 4ydd o Ionawr?"
    outcome = sent(position, tmp_path / "w", text)
    assert outcome.away_until is not None and outcome.away_until.date().isoformat() == "2027-01-04"
