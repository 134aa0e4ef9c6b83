"""Who may write a games folder: the user who owns it, and nobody else.

A game master who runs ``referee move`` as root in the service's games folder leaves files
that the service, running as its own user, can no longer write (a root-owned ``.lock``, a
root-owned ``.mail/``): the next mail fails. So every command that writes a games folder
checks first that it runs as the folder's owner, and refuses in one line that says whose the
folder is and how to run as them; the service checks the folders it writes when it starts.
"""

from __future__ import annotations

import os
import pwd
from collections.abc import Iterator
from pathlib import Path

from referee.errors import ConfigurationError


def user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"user {uid}"


def check_owner(folder: Path) -> None:
    """ConfigurationError unless this process runs as the owner of ``folder`` (a folder that
    does not exist yet is made by, and belongs to, whoever makes it)."""
    try:
        owner = folder.stat().st_uid
    except FileNotFoundError:
        return
    me = os.geteuid()
    if owner != me:
        name = user_name(owner)
        raise ConfigurationError(
            f"the games folder {folder} belongs to {name}, but this runs as {user_name(me)}: "
            f"run it as {name} (runuser -u {name} -- referee …, or as root through the "
            "installed referee command), "
            f"so that {name} can still write everything it holds"
        )


def strangers(root: Path) -> Iterator[Path]:
    """The files and folders in a games folder, down to each game's own, that the folder's
    owner does not own (left by a command run as another user)."""
    try:
        owner = root.stat().st_uid
    except FileNotFoundError:
        return
    for path in _written(root):
        try:
            if path.stat().st_uid != owner:
                yield path
        except FileNotFoundError:
            continue


def _written(root: Path) -> Iterator[Path]:
    """What the referee writes in a games folder: .mail and its folders, each game's folder,
    lock, turns and archive."""
    mail = root / ".mail"
    if mail.is_dir():
        yield mail
        yield from (p for p in mail.iterdir() if not p.name.startswith("."))
    for game in root.iterdir():
        if game.name.startswith(".") or not game.is_dir():
            continue
        yield game
        for name in (".lock", "turns", "archive", "amendments", "trail"):
            if (game / name).exists():
                yield game / name
