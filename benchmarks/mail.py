"""The referee service through real mail servers: throughput and reply-to-board latency.

Starts Postfix and Dovecot on loopback ports (tests/mailservers.py; installs them with
apt-get if missing), creates GAMES two-player games, runs `referee serve` against them, and
plays MOVES moves in each: the player to move replies over SMTP (as a mail program does,
the board quoted below the move) once the board of the turn is in both players' mailboxes.
Three runs:

- GAMES games, every reply sent the moment its board is in: the moves per second the
  service sustains (everything else on the machine — Postfix, Dovecot and the players —
  runs flat out too);
- GAMES games, replies sent at RATE a second between them: the latency of a move at that
  load, from SMTP accepting the reply to the new board being in every player's mailbox
  (the time Dovecot delivered it, from its maildir file name), median and 95th percentile;
- one game alone: the same latency with nothing else going on.

Each line also gives the CPU time the service used per move, and the maximum latency.
Each run is made twice, side by side, one way in for the replies each (``--intake``):

- ``imap``: Postfix delivers the reply to Dovecot, and the service, IDLE-ing on the mailbox,
  is told of it. Dovecot tells an IDLE-ing client of new mail 500 ms after it came (a delay
  built into Dovecot), which sets the floor of the latency when the service is waiting;
- ``lmtp``: Postfix hands the reply straight to the service (the lmtp transport,
  transport_maps), which answers once it is on disk.

The players' mailboxes are Dovecot's either way, and the letters go out through Postfix.
With ``--workers N`` the lmtp runs are made twice more, with one worker and with N workers
sharing the games (docs/scaling.md: Postfix routes each reply by the table `referee shard`
prints), the CPU a move summed over the workers.

    python benchmarks/mail.py [--games 50] [--moves 20] [--rate 20] [--intake both|lmtp|imap]
                              [--workers N]
"""

from __future__ import annotations

import argparse
import email
import email.policy
import os
import random
import re
import smtplib
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from email.header import decode_header, make_header
from email.parser import BytesHeaderParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from referee.engine import Buy, legal_moves
from referee.mail.state.spool import Spool
from referee.shards import Shards, postfix_map
from referee.store import Store
from tests.mail.players import humanise, quick_reply
from tests.mail.servers import Referee
from tests.mailservers import MailServers, free_port

DELIVERED = re.compile(r"^(\d+)\.M(\d+)P")
HEADERS = BytesHeaderParser(policy=email.policy.compat32)


@dataclass
class Mailbox:
    """A player's inbox read straight from Dovecot's maildir: each mail's delivery time (its
    seconds and microseconds are in the maildir file's name), turn and file."""

    path: Path
    known: set[str] = field(default_factory=set)
    boards: dict[int, tuple[float, Path]] = field(default_factory=dict)
    changed: dict[str, int] = field(default_factory=dict)

    def refresh(self) -> None:
        for folder in ("new", "cur"):
            where = self.path / folder
            try:
                modified = where.stat().st_mtime_ns  # a folder's time moves when a file comes
            except FileNotFoundError:
                continue
            # (files that came within a tick of the clock of the last look share its time)
            if self.changed.get(folder) == modified < time.time_ns() - 100_000_000:
                continue
            self.changed[folder] = modified
            for entry in where.iterdir():
                if entry.name in self.known:
                    continue
                stamp = DELIVERED.match(entry.name)
                assert stamp, entry.name
                with open(entry, "rb") as source:
                    head = HEADERS.parsebytes(source.read(4096).split(b"\r\n\r\n")[0])
                self.known.add(entry.name)
                subject = str(make_header(decode_header(head["Subject"])))
                turn = re.search(r"turn (\d+)", subject)
                if turn and "move not played" not in subject:
                    delivered = int(stamp[1]) + int(stamp[2]) / 1e6
                    self.boards.setdefault(int(turn[1]), (delivered, entry))

    def board(self, turn: int) -> tuple[float, Path] | None:
        return self.boards.get(turn)


@dataclass
class Game:
    name: str
    players: list[str]
    turn: int = 0
    sent_at: float | None = None
    moves: int = 0
    store: Store | None = None  # where its worker keeps it


def run(
    servers: MailServers,
    root: Path,
    games: int,
    moves: int,
    seed: int,
    rate: float | None,
    intake: str = "imap",
    workers: int = 1,
) -> dict[str, float]:
    """Play ``moves`` moves in each of ``games`` games. Each game's player to move replies
    once the board of the turn is in both players' mailboxes: at once (``rate`` None), or,
    with ``rate``, the ready games take turns so that replies go out ``rate`` a second at
    most. Replies begin once every player has their welcome mail. ``intake``: how the
    replies reach the service, ``imap`` (Dovecot's mailbox) or ``lmtp`` (handed over), to
    ``workers`` workers sharing the games (lmtp only)."""
    users = [f"p{n:03d}" for n in range(2 * games)]
    referees = serving(servers, root, intake, workers)
    table = [Game(f"g{n:02d}", users[2 * n : 2 * n + 2]) for n in range(games)]
    plan = Shards(tuple(f"w{n}:1" for n in range(workers)))
    keeper = {game.name: referees[plan.owner(game.name) - 1] for game in table}
    stores = {r.games: Store(r.games, remember=True) for r in referees}  # the players look too
    for game in table:
        keeper[game.name].new_game(game.name, game.players, seed=seed + int(game.name[1:]))
        game.store = stores[keeper[game.name].games]
    boxes = {user: Mailbox(servers.maildir(user)) for user in users}
    rng = random.Random(seed)
    latencies: list[float] = []
    ready: list[Game] = []  # games whose board is out, oldest first: their player may reply
    for referee in referees:
        referee.start()
    logs = " ".join(str(r.log) for r in referees)
    started = time.monotonic()
    while not all(boxes[u].board(0) for u in users):  # everyone has their welcome first
        if time.monotonic() - started > 120:
            raise RuntimeError(f"the welcome mails did not all come; see {logs}")
        for user in users:
            boxes[user].refresh()
        time.sleep(0.05)
    smtp = smtplib.SMTP("127.0.0.1", servers.smtp_port)
    next_reply = time.time()
    first_send = last_board = 0.0
    try:
        while any(g.moves < moves for g in table):
            if time.monotonic() - started > 600:
                raise RuntimeError(f"no progress; see {logs}")
            for game in table:
                if game.moves >= moves or game in ready:
                    continue
                for player in game.players:  # look only in the mailboxes still waiting
                    if boxes[player].board(game.turn) is None:
                        boxes[player].refresh()
                boards = [boxes[p].board(game.turn) for p in game.players]
                if any(b is None for b in boards):
                    continue
                if game.sent_at is not None:
                    delivered = max(b[0] for b in boards if b)
                    latencies.append(delivered - game.sent_at)
                    game.moves += 1
                    last_board = max(last_board, delivered)
                    game.sent_at = None
                if game.moves < moves:
                    ready.append(game)
            replied = False
            while ready and (rate is None or time.time() >= next_reply):
                game = ready.pop(0)
                if not reply(servers, smtp, game, boxes, rng):
                    game.moves = moves  # finished
                    continue
                first_send = first_send or game.sent_at or 0.0
                # (a slot missed while no game was ready is made up within a quarter second)
                next_reply = max(next_reply + 1 / rate, time.time() - 0.25) if rate else 0.0
                replied = True
            if not replied:
                time.sleep(0.01 if rate else 0.03)
    finally:
        smtp.quit()
        service_cpu = sum(_cpu_seconds(r.process.pid) for r in referees if r.process)
        for referee in referees:
            referee.stop()
    played = sum(min(g.moves, moves) for g in table)
    return {
        "moves": played,
        "seconds": last_board - first_send,
        "median": statistics.median(latencies),
        "p95": statistics.quantiles(latencies, n=20, method="inclusive")[-1],
        "max": max(latencies),
        "service_cpu": service_cpu,
    }


def serving(servers: MailServers, root: Path, intake: str, workers: int) -> list[Referee]:
    """The service (or, over lmtp, ``workers`` workers sharing the games), Postfix routed to
    it: the referee's mailbox in Dovecot, one LMTP listener, or the map of the workers."""
    servers.route_by_map("")
    if intake != "lmtp":
        servers.route_to_lmtp("referee", None)
        return [Referee(servers, "referee", root, poll_seconds=300)]
    listeners = [f"127.0.0.1:{free_port()}" for _ in range(workers)]
    sharded = {"workers": listeners} if workers > 1 else {}
    referees = []
    for number, listener in enumerate(listeners, start=1):
        folder = root / f"worker{number}"
        folder.mkdir()
        lmtp = {"listen": listener, **sharded, **({"shard": number} if sharded else {})}
        referees.append(Referee(servers, "referee", folder, poll_seconds=300, lmtp=lmtp))
    if workers == 1:
        servers.route_to_lmtp("referee", int(listeners[0].rpartition(":")[2]))
        return referees
    secret = Spool(referees[0].games).lock.secret()  # one routing secret, shared
    for other in referees[1:]:
        kept = Spool(other.games).lock.root
        kept.mkdir(parents=True, exist_ok=True)
        (kept / "secret").write_text(secret.hex() + "\n")
        (kept / "secret").chmod(0o600)
    servers.route_to_lmtp("referee", None)
    servers.route_by_map(postfix_map(servers.address("referee"), Shards(tuple(listeners))))
    return referees


def reply(
    servers: MailServers,
    smtp: smtplib.SMTP,
    game: Game,
    boxes: dict[str, Mailbox],
    rng: random.Random,
) -> bool:
    """The player to move replies to their board (a random buy when one is legal, else any
    random legal move), over SMTP; False if the game is over."""
    assert game.store is not None
    state = game.store.load(game.name).state
    if state.status == "finished":
        return False
    mover = state.player.name
    board = boxes[mover].board(game.turn)
    assert board is not None
    legal = legal_moves(state)
    move = rng.choice([m for m in legal if isinstance(m, Buy)] or legal)
    address = servers.address(mover)
    to, message = quick_reply(
        board[1].read_bytes(),
        address,
        humanise(move, state, rng),
        message_id=f"<{game.name}.{game.turn}.{time.time_ns()}@{mover}.example.org>",
    )
    smtp.sendmail(address, [to], message)
    game.sent_at = time.time()  # SMTP has accepted it
    game.turn += 1
    return True


def _cpu_seconds(pid: int) -> float:
    """CPU time (user and system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games in flight (default 50)")
    parser.add_argument("--moves", type=int, default=20, help="moves per game (default 20)")
    parser.add_argument(
        "--rate", type=float, default=20.0, help="replies a second in the paced run (default 20)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--intake",
        choices=("both", "lmtp", "imap"),
        default="both",
        help="how replies reach the service: both (side by side, the default), lmtp or imap",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="also run the lmtp runs with this many workers sharing the games (default 1)",
    )
    options = parser.parse_args()
    intakes = ["lmtp", "imap"] if options.intake == "both" else [options.intake]
    ways = [(intake, 1) for intake in intakes]
    if options.workers > 1 and "lmtp" in intakes:
        ways.insert(1, ("lmtp", options.workers))
    users = ["referee", *(f"p{n:03d}" for n in range(2 * options.games))]
    with MailServers(users) as servers:
        print(f"Postfix and Dovecot on loopback; {options.games} games, {options.moves} moves each")
        for label, games, moves, rate in [
            ("one game alone", 1, options.moves, None),
            (
                f"{options.games} games, {options.rate:g} replies/s",
                options.games,
                options.moves,
                options.rate,
            ),
            (f"{options.games} games, every reply at once", options.games, options.moves, None),
        ]:
            for intake, workers in ways:
                with tempfile.TemporaryDirectory() as root:
                    figures = run(
                        servers, Path(root), games, moves, options.seed, rate, intake, workers
                    )
                way = f"{intake}, {workers} workers" if workers > 1 else intake
                print(
                    f"{label}, {way}: {figures['moves']:.0f} moves in "
                    f"{figures['seconds']:.1f} s = {figures['moves'] / figures['seconds']:.1f} "
                    f"moves/s; reply to board in every mailbox: median "
                    f"{figures['median'] * 1000:.0f} ms, 95th percentile "
                    f"{figures['p95'] * 1000:.0f} ms, max {figures['max'] * 1000:.0f} ms; the "
                    f"service used {figures['service_cpu'] / figures['moves'] * 1000:.1f} ms of "
                    "CPU a move",
                    flush=True,
                )
                for box in servers.root.joinpath("mail").iterdir():  # fresh mailboxes
                    for folder in ("new", "cur"):
                        for mail in (box / "Maildir" / folder).glob("*"):
                            mail.unlink()


if __name__ == "__main__":
    main()
