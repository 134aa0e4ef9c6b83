"""A game spammed through its reply address: the service's cost per spam mail, and the size
of the game's mail trail, which the cap keeps bounded (referee.mail.state.trail).

Creates one two-player game, then drops MAILS mails into the dir transport's inbox, each a
reply to the game's welcome from a stranger (MAILS // 10 different addresses), and has the
service handle them (`referee serve --once`, in this process). Prints mails per second, the
wall and CPU time a mail costs, how many mails the trail kept and counted beyond its cap,
and the trail's size on disk.

    python benchmarks/spam.py [--mails 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from referee.games import create_game
from referee.mail.herald import MailHerald
from referee.mail.state.trail import KEPT_FROM_OTHERS, KEPT_PER_PLAYER, Trail
from referee.mail.transports.directory import DirTransport
from referee.service import Service
from referee.settings import Settings
from referee.store import Store
from tests.mail.players import latest, reply_message


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mails", type=int, default=10_000, help="spam mails (default 10000)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        games_dir, mail_dir = Path(root) / "games", Path(root) / "mail"
        store = Store(games_dir, remember=True)
        players = [("ann", "ann@example.org"), ("bob", "bob@example.org")]
        create_game(store, "g1", players, seed=1, herald=MailHerald.of(games_dir))
        settings = Settings(games_dir=games_dir, mail_dir=mail_dir, address="ref@example.net")
        service = Service(settings, DirTransport(mail_dir))
        asyncio.run(service.run(once=True))  # the welcome letters
        welcome = latest(mail_dir, "ann@example.org")
        senders = max(1, options.mails // 10)
        for n in range(options.mails):
            sender = f"seller{n % senders}@spam.example"
            spam = reply_message(welcome, sender, "BUY NOW " * 40, message_id=f"<s{n}@spam>")
            (mail_dir / "inbox" / f"s{n:05d}.eml").write_bytes(bytes(spam))
        began, began_cpu = time.perf_counter(), time.process_time()
        asyncio.run(service.run(once=True))
        wall, cpu = time.perf_counter() - began, time.process_time() - began_cpu
        trail = Trail(games_dir)
        kept = len(trail.entries("g1"))
        over = (trail.over_cap("g1") or {}).get("count", 0)
        size = trail.size("g1")
    each, each_cpu = wall / options.mails * 1000, cpu / options.mails * 1000
    print(
        f"{options.mails} spam mails from {senders} addresses to one game: "
        f"{options.mails / wall:.0f} mails/s; a mail costs the service {each:.1f} ms "
        f"({each_cpu:.1f} ms of CPU)"
    )
    print(
        f"trail: {kept} entries kept (cap: {KEPT_FROM_OTHERS} from strangers, "
        f"{KEPT_PER_PLAYER} per player), {over} counted beyond the cap, {size / 1024:.0f} KiB "
        "on disk"
    )


if __name__ == "__main__":
    main()
