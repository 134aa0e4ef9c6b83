"""The secrets file is data: every value exactly as written after the first "=", whatever
characters it holds; nothing in it is run, expanded or unquoted; a line that breaks the format
is refused naming its number, never its value. The service, the doctor and the game master's
command all read it through this one parser (tests/test_install_service.py runs them)."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee import secrets_file
from referee.cli import app
from referee.errors import ConfigurationError
from referee.secrets_file import FD_VARIABLE, FILE_VARIABLE, parse_secrets
from referee.settings import load_settings, secret_names

KNOWN = secret_names()
HARD = [
    "the imap password",  # the docs' own example: spaces
    "it's",  # a lone single quote
    '"quoted"',  # quotes that are part of it
    "$HOME and ${PATH} and $(id)",  # what a shell would expand or run
    "a&b; rm -rf / & echo",  # what a shell would run as a command
    "#not a comment",
    "a=b=c",  # more "=" after the first
    "back\\slash\\",
    "  spaces around  ",
    "`id`",
    "ünïcödé ✓",
]


@pytest.fixture(autouse=True)
def no_secrets_in_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in list(os.environ):
        if name.startswith("REFEREE_"):
            monkeypatch.delenv(name)
    # a descriptor handed over is the process's for its life: each test starts without one
    monkeypatch.setattr(secrets_file, "_HANDED_OVER", None)
    yield


@pytest.mark.parametrize("password", HARD)
def test_a_value_is_everything_after_the_first_equals_sign_as_written(password: str) -> None:
    data = f"REFEREE_IMAP__PASSWORD={password}\n".encode()
    (secret,) = parse_secrets(data, "secrets.env", KNOWN).values
    assert secret.value == password
    assert secret.setting == ("imap", "password")


def test_comments_blank_lines_and_windows_line_ends_are_read_as_people_write_them() -> None:
    data = (
        b"# the mail servers' passwords\r\n"
        b"\r\n"
        b"   # indented comment\n"
        b"REFEREE_IMAP__PASSWORD=one # two\r\n"
        b"REFEREE_SMTP__PASSWORD=three\n"
        b"REFEREE_SMTP__USER=splendor@example.org"  # no line end at the end
    )
    read = parse_secrets(data, "secrets.env", KNOWN)
    assert [(s.line, s.name, s.value) for s in read.values] == [
        (4, "REFEREE_IMAP__PASSWORD", "one # two"),
        (5, "REFEREE_SMTP__PASSWORD", "three"),
        (6, "REFEREE_SMTP__USER", "splendor@example.org"),
    ]
    assert read.settings(["imap", "smtp"]) == {
        "imap": {"password": "one # two"},
        "smtp": {"password": "three", "user": "splendor@example.org"},
    }
    # a password for a server the settings do not have is left out, not an error
    assert read.settings(["smtp"]) == {
        "smtp": {"password": "three", "user": "splendor@example.org"}
    }


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (b"REFEREE_IMAP__PASSWORD", "line 2 has no '='"),
        (b"export REFEREE_IMAP__PASSWORD=x", "line 2 begins with 'export'"),
        (b"REFEREE_IMAP__PASWORD=x", "'REFEREE_IMAP__PASWORD' is not a setting"),
        (b"IMAP_PASSWORD=x", "'IMAP_PASSWORD' is not a setting"),
        (b"REFEREE_IMAP__PASSWORD=\xff\xfe", "line 2 is not UTF-8 text"),
        (b"REFEREE_IMAP__PASSWORD=a\rb", "line 2 holds a NUL or a lone carriage return"),
        (b"REFEREE_SECRETS_FILE=/x", "'REFEREE_SECRETS_FILE' is not a setting"),
    ],
)
def test_a_line_that_breaks_the_format_is_refused_naming_it_and_not_its_value(
    line: bytes, said: str
) -> None:
    with pytest.raises(ConfigurationError) as caught:
        parse_secrets(b"# first\n" + line + b"\n", "/etc/referee/secrets.env", KNOWN)
    message = str(caught.value)
    assert message.startswith("the secrets file /etc/referee/secrets.env")
    assert said in message
    assert "x\n" not in message and "a\rb" not in message


def test_a_setting_given_twice_is_refused_naming_both_lines() -> None:
    data = b"REFEREE_IMAP__PASSWORD=a\nREFEREE_IMAP__PASSWORD=b\n"
    with pytest.raises(ConfigurationError, match=r"line 2 gives REFEREE_IMAP__PASSWORD again"):
        parse_secrets(data, "secrets.env", KNOWN)


def test_values_that_look_like_mistakes_are_kept_and_pointed_out() -> None:
    data = b'REFEREE_IMAP__PASSWORD="quoted"\nREFEREE_SMTP__PASSWORD=trailing \n'
    quoted, spaced = parse_secrets(data, "s", KNOWN).values
    assert quoted.value == '"quoted"' and quoted.oddities == ["is in quotes, which are part of it"]
    assert spaced.value == "trailing " and spaced.oddities == ["begins or ends with a space"]
    assert "trailing" not in repr(spaced)  # never in a log by accident


def write_config(tmp_path: Path, secrets: Path | None) -> Path:
    config = tmp_path / "referee.toml"
    line = f'secrets_file = "{secrets}"\n' if secrets else ""
    config.write_text(
        f'{line}[imap]\nhost = "imap.example.org"\nuser = "r@example.org"\npassword = "from toml"\n'
        '[smtp]\nhost = "smtp.example.org"\n'
    )
    return config


def test_the_secrets_file_comes_between_the_environment_and_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secrets = tmp_path / "secrets.env"
    secrets.write_text(f"REFEREE_IMAP__PASSWORD={HARD[3]}\nREFEREE_SMTP__PASSWORD={HARD[1]}\n")
    config = write_config(tmp_path, secrets)
    found = load_settings(config)
    assert found.imap and found.smtp and found.imap.password and found.smtp.password
    assert found.imap.password.get_secret_value() == HARD[3]  # over the config file's
    assert found.smtp.password.get_secret_value() == HARD[1]
    assert found.imap.host == "imap.example.org"  # the rest of [imap] still from the file
    monkeypatch.setenv("REFEREE_IMAP__PASSWORD", "from the environment")
    found = load_settings(config)
    assert found.imap and found.imap.password
    assert found.imap.password.get_secret_value() == "from the environment"
    monkeypatch.delenv("REFEREE_IMAP__PASSWORD")
    other = tmp_path / "other.env"
    other.write_text("REFEREE_IMAP__PASSWORD=from the unit's copy\n")
    monkeypatch.setenv(FILE_VARIABLE, str(other))  # as the systemd unit names its copy
    found = load_settings(config)
    assert found.imap and found.imap.password
    assert found.imap.password.get_secret_value() == "from the unit's copy"


def is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError as err:
        assert err.errno == errno.EBADF
        return False
    return True


@pytest.mark.parametrize("kind", ["file", "pipe"])
def test_an_open_descriptor_handed_over_is_read_once_then_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """The game master's command hands the secrets file over as descriptor 3: once read, it
    is closed (a long-running service keeps no root-only file open) and its variable is gone
    from the environment; settings read again in the process still have the secrets."""
    data = f"REFEREE_IMAP__PASSWORD={HARD[4]}\n".encode()
    if kind == "file":
        secrets = tmp_path / "secrets.env"
        secrets.write_bytes(data)
        fd = os.open(secrets, os.O_RDONLY)
    else:
        fd, writer = os.pipe()
        os.write(writer, data)
        os.close(writer)
    try:
        monkeypatch.setenv(FD_VARIABLE, str(fd))
        config = write_config(tmp_path, tmp_path / "unreadable-here.env")  # the fd wins
        for _ in range(2):  # read again, as a command may load its settings twice
            found = load_settings(config)
            assert found.imap and found.imap.password
            assert found.imap.password.get_secret_value() == HARD[4]
            assert found.secrets is not None and found.secrets.source == f"(descriptor {fd})"
            assert not is_open(fd)
            assert FD_VARIABLE not in os.environ
    finally:
        if is_open(fd):  # only when the test failed: the referee closes it
            os.close(fd)


def test_a_standard_stream_handed_over_is_left_pointing_at_dev_null(tmp_path: Path) -> None:
    """``REFEREE_SECRETS_FD=0 referee … < secrets.env``: stdin is not closed, which would let
    the next file opened take its number, but left reading nothing."""
    secrets = tmp_path / "secrets.env"
    secrets.write_text(f"REFEREE_IMAP__PASSWORD={HARD[2]}\n")
    config = write_config(tmp_path, None)
    program = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from referee.settings import load_settings\n"
        "found = load_settings(Path(sys.argv[1]))\n"
        "print(found.imap.password.get_secret_value())\n"
        "print(os.readlink('/proc/self/fd/0'), os.environ.get('REFEREE_SECRETS_FD'))\n"
    )
    with secrets.open("rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-c", program, str(config)],
            stdin=stdin, capture_output=True, text=True, check=False,
            env={**os.environ, FD_VARIABLE: "0"},
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{HARD[2]}\n/dev/null None\n"


def test_a_secrets_file_that_cannot_be_read_stops_the_service_in_one_line(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path, tmp_path / "missing.env")
    result = CliRunner().invoke(app, ["serve", "--once", "--config", str(config)])
    assert result.exit_code == 78
    assert result.stderr == (
        f"referee: the secrets file {tmp_path / 'missing.env'} cannot be read: No such file "
        f"or directory; mend secrets_file (or ${FILE_VARIABLE})\n"
    )
    bad = tmp_path / "bad.env"
    bad.write_text("REFEREE_IMAP__PASSWORD='it's\nexport X=1\n")
    config = write_config(tmp_path, bad)
    result = CliRunner().invoke(app, ["serve", "--once", "--config", str(config)])
    assert result.exit_code == 78 and result.stderr.count("\n") == 1
    assert "line 2 begins with 'export'" in result.stderr and "it's" not in result.stderr


def test_the_doctor_names_the_secrets_file_and_what_looks_wrong_in_it(tmp_path: Path) -> None:
    secrets = tmp_path / "secrets.env"
    secrets.write_text('REFEREE_IMAP__PASSWORD="pw"\nREFEREE_SMTP__PASSWORD=pw\n')
    games = tmp_path / "games"
    games.mkdir()
    config = tmp_path / "referee.toml"
    config.write_text(
        f'secrets_file = "{secrets}"\ngames_dir = "{games}"\nmail_dir = "{tmp_path / "mail"}"\n'
    )
    said = CliRunner().invoke(app, ["doctor", "--config", str(config)]).stdout
    assert f"ok       secrets from {secrets}: REFEREE_IMAP__PASSWORD (line 1), " in said
    assert (
        "note     the value of REFEREE_IMAP__PASSWORD (line 1) is in quotes, which are part of it"
        in said
    )
    assert '"pw"' not in said
