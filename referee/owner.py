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
import re
from collections.abc import Iterator
from pathlib import Path

from referee.errors import ConfigurationError

#: The unit scripts/install-service writes: its ``User=`` is the installed service's user.
INSTALLED_UNIT = Path("/etc/systemd/system/referee.service")


def installed_user(unit: Path | None = None) -> str | None:
    """The user the installed service runs as (its unit's ``User=``), or None when no
    service is installed here (``unit``: the unit file; default INSTALLED_UNIT)."""
    try:
        text = (unit or INSTALLED_UNIT).read_text()
    except (OSError, UnicodeDecodeError):
        return None
    found = re.findall(r"^User=(\S+)\s*$", text, re.MULTILINE)
    return found[-1] if found else None


def service_user(folder: Path) -> str | None:
    """Who the service is to run as, for a hint that hands it ``folder``: whoever runs this,
    unless root; else the folder's owner, unless root; else the installed service's user;
    None when not known. Never root: a service run as root leaves files that its own user
    cannot write, and a hint to chown to root would stop the installed service."""
    me = os.geteuid()
    if me != 0:
        return user_name(me)
    try:
        owner = folder.stat().st_uid
    except OSError:
        owner = 0
    if owner != 0:
        return user_name(owner)
    return installed_user()


def hand_over(folder: Path) -> str:
    """The command that gives ``folder`` to the service's user (:func:`service_user`)."""
    user = service_user(folder)
    if user is not None:
        return f"chown -R {user}: {folder}"
    return f"chown -R USER: {folder}, USER being the user the service is to run as (not root)"


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
