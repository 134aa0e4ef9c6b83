"""Failpoints: named instants at which a test may make the process die on the spot, to prove
that a crash there loses nothing and repeats nothing (etcd's gofail does the same).

Off unless the environment variable ``REFEREE_FAILPOINTS`` is set when the process starts,
to ``NAME=N[,NAME=N...]``: the process exits at once, with status :data:`CRASH_STATUS` and
without cleaning up (as a kill -9 would leave it), the Nth time it reaches failpoint NAME.
The points, in the order a mail meets them:

``judged``        a mail is judged; nothing of the ruling is on disk yet
``limit-noted``   the note that an error reply is owed today is written; its letter is not
``queued``        the ruling's letters are queued; the turn (or the mail's note) is not
``turn-written``  the turn file is written; the mail's "seen" note is not
``effects-done``  what a command changes (an invitation, a new game, an undo, …) is
                  written; the mail's "seen" note is not
``seen-noted``    the mail's "seen" note is written; the mail is not filed
``filed``         the mail is filed (done, refused, quarantine)
``thread-noted``  a letter's Message-ID is noted in the player's thread; it is not sent
``sent``          a letter is sent; it is not yet moved out of the outbox
"""

from __future__ import annotations

import os

#: The exit status of a process stopped at a failpoint.
CRASH_STATUS = 86


def _armed() -> dict[str, int]:
    armed: dict[str, int] = {}
    for item in os.environ.get("REFEREE_FAILPOINTS", "").split(","):
        name, _, count = item.strip().partition("=")
        if name:
            armed[name] = int(count) if count.strip().isdigit() else 1
    return armed


_ARMED = _armed()


def failpoint(name: str) -> None:
    """Die here if the failpoint ``name`` is armed and this is the time; else nothing."""
    if not _ARMED or name not in _ARMED:
        return
    _ARMED[name] -= 1
    if _ARMED[name] <= 0:
        os._exit(CRASH_STATUS)
