"""Take the screenshots in docs/screenshots/ (run it as ``scripts/screenshots``): the replay
page of the example game (``referee export example --html``) at a phone's width and a
desktop's, the HTML board mail a player gets, at the same widths, and that board mail in
each other language at a phone's width. In the headless Chromium the browser tests use
(Debian's package, through Playwright)."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from referee.mail.judging.telling import letters_for_turn
from referee.store import Store
from referee.wording.vocabulary import languages
from referee.wording.writer import Reader, Writer
from tests.browser import chromium

ROOT = Path(__file__).resolve().parents[1]
PHONE = {"width": 360, "height": 760}
DESKTOP = {"width": 1000, "height": 800}
#: The example game's turn 57: ana buys 1-12, the slot is refilled (both highlighted).
REPLAY_TURN = 57
#: The board mail bo gets after turn 57, his move awaited.
MAIL_TURN, MAIL_TO = 57, "bo"


def shoot(
    browser: Browser, address: str, size: dict[str, int], out: Path, full: bool, turn: int = 0
) -> None:
    """A PNG of the page at ``address`` (the replay page at ``turn``, when given)."""
    context = browser.new_context(viewport={"width": size["width"], "height": size["height"]})
    page: Page = context.new_page()
    page.goto(address)
    if turn:
        page.locator("#slider").fill(str(turn))
        page.locator("#slider").blur()
        page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(out), full_page=full)
    print(f"{out}  {out.stat().st_size // 1024} KB")
    context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    out: Path = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    executable = chromium.ensure_installed()
    if executable is None:
        print(f"scripts/screenshots: {chromium.missing()}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="referee-screenshots-") as temporary:
        folder = Path(temporary)
        page = folder / "example.html"
        export = ["export", "example", "--html", str(page), "--games-dir", str(ROOT / "games")]
        subprocess.run(
            [sys.executable, "-m", "referee", *export],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        game = Store(ROOT / "games").load("example")
        letter = next(m for m in letters_for_turn(game, MAIL_TURN) if m.name == MAIL_TO)
        boards: dict[str, Path] = {}
        for language in languages():
            mail = Writer().reading(Reader(language)).write(letter)
            assert mail.html is not None
            boards[language] = folder / f"board-mail-{language}.html"
            boards[language].write_text(mail.html, encoding="utf-8")
        board = boards["en"]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(executable), args=chromium.ARGS, headless=True
            )
            replay = page.as_uri()
            shoot(browser, replay, PHONE, out / "replay-phone.png", False, REPLAY_TURN)
            shoot(browser, replay, DESKTOP, out / "replay-desktop.png", True, REPLAY_TURN)
            shoot(browser, board.as_uri(), PHONE, out / "board-mail-phone.png", full=True)
            shoot(browser, board.as_uri(), DESKTOP, out / "board-mail-desktop.png", full=True)
            for language, other in boards.items():
                if language != "en":
                    shot = out / f"board-mail-{language}-phone.png"
                    shoot(browser, other.as_uri(), PHONE, shot, full=True)
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
