"""A fresh machine for a test, without touching this one: a shell script run in its own mount
and network namespaces (``unshare``), with a copy of ``/etc`` and of Postfix's queue folder,
empty ``/run``, ``/var/mail``, ``/var/log`` and mail servers' state, and a loopback network
of its own. What the script installs, configures and starts there is gone when it ends.

Inside, systemd does not run: ``systemctl`` is a shell function that does what the Debian
units of Postfix and Dovecot do (and what journald would keep, they log to ``/var/log``).

Needs root (as CI runs), ``unshare`` and ``ip``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

#: Copied into the sandbox, then bound over the original: the script may change them.
COPIED = ("/etc", "/var/spool/postfix")
#: Empty in the sandbox (a tmpfs over each).
EMPTIED = ("/run", "/var/mail", "/var/log", "/var/lib/postfix", "/var/lib/dovecot")

PREAMBLE = r"""
set -euo pipefail
ip link set lo up
for path in {copied}; do
    mkdir -p "$SANDBOX/fs$path"
    cp -a "$path/." "$SANDBOX/fs$path/"
    mount --bind "$SANDBOX/fs$path" "$path"
done
for path in {emptied}; do
    mount -t tmpfs -o mode=0755 tmpfs "$path"
done
chgrp mail /var/mail && chmod 2775 /var/mail  # as Debian has them
chown postfix:postfix /var/lib/postfix
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

systemctl() {{  # a stand-in for systemd: what the Debian units of Postfix and Dovecot do
    local verb="$1"; shift
    local unit
    for unit in "$@"; do
        case "$verb:$unit" in
            start:dovecot|restart:dovecot)
                doveadm stop >/dev/null 2>&1 || true
                echo "log_path = /var/log/dovecot.log" > /etc/dovecot/conf.d/99-zz-sandbox.conf
                dovecot ;;
            reload:dovecot) doveadm reload ;;
            start:postfix|restart:postfix)
                postfix stop >/dev/null 2>&1 || true
                postconf -e "maillog_file = /var/log/mail.log"
                /usr/lib/postfix/configure-instance.sh -
                postmulti -i - -p start ;;
            reload:postfix) postmulti -i - -p reload ;;
            *) echo "systemctl (the sandbox's stand-in): cannot $verb $unit" >&2; return 1 ;;
        esac
    done
}}
sandbox_logs() {{
    for log in /var/log/mail.log /var/log/dovecot.log; do
        [ -e "$log" ] && {{ echo "== $log"; tail -n 60 "$log"; }}
    done
    return 0
}}
trap 'status=$?; if [ $status != 0 ]; then sandbox_logs >&2; fi; \
      doveadm stop >/dev/null 2>&1; postfix stop >/dev/null 2>&1; exit $status' EXIT
"""


def usable() -> str | None:
    """Why a sandbox cannot be made here, or None when it can."""
    if os.geteuid() != 0:
        return "a sandbox needs root (mount and network namespaces)"
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            return f"a sandbox needs {tool}"
    return None


def run_in_sandbox(
    script: str, workdir: Path, stdin: bytes = b"", timeout: float = 600
) -> subprocess.CompletedProcess[bytes]:
    """Run ``script`` (bash) in a fresh sandbox whose copies live in ``workdir``; its output,
    standard error included, is in ``stdout``."""
    preamble = PREAMBLE.format(copied=" ".join(COPIED), emptied=" ".join(EMPTIED))
    (workdir / "script.sh").write_text(preamble + "\n" + script)
    return subprocess.run(
        ["unshare", "--mount", "--net", "--fork", "--", "bash", str(workdir / "script.sh")],
        input=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "SANDBOX": str(workdir)},
        timeout=timeout,
        check=False,
    )
