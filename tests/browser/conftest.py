"""Fixtures of the browser tests: a headless Chromium (Debian's package, see ``chromium.py``)
driven by Playwright, and pages opened in it at a given width.

    def test_something(pages: Pages) -> None:
        page = pages.open(html_text_or_path, width=360)
        ...
        pages.screenshot(page, "phone")       # tmp_path/phone.png
        assert pages.fetched == []            # nothing was asked of any network

Without Chromium or Playwright the tests fail, saying how to get them, unless
``REFEREE_SKIP_BROWSER_TESTS=1`` (then they are skipped). The browser lives as long as this
package's tests run (Playwright's sync API holds an event loop while it runs, which would stop
``asyncio.run`` in the tests that come after).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest

from tests.browser import chromium

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Route

#: Phone and desktop widths the pages are checked at.
PHONE = 360
DESKTOP = 1000


def _unavailable(why: str) -> NoReturn:
    if chromium.skip_allowed():
        pytest.skip(f"REFEREE_SKIP_BROWSER_TESTS is set, and {why}")
    pytest.fail(f"{why}; or set REFEREE_SKIP_BROWSER_TESTS=1 to skip these tests", pytrace=False)


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """A headless Chromium, for this package's tests."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable(
            "the browser tests need Playwright for Python: pip install -e '.[test]' (scripts/test "
            "does); its own browser downloads are not needed"
        )
    try:
        executable = chromium.ensure_installed()
    except Exception as err:  # apt-get failed: say so, as below
        executable = None
        print(f"could not install chromium: {err}")
    if executable is None:
        _unavailable(chromium.missing())
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(executable), args=chromium.ARGS, headless=True
        )
        yield launched
        launched.close()


class Pages:
    """Pages opened in the browser, each in a context of its own (fresh storage), with every
    request but the page's own file refused and kept in :attr:`fetched`."""

    def __init__(self, browser: Browser, folder: Path) -> None:
        self.browser = browser
        self.folder = folder
        self.contexts: list[BrowserContext] = []
        self.fetched: list[str] = []
        self.errors: list[str] = []

    def open(
        self,
        source: str | Path,
        width: int = DESKTOP,
        height: int = 800,
        *,
        dark: bool = False,
        fragment: str = "",
        javascript: bool = True,
    ) -> Page:
        """``source`` (a file, or HTML text, written to a file first) at ``width`` pixels,
        light or ``dark``; ``fragment`` like ``#turn-4`` is added to its address."""
        if isinstance(source, str):
            path = self.folder / f"page-{len(self.contexts)}.html"
            path.write_text(source, encoding="utf-8")
        else:
            path = source
        context = self.browser.new_context(
            viewport={"width": width, "height": height},
            color_scheme="dark" if dark else "light",
            java_script_enabled=javascript,
        )
        self.contexts.append(context)
        address = path.resolve().as_uri()
        context.route("**/*", lambda route: self._route(route, address))
        page = context.new_page()
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.goto(address + fragment)
        return page

    def _route(self, route: Route, address: str) -> None:
        url = route.request.url
        if url.split("#")[0] == address:
            route.continue_()
        else:
            self.fetched.append(url)
            route.abort()

    def screenshot(self, page: Page, name: str, full_page: bool = True) -> Path:
        """A PNG of ``page`` in the test's folder."""
        path = self.folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Browser, tmp_path: Path) -> Iterator[Pages]:
    """Open pages in the browser (closed after the test)."""
    opened = Pages(browser, tmp_path)
    yield opened
    opened.close()


@pytest.fixture
def page(pages: Pages) -> Page:
    """A blank page at desktop width: ``page.set_content(...)`` or ``page.goto(...)``."""
    return pages.open("<!DOCTYPE html><title>blank</title>")
