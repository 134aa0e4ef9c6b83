"""The replay page of ``referee export`` in a real browser, at a phone's width and a desktop's:
it opens at the set-up, steps with its buttons and the arrow keys, jumps with its slider,
shows the board the engine has at that turn and the result at the end, and fetches nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from referee.engine import view
from referee.record import Replayed
from referee.store import Store
from tests.browser.conftest import DESKTOP, PHONE, Pages

if TYPE_CHECKING:  # Playwright missing: the fixtures say so (see conftest.py)
    from playwright.sync_api import Page

ROOT = Path(__file__).parents[2]
LAST = 112  # the example game's last turn


@pytest.fixture(scope="module")
def example() -> Replayed:
    return Store(ROOT / "games").load("example")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The example game's replay page, public and as bo saw it, made by the command itself:
    ``referee export example --html FILE --games-dir games``."""
    folder = tmp_path_factory.mktemp("export")
    files = {
        "public": folder / "example.html",
        "bo": folder / "example-bo.html",
        "bn": folder / "example-bn.html",
    }
    for who, path in files.items():
        viewer = {"public": [], "bn": ["--lang", "bn"]}.get(who, ["--as", who])
        command = ["referee", "export", "example", "--html", str(path), "--games-dir", "games"]
        done = subprocess.run(
            [sys.executable, "-m", *command, *viewer],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
    return files


def position(page: Page) -> str:
    return page.locator("#position").inner_text()


def shown_turns(page: Page) -> list[str]:
    """The turns on screen (the script shows one at a time)."""
    shown: list[str] = page.eval_on_selector_all(
        "section.turn", "all => all.filter(s => s.checkVisibility()).map(s => s.dataset.turn)"
    )
    return shown


def board_cards(page: Page) -> list[list[str]]:
    """The face-up cards on screen, level 1 to 3, slot by slot."""
    rows: list[list[str]] = [
        page.eval_on_selector_all(
            f"section.turn.current [data-level='{level}'] [data-card]",
            "tiles => tiles.map(t => t.dataset.card)",
        )
        for level in (1, 2, 3)
    ]
    return rows


def engine_cards(example: Replayed, turn: int) -> list[list[str]]:
    return [[c for c in row if c] for row in view(example.states[turn]).board]


def at_turn(page: Page, example: Replayed, turn: int) -> None:
    """The page shows turn ``turn`` and no other, with the engine's board of that turn."""
    assert position(page) == f"Turn {turn} of {LAST}"
    assert shown_turns(page) == [str(turn)]
    assert page.locator("#slider").input_value() == str(turn)
    assert board_cards(page) == engine_cards(example, turn)


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_buttons_step_through_the_turns(
    pages: Pages, exported: dict[str, Path], example: Replayed, width: int
) -> None:
    page = pages.open(exported["public"], width)
    at_turn(page, example, 0)
    assert page.get_by_role("button", name="Previous turn").is_disabled()
    assert page.get_by_role("button", name="First turn").is_disabled()
    assert "The set-up" in page.locator("section.turn.current .words").inner_text()
    page.get_by_role("button", name="Next turn").click()
    at_turn(page, example, 1)
    who = example.turns[0].player
    assert page.locator("section.turn.current .mover").inner_text() == who
    assert page.locator("section.turn.current .words").inner_text().startswith(f"{who} took ")
    page.get_by_role("button", name="Next turn").click()
    at_turn(page, example, 2)
    page.get_by_role("button", name="Last turn").click()
    at_turn(page, example, LAST)
    assert page.get_by_role("button", name="Next turn").is_disabled()
    result = page.locator("#result")
    assert result.is_visible() and "The game is over: cy wins." in result.inner_text()
    page.get_by_role("button", name="Previous turn").click()
    at_turn(page, example, LAST - 1)
    assert not result.is_visible()
    assert page.evaluate("location.hash") == f"#turn-{LAST - 1}"
    page.get_by_role("button", name="First turn").click()
    at_turn(page, example, 0)
    pages.screenshot(page, f"replay-{width}")
    assert pages.fetched == [] and pages.errors == []


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_arrow_keys_step_and_the_slider_jumps(
    pages: Pages, exported: dict[str, Path], example: Replayed, width: int
) -> None:
    page = pages.open(exported["public"], width)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    at_turn(page, example, 3)
    page.keyboard.press("ArrowLeft")
    at_turn(page, example, 2)
    page.keyboard.press("End")
    at_turn(page, example, LAST)
    page.keyboard.press("ArrowRight")  # past the end: stays
    at_turn(page, example, LAST)
    page.keyboard.press("Home")
    at_turn(page, example, 0)
    slider = page.locator("#slider")
    slider.fill("57")
    at_turn(page, example, 57)
    slider.focus()
    page.keyboard.press("ArrowRight")  # the slider's own key: one step, not two
    at_turn(page, example, 58)
    page.locator("body").click(position={"x": 2, "y": 2})
    page.keyboard.press("ArrowLeft")
    at_turn(page, example, 57)
    assert pages.fetched == [] and pages.errors == []


def test_an_address_with_a_turn_opens_at_that_turn(
    pages: Pages, exported: dict[str, Path], example: Replayed
) -> None:
    page = pages.open(exported["public"], PHONE, fragment="#turn-42")
    at_turn(page, example, 42)
    words = page.locator("section.turn.current .words")
    assert words.is_visible()  # not under the controls that stay at the top
    assert words.inner_text() == "bo reserved a level 3 card from the deck, unseen."
    controls = page.locator("nav.controls").bounding_box()
    box = words.bounding_box()
    assert (
        controls is not None and box is not None and box["y"] >= controls["y"] + controls["height"]
    )


def test_a_blind_card_shows_in_its_owners_page_only(
    pages: Pages, exported: dict[str, Path]
) -> None:
    own = pages.open(exported["bo"], DESKTOP, fragment="#turn-42")
    assert own.locator("section.turn.current [data-card='3-19']").is_visible()
    assert "you reserved a level 3 card" in own.locator("section.turn.current .words").inner_text()
    public = pages.open(exported["public"], DESKTOP, fragment="#turn-42")
    assert public.locator("[data-card='3-19']").count() == 0
    assert "3-19" not in public.content()


@pytest.mark.parametrize("width", [320, PHONE, 600, 900])
def test_the_page_fits_the_width_of_a_phone_or_a_desktop(
    pages: Pages, exported: dict[str, Path], width: int
) -> None:
    page = pages.open(exported["bo"], width, fragment=f"#turn-{LAST}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for name in ("First turn", "Previous turn", "Next turn", "Last turn"):
        button = page.get_by_role("button", name=name).bounding_box()
        assert button is not None and button["x"] >= 0 and button["x"] + button["width"] <= width


def test_dark_mode_darkens_the_page(pages: Pages, exported: dict[str, Path]) -> None:
    def background(page: Page) -> list[int]:
        colour = page.evaluate("getComputedStyle(document.body).backgroundColor")
        return [int(part) for part in colour[colour.index("(") + 1 : -1].split(",")[:3]]

    light = pages.open(exported["public"], PHONE)
    dark = pages.open(exported["public"], PHONE, dark=True)
    assert sum(background(light)) > 600 and sum(background(dark)) < 150
    text = dark.evaluate("getComputedStyle(document.querySelector('.move .words')).color")
    assert text != "rgb(34, 34, 34)"  # the page's own words turn light on the dark page
    pages.screenshot(dark, "replay-dark")


def test_without_javascript_every_turn_is_shown_in_order(
    pages: Pages, exported: dict[str, Path]
) -> None:
    page = pages.open(exported["public"], PHONE, javascript=False)
    assert shown_turns(page) == [str(n) for n in range(LAST + 1)]
    assert not page.locator("nav.controls").is_visible()
    assert page.locator("#result").is_visible()


def test_the_turn_shown_is_counted_in_the_pages_own_digits(
    pages: Pages, exported: dict[str, Path]
) -> None:
    page = pages.open(exported["bn"], PHONE)
    assert position(page) == "পালা ০ / ১১২"  # noqa: RUF001 (Bengali digits)
    page.locator("#next").click()
    assert position(page) == "পালা ১ / ১১২"  # (written by the script: Bengali digits too)
    assert shown_turns(page) == ["1"]  # (what the script counts with stays a number)
    pages.screenshot(page, "replay-bn")
    assert pages.fetched == [] and pages.errors == []
