"""Starting the service: the transport its settings ask for, and the checks that stop it
(with exit status 78) before it writes anything: the games folder must be its own, with
nothing in it of another user."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from referee.errors import ConfigurationError
from referee.mail.transports.base import Transport
from referee.mail.transports.directory import DirTransport
from referee.mail.transports.imap import ImapTransport
from referee.mail.transports.lmtp import FolderSender, LmtpTransport
from referee.mail.transports.smtp import SmtpSender
from referee.owner import hand_over, installed_user, strangers, user_name
from referee.settings import Settings


def _dir(settings: Settings, lock: bool) -> Transport | None:
    """The dir transport: a folder of mail files (``mail_dir``)."""
    if settings.mail_dir is None:
        return None
    return DirTransport(settings.mail_dir, lock=lock)


def _imap(settings: Settings, lock: bool) -> Transport | None:
    """The imap transport: a mailbox read by IMAP (``imap``), letters by SMTP (``smtp``)."""
    if settings.imap is None or settings.smtp is None:
        return None
    return ImapTransport(
        settings.imap,
        SmtpSender(settings.smtp),
        read_ahead_below=settings.max_message_bytes,
        games=str(settings.games_dir.resolve()),
        lock=lock,
    )


def _lmtp(settings: Settings, lock: bool) -> Transport | None:
    """The lmtp transport: mail handed over by the mail server (``lmtp``); letters by SMTP,
    or (the settings ask for lmtp only so) into ``mail_dir``'s outbox."""
    if settings.lmtp is None:
        return None
    sender: SmtpSender | FolderSender
    if settings.smtp is not None:
        sender = SmtpSender(settings.smtp)
    elif settings.mail_dir is not None:
        sender = FolderSender(settings.mail_dir)
    else:
        return None
    return LmtpTransport(
        settings.lmtp,
        settings.lmtp_folder,
        sender,
        referee=settings.address,
        max_bytes=settings.max_message_bytes,
        lock=lock,
        games=settings.games_dir,
    )


#: Each transport by the name the settings give it (:attr:`Settings.transport`), and what
#: makes it from the settings (None when they lack a part it needs). A new transport is a
#: module of :mod:`referee.mail.transports` and a line here.
TRANSPORTS: dict[str, Callable[[Settings, bool], Transport | None]] = {
    "dir": _dir,
    "imap": _imap,
    "lmtp": _lmtp,
}


def make_transport(settings: Settings, lock: bool = True) -> Transport:
    """The transport the settings ask for (:data:`TRANSPORTS`); a ConfigurationError saying
    what is missing or too much when they ask for none, or for two at once.
    ``lock``: it holds its mail folder or mailbox against a second service, once checked."""
    make = TRANSPORTS.get(settings.transport or "")
    made = make(settings, lock) if make is not None else None
    if made is not None:
        return made
    if settings.mail_dir is not None:
        raise ConfigurationError(
            "both a mail folder (mail_dir) and mail servers ([imap], [smtp]) are set: "
            "keep one, or give --mail-dir to use the folder this time"
        )
    if settings.imap is not None and settings.lmtp is not None:
        raise ConfigurationError(
            "both [imap] and [lmtp] are set: mail comes in one way; keep one (docs/mail-server.md)"
        )
    if settings.smtp is None and (settings.imap is not None or settings.lmtp is not None):
        kind = "imap" if settings.imap is not None else "lmtp"
        other = " (or mail_dir: letters into its outbox/)" if kind == "lmtp" else ""
        raise ConfigurationError(
            f"the {kind} transport needs [smtp] settings too (letters go out by SMTP){other}; "
            "[smtp] is missing"
        )
    if settings.smtp is not None:
        raise ConfigurationError(
            "[smtp] is set, but no way for mail to come in: add [imap] (a mailbox the service "
            "reads) or [lmtp] (the mail server hands mail over; docs/mail-server.md)"
        )
    raise ConfigurationError(
        "no mail transport: give --mail-dir DIR for the dir transport (a folder of .eml "
        "files), or [imap] and [smtp] in the --config file (see docs/mail.md)"
    )


@contextlib.contextmanager
def usable(games: Path) -> Iterator[None]:
    """Turn a permission error on the games folder into one line saying how to mend it."""
    try:
        yield
    except PermissionError as err:
        where = err.filename or games
        raise ConfigurationError(
            f"the service cannot write {where} ({err.strerror}), in the games folder {games}: "
            f"give the folder to the service's user with {hand_over(games)}, and run the "
            "service as that user"
        ) from None


def check_folder_owner(games: Path) -> None:
    """ConfigurationError unless the service runs as the owner of its games folder; what it
    says to do never makes root the owner (the installed service runs as its own user)."""
    owner_id, me_id = games.stat().st_uid, os.geteuid()
    if owner_id == me_id:
        return
    owner, me = user_name(owner_id), user_name(me_id)
    if me_id == 0:
        installed = " (systemctl start referee, as installed)" if installed_user() == owner else ""
        raise ConfigurationError(
            f"the games folder {games} belongs to {owner}, but the service was started as "
            f"root: run it as {owner}{installed}, with runuser -u {owner} -- referee serve …, "
            f"or as root through the installed referee command; run as root, it would leave "
            f"files {owner} cannot write"
        )
    if owner_id == 0:
        raise ConfigurationError(
            f"the games folder {games} belongs to root, but the service runs as {me}: give "
            f"the folder to {me} with chown -R {me}: {games} (as root), and run game-master "
            f"commands as {me}"
        )
    raise ConfigurationError(
        f"the games folder {games} belongs to {owner}, but the service runs as {me}: run it "
        f"as {owner} (runuser -u {owner} -- referee serve …), or, if {me} is to be the "
        f"service's user, give {me} the folder with chown -R {me}: {games} (as root)"
    )


def check_strangers(games: Path) -> None:
    """ConfigurationError when something the service writes belongs to another user."""
    for path in strangers(games):
        them, me = user_name(path.stat().st_uid), user_name(os.geteuid())
        if os.geteuid() == 0:
            raise ConfigurationError(
                f"{path} belongs to {them}, but the service runs as root (a command was run "
                f"as {them}): give the folder to the service's user with {hand_over(games)}, "
                "and run the service and game-master commands as that user, not as root"
            )
        raise ConfigurationError(
            f"{path} belongs to {them}, not to {me}, who runs the service (a command was run "
            f"as {them}): give it back with chown -R {me}: {games} (as root), and run "
            f"game-master commands as {me}"
        )
