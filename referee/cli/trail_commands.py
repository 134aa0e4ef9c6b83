"""``referee trail``: one game's mail, in and out, with what came of each (for disputes)."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from referee.cli.common import (
    GAME_MASTER,
    Config,
    Game,
    GamesDir,
    Json,
    app,
    echo,
    field,
    guard,
    print_json,
    store,
)
from referee.errors import RequestError
from referee.games import log_entries
from referee.mail.state.spool import Spool
from referee.mail.state.trail import KEPT_FROM_OTHERS, KEPT_PER_PLAYER, Trail, in_time_order
from referee.record import Replayed
from referee.store import Store

PlayerOption = Annotated[
    str | None,
    typer.Option("--player", metavar="NAME", help="Only this player's mail and letters."),
]
MailOption = Annotated[
    str | None,
    typer.Option(
        "--mail",
        metavar="ID",
        help="Print that mail as it arrived (its trail id): byte for byte into a file or a "
        "pipe, its control characters shown as escapes on a terminal.",
    ),
]


@app.command(rich_help_panel=GAME_MASTER)
def trail(
    game: Game,
    player: PlayerOption = None,
    mail: MailOption = None,
    games_dir: GamesDir = None,
    config: Config = None,
    as_json: Json = False,
) -> None:
    """Show every mail about a game that arrived, and every letter that left, in time order.

    For each: when, who, what was read, and what came of it (played, refused and why, stale,
    ignored). It is the record to settle a dispute with."""

    def run() -> None:
        games = store(config, games_dir)
        replayed = games.load(game)
        kept = Trail(games.root)
        if mail is not None:
            raw = kept.raw(game, mail)
            if raw is None:
                ids = ", ".join(e["id"] for e in kept.entries(game) if e["direction"] == "in")
                raise RequestError(
                    f"game {game} kept no mail {mail!r} (its mails: {ids or 'none'}); "
                    f"'referee trail {game}' lists them"
                )
            if sys.stdout.isatty():  # shown, not obeyed: its bytes are a stranger's
                echo(raw.decode("utf-8", "surrogateescape"), nl=False)
            else:  # into a file or a pipe: byte for byte, as it arrived
                sys.stdout.buffer.write(raw)
                sys.stdout.flush()
            return
        logged = log_entries(games, game, replayed)
        entries = trail_of(games, game, replayed, player, logged)
        if as_json:
            print_json(entries)
            return
        rollbacks = [e for e in logged if e["event"] == "rollback"]
        _print(game, entries, kept.over_cap(game), replayed, player, rollbacks)

    guard(as_json, run)


def trail_of(
    games: Store,
    game: str,
    replayed: Replayed,
    player: str | None,
    logged: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """The trail's entries, and the letters still waiting in the outbox, oldest first; only
    ``player``'s (by name) when given (``logged``: the game's log, for their addresses)."""
    entries = Trail(games.root).entries(game)
    for body in Spool(games.root, create=False).outbox.waiting():
        letter = body["letter"]
        if letter.get("game") != game:
            continue
        entries.append(
            {
                "at": body.get("queued_at") or "",
                "direction": "out",
                "address": letter.get("to"),
                "message_id": None,
                "subject": None,
                "kind": letter.get("kind"),
                "ruling": "waiting",
                "turn": letter.get("turn"),
                "queued_at": body.get("queued_at"),
                "tries": body.get("attempts", 0),
                "error": body.get("error"),
                "id": body["id"],
            }
        )
    if player is not None:
        seats = [p for p in replayed.record.players if p.name.lower() == player.lower()]
        if not seats:
            names = ", ".join(p.name for p in replayed.record.players)
            raise RequestError(f"game {game} has no player {player!r} (its players: {names})")
        name = seats[0].name
        addresses = {seats[0].email.lower()} | {
            str(e["was"]).lower()
            for e in logged
            if e["event"] == "amendment" and e["player"] == name
        }  # every address the player has had: the mails in dispute may be from the old one
        entries = [e for e in entries if str(e.get("address", "")).lower() in addresses]
    return sorted(entries, key=in_time_order)


def _print(
    game: str,
    entries: list[dict[str, Any]],
    over: dict[str, Any] | None,
    replayed: Replayed,
    player: str | None,
    rollbacks: list[dict[str, Any]],
) -> None:
    mails = sum(1 for e in entries if e["direction"] == "in")
    whose = f" of {player}" if player else ""
    echo(
        f"Mail trail{whose} of game {game}: {mails} mail(s) in, {len(entries) - mails} "
        f"letter(s) out.\nKept: every mail that played a turn, and up to {KEPT_PER_PLAYER} "
        f"mails from each player, {KEPT_FROM_OTHERS} from anyone else."
    )
    if over:
        echo(
            f"{over.get('count')} more mail(s) came beyond that cap, from {over.get('first')} "
            f"to {over.get('last')}: judged, and counted here, not kept."
        )
    turns = [] if player else [(t.at.isoformat(), t) for t in replayed.turns]
    lines: list[tuple[str, str]] = []
    for at, turn in turns:
        if turn.source.kind != "mail":
            source = turn.source.describe()
            lines.append((at, f"{at[:19]}  TURN {turn.turn:>3} {turn.player}: "
                              f"{turn.move.text}  [{source}]"))  # fmt: skip
    for r in [] if player else rollbacks:
        at = str(r["at"])
        lines.append((at, f"{at[:19]}  ROLLBACK to turn {r['to']} ({r['undone']} undone): "
                          f"{field(r['reason'])}"))  # fmt: skip
    for e in entries:
        lines.append((str(e.get("at", "")), _entry_lines(e)))
    for _at, text in sorted(lines, key=lambda pair: pair[0]):
        echo(text)
    if mails:
        echo(f"A mail as it arrived: referee trail {game} --mail ID")


def _entry_lines(e: dict[str, Any]) -> str:
    at = str(e.get("at", ""))[:19] or "(not yet)".ljust(19)
    if e["direction"] == "in":
        ruling, why = str(e.get("ruling")), str(e.get("why"))
        said = why if why.startswith(f"{ruling}:") else f"{ruling}: {why}"
        if ruling == "played" and why.startswith("turn"):
            said = f"played {why}"  # "played turn 4: ann take ..."
        answered = e.get("answers_turn")
        to = f", answering the board of turn {answered}" if answered is not None else ""
        text = [
            f"{at}  IN   [{e['id']}] from {field(e.get('address') or '(no sender)')}: "
            f"{field(said)}",
            f"{'':21}Message-ID {field(e.get('message_id'))}{to}",
        ]
        if e.get("dated") or e.get("received"):
            text.append(
                f"{'':21}dated {field(e.get('dated') or '(none)')}; received by the mail "
                f"server {field(e.get('received') or '(no stamp)')}"
            )
        text.extend(f"{'':21}| {field(line)}" for line in e.get("lines") or [])
        return "\n".join(text)
    tries = e.get("tries") or 0
    tried = f", {tries} tr{'y' if tries == 1 else 'ies'}" if tries else ""
    error = f" ({field(e['error'])})" if e.get("error") else ""
    subject = f' "{field(e["subject"])}"' if e.get("subject") else ""
    queued = f", queued {str(e['queued_at'])[:19]}" if e.get("queued_at") else ""
    return (
        f"{at}  OUT  [{e['id']}] to {e.get('address')}: {e.get('ruling')}{tried}{error}, "
        f"turn {e.get('turn')}{subject}{queued}"
    )
