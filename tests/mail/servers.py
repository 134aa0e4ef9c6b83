"""Players and a referee on real mail servers: a player's mail program (IMAP to read, SMTP to
send, as that player), and `referee serve` run as a user runs it, against a config file."""

from __future__ import annotations

import contextlib
import email
import email.policy
import imaplib
import os
import re
import signal
import smtplib
import subprocess
import sys
import time
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

import tomli_w
from imap_tools import MailBox

from referee.games import create_game
from referee.mail.herald import MailHerald
from referee.store import Store
from tests.mailservers import MailServers

ROOT = Path(__file__).parents[2]


def wait_until(
    check: Callable[[], object], what: str | Callable[[], str], timeout: float = 30.0
) -> None:
    """Poll ``check`` until it is true; fail naming ``what`` after ``timeout`` seconds (a
    function: what it says then, the logs of that moment)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"waited {timeout:g} s for {said}")
        time.sleep(0.03)


class MailProgram:
    """One player's mail program: reads their inbox over IMAPS, sends over SMTP with login."""

    def __init__(self, servers: MailServers, user: str) -> None:
        self.servers = servers
        self.user = user
        self.address = servers.address(user)
        self._box: MailBox | None = None
        self._mails: dict[int, EmailMessage] = {}

    @property
    def box(self) -> MailBox:
        if self._box is None:
            self._box = MailBox(
                "127.0.0.1", self.servers.imaps_port, ssl_context=self.servers.tls_context()
            ).login(self.address, self.servers.password(self.user))
        return self._box

    def empty(self) -> None:
        """Delete everything in the inbox (between tests)."""
        uids = self.box.uids()
        if uids:
            self.box.delete(uids)
        self._mails.clear()

    def mails(self) -> list[EmailMessage]:
        """Every mail in the inbox, oldest first (connecting again if the server dropped us)."""
        try:
            return self._mails_now()
        except (OSError, imaplib.IMAP4.error):
            self._box = None
            return self._mails_now()

    def _mails_now(self) -> list[EmailMessage]:
        self.box.folder.set("INBOX")  # a re-select shows what arrived since
        new = [uid for uid in self.box.uids() if int(uid) not in self._mails]
        for message in self.box.fetch(uid_list=new, mark_seen=False, bulk=True) if new else []:
            parsed = email.message_from_bytes(message.obj.as_bytes(), policy=email.policy.default)
            assert isinstance(parsed, EmailMessage) and message.uid is not None
            self._mails[int(message.uid)] = parsed
        return [self._mails[uid] for uid in sorted(self._mails)]

    def latest(self) -> EmailMessage:
        mails = self.mails()
        assert mails, f"no mail for {self.user}"
        return mails[-1]

    def wait_for(self, subject_part: str, timeout: float = 30.0) -> EmailMessage:
        """The newest mail whose subject holds ``subject_part`` (not followed by a digit:
        "turn 1" is not "turn 12"), once it has come."""
        found: list[EmailMessage] = []
        part = re.compile(re.escape(subject_part) + r"(?!\d)")

        def arrived() -> bool:
            found[:] = [m for m in self.mails() if part.search(str(m["Subject"]))]
            return bool(found)

        wait_until(arrived, f"mail to {self.user} about {subject_part!r}", timeout)
        return found[-1]

    def send(self, message: EmailMessage, envelope_from: str | None = None) -> None:
        """Send as this player: STARTTLS and login, as a mail program does."""
        with smtplib.SMTP("127.0.0.1", self.servers.smtp_port) as smtp:
            smtp.starttls(context=self.servers.tls_context())
            smtp.login(self.address, self.servers.password(self.user))
            smtp.send_message(
                message,
                from_addr=self.address if envelope_from is None else envelope_from,
                to_addrs=[a.addr_spec for a in message["To"].addresses],
            )

    def hand_over(self, message: EmailMessage) -> None:
        """Send as the player's provider does: its server hands the mail to the referee's MX
        (``mx_port``, no login), which delivers it to Dovecot, or keeps it until it can."""
        with smtplib.SMTP("127.0.0.1", self.servers.mx_port) as smtp:
            smtp.send_message(
                message,
                from_addr=self.address,
                to_addrs=[a.addr_spec for a in message["To"].addresses],
            )

    def deliver(self, message: EmailMessage) -> None:
        """Put the mail into the referee's mailbox past Postfix, over Dovecot's LMTP, as
        another server of the referee's own (a second MX) would while Postfix is down."""
        with smtplib.LMTP("127.0.0.1", self.servers.lmtp_port) as lmtp:
            lmtp.send_message(
                message,
                from_addr=self.address,
                to_addrs=[a.addr_spec for a in message["To"].addresses],
            )

    def send_raw(self, raw: bytes, to: str) -> None:
        """Send a message exactly as given (as another mail program wrote it)."""
        with smtplib.SMTP("127.0.0.1", self.servers.smtp_port) as smtp:
            smtp.starttls(context=self.servers.tls_context())
            smtp.login(self.address, self.servers.password(self.user))
            smtp.sendmail(self.address, [to], raw)

    def close(self) -> None:
        box, self._box = self._box, None
        if box is not None:
            with contextlib.suppress(Exception):  # the server may have gone meanwhile
                box.logout()


def folder_count(servers: MailServers, user: str, folder: str) -> int:
    """How many messages ``user`` has in ``folder`` (the referee's done, refused …)."""
    with MailBox("127.0.0.1", servers.imaps_port, ssl_context=servers.tls_context()).login(
        servers.address(user), servers.password(user)
    ) as box:
        if not box.folder.exists(folder):
            return 0
        return int(box.folder.status(folder, ["MESSAGES"])["MESSAGES"])


class Referee:
    """`referee serve --config FILE` on the servers, as a separate process."""

    def __init__(
        self,
        servers: MailServers,
        user: str,
        root: Path,
        imap_security: str = "tls",
        smtp_security: str = "starttls",
        imap: dict[str, object] | None = None,
        smtp: dict[str, object] | None = None,
        lmtp: dict[str, object] | None = None,
        **settings: object,
    ) -> None:
        """``imap``, ``smtp``: settings of that server besides (or in place of) the usual
        ones, e.g. another port or timeout. ``lmtp``: the lmtp transport's settings, in
        place of the imap transport (Postfix hands the mail over: route it there with
        ``MailServers.route_to_lmtp``)."""
        self.servers = servers
        self.user = user
        self.address = servers.address(user)
        self.games = root / "games"
        self.store = Store(self.games)
        self.log = root / "referee.log"
        self.config = root / "referee.toml"
        ports = {
            "imap": {"tls": servers.imaps_port, "starttls": servers.imap_port},
            "smtp": {"tls": servers.smtps_port, "starttls": servers.smtp_port},
        }

        def server(kind: str, security: str, given: dict[str, object] | None) -> dict[str, object]:
            return {
                "host": "127.0.0.1",
                "port": ports[kind][security],
                "security": security,
                "user": self.address,
                "ca_file": str(servers.ca_file),
                **(given or {}),
            }

        self.config.write_text(
            tomli_w.dumps(
                {
                    "address": self.address,
                    "games_dir": str(self.games),
                    **settings,
                    **(
                        {"lmtp": lmtp}
                        if lmtp is not None
                        else {"imap": server("imap", imap_security, imap)}
                    ),
                    "smtp": server("smtp", smtp_security, smtp),
                }
            )
        )
        self.process: subprocess.Popen[bytes] | None = None
        self.reads_imap = lmtp is None

    def new_game(self, game: str, players: list[str], seed: int) -> None:
        create_game(
            self.store,
            game,
            [(p, self.servers.address(p)) for p in players],
            seed=seed,
            herald=MailHerald.of(self.games),
        )

    def start(self, **passwords: str) -> None:
        """Start the service (``imap=`` or ``smtp=`` give it another password)."""
        password = self.servers.password(self.user)
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "REFEREE_SMTP__PASSWORD": passwords.get("smtp", password),
        }
        if self.reads_imap:
            env["REFEREE_IMAP__PASSWORD"] = passwords.get("imap", password)
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "referee", "serve", "--config", str(self.config)],
                env=env,
                stdout=log,
                stderr=log,
            )

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.process = None

    def stop(self) -> int:
        """Stop as systemd does (SIGTERM); the exit code."""
        if self.process is None:
            return 0
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=45)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGUSR1)  # every thread's stack, into the log
            time.sleep(1)
            self.kill()
            raise AssertionError(
                f"the service did not stop within 45 s of SIGTERM:\n{self.log_text()[-6000:]}"
            ) from None
        self.process = None
        return code

    def log_text(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def turn(self, game: str = "g1") -> int:
        return self.store.load(game).state.turn

    def quiet(self) -> bool:
        """Nothing waiting to be sent."""
        return not list((self.games / ".mail" / "outbox").glob("*.json"))


def turn_of(message: EmailMessage) -> int:
    found = re.search(r"turn (\d+)", str(message["Subject"]))
    assert found, message["Subject"]
    return int(found.group(1))
