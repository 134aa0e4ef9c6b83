"""A game moved from one worker's games folder to another's (``referee relocate``,
docs/scaling.md): its folder (record, turns, amendments, mail trail) and the mail state kept
about it beside the games (its players' threads, the ledger's notes), so that the worker
keeping it now goes on where the other stopped: the same keys (the workers share one routing
secret), the same threads, no move played twice.

It is done only while no service serves the folder it leaves and nothing handed over waits
there to be judged. The game appears whole at its new place or not at all (copied under a
hidden name, flushed, then renamed): a worker taking mail for it meanwhile refuses with 451
until it is there. The folder it leaves is not deleted but set aside, in ``.relocated/``.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from referee.errors import ConfigurationError, RequestError
from referee.mail.state.mailfiles import files
from referee.mail.state.service_lock import ServiceLock
from referee.mail.state.spool import GAME_NOTES
from referee.store import Store, fsync_dir

#: The folders of ``.mail/`` that keep mail state about one game: its players' threads and
#: the ledger's notes (those the spool clears once the game is long over). A game's files
#: there are named after it: the game id, alone or before a ``.`` (as the spool reads them).
GAME_MAIL = ("threads", *GAME_NOTES)
#: Where a games folder keeps the games relocated from it.
SET_ASIDE = ".relocated"


@dataclass(frozen=True)
class Relocated:
    """What was moved: the game's files, its mail notes, and where the old folder is."""

    files: int
    notes: int
    set_aside: Path


def relocate(
    game: str, source: Path, destination: Path, intake: Path | None, now: datetime
) -> Relocated:
    """Move ``game`` from the games folder ``source`` to ``destination``; ``intake``: the
    folder where mail handed over to the source waits (its ``inbox/`` must be empty)."""
    if source.resolve() == destination.resolve():
        raise RequestError(f"{source} is where game {game} is: give the other games folder")
    if not Store(source).has(game):
        raise RequestError(f"no game {game!r} in {source}: is it kept by another worker?")
    if (destination / game).exists():
        raise RequestError(f"{destination / game} is there already: the game is not moved")
    lock = ServiceLock(source)
    try:
        lock.hold(now)  # (and no service starts on it meanwhile)
    except ConfigurationError as err:
        raise RequestError(f"{err}; Postfix keeps its mail while it is stopped") from None
    try:
        inbox = intake / "inbox" if intake is not None else None
        waiting = sorted(inbox.glob("*.eml")) if inbox is not None else []
        if waiting:
            raise RequestError(
                f"{len(waiting)} mail(s) handed over wait in {inbox} to be judged: "
                "start the worker until they are handled, stop it, and relocate then"
            )
        destination.mkdir(parents=True, exist_ok=True)
        notes = _copy_mail_state(game, source / ".mail", destination / ".mail")
        files = _copy_game(source / game, destination, game)
        aside = source / SET_ASIDE / game
        if aside.exists():
            aside = aside.with_name(f"{game}-{now.strftime('%Y%m%dT%H%M%S')}")
        aside.parent.mkdir(exist_ok=True)
        os.rename(source / game, aside)
        fsync_dir(source)
        return Relocated(files, notes, aside)
    finally:
        lock.release()


def _copy_mail_state(game: str, source: Path, destination: Path) -> int:
    """Each note about ``game`` in ``source`` (a ``.mail`` folder) copied whole to
    ``destination``; how many."""
    copied = 0
    for folder in GAME_MAIL:
        for path in sorted(files(source / folder)):
            if path.name.split(".", 1)[0] != game:
                continue
            target = destination / folder / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            hidden = target.with_name(f".{path.name}.relocating")
            shutil.copy2(path, hidden)
            fsync_dir(hidden)  # (the file's contents)
            os.replace(hidden, target)
            copied += 1
    for folder in GAME_MAIL:
        if (destination / folder).is_dir():
            fsync_dir(destination / folder)
    return copied


def _copy_game(folder: Path, destination: Path, game: str) -> int:
    """The game's folder copied under a hidden name, flushed, then renamed into place; how
    many files it holds."""
    hidden = destination / f".relocating-{game}"
    if hidden.exists():
        shutil.rmtree(hidden)  # left by a relocation cut short: never seen as a game
    shutil.copytree(folder, hidden)
    files = 0
    for path in sorted(hidden.rglob("*")):
        if path.is_file():
            fsync_dir(path)  # (the file's contents)
            files += 1
    for path in sorted((p for p in hidden.rglob("*") if p.is_dir()), reverse=True):
        fsync_dir(path)
    fsync_dir(hidden)
    os.rename(hidden, destination / game)
    fsync_dir(destination)
    return files
