"""The commands of the mail service: run it, and see and mend what it holds."""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import os
import signal
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from referee.cli.common import (
    EXIT_CONFIG,
    MAIL_SERVICE,
    Config,
    GamesDir,
    Json,
    app,
    echo,
    field,
    games_folder,
    guard,
    print_json,
    settings,
    writer,
)
from referee.doctor import examine, report
from referee.errors import ConfigurationError, RequestError
from referee.logs import LogFormat, LogLevel, start_logging
from referee.mail.state.spool import Spool
from referee.mail.state.status import SERVERS, read_status, say_duration
from referee.owner import user_name
from referee.service import Service, make_transport, system_clock
from referee.settings import Lmtp, Settings, load_settings
from referee.store import Store
from referee.wording.messages import Message
from referee.wording.writer import Writer

outbox_app = typer.Typer(
    name="outbox",
    help="List the letters the service has yet to send, and those refused for good.",
    invoke_without_command=True,
    no_args_is_help=False,
)
app.add_typer(outbox_app, rich_help_panel=MAIL_SERVICE)


def _letter_row(body: dict[str, Any], words: Writer) -> dict[str, Any]:
    mail = body["letter"]
    subject = mail["subject"]  # worded already by an older referee, or a message
    return {
        "id": body["id"],
        "to": mail["to"],
        "game": mail["game"],
        "turn": mail["turn"],
        "subject": subject if isinstance(subject, str) else words.say(Message.from_json(subject)),
        "attempts": body.get("attempts", 0),
        "error": body.get("error"),
    }


@outbox_app.callback()
def outbox(
    context: typer.Context,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """List the letters the service has yet to send, and those refused for good."""
    if context.invoked_subcommand is not None:
        return

    def run() -> None:
        letters = Spool(games_folder(config, games_dir), create=False)
        words = writer(config, games_dir)
        waiting = [_letter_row(body, words) for body in letters.outbox.waiting()]
        failed = [_letter_row(body, words) for body in letters.outbox.failed()]
        if as_json:
            print_json({"waiting": waiting, "failed": failed})
            return
        echo(f"{len(waiting)} letter(s) waiting to be sent, {len(failed)} refused for good.")
        for title, rows in (("Waiting:", waiting), ("Refused for good:", failed)):
            if rows:
                echo(title)
            for r in rows:
                tried = ""
                if r["attempts"]:
                    tried = f", tried {r['attempts']} time(s): {field(r['error'])}"
                echo(f"  [{r['id']}] to {field(r['to'])}: {field(r['subject'])}{tried}")
        if failed:
            echo(
                "Mend the address (referee player GAME NAME --email ADDRESS) or the mail "
                "server, then: referee outbox resend ID"
            )

    guard(as_json, run)


@outbox_app.command()
def resend(
    letter: Annotated[str, typer.Argument(metavar="ID", help="The letter's id (referee outbox).")],
    to: Annotated[
        str | None,
        typer.Option("--to", help="Send it to this address (default: the player's address now)."),
    ] = None,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Queue again a letter a mail server refused for good, for the service to send."""

    def run() -> None:
        root = games_folder(config, games_dir, writes=True)
        letters = Spool(root)
        address = to
        if address is None:
            found = [b for b in letters.outbox.failed() if b["id"] == letter]
            mail = found[0]["letter"] if found else None
            if mail and mail.get("game") and mail.get("seat") is not None:
                game = Store(root).load(mail["game"])
                address = game.record.players[mail["seat"]].email
        queued = letters.outbox.resend(letter, address)
        subject = writer(config, games_dir).say(queued.subject)
        if as_json:
            print_json({"resent": letter, "to": queued.to, "subject": subject})
            return
        echo(f"Letter {letter} to {queued.to} ({subject}) is queued again; the service sends it.")

    guard(as_json, run)


inbox_app = typer.Typer(
    name="inbox",
    help="List the mails the service set aside (it could not handle them) or refused, and why.",
    invoke_without_command=True,
    no_args_is_help=False,
)
app.add_typer(inbox_app, rich_help_panel=MAIL_SERVICE)


@inbox_app.callback()
def inbox(
    context: typer.Context,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """List the mails the service set aside (it could not handle them) or refused, and why."""
    if context.invoked_subcommand is not None:
        return

    def run() -> None:
        noted = Spool(games_folder(config, games_dir), create=False).notes.aside()
        rows = [
            {k: n.get(k) for k in ("id", "kind", "at", "sender", "subject", "game", "reason")}
            | {"message_id": n.get("mail"), "folder": n.get("folder")}
            for n in noted
        ]
        if as_json:
            print_json({"mails": rows})
            return
        waiting = sum(1 for r in rows if r["kind"] == "set aside")
        echo(
            f"{waiting} mail(s) set aside, waiting for the game master; "
            f"{len(rows) - waiting} refused or ignored (newest first)."
        )
        for r in rows:
            game = f" game {field(r['game'])}:" if r["game"] else ""
            echo(
                f"  [{r['id']}] {str(r['at'])[:19]}  {r['kind']:<9} from "
                f"{field(r['sender'] or '(no sender)')}{game} {field(r['reason'])}"
            )
        if waiting:
            echo("Mend what stopped a mail set aside, then hand it back: referee inbox retry ID")

    guard(as_json, run)


@inbox_app.command()
def retry(
    mail: Annotated[str, typer.Argument(metavar="ID", help="The mail's id (referee inbox).")],
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Hand a mail set aside or refused back to the service, which reads it again."""

    def run() -> None:
        root = games_folder(config, games_dir, writes=True)
        noted = Spool(root).notes.ask_retry(mail, user_name(os.geteuid()))
        if as_json:
            print_json({"retry": mail, "message_id": noted.get("mail")})
            return
        echo(
            f"Mail {mail} from {field(noted.get('sender') or '(no sender)')} is handed back: the "
            "service moves it to its inbox and reads it again the next time it looks (within "
            "poll_seconds, if it runs)."
        )

    guard(as_json, run)


@app.command(rich_help_panel=MAIL_SERVICE)
def serve(
    config: Config = None,
    mail_dir: Annotated[
        Path | None,
        typer.Option(
            "--mail-dir",
            help="Use the dir transport on this folder (inbox, outbox …); with --lmtp, only "
            "for the letters (its outbox).",
        ),
    ] = None,
    once: Annotated[
        bool, typer.Option("--once", help="Handle what is waiting, send what is queued, exit.")
    ] = False,
    now: Annotated[
        str | None,
        typer.Option(
            "--now",
            help="With --once: run as if the clock read this ISO 8601 time (UTC unless it "
            "says otherwise).",
            show_default=False,
        ),
    ] = None,
    log_format: Annotated[
        LogFormat,
        typer.Option("--log-format", help="text: a line per event; json: a JSON object per line."),
    ] = "text",
    log_level: Annotated[
        LogLevel,
        typer.Option(
            "--log-level",
            help="info: a line per mail handled and per letter sent, and what needs you; "
            "debug: also every connection and the libraries' own lines; warning: only "
            "what needs you.",
        ),
    ] = "info",
    games_dir: GamesDir = None,
    lmtp: Annotated[
        str | None,
        typer.Option(
            "--lmtp",
            help="Take the mail the mail server hands over by LMTP, listening on HOST:PORT or "
            "unix:/path (the lmtp transport; letters go out by SMTP, the config file's smtp, "
            "or with --mail-dir DIR into DIR/outbox/).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Run the referee service: read players' replies, judge them, mail every board."""

    def run() -> None:
        clock = system_clock
        if now is not None:
            if not once:
                raise RequestError(
                    "--now needs --once: a service that keeps running uses the clock"
                )
            clock = fixed_clock(now)
        settings = load_settings(config, mail_dir=mail_dir, games_dir=games_dir)
        if mail_dir is not None:  # the command line's choice wins over the config file's
            settings = settings.model_copy(update={"imap": None, "smtp": None, "lmtp": None})
        if lmtp is not None:  # (with --mail-dir: mail in over LMTP, letters into DIR/outbox)
            settings = with_lmtp(settings, lmtp, letters_into=mail_dir)
        start_logging(log_format, log_level)
        service = Service(settings, make_transport(settings), clock)
        try:
            stopped = asyncio.run(_until_stopped(service, once))
        except KeyboardInterrupt:  # where the signals could not be given to the event loop
            stopped = True
        if stopped:
            echo("referee: stopped", err=True)

    guard(False, run, config_status=EXIT_CONFIG)


def with_lmtp(settings: Settings, listen: str, letters_into: Path | None = None) -> Settings:
    """``settings`` with the lmtp transport listening on ``listen`` (the command line's
    --lmtp), in place of a mail folder or an IMAP mailbox; with ``letters_into`` (--mail-dir)
    its letters go into that folder's outbox/ rather than to an SMTP server."""
    kept = settings.lmtp.model_dump() if settings.lmtp is not None else {}  # folder, shards
    try:
        lmtp = Lmtp(**{**kept, "listen": listen})
    except ValidationError:
        raise RequestError(
            f"--lmtp {listen!r}: give HOST:PORT (127.0.0.1:2424) or unix:/path/to/socket"
        ) from None
    if letters_into is not None:
        return settings.model_copy(
            update={"lmtp": lmtp, "imap": None, "smtp": None, "mail_dir": letters_into}
        )
    return settings.model_copy(update={"lmtp": lmtp, "imap": None, "mail_dir": None})


@app.command(rich_help_panel=MAIL_SERVICE)
def doctor(
    games_dir: GamesDir = None,
    config: Config = None,
    wait: Annotated[
        float, typer.Option("--wait", help="Seconds to wait for the test mail to arrive.")
    ] = 60.0,
    no_mail: Annotated[
        bool, typer.Option("--no-mail", help="Do not send a test mail to the referee.")
    ] = False,
) -> None:
    """Check the settings, the games folder and the mail servers, and that mail arrives.

    It prints a line for each check, and what to do about a problem; unless --no-mail, it sends
    a test mail to the referee's plus-addresses and waits for it to arrive."""

    def run() -> None:
        try:
            found_settings = settings(config, games_dir)
        except ConfigurationError as err:
            echo(f"PROBLEM  {err}\n         -> mend the config file, then run again")
            raise typer.Exit(1) from None
        found = asyncio.run(examine(found_settings, config, not no_mail, wait))
        text, ok = report(found)
        echo(text, nl=False)
        if not ok:
            raise typer.Exit(1)

    guard(False, run)


@app.command(rich_help_panel=MAIL_SERVICE)
def status(games_dir: GamesDir = None, config: Config = None, as_json: Json = False) -> None:
    """Tell whether the service is running, and what it did last and what waits for it.

    Shown: the service's mail servers, the last mail it handled and the last letter it sent,
    the letters waiting to be sent or refused for good, and the mails set aside."""

    def run() -> None:
        root = games_folder(config, games_dir)
        spool = Spool(root, create=False)
        told = read_status(spool.root / "status.json", datetime.now(UTC), spool.lock.held())
        waiting, failed = spool.outbox.waiting(), spool.outbox.failed()
        aside = [n for n in spool.notes.aside() if n.get("kind") == "set aside"]
        body = {
            "running": bool(told.get("running")),
            "service": told,
            "letters_waiting": len(waiting),
            "letters_retrying": sum(1 for w in waiting if w.get("attempts")),
            "letters_refused": len(failed),
            "mails_set_aside": len(aside),
        }
        if as_json:
            print_json(body)
            return
        for line in _status_lines(told, root):
            echo(line)
        echo(
            f"Letters: {len(waiting)} waiting to be sent ({body['letters_retrying']} being "
            f"tried again), {len(failed)} refused for good"
            + (": referee outbox" if failed or body["letters_retrying"] else ".")
        )
        echo(f"Mails set aside: {len(aside)}" + (": referee inbox" if aside else "."))

    guard(as_json, run)


def _status_lines(told: dict[str, Any], root: Path) -> list[str]:
    if not told:
        return [f"Service: has never run on the games folder {root}."]
    if told["running"]:
        lines = [
            f"Service: running since {told.get('since')} (pid {told.get('pid')}) for "
            f"{told.get('address')}; games folder {told.get('games_dir')}."
        ]
        if "silent" in told:
            lines.append(
                f"  It has not written its status for {say_duration(told['silent'])} (last "
                f"{told.get('heartbeat')}): busy, or stuck; kill -USR1 {told.get('pid')} "
                "writes what it is waiting for to its log."
            )
    else:
        lines = [
            f"Service: NOT running (last seen {told.get('heartbeat')}, "
            f"{'stopped' if told.get('state') == 'stopped' else 'gone without stopping'})."
        ]
    if told["running"]:
        lines.extend(_server_lines(told, datetime.now(UTC)))
    else:
        lines.append("Mail servers: none connected (the service is not running).")
    if told["running"] and told.get("disk"):
        lines.append(f"Games folder: {told['disk']}.")
    mail, sent = told.get("last_mail"), told.get("last_sent")
    lines.append(
        f"Last mail handled: {mail['at']}: {mail['outcome']}: {field(mail['note'])}."
        if mail
        else "Last mail handled: none since it started."
    )
    lines.append(
        f"Last letter sent: {sent['at']} to {field(sent['to'])}: {field(sent['subject'])}."
        if sent
        else "Last letter sent: none since it started."
    )
    if not told["running"]:
        lines.append("Start it: systemctl start referee (or, without systemd: referee serve).")
    return lines


def _server_lines(told: dict[str, Any], now: datetime) -> list[str]:
    """How the running service finds its mail servers: all connected, or not (it keeps
    trying); each one's state since when; then what it found when it first reached them."""
    states = {kind: told[kind] for kind in SERVERS if isinstance(told.get(kind), dict)}
    away = [kind for kind, state in states.items() if state.get("state") == "unreachable"]
    if away:
        lines = [
            f"Mail servers: {' and '.join(SERVERS[kind] for kind in away)} cannot be reached; "
            "the service keeps trying (at least every minute), and mail and letters wait "
            "meanwhile: none is lost."
        ]
    else:
        lines = [f"Mail servers: {told.get('connection', 'not checked yet')}."]
    for kind, state in states.items():
        since = str(state.get("since"))
        try:
            ago = say_duration((now - datetime.fromisoformat(since)).total_seconds())
        except ValueError:
            ago = "?"
        if kind in away:
            error = state.get("error")
            lines.append(f"  {SERVERS[kind]}: UNREACHABLE since {since} ({ago} ago): {error}")
        else:
            lines.append(f"  {SERVERS[kind]}: connected since {since}.")
    lines.extend(f"  {server}" for server in told.get("servers", []))
    return lines


def fixed_clock(text: str) -> Callable[[], datetime]:
    """A clock that always reads the ISO 8601 time ``text`` (UTC unless it says otherwise)."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise RequestError(
            f"--now {text!r} is not an ISO 8601 time: write it like 2026-12-01T09:00:00Z"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return lambda: moment


def _tell_what_waits() -> None:
    """Write what every task of the service awaits, each down its chain of awaits, to its
    log (``kill -USR1``)."""
    for task in asyncio.all_tasks():
        print(f"Task {task.get_name()}, awaiting (outermost first):", file=sys.stderr)
        awaited: Any = task.get_coro()
        while awaited is not None:
            frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "gi_frame", None)
            if frame is None:
                print(f"  {awaited!r}", file=sys.stderr)
                break
            code = frame.f_code
            print(f"  {code.co_filename}:{frame.f_lineno} in {code.co_name}", file=sys.stderr)
            awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "gi_yieldfrom", None)
    sys.stderr.flush()


async def _until_stopped(service: Service, once: bool) -> bool:
    """Run ``service`` until it ends, or until SIGTERM (systemd's stop, a container's) or
    SIGINT (Ctrl-C) stops it; True when a signal stopped it.

    A signal cancels the service's task from within the event loop, so every ``finally`` of
    the service runs (a mail being judged is recorded whole, the mailbox let go). It never
    raises from a signal handler into whatever the loop was doing at that instant: that could
    leave one of asyncio's own futures unfinished, and the service waiting on it for ever."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    signalled: list[int] = []

    def stop(signum: int) -> None:
        signalled.append(signum)
        task.cancel()

    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, stop, signum)  # not in the main thread: no
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        loop.add_signal_handler(signal.SIGUSR1, _tell_what_waits)
    with contextlib.suppress(OSError, ValueError, AttributeError):  # stderr not a file
        # what is it doing? every thread's stack (then the tasks', above): docs/mail.md
        faulthandler.register(signal.SIGUSR1, all_threads=True, chain=True)
    try:
        await service.run(once=once)
    except asyncio.CancelledError:
        if not signalled:
            raise
    return bool(signalled)
