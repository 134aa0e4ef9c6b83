"""scripts/install-service, into a staging tree (--root): the virtual environment, settings
and a secrets file with the right modes, the service's folder, a hardened unit that
systemd-analyze verifies, and the game master's command; run twice, it keeps the settings.
It installs for a user of the test's own (--user), which this machine does not have: a game
master who installed the service (whose machine has the user `referee`) can run the tests.

And the whole road of a game master, in a sandbox (tests/sandbox.py): the staged install put
in its place, docs/mail-server.md's steps run as written (Postfix and Dovecot), a password
that no shell would leave alone, `referee doctor` through the game master's command, and a
move played by mail through those servers."""

from __future__ import annotations

import json
import os
import pwd
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from secrets import token_hex

import pytest

from tests.mailservers import ensure_installed as ensure_mail_servers
from tests.sandbox import run_in_sandbox
from tests.sandbox import usable as sandbox_unusable

ROOT = Path(__file__).parents[1]
SCRIPT = ROOT / "scripts" / "install-service"


def a_user_this_machine_does_not_have() -> str:
    while True:
        name = f"referee-test-{token_hex(3)}"
        try:
            pwd.getpwnam(name)
        except KeyError:
            return name


#: The service's user in these tests (--user): never one this machine's users decide on.
SERVICE_USER = a_user_this_machine_does_not_have()


def ensure_systemd_analyze() -> str:
    """systemd-analyze, installed with apt-get (as the mail tests install their servers)."""
    found = shutil.which("systemd-analyze")
    if found:
        return found
    if os.geteuid() != 0:
        pytest.skip("systemd-analyze is missing, and only root may install it")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "systemd"],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    found = shutil.which("systemd-analyze")
    assert found, "systemd-analyze is still missing after installing systemd"
    return found


# the system's Python, as on a real machine (the service's user can run it, unlike a Python
# under root's home)
PYTHON = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else "python3"


def install(stage: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), "--root", str(stage), "--from", str(ROOT), "--python",
         shutil.which(PYTHON) or PYTHON, "--user", SERVICE_USER, *options],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(scope="module")
def stage() -> Iterator[Path]:
    # a folder every user may pass through: the service's user runs the staged referee
    root = Path(tempfile.mkdtemp(prefix="referee-stage-"))
    root.chmod(0o755)
    try:
        done = install(root)
        assert done.returncode == 0, done.stderr
        (root / "installer-said.txt").write_text(done.stdout)
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_the_service_user_is_referee_unless_another_is_given() -> None:
    """These tests install for a user of their own; the installer's default stays pinned."""
    assert re.search(r'^SERVICE_USER="referee"$', SCRIPT.read_text(), re.MULTILINE)
    said = subprocess.run([str(SCRIPT), "--help"], capture_output=True, text=True)
    assert said.returncode == 0 and "--user NAME (default referee)" in said.stdout


@pytest.mark.parametrize("name", ["two words", "a$(id)", "-r", "x" * 32])
def test_a_user_name_that_is_not_one_is_refused_before_anything_is_installed(
    tmp_path: Path, name: str
) -> None:
    """The name is written into a shell script and a unit: a space or a $ would break them."""
    done = install(tmp_path, "--user", name)
    assert done.returncode != 0
    assert "install-service: --user" in done.stderr and list(tmp_path.iterdir()) == []


def test_the_installer_says_what_to_do_next_with_systemd_and_without(stage: Path) -> None:
    said = (stage / "installer-said.txt").read_text()
    assert "nothing started" in said and "systemctl enable --now referee" in said
    assert "Where systemd does not run" in said
    assert re.search(r"^\s+4\. referee serve\s+# as root: the service in the foreground", said,
                     re.MULTILINE)  # fmt: skip
    assert f"run as {SERVICE_USER} with the service's settings" in said
    assert f"# {SERVICE_USER} with its settings and passwords" in said
    assert "sudo" not in said


def test_the_service_is_installed_with_its_settings_secrets_and_folder(stage: Path) -> None:
    config = stage / "etc" / "referee" / "referee.toml"
    secrets = stage / "etc" / "referee" / "secrets.env"
    assert mode(config) == 0o640 and mode(secrets) == 0o600
    assert 'games_dir = "/var/lib/referee/games"' in config.read_text()
    assert re.search(r"^REFEREE_IMAP__PASSWORD=$", secrets.read_text(), re.MULTILINE)
    assert re.search(r"^REFEREE_SMTP__PASSWORD=$", secrets.read_text(), re.MULTILINE)
    assert mode(stage / "var" / "lib" / "referee") == 0o750
    assert (stage / "usr" / "share" / "doc" / "referee" / "mail.md").is_file()
    referee = stage / "opt" / "referee" / "bin" / "referee"
    games = stage / "var" / "lib" / "referee" / "games"
    shown = subprocess.run(
        [str(referee), "games", "--games-dir", str(games)], capture_output=True, text=True
    )
    assert shown.returncode == 0 and "No games yet" in shown.stdout


def test_the_unit_is_hardened_and_systemd_finds_nothing_wrong_with_it(stage: Path) -> None:
    unit = (stage / "etc" / "systemd" / "system" / "referee.service").read_text()
    for line in (f"User={SERVICE_USER}", f"Group={SERVICE_USER}", "NoNewPrivileges=yes",
                 "ProtectSystem=strict",
                 "ReadWritePaths=/var/lib/referee", "RestartPreventExitStatus=78",
                 "ExecStart=/opt/referee/bin/referee serve --config /etc/referee/referee.toml",
                 "LoadCredential=secrets.env:/etc/referee/secrets.env",
                 "Environment=REFEREE_SECRETS_FILE=%d/secrets.env"):  # fmt: skip
        assert re.search(rf"^{re.escape(line)}$", unit, re.MULTILINE), line
    # systemd's own parser would unquote and strip the passwords: it is never given them
    assert "EnvironmentFile" not in unit
    analyze = ensure_systemd_analyze()
    units = stage / "usr" / "lib" / "systemd" / "system"  # the targets the unit names
    if not units.exists():
        shutil.copytree("/usr/lib/systemd/system", units, symlinks=True)
    checked = subprocess.run(
        [analyze, "verify", f"--root={stage}", "/etc/systemd/system/referee.service"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert checked.returncode == 0 and checked.stdout + checked.stderr == "", checked.stderr
    review = subprocess.run(
        [analyze, "security", "--offline=true", f"--root={stage}",
         "/etc/systemd/system/referee.service"],
        capture_output=True, text=True,
    )  # fmt: skip
    exposure = re.search(r"Overall exposure level for referee\.service: ([\d.]+)", review.stdout)
    assert exposure and float(exposure.group(1)) < 3.0, review.stdout[-500:]


def test_the_game_masters_command_runs_as_the_service_user(stage: Path) -> None:
    wrapper = stage / "usr" / "local" / "bin" / "referee"
    assert mode(wrapper) == 0o755
    assert subprocess.run(["sh", "-n", str(wrapper)]).returncode == 0
    text = wrapper.read_text()
    assert "export REFEREE_CONFIG=/etc/referee/referee.toml" in text
    user = SERVICE_USER
    assert f"setpriv --reuid={user} --regid={user} --init-groups --no-new-privs" in text
    assert f'if [ "$(id -un)" = "{user}" ]; then' in text
    assert f"export HOME=/var/lib/referee USER={user} LOGNAME={user}" in text
    assert f"run this as root, or as {user}" in text
    assert not re.search(r"(\b(reuid|regid|USER|LOGNAME)=|as )referee(?![\w-])", text)
    assert 'exec $as_service_user -- /opt/referee/bin/referee "$@"' in text
    # the secrets file is handed over open, never run: no ". file", no "source file"
    assert 'referee "$@" 3< /etc/referee/secrets.env' in text
    assert not re.search(r"(^|[;&|]\s*)(\.|source)\s+\S*secrets", text, re.MULTILINE)


def test_installing_again_keeps_the_settings_and_secrets(stage: Path) -> None:
    config = stage / "etc" / "referee" / "referee.toml"
    secrets = stage / "etc" / "referee" / "secrets.env"
    config.write_text(config.read_text() + "# mine\n")
    secrets.write_text("REFEREE_IMAP__PASSWORD=s3cret\n")
    again = install(stage)
    assert again.returncode == 0, again.stderr
    assert "keeping" in again.stdout
    assert config.read_text().endswith("# mine\n") and "s3cret" in secrets.read_text()
    assert mode(secrets) == 0o600


# -- a game master's whole road, in a sandbox ---------------------------------------------------

#: A password no shell would leave alone: spaces, both quotes, $, &, #, =, ;, a backquote and
#: a backslash, around the edges too.
HARD_PASSWORD = ' it\'s "$HOME" & #not a comment = yes; `id` \\ '
#: The doc's values (its first step), as this test gives them.
VALUES = {
    "DOMAIN": "club.test",
    "MAILHOST": "mail.club.test",
    "REFEREE": "splendor",
    "GAME_MASTER": "gm@club.test",
    "OWN_CERT": "yes",  # the club's way: a certificate of its own, trusted by ca_file
    "CERT": "/etc/ssl/club/cert.pem",
    "KEY": "/etc/ssl/club/key.pem",
}


def doc_steps() -> list[str]:
    """The shell steps of docs/mail-server.md's "Your own Postfix and Dovecot", in order."""
    text = (ROOT / "docs" / "mail-server.md").read_text()
    section = text.split("## Your own Postfix and Dovecot", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^```sh\n(.*?)^```", section, re.MULTILINE | re.DOTALL)


def test_the_mail_server_doc_sets_the_same_values_this_test_gives() -> None:
    values = doc_steps()[0]
    assert re.findall(r"^([A-Z_]+)=", values, re.MULTILINE) == list(VALUES)


REPLY = """
import smtplib, sys
from email.message import EmailMessage
from pathlib import Path
from referee.mail.reading.routing import player_key, reply_address
games = Path("/var/lib/referee/games")
secret = bytes.fromhex((games / ".mail" / "secret").read_text().strip())
key = player_key(secret, "g1", 0, "alice@players.example")
to = reply_address("splendor@club.test", "g1", 0, key)
mail = EmailMessage()
mail["From"], mail["To"], mail["Subject"] = "Alice <alice@players.example>", to, "Re: g1"
mail["Message-ID"] = "<alice.1@players.example>"
mail.set_content("take red green blue\\n\\nSent from my iPhone\\n")
with smtplib.SMTP("mail.club.test", 25) as smtp:  # as the internet's servers deliver
    smtp.send_message(mail)
print("== replied to", to)
"""


@pytest.mark.skipif(sandbox_unusable() is not None, reason=str(sandbox_unusable()))
def test_a_game_master_follows_the_docs_to_a_service_that_plays_by_mail(stage: Path) -> None:
    """install-service, docs/mail-server.md's steps as written (a certificate of the club's
    own, which only the referee's ca_file trusts), a secrets file with a hard password read by
    the game master's command and by the service as the unit runs it, the doctor's checks and
    round trip, and a move by mail through Postfix and Dovecot; all as the installed service's
    user, which the sandbox makes."""
    ensure_mail_servers()
    secrets = stage / "etc" / "referee" / "secrets.env"
    secrets.write_bytes(
        b"# the mailbox's password, as typed into doveadm pw\n"
        + f"REFEREE_IMAP__PASSWORD={HARD_PASSWORD}\n".encode()
        + f"REFEREE_SMTP__PASSWORD={HARD_PASSWORD}\r\n".encode()  # an editor's CR LF
    )
    (stage / "reply.py").write_text(REPLY)
    values = "".join(f"{name}={shlex.quote(value)}\n" for name, value in VALUES.items())
    user = SERVICE_USER
    steps = doc_steps()
    script = f"""
# -- the machine: the staged install in its places, the service's user, a name without DNS
mkdir -p /var/lib/referee
mount -t tmpfs tmpfs /opt && mkdir /opt/referee && mount --bind "$STAGE/opt/referee" /opt/referee
mount --bind "$STAGE/var/lib/referee" /var/lib/referee
mount -t tmpfs tmpfs /usr/local/bin && cp "$STAGE/usr/local/bin/referee" /usr/local/bin/
cp -a "$STAGE/etc/referee" /etc/referee
useradd --system --user-group --home-dir /var/lib/referee --no-create-home {user}
chown -R {user}:{user} /var/lib/referee
chown root:{user} /etc/referee/referee.toml  # as install-service does where the user exists
echo "127.0.0.1 mail.club.test" >> /etc/hosts  # docs/mail-server.md, "A club's own machine"

# -- docs/mail-server.md, step by step, its values as this test gives them
{values}
{"".join(steps[1:])}
echo "== the doc's steps are done"

# -- the service, as the game master runs it (no systemd here)
referee new g1 --player alice=alice@players.example --player bob=bob@players.example --seed 7
referee serve --once
"$PYTHON" "$STAGE/reply.py"
sleep 1
referee serve --once
referee log g1 --json > "$SANDBOX/log.json"
echo "== the game's folder belongs to $(stat -c %U /var/lib/referee/games/g1)"
referee serve &  # the service in the foreground, as the installer says to run it here
serving=$!
for _ in $(seq 300); do
    grep -q '"state": "running"' /var/lib/referee/games/.mail/status.json && break
    sleep 0.1
done
kill -TERM "$serving"  # as a container's stop does
code=0; wait "$serving" || code=$?
echo "== the foreground service stopped with status $code"
grep -q '"state": "stopped"' /var/lib/referee/games/.mail/status.json

# -- the unit's way: systemd's copy of the secrets file (LoadCredential), named to the service
install -d -m 0500 -o {user} /run/credentials/referee.service
install -m 0400 -o {user} /etc/referee/secrets.env /run/credentials/referee.service/secrets.env
runuser -u {user} -- env -u REFEREE_SECRETS_FD REFEREE_CONFIG=/etc/referee/referee.toml \\
    REFEREE_SECRETS_FILE=/run/credentials/referee.service/secrets.env \\
    /opt/referee/bin/referee doctor --no-mail
echo "== all done"
"""
    workdir = Path(tempfile.mkdtemp(prefix="referee-sandbox-"))
    try:
        os.environ["STAGE"] = str(stage)
        os.environ["PYTHON"] = sys.executable
        done = run_in_sandbox(
            script, workdir, stdin=f"{HARD_PASSWORD}\n{HARD_PASSWORD}\n".encode(), timeout=900
        )
        said = done.stdout.decode(errors="replace")
        assert done.returncode == 0, said[-6000:]
        assert "== the doc's steps are done" in said
        assert f"== the game's folder belongs to {SERVICE_USER}\n" in said
        assert said.count("All is well.") == 2, said[-4000:]
        assert "a mail to splendor+doctor." in said and "arrived in INBOX" in said
        assert "logged in as splendor@club.test" in said
        log = json.loads((workdir / "log.json").read_text())["log"]
        turns = [entry for entry in log if entry["event"] == "turn"]
        assert [(t["player"], t["move"]) for t in turns] == [("alice", "take blue green red")]
        assert turns[0]["source"]["kind"] == "mail"
        assert "== the foreground service stopped with status 0" in said
        assert "== all done" in said
    finally:
        os.environ.pop("STAGE", None)
        os.environ.pop("PYTHON", None)
        shutil.rmtree(workdir, ignore_errors=True)
