"""scripts/install-service, into a staging tree (--root): the virtual environment, settings
and a secrets file with the right modes, the service's folder, a hardened unit that
systemd-analyze verifies, and the game master's command; run twice, it keeps the settings."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SCRIPT = ROOT / "scripts" / "install-service"


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


def install(stage: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), "--root", str(stage), "--from", str(ROOT), "--python",
         shutil.which("python3") or "/usr/bin/python3"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(scope="module")
def stage(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("stage")
    done = install(root)
    assert done.returncode == 0, done.stderr
    assert "nothing started" in done.stdout and "systemctl enable --now referee" in done.stdout
    return root


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
    for line in ("User=referee", "NoNewPrivileges=yes", "ProtectSystem=strict",
                 "ReadWritePaths=/var/lib/referee", "RestartPreventExitStatus=78",
                 "ExecStart=/opt/referee/bin/referee serve --config /etc/referee/referee.toml",
                 "EnvironmentFile=/etc/referee/secrets.env"):  # fmt: skip
        assert re.search(rf"^{re.escape(line)}$", unit, re.MULTILINE), line
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
    assert 'exec runuser -u "referee" -- /opt/referee/bin/referee "$@"' in text


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
