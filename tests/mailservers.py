"""Real mail servers for the tests and benchmarks: Dovecot (IMAP, and LMTP for delivery) and
Postfix (SMTP, with STARTTLS, implicit TLS and login through Dovecot; and ``mx_port``, where
other servers hand over mail without a login, as at an MX's port 25), on loopback ports, with
throw-away users, in a throw-away folder. Each server can be stopped and started again.

The packages are installed with apt-get the first time they are missing (this needs root, as
in CI). Each server runs as its own instance with its own configuration; the machine's own
mail setup is neither used nor changed.

    with MailServers(["referee", "alice", "bob"]) as servers:
        servers.smtp_port, servers.imap_port, servers.password("alice"), ...
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import random
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

DOMAIN = "example.org"
PACKAGES = ("dovecot-imapd", "dovecot-lmtpd", "postfix", "openssl")


def ensure_installed() -> None:
    """Install Dovecot, Postfix (and openssl, for a certificate) unless they are there."""
    if all(shutil.which(tool) for tool in ("dovecot", "doveadm", "postfix", "openssl")):
        return
    if os.geteuid() != 0:
        raise RuntimeError(
            "the mail tests need Dovecot and Postfix: run as root so they can be installed, "
            f"or install them: apt-get install {' '.join(PACKAGES)}"
        )
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(
        ["debconf-set-selections"],
        input=b"postfix postfix/main_mailer_type select No configuration\n",
        check=True,
    )
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *PACKAGES],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )


# Ports handed out by free_port, each held by a lock on a file in PORT_CLAIMS for as long as
# this process lives, so that two pytest-xdist workers (or two suites) never pick the same one;
# a process that dies drops its locks with it.
PORT_CLAIMS = Path(tempfile.gettempdir()) / "referee-test-ports"
_claims: dict[int, int] = {}  # port -> the descriptor holding its lock


def _unclaimed_range() -> range:
    """Ports the kernel never picks for an outgoing connection's own end.

    A port taken from the kernel's ephemeral range (bind to port 0) is free only at that
    instant: before a server binds it, any client connection may be given it as its local port,
    and the server then fails with "Address already in use". Ports below that range are only
    ever taken by someone who asks for them by number.
    """
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    if low - 10000 >= 2000:
        return range(10000, low)
    return range(61000, 65536)


def free_port() -> int:
    """A loopback port nothing listens on, claimed for this process alone."""
    PORT_CLAIMS.mkdir(mode=0o777, exist_ok=True)
    ports = _unclaimed_range()
    start = random.SystemRandom().randrange(len(ports))
    for step in range(len(ports)):
        port = ports[(start + step) % len(ports)]
        if port in _claims:
            continue
        claim = os.open(PORT_CLAIMS / f"{port}.lock", os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(claim, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(claim)
            continue
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                os.close(claim)
                continue
        _claims[port] = claim
        return port
    raise RuntimeError(f"no free loopback port in {ports.start}-{ports.stop - 1}")


def wait_for_port(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def wait_for_port_closed(port: int, timeout: float = 20.0) -> None:
    """Wait until nothing listens on ``port`` any more."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"port {port} still listens after {timeout:g} s")
        time.sleep(0.05)


class MailServers:
    """Dovecot and Postfix for ``users`` (local parts at example.org), each with a password."""

    def __init__(self, users: list[str]) -> None:
        ensure_installed()
        self.users = list(dict.fromkeys(users))
        self.root = Path(tempfile.mkdtemp(prefix="referee-mail-"))
        self.root.chmod(0o755)  # the servers' own users must reach their folders
        self.imap_port = free_port()
        self.imaps_port = free_port()
        self.lmtp_port = free_port()
        self.auth_port = free_port()
        self.smtp_port = free_port()
        self.smtps_port = free_port()
        self.mx_port = free_port()
        self.started = False
        self.routes: dict[str, int] = {}  # users whose mail goes to an LMTP listener of ours

    # -- addresses and credentials ------------------------------------------------------------

    @staticmethod
    def address(user: str) -> str:
        return f"{user}@{DOMAIN}"

    @staticmethod
    def password(user: str) -> str:
        return f"pw-{user}-not-secret"

    @property
    def ca_file(self) -> Path:
        """The self-signed certificate both servers present; trust it to verify them."""
        return self.root / "cert.pem"

    def tls_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.ca_file))

    def maildir(self, user: str) -> Path:
        """Where Dovecot keeps ``user``'s inbox (for measuring delivery times)."""
        return self.root / "mail" / user / "Maildir"

    # -- running ------------------------------------------------------------------------------

    def start(self) -> None:
        self._write_certificate()
        self._write_dovecot()
        self._write_postfix()
        self.started = True
        self.start_dovecot()
        self.start_postfix()

    def stop(self) -> None:
        if not self.started:
            return
        self.started = False
        with contextlib.suppress(RuntimeError):  # (stopped already by a test that failed)
            self._postfix("stop")
        subprocess.run(["dovecot", "-c", str(self.dovecot_conf), "stop"], check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    def kick(self, user: str) -> None:
        """Drop every IMAP connection of ``user``, as a server restart or a network cut would."""
        subprocess.run(
            ["doveadm", "-c", str(self.dovecot_conf), "kick", self.address(user)],
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def accept_mail_for(self, user: str) -> None:
        """Give ``user`` a mailbox and make Postfix accept mail for it from now on, as a game
        master mending the server would: the tables, then ``postfix reload`` (connections
        made before it go on with the old table until they close)."""
        with (self.root / "users").open("a") as users:  # Dovecot rereads it when it changes
            users.write(f"{self.address(user)}:{{PLAIN}}{self.password(user)}\n")
        with (self.postfix_dir / "recipients").open("a") as table:
            table.write(f"{self.address(user)} ok\n")
        self._postfix("reload")
        time.sleep(1.0)  # the master starts new server processes with the new table

    def route_to_lmtp(self, user: str, port: int | None) -> None:
        """Make Postfix hand the mail of ``user`` and of its plus-addresses to an LMTP
        listener on ``port`` rather than to Dovecot (None: to Dovecot again), as
        docs/mail-server.md configures the lmtp transport (a transport_maps entry for the
        bare address, which Postfix also finds for ``user+anything@``)."""
        if port is None:
            self.routes.pop(user, None)
        else:
            self.routes[user] = port
        (self.postfix_dir / "transport").write_text(
            "".join(f"{self.address(u)} lmtp:inet:127.0.0.1:{p}\n" for u, p in self.routes.items())
        )
        self._postfix("reload")
        time.sleep(1.0)  # the master starts new processes with the new table

    def route_by_map(self, table: str) -> None:
        """Make Postfix route by ``table``, a regexp transport_maps table as `referee shard`
        prints it (docs/scaling.md), before any route_to_lmtp."""
        (self.postfix_dir / "shards").write_text(table)
        self._postfix("reload")
        time.sleep(1.0)  # the master starts new processes with the new table

    def flush_queue(self) -> None:
        """Have Postfix try every deferred mail again now (``postqueue -f``)."""
        self._postfix("flush")

    def stop_dovecot(self) -> None:
        """Stop Dovecot as a service manager stops it (every process of the service told to
        end): every IMAP connection dies and none can be made. (Dovecot's own `stop` ends
        only its master: a connection's process may serve it for half a minute more.)"""
        master = (self.root / "dovecot-run" / "master.pid").read_text().strip()
        found = subprocess.run(["pgrep", "-P", master], capture_output=True, text=True)
        subprocess.run(["dovecot", "-c", str(self.dovecot_conf), "stop"], check=True)
        for pid in found.stdout.split():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGTERM)
        for port in (self.imap_port, self.imaps_port, self.lmtp_port, self.auth_port):
            wait_for_port_closed(port)

    def start_dovecot(self) -> None:
        subprocess.run(["dovecot", "-c", str(self.dovecot_conf)], check=True)
        for port in (self.imap_port, self.lmtp_port, self.auth_port):
            wait_for_port(port)

    @contextlib.contextmanager
    def dovecot_stopped(self) -> Iterator[None]:
        """Dovecot stopped for the block, and started again after it, whatever happens in
        it (the next tests need it)."""
        self.stop_dovecot()
        try:
            yield
        finally:
            self.start_dovecot()

    @contextlib.contextmanager
    def postfix_stopped(self) -> Iterator[None]:
        """Postfix stopped for the block, and started again after it, whatever happens."""
        self.stop_postfix()
        try:
            yield
        finally:
            self.start_postfix()

    def stop_postfix(self) -> None:
        """Stop Postfix: its SMTP connections die and none can be made (mail it holds for
        Dovecot stays queued, delivered once it runs again)."""
        self._postfix("stop")
        for port in (self.smtp_port, self.smtps_port, self.mx_port):
            wait_for_port_closed(port)

    def start_postfix(self) -> None:
        self._postfix("start")
        for port in (self.smtp_port, self.smtps_port, self.mx_port):
            wait_for_port(port)

    def __enter__(self) -> MailServers:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    # -- configuration ------------------------------------------------------------------------

    @property
    def dovecot_conf(self) -> Path:
        return self.root / "dovecot.conf"

    @property
    def postfix_dir(self) -> Path:
        return self.root / "postfix"

    def _postfix(self, command: str) -> None:
        # postfix reports only to a terminal or the log; keep its log for a failure's message
        done = subprocess.run(
            ["postfix", "-c", str(self.postfix_dir), command], capture_output=True, text=True
        )
        if done.returncode != 0:
            log = self.root / "postfix.log"
            text = log.read_text() if log.exists() else "(no log)"
            raise RuntimeError(f"postfix {command} failed:\n{done.stderr}{text[-3000:]}")

    def _write_certificate(self) -> None:
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-keyout", str(self.root / "key.pem"), "-out", str(self.ca_file),
                "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ],
            check=True,
            capture_output=True,
        )  # fmt: skip
        (self.root / "key.pem").chmod(0o644)

    def _write_dovecot(self) -> None:
        root = self.root
        for name in ("dovecot-run", "dovecot-state", "mail"):
            (root / name).mkdir()
        shutil.chown(root / "mail", "nobody", "nogroup")
        (root / "users").write_text(
            "".join(f"{self.address(u)}:{{PLAIN}}{self.password(u)}\n" for u in self.users)
        )
        self.dovecot_conf.write_text(f"""
protocols = imap lmtp
listen = 127.0.0.1
base_dir = {root}/dovecot-run
state_dir = {root}/dovecot-state
log_path = {root}/dovecot.log
ssl = yes
ssl_cert = <{self.ca_file}
ssl_key = <{root}/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {root}/users
}}
userdb {{
  driver = static
  args = uid=nobody gid=nogroup home={root}/mail/%n
}}
mail_uid = nobody
mail_gid = nogroup
first_valid_uid = 1
mail_location = maildir:~/Maildir
recipient_delimiter = +
lmtp_save_to_detail_mailbox = no
mail_max_userip_connections = 200
namespace inbox {{
  inbox = yes
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {self.imaps_port}
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {self.lmtp_port}
  }}
}}
service auth {{
  inet_listener {{
    address = 127.0.0.1
    port = {self.auth_port}
  }}
}}
""")

    def _write_postfix(self) -> None:
        root = self.root
        conf = self.postfix_dir
        conf.mkdir()
        (root / "postfix-queue").mkdir()
        (root / "postfix-data").mkdir()
        shutil.chown(root / "postfix-data", "postfix")
        (conf / "recipients").write_text("".join(f"{self.address(u)} ok\n" for u in self.users))
        (conf / "transport").write_text("")
        (conf / "shards").write_text("")
        (conf / "main.cf").write_text(f"""
compatibility_level = 3.6
queue_directory = {root}/postfix-queue
data_directory = {root}/postfix-data
command_directory = /usr/sbin
daemon_directory = /usr/lib/postfix/sbin
meta_directory = /etc/postfix
shlib_directory = /usr/lib/postfix
mail_owner = postfix
setgid_group = postdrop
maillog_file = {root}/postfix.log
maillog_file_prefixes = {root}
myhostname = mail.{DOMAIN}
mydomain = {DOMAIN}
myorigin = {DOMAIN}
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
biff = no
smtputf8_enable = no
# a letter deferred while a test has Dovecot stopped is tried again within seconds of its
# coming back (Postfix's defaults wait five minutes and more)
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
# logins go through Dovecot: while a test has it stopped, each smtpd that offers them dies,
# and Postfix would wait a minute before starting the next one
service_throttle_time = 1s
recipient_delimiter = +
virtual_mailbox_domains = {DOMAIN}
virtual_mailbox_maps = texthash:{conf}/recipients
virtual_transport = lmtp:inet:127.0.0.1:{self.lmtp_port}
# addresses handed to the referee's own LMTP listeners instead (route_by_map: the table
# `referee shard` prints; route_to_lmtp)
transport_maps = regexp:{conf}/shards, texthash:{conf}/transport
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated,
    reject_unauth_destination
smtpd_tls_cert_file = {self.ca_file}
smtpd_tls_key_file = {root}/key.pem
smtpd_tls_security_level = may
smtpd_tls_auth_only = yes
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:{self.auth_port}
""")
        (conf / "master.cf").write_text(f"""
127.0.0.1:{self.smtp_port} inet n - n - - smtpd
127.0.0.1:{self.smtps_port} inet n - n - - smtpd -o smtpd_tls_wrappermode=yes
127.0.0.1:{self.mx_port} inet n - n - - smtpd -o smtpd_sasl_auth_enable=no
pickup    unix  n - n 60 1 pickup
cleanup   unix  n - n - 0 cleanup
qmgr      unix  n - n 300 1 qmgr
tlsmgr    unix  - - n 1000? 1 tlsmgr
rewrite   unix  - - n - - trivial-rewrite
bounce    unix  - - n - 0 bounce
defer     unix  - - n - 0 bounce
trace     unix  - - n - 0 bounce
verify    unix  - - n - 1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n - - proxymap
smtp      unix  - - n - - smtp
relay     unix  - - n - - smtp
showq     unix  n - n - - showq
error     unix  - - n - - error
retry     unix  - - n - - error
discard   unix  - - n - - discard
lmtp      unix  - - n - - lmtp
anvil     unix  - - n - 1 anvil
scache    unix  - - n - 1 scache
postlog   unix-dgram n - n - 1 postlogd
""")


if __name__ == "__main__":  # scripts/test: install the servers before the tests run side by side
    if not all(shutil.which(tool) for tool in ("dovecot", "doveadm", "postfix", "openssl")):
        print(f"== installing {', '.join(PACKAGES)} for the mail tests (apt-get)", flush=True)
        try:
            ensure_installed()
        except RuntimeError as err:  # not root: the mail tests will say so
            print(f"== {err}", flush=True)
