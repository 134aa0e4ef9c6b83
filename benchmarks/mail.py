"""The referee service through real mail servers: throughput and reply-to-board latency.

Starts Postfix and Dovecot on loopback ports (tests/mailservers.py; installs them with
apt-get if missing), creates GAMES two-player games, runs `referee serve` against them, and
plays: each game's player to move replies (over SMTP, as a person's mail program does) as
soon as the board of the turn is in both players' mailboxes. Prints:

- moves per second the service sustains with GAMES games in flight;
- the latency of a move: from SMTP accepting the player's reply to the new board being in
  every player's IMAP mailbox (the time Dovecot delivered it, from its maildir file name),
  median and 95th percentile, both with GAMES games in flight and with one game alone.

    python benchmarks/mail.py [--games 50] [--moves 10]
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
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from referee.engine import Buy, legal_moves
from referee.store import Store
from tests.mail.players import humanise, reply_message
from tests.mail.servers import Referee, turn_of
from tests.mailservers import MailServers

DELIVERED = re.compile(r"^(\d+)\.M(\d+)P")
HEADERS = BytesHeaderParser(policy=email.policy.default)


@dataclass
class Mailbox:
    """A player's inbox read straight from Dovecot's maildir: each mail's delivery time (its
    seconds and microseconds are in the maildir file's name), turn and file."""

    path: Path
    known: set[str] = field(default_factory=set)
    boards: dict[int, tuple[float, Path]] = field(default_factory=dict)

    def refresh(self) -> None:
        for folder in ("new", "cur"):
            where = self.path / folder
            if not where.is_dir():
                continue
            for entry in where.iterdir():
                if entry.name in self.known:
                    continue
                stamp = DELIVERED.match(entry.name)
                assert stamp, entry.name
                with open(entry, "rb") as source:
                    head = HEADERS.parsebytes(source.read(4096).split(b"\r\n\r\n")[0])
                self.known.add(entry.name)
                subject = str(head["Subject"])
                if "move not played" not in subject:
                    delivered = int(stamp[1]) + int(stamp[2]) / 1e6
                    self.boards.setdefault(turn_of(head), (delivered, entry))

    def board(self, turn: int) -> tuple[float, Path] | None:
        return self.boards.get(turn)


@dataclass
class Game:
    name: str
    players: list[str]
    turn: int = 0
    sent_at: float | None = None
    moves: int = 0


def run(servers: MailServers, root: Path, games: int, moves: int, seed: int) -> dict[str, float]:
    users = [f"p{n:03d}" for n in range(2 * games)]
    referee = Referee(servers, "referee", root, poll_seconds=300)
    store = Store(referee.games)
    table = [Game(f"g{n:02d}", users[2 * n : 2 * n + 2]) for n in range(games)]
    for game in table:
        referee.new_game(game.name, game.players, seed=seed + int(game.name[1:]))
    boxes = {user: Mailbox(servers.maildir(user)) for user in users}
    rng = random.Random(seed)
    latencies: list[float] = []
    referee.start()
    smtp = smtplib.SMTP("127.0.0.1", servers.smtp_port)
    started = time.monotonic()
    first_send = last_board = 0.0
    try:
        while any(g.moves < moves for g in table):
            if time.monotonic() - started > 600:
                raise RuntimeError(f"no progress; see {referee.log}")
            progressed = False
            for game in table:
                if game.moves >= moves:
                    continue
                for player in game.players:  # look only in the mailboxes still waiting
                    if boxes[player].board(game.turn) is None:
                        boxes[player].refresh()
                boards = [boxes[p].board(game.turn) for p in game.players]
                if any(b is None for b in boards):
                    continue
                delivered = max(b[0] for b in boards if b)
                if game.sent_at is not None:
                    latencies.append(delivered - game.sent_at)
                    game.moves += 1
                    last_board = max(last_board, delivered)
                    game.sent_at = None
                    if game.moves >= moves:
                        continue
                state = store.load(game.name).state
                if state.status == "finished":
                    game.moves = moves
                    continue
                mover = state.player.name
                board = boards[game.players.index(mover)]
                assert board is not None
                legal = legal_moves(state)
                move = rng.choice([m for m in legal if isinstance(m, Buy)] or legal)
                address = servers.address(mover)
                message = email.message_from_bytes(
                    board[1].read_bytes(), policy=email.policy.default
                )
                assert isinstance(message, EmailMessage)
                reply = reply_message(
                    message,
                    address,
                    humanise(move, state, rng),
                    message_id=f"<{game.name}.{game.turn}.{time.time_ns()}@{mover}.example.org>",
                )
                smtp.send_message(reply, from_addr=address)
                game.sent_at = time.time()
                first_send = first_send or game.sent_at
                game.turn += 1
                progressed = True
            if not progressed:
                time.sleep(0.03)
    finally:
        smtp.quit()
        service_cpu = _cpu_seconds(referee.process.pid) if referee.process else 0.0
        referee.stop()
    played = sum(g.moves for g in table)
    return {
        "moves": played,
        "seconds": last_board - first_send,
        "median": statistics.median(latencies),
        "p95": statistics.quantiles(latencies, n=20)[-1],
        "service_cpu": service_cpu,
    }


def _cpu_seconds(pid: int) -> float:
    """CPU time (user and system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games in flight (default 50)")
    parser.add_argument("--moves", type=int, default=10, help="moves per game (default 10)")
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()
    users = ["referee", *(f"p{n:03d}" for n in range(2 * options.games))]
    with MailServers(users) as servers:
        print(f"Postfix and Dovecot on loopback; {options.games} games, {options.moves} moves each")
        for label, games, moves in [
            (f"{options.games} games in flight", options.games, options.moves),
            ("one game alone", 1, 20),
        ]:
            with tempfile.TemporaryDirectory() as root:
                figures = run(servers, Path(root), games, moves, options.seed)
            print(
                f"{label}: {figures['moves']:.0f} moves in {figures['seconds']:.1f} s = "
                f"{figures['moves'] / figures['seconds']:.1f} moves/s; reply to board in "
                f"every mailbox: median {figures['median'] * 1000:.0f} ms, "
                f"95th percentile {figures['p95'] * 1000:.0f} ms; the service used "
                f"{figures['service_cpu'] / figures['moves'] * 1000:.0f} ms of CPU a move"
            )
            for box in servers.root.joinpath("mail").iterdir():  # fresh mailboxes for the next
                for folder in ("new", "cur"):
                    for mail in (box / "Maildir" / folder).glob("*"):
                        mail.unlink()


if __name__ == "__main__":
    main()
