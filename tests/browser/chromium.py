"""The browser the browser tests drive: Debian's ``chromium`` package, through Playwright.

Playwright's own browser downloads are never used (``playwright install`` is never run):
Playwright launches the system's Chromium, headless, sandbox off (the tests run as root in
CI), nothing fetched in the background. ``scripts/test`` installs the package on first use,
as root (``python -m tests.browser.chromium``); so does the first browser test, like the mail
servers of ``tests/mailservers.py``.

Environment:

``REFEREE_CHROMIUM``
    the Chromium executable (default ``/usr/bin/chromium``, else ``chromium`` on the PATH);
``REFEREE_SKIP_BROWSER_TESTS=1``
    skip the browser tests when Chromium or Playwright is missing, instead of failing them
    (for a machine where neither can be installed; CI never sets it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

DEFAULT = Path("/usr/bin/chromium")
PACKAGE = "chromium"
#: Fonts the pages are checked in: Noto, with Noto Sans Bengali (the Bengali letters).
FONTS = "fonts-noto-core"
FONT_FILE = Path("/usr/share/fonts/truetype/noto/NotoSansBengali-Regular.ttf")

#: Headless, no sandbox (root in CI), nothing fetched or synchronised in the background.
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def skip_allowed() -> bool:
    """Whether the browser tests may be skipped when Chromium or Playwright is missing."""
    return os.environ.get("REFEREE_SKIP_BROWSER_TESTS", "").strip() not in ("", "0")


def executable() -> Path | None:
    """The Chromium to drive, if there is one."""
    given = os.environ.get("REFEREE_CHROMIUM", "").strip()
    if given:
        path = Path(given)
        return path if path.is_file() and os.access(path, os.X_OK) else None
    if DEFAULT.is_file():
        return DEFAULT
    found = shutil.which("chromium")
    return Path(found) if found else None


def missing() -> str:
    """Why there is no browser to test with, and what to do about it."""
    given = os.environ.get("REFEREE_CHROMIUM", "").strip()
    where = (
        f"REFEREE_CHROMIUM={given} is not an executable file"
        if given
        else (f"{DEFAULT} is missing")
    )
    return (
        f"the browser tests need Chromium, and {where}: run scripts/test as root (it installs "
        f"Debian's {PACKAGE} package), or apt-get install {PACKAGE}, or point REFEREE_CHROMIUM "
        "at a Chromium"
    )


def ensure_installed() -> Path | None:
    """Chromium, installed with apt-get when it is missing and this runs as root (as in CI);
    None when it is missing and cannot be installed here."""
    found = executable()
    wanted = [] if FONT_FILE.is_file() else [FONTS]
    if found is None and not os.environ.get("REFEREE_CHROMIUM", "").strip():
        wanted.append(PACKAGE)
    if not wanted or os.geteuid() != 0 or shutil.which("apt-get") is None:
        return found
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", *wanted],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    return executable()


def main() -> int:
    """``python -m tests.browser.chromium``: install Chromium unless it is there (as root);
    say where it is, or why the browser tests will fail."""
    if executable() is None and not os.environ.get("REFEREE_CHROMIUM", "").strip():
        print(f"== installing {PACKAGE} for the browser tests (apt-get)", flush=True)
    if not FONT_FILE.is_file():
        print(f"== installing {FONTS} (Bengali letters) for the browser tests", flush=True)
    try:
        found = ensure_installed()
    except (OSError, subprocess.CalledProcessError) as err:
        print(f"could not install {PACKAGE}: {err}", file=sys.stderr)
        found = None
    if found is None:  # not fatal here: the browser tests fail, saying the same
        print(f"warning: {missing()}; or set REFEREE_SKIP_BROWSER_TESTS=1", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
