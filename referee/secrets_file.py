"""The secrets file: the mail servers' passwords, read as data, by one parser.

The installed service keeps its passwords in ``/etc/referee/secrets.env`` (mode 600, root's).
Nothing ever runs it as shell code or hands it to another parser: systemd copies its bytes to
the service (``LoadCredential=``, the unit then names the copy in ``REFEREE_SECRETS_FILE``),
and the game master's ``referee`` command, run by root, opens it and hands the open file to
the referee as the service's user (``REFEREE_SECRETS_FD``). Both end here. A descriptor
handed over is read once, then closed and its variable taken out of the environment: a
long-running ``referee serve`` does not keep root's file open (for its children, or for anyone
looking in ``/proc/PID/fd``); what it held is kept for the rest of the process, which may read
its settings more than once.

The format, line by line:

- a blank line, or one whose first character that is not a space is ``#``, says nothing;
- every other line is ``NAME=value``: NAME, a setting as the environment names it
  (``REFEREE_IMAP__PASSWORD``), then ``=``, then the value: **everything** after the first
  ``=`` up to the end of the line, exactly as written. Spaces, quotes, ``$``, ``&``, ``#``,
  ``\\`` and further ``=`` are part of the value; nothing is expanded or unquoted. A line may
  end in CR LF.

A line that breaks these rules is refused naming its number and what is wrong with it, never
its value.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from referee.errors import ConfigurationError

#: The environment variable naming an open file to read the secrets from (the wrapper's).
FD_VARIABLE = "REFEREE_SECRETS_FD"
#: The environment variable naming the secrets file (the unit's, or any game master's).
FILE_VARIABLE = "REFEREE_SECRETS_FILE"
#: A secrets file is a few lines: anything longer is not one.
MOST_BYTES = 64 * 1024

_NAME = re.compile(r"REFEREE_[A-Z0-9]+(?:__[A-Z0-9_]+)?")


@dataclass(frozen=True)
class Secret:
    """One value of a secrets file: where it was, the setting it sets, and the value."""

    line: int
    name: str  # as written: REFEREE_IMAP__PASSWORD
    value: str = field(repr=False)

    @property
    def setting(self) -> tuple[str, ...]:
        """The setting's path: ("imap", "password")."""
        return tuple(self.name.removeprefix("REFEREE_").lower().split("__"))

    @property
    def oddities(self) -> list[str]:
        """What about the value looks like a mistake (it is taken as it is all the same)."""
        odd = []
        if self.value != self.value.strip():
            odd.append("begins or ends with a space")
        if len(self.value) >= 2 and self.value[0] == self.value[-1] and self.value[0] in "'\"":
            odd.append("is in quotes, which are part of it")
        if not self.value:
            odd.append("is empty")
        return odd


@dataclass(frozen=True)
class Secrets:
    """A secrets file, read: where it came from, and its values in order."""

    source: str
    values: tuple[Secret, ...]

    def unused(self, sections: Collection[str]) -> list[Secret]:
        """The values for a section (a server) that is not among ``sections``."""
        return [s for s in self.values if len(s.setting) > 1 and s.setting[0] not in sections]

    def settings(self, sections: Collection[str]) -> dict[str, object]:
        """The values as nested settings, {"imap": {"password": "…"}}, leaving out those for
        a section (a server) the settings do not have: a password for a server that is not
        used is not used."""
        found: dict[str, object] = {}
        unused = self.unused(sections)
        for secret in self.values:
            if secret in unused:
                continue
            where: dict[str, object] = found
            *outer, last = secret.setting
            for part in outer:
                inner = where.setdefault(part, {})
                assert isinstance(inner, dict)
                where = inner
            where[last] = secret.value
        return found


def parse_secrets(data: bytes, source: str, known: set[tuple[str, ...]]) -> Secrets:
    """The secrets in ``data`` (the file ``source``), each checked against ``known`` (the
    settings there are, as paths). ConfigurationError naming the line of the first fault."""
    if len(data) > MOST_BYTES:
        raise ConfigurationError(
            f"the secrets file {source} is {len(data):,} bytes: a secrets file is a few "
            "NAME=value lines; give the right file"
        )
    found: list[Secret] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(data.split(b"\n"), start=1):
        where = f"the secrets file {source}, line {number}"
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ConfigurationError(f"{where} is not UTF-8 text: save the file as UTF-8") from None
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if "\x00" in line or "\r" in line:
            raise ConfigurationError(
                f"{where} holds a NUL or a lone carriage return, which no password may hold"
            )
        name, equals, value = line.partition("=")
        name = name.strip()
        if not equals:
            raise ConfigurationError(
                f"{where} has no '=': write NAME=value, like REFEREE_IMAP__PASSWORD=the password"
            )
        if name.startswith("export "):
            raise ConfigurationError(
                f"{where} begins with 'export': this file is not a shell script; write "
                "NAME=value alone"
            )
        path = tuple(name.removeprefix("REFEREE_").lower().split("__"))
        if not _NAME.fullmatch(name) or path not in known:
            names = ", ".join(sorted("REFEREE_" + "__".join(k).upper() for k in known))
            raise ConfigurationError(
                f"{where}: {name[:40]!r} is not a setting the secrets file can give; the "
                f"names are {names}"
            )
        if name in seen:
            raise ConfigurationError(
                f"{where} gives {name} again (line {seen[name]} gave it first): keep one"
            )
        seen[name] = number
        found.append(Secret(number, name, value))
    return Secrets(source, tuple(found))


def read_secrets(path: Path | None, known: set[tuple[str, ...]]) -> Secrets | None:
    """The secrets handed over as an open file (``$REFEREE_SECRETS_FD``, the game master's
    command does that; read once a process: :func:`take_handed_over`) or else at ``path``;
    None when there are none to read."""
    handed_over = take_handed_over()
    if handed_over is not None:
        fd, data = handed_over
        return parse_secrets(data, f"(descriptor {fd})", known)
    if path is None:
        return None
    try:
        with path.open("rb") as file:
            data = file.read(MOST_BYTES + 1)
    except PermissionError:
        raise ConfigurationError(
            f"the secrets file {path} cannot be read by this user: run the command as root "
            "(the installed referee command hands the file over), or mend secrets_file"
        ) from None
    except OSError as err:
        raise ConfigurationError(
            f"the secrets file {path} cannot be read: {err.strerror}; mend secrets_file "
            f"(or ${FILE_VARIABLE})"
        ) from None
    return parse_secrets(data, str(path), known)


#: The descriptor handed over and what it held, once read: the process's for its life.
_HANDED_OVER: tuple[int, bytes] | None = None


def take_handed_over() -> tuple[int, bytes] | None:
    """The descriptor named by ``$REFEREE_SECRETS_FD`` and all it holds, or None when none was
    handed over. The first call reads it, closes it and removes the variable from the
    environment; every later call in the process gets what that one read."""
    global _HANDED_OVER
    if _HANDED_OVER is not None:
        return _HANDED_OVER
    fd_text = os.environ.get(FD_VARIABLE, "").strip()
    if not fd_text:
        return None
    if not fd_text.isdigit():
        raise ConfigurationError(
            f"{FD_VARIABLE}={fd_text[:20]!r} is not a file descriptor (a number)"
        )
    fd = int(fd_text)
    try:
        data = _read_fd(fd)
    except OSError as err:
        raise ConfigurationError(
            f"the secrets file handed over as descriptor {fd} cannot be read: "
            f"{err.strerror}; run the command through /usr/local/bin/referee as root"
        ) from None
    _let_go(fd)
    del os.environ[FD_VARIABLE]
    _HANDED_OVER = (fd, data)
    return _HANDED_OVER


def _read_fd(fd: int) -> bytes:
    """All of an open file, from its start (a pipe: all that is left in it)."""
    parts: list[bytes] = []
    size = 0
    try:
        while size <= MOST_BYTES:
            part = os.pread(fd, 8192, size)
            if not part:
                break
            parts.append(part)
            size += len(part)
    except OSError as err:
        if err.errno != errno.ESPIPE:
            raise
        while size <= MOST_BYTES and (part := os.read(fd, 8192)):
            parts.append(part)
            size += len(part)
    return b"".join(parts)


def _let_go(fd: int) -> None:
    """Close the descriptor read; a standard stream (0, 1, 2) is pointed at /dev/null
    instead, so that it stays a valid stream for whatever uses it next."""
    if fd > 2:
        os.close(fd)
        return
    null = os.open(os.devnull, os.O_RDWR)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)
