"""Games by mail in each language, over the dir transport: players choose their language and
time zone by mail, propose, accept and play a whole game writing every command and move in
their own words, and every letter they get is in their language (no English sentence in a
Welsh letter); one game may have a Welsh, a Bengali and an English player."""

from __future__ import annotations

import random
import tomllib
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from referee.engine import CARDS, Buy, Move, Pass, Reserve, Take, legal_moves
from referee.engine.cards import TOKEN_COLOURS
from referee.engine.rules import default_payment
from referee.engine.state import GameState, need
from referee.invitations import Invitations
from referee.wording.vocabulary import locale_folder, vocabulary
from tests.mail.club import Club, address
from tests.wording_checks import english_in, mail_text

LANGUAGES = ("cy", "is", "eo", "bn")


def words_file(language: str) -> dict[str, dict[str, list[str]]]:
    with (locale_folder() / language / "words.toml").open("rb") as file:
        return tomllib.load(file)


class Speaker:
    """How a player of one language writes: a word of each kind, chosen among the forms
    their words.toml lists (so the test follows the translators' words)."""

    def __init__(self, language: str, rng: random.Random) -> None:
        self.language = language
        self.words = words_file(language)
        self.rng = rng

    def word(self, group: str, key: str) -> str:
        return self.rng.choice(self.words[group][key])

    def first(self, group: str, key: str) -> str:
        return self.words[group][key][0]

    def colour(self, kind: int) -> str:
        return self.word("colours", TOKEN_COLOURS[kind])

    def tokens(self, counts: tuple[int, ...]) -> str:
        parts = []
        for kind, n in enumerate(counts):
            if n == 1:
                parts.append(self.colour(kind))
            elif n > 1:
                number = self.rng.choice([str(n), self.digits(str(n))])
                parts.append(f"{number} {self.colour(kind)}")
        return " ".join(parts)

    def digits(self, text: str) -> str:
        """Bengali writers may write Bengali digits."""
        if self.language != "bn":
            return text
        return text.translate(str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯"))

    def move(self, move: Move, state: GameState) -> str:
        lines: list[str] = []
        match move:
            case Take(gems=gems):
                lines.append(f"{self.word('moves', 'take')} {self.tokens(gems)}")
            case Reserve(card=card, deck=deck):
                reserve = self.word("moves", "reserve")
                if card:
                    lines.append(f"{reserve} {self.digits(card)}")
                else:
                    lines.append(f"{reserve} {self.word('moves', 'deck')} {self.digits(str(deck))}")
            case Buy(card=card, pay=pay):
                player = state.player
                usual = default_payment(need(CARDS[card], player.bonuses), player.tokens)
                text = f"{self.word('moves', 'buy')} {self.digits(card)}"
                if pay != usual:
                    paid = self.tokens(pay) if any(pay) else self.word("moves", "nothing")
                    text += f" {self.word('moves', 'pay')} {paid}"
                lines.append(text)
            case Pass():
                lines.append(self.word("moves", "pass"))
        if any(move.returned):
            lines.append(f"{self.word('moves', 'return')} {self.tokens(move.returned)}")
        if move.noble:
            lines.append(f"{self.word('moves', 'noble')} {move.noble}")
        return "\n".join(lines)


def assert_in_language(message: EmailMessage, language: str) -> None:
    assert message["Content-Language"] == language, message["Subject"]
    text = mail_text(message)
    if language != "en":
        assert english_in(text, language) == [], (message["Subject"], english_in(text, language))
    html = message.get_body(("html",))
    if html is not None:
        assert f'<html lang="{language}">' in str(html.get_content())


def check_every_mail(club: Club, name: str, language: str, seen: int = 0) -> int:
    """Every mail ``name`` got since the ``seen``-th is in ``language``; how many there are."""
    mails = club.mails(name)
    for message in mails[seen:]:
        assert_in_language(message, language)
    return len(mails)


def propose_and_start(club: Club, speakers: dict[str, Speaker], extra: str = "") -> str:
    """ann proposes a game to the others in her words; everyone accepts in theirs."""
    ann = speakers["ann"]
    others = [n for n in speakers if n != "ann"]
    with_, and_ = ann.first("options", "with"), ann.first("options", "and")
    people = f" {and_} ".join(address(n) for n in others)
    before = set(Invitations(club.games).ids())
    new = ann.word("commands", "new")
    club.write("ann", f"{new} splendor {with_} {people}{extra}", display="Ann")
    club.serve()
    (game,) = set(Invitations(club.games).ids()) - before
    for name in others:
        speaker = speakers[name]
        accept, as_ = speaker.first("commands", "accept"), speaker.first("options", "as")
        club.reply(name, f"{accept} {as_} {name.capitalize()}")
    club.serve()
    assert club.store.has(game), club.text(others[-1])
    return game


def play_to_the_end(club: Club, game: str, speakers: dict[str, Speaker], seed: int) -> int:
    rng = random.Random(seed)
    names = {p.email: n for n in speakers for p in club.store.load(game).record.players
             if p.email == address(n)}  # fmt: skip
    while (state := club.store.load(game).state).status != "finished":
        moves = legal_moves(state)
        move = rng.choice([m for m in moves if isinstance(m, Buy)] or moves)
        name = names[club.store.load(game).record.players[state.to_move].email]
        club.reply(name, speakers[name].move(move, state))
        club.serve(timedelta(minutes=5))
        after = club.store.load(game).state
        assert after.turn == state.turn + 1, club.text(name)
    return club.store.load(game).state.turn


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_group_plays_a_whole_game_by_mail_in_its_own_language(
    tmp_path: Path, language: str
) -> None:
    club = Club(tmp_path)
    rng = random.Random(language)
    speakers = {n: Speaker(language, rng) for n in ("ann", "bob", "cat")}
    for name, speaker in speakers.items():  # each chooses the language, in its own words
        command = speaker.word("commands", "language")
        club.write(name, f"{command} {language}")
    club.serve()
    for name in speakers:
        assert_in_language(club.latest(name), language)
        club.write(name, speakers[name].word("commands", "help"))
    club.serve()
    game = propose_and_start(club, speakers)
    turns = play_to_the_end(club, game, speakers, seed=len(language))
    assert turns > 20
    for name in speakers:
        check_every_mail(club, name, language)
        board = speakers[name].word("commands", "board")
        club.reply(name, board)
    club.serve()
    for name in speakers:
        assert_in_language(club.latest(name), language)


def test_one_game_has_a_welsh_a_bengali_and_an_english_player(tmp_path: Path) -> None:
    club = Club(tmp_path)
    rng = random.Random(7)
    chosen = {"ann": "cy", "bob": "bn", "cat": "en"}
    speakers = {n: Speaker(language, rng) for n, language in chosen.items()}
    club.write("ann", "iaith cy" if "iaith" in speakers["ann"].words["commands"]["language"]
               else "language cy")  # fmt: skip
    club.write("bob", "language bn")
    club.write("bob", "timezone Asia/Dhaka")
    club.serve()
    game = propose_and_start(club, speakers)
    for name, language in chosen.items():
        check_every_mail(club, name, language)
    bob_board = mail_text(club.latest("bob"))
    assert "+০৬" in bob_board  # his deadline, in Dhaka's time (in Bengali digits)
    play_to_the_end(club, game, speakers, seed=3)
    for name, language in chosen.items():
        check_every_mail(club, name, language)


def test_a_game_proposed_in_welsh_invites_in_welsh_those_who_chose_no_language(
    tmp_path: Path,
) -> None:
    club = Club(tmp_path)
    club.write("ann", "new splendor with bob@example.org language cy")
    club.serve()
    invitation = club.latest("bob")
    assert_in_language(invitation, "cy")
    assert_in_language(club.latest("ann"), "cy")
    club.write("cat", "language is")
    club.serve()
    club.write("ann", "new splendor with cat@example.org language cy")
    club.serve()
    assert_in_language(club.latest("cat"), "is")  # her own choice wins over the game's


def test_language_with_an_unknown_language_is_refused_with_the_choices(tmp_path: Path) -> None:
    club = Club(tmp_path)
    club.write("ann", "language klingon")
    club.serve()
    text = club.words("ann")
    assert "'klingon'" in text and "cy Cymraeg" in text and "bn বাংলা" in text
    assert club.latest("ann")["Content-Language"] == "en"


def test_the_answer_to_language_already_comes_in_the_new_language(tmp_path: Path) -> None:
    club = Club(tmp_path)
    club.write("ann", "language Cymraeg")
    club.serve()
    assert club.latest("ann")["Content-Language"] == "cy"
    assert club.desk_ledger().choices(address("ann")) == ("cy", None)
    club.write("ann", "language en")
    club.serve()
    assert club.latest("ann")["Content-Language"] == "en"
    assert "in English" in club.words("ann")


def test_timezone_shows_every_deadline_in_the_players_zone(tmp_path: Path) -> None:
    club = Club(tmp_path)
    club.write("ann", "timezone asia/dhaka")
    club.serve()
    assert "Asia/Dhaka" in club.words("ann")
    club.write("ann", "timezone Mars/Olympus")
    club.serve()
    assert "'Mars/Olympus' is not a time zone" in club.words("ann")
    club.write("ann", "new splendor with bob@example.org")
    club.serve()
    club.reply("bob", "accept")
    club.serve()
    ann, bob = club.words("ann"), club.words("bob")
    assert "+06" in ann and "UTC" in bob
    assert vocabulary("en").word("take") in ann
