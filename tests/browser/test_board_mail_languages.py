"""The board mail in Welsh and in Bengali, in a real browser: the page says its language, its
fixed texts and the moves are the language's, Bengali letters are drawn with a Bengali font
(Noto Sans Bengali, from the font stack), and the page still fits a phone."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from referee.mail.judging.telling import letters_for_turn
from referee.record import Replayed
from referee.store import Store
from referee.wording.translations import translations
from referee.wording.vocabulary import vocabulary
from referee.wording.writer import Reader, Writer
from tests.browser.conftest import DESKTOP, PHONE, Pages

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT = Path(__file__).parents[2]
TURN = 57


@pytest.fixture(scope="module")
def example() -> Replayed:
    return Store(ROOT / "games").load("example")


def mail_in(example: Replayed, language: str, name: str = "bo") -> str:
    letter = next(m for m in letters_for_turn(example, TURN) if m.name == name)
    written = Writer().reading(Reader(language)).write(letter)
    assert written.html is not None
    return written.html


def fonts_of(page: Page, selector: str) -> set[str]:
    """The fonts Chromium drew the text of ``selector`` with (DevTools' platform fonts)."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument")["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    used = session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return {font["familyName"] for font in used}


@pytest.mark.parametrize("language", ["cy", "bn"])
@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_board_mail_is_in_the_readers_language_and_fits(
    pages: Pages, example: Replayed, language: str, width: int
) -> None:
    page = pages.open(mail_in(example, language), width)
    assert page.evaluate("document.documentElement.lang") == language
    heading = translations(language).gettext("Game %(game)s · turn %(turn)s")
    assert heading != "Game %(game)s · turn %(turn)s"
    turn = vocabulary(language).count(TURN)  # (in the language's own digits: Bengali ৫৭)
    assert page.get_by_text(heading % {"game": "example", "turn": turn}).is_visible()
    hand = page.locator("[data-hand='bo']")
    assert hand.is_visible() and translations(language).gettext("Your hand") in hand.inner_text()
    take = vocabulary(language).word("take")
    assert page.get_by_text(take, exact=False).first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    pages.screenshot(page, f"board-mail-{language}-{width}")
    assert pages.fetched == [] and pages.errors == []


def test_bengali_is_drawn_with_a_bengali_font(pages: Pages, example: Replayed) -> None:
    page = pages.open(mail_in(example, "bn"), PHONE)
    assert "Noto Sans Bengali" in fonts_of(page, "[data-hand='bo'] td > div")
    assert "Noto Sans Bengali" in fonts_of(page, ".ref-text > p:nth-of-type(2)")  # what it says
