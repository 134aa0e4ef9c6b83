"""A board mail's HTML in a real browser, at a phone's width and a desktop's: the turn, the
board the engine has, the last move highlighted, the reader's own hand; nothing fetched, no
sideways scrolling, readable in dark mode."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from referee.engine import view
from referee.mail.judging.telling import letters_for_turn
from referee.record import Replayed
from referee.store import Store
from referee.wording.writer import Writer
from tests.browser.conftest import DESKTOP, PHONE, Pages

if TYPE_CHECKING:  # Playwright missing: the fixtures say so (see conftest.py)
    from playwright.sync_api import Page

ROOT = Path(__file__).parents[2]
TURN = 57  # ana buys 1-12; 1-05 is dealt into its slot; bo is to move


@pytest.fixture(scope="module")
def example() -> Replayed:
    return Store(ROOT / "games").load("example")


def mail_to(example: Replayed, name: str) -> str:
    letter = Writer().write(next(m for m in letters_for_turn(example, TURN) if m.name == name))
    assert letter.html is not None
    return letter.html


def board_cards(page: Page) -> list[list[str]]:
    rows: list[list[str]] = [
        page.eval_on_selector_all(
            f"[data-level='{level}'] [data-card]", "tiles => tiles.map(t => t.dataset.card)"
        )
        for level in (1, 2, 3)
    ]
    return rows


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_board_mail_shows_the_turn_the_board_and_the_last_move(
    pages: Pages, example: Replayed, width: int
) -> None:
    page = pages.open(mail_to(example, "bo"), width)
    assert page.get_by_text(f"Game example · turn {TURN}").is_visible()
    assert board_cards(page) == [[c for c in row if c] for row in view(example.states[TURN]).board]
    last = page.locator(".ref-last")
    assert last.is_visible() and "Ana bought 1-12 (blue), paying nothing" in last.inner_text()
    refilled = page.locator("[data-level='1'] [data-card='1-05']")
    assert refilled.is_visible() and "new" in refilled.inner_text()
    assert page.locator("[data-level] [data-card] >> text=new").count() == 1
    hand = page.locator("[data-hand='bo']")
    assert hand.is_visible() and hand.locator("[data-card='3-19']").is_visible()  # his, blind
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    pages.screenshot(page, f"board-mail-{width}")
    assert pages.fetched == [] and pages.errors == []


def test_another_players_mail_hides_the_blind_card(pages: Pages, example: Replayed) -> None:
    html = mail_to(example, "cy")
    page = pages.open(html, PHONE)
    assert page.locator("[data-hand='cy']").is_visible()
    assert "3-19" not in html and "L3 (blind)" in page.locator("[data-player='bo']").inner_text()


@pytest.mark.parametrize("width", [320, 600, 900])
def test_the_board_mail_fits_every_width(pages: Pages, example: Replayed, width: int) -> None:
    page = pages.open(mail_to(example, "bo"), width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_in_dark_mode_the_page_goes_dark_and_the_board_stays_readable(
    pages: Pages, example: Replayed
) -> None:
    page = pages.open(mail_to(example, "bo"), PHONE, dark=True)

    def colour(selector: str, what: str) -> int:
        """The sum of the red, green and blue of a computed colour."""
        value: str = page.evaluate(f"getComputedStyle(document.querySelector({selector!r})).{what}")
        return sum(int(part) for part in value[value.index("(") + 1 : -1].split(",")[:3])

    assert colour("body", "backgroundColor") < 150
    assert colour(".ref-board", "backgroundColor") > 600 and colour(".ref-board", "color") < 150
    pages.screenshot(page, "board-mail-dark")


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_moves_to_make_follow_the_board_grouped_each_with_a_whole_move(
    pages: Pages, example: Replayed, width: int
) -> None:
    page = pages.open(mail_to(example, "bo"), width)
    choices = page.get_by_text("What you may do now")
    board = page.locator("[data-level='1']")
    assert choices.is_visible() and board.is_visible()
    assert choices.bounding_box()["y"] > board.bounding_box()["y"]  # type: ignore[index]
    assert page.get_by_text("Take any 3 of").is_visible()
    moves = page.locator("code").all_inner_texts()
    assert "take white blue green" in moves and any(m.startswith("buy ") for m in moves)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    pages.screenshot(page, f"board-mail-moves-{width}")
