"""Players for the demo: they read the referee's mail in a dir-transport folder and reply.

    python scripts/mail_players.py --mail-dir DIR --player alice@example.org ... [--seed N]

Each player watches the mail the referee writes to them (DIR/outbox). When a mail's subject
says it is their move, they pick one of the whole moves it shows under "What you may do now"
after the board (a buy when one is shown, else any), and reply as a mail program would: to
the Reply-To address, answering the mail's Message-ID, with the board quoted below. It stops
when the game is over, printing each move and the referee's answer as it goes. The players
see only their own mail.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import random
import time
from email.message import EmailMessage
from pathlib import Path


def read(path: Path) -> EmailMessage:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def body(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    return str(part.get_content()) if part is not None else ""


MOVE_WORDS = ("take ", "buy ", "reserve ", "pass")


def options(text: str) -> list[str]:
    """The whole moves a board mail shows after 'What you may do now': each group's example
    and every card to buy, as written there (they can be sent back as they are)."""
    found, listing = [], False
    for line in text.splitlines():
        if line.startswith("What you may do now"):
            listing = True
        elif listing and line.startswith("Every move you may make"):
            break
        elif listing:
            move = line.strip().removeprefix("for example:").strip()
            if move.startswith(MOVE_WORDS):
                found.append(move)
    return found


def reply(mail_dir: Path, to: EmailMessage, sender: str, text: str, number: int) -> None:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = str(to["Reply-To"])
    message["Subject"] = "Re: " + str(to["Subject"])
    message["Message-ID"] = f"<demo.{number}.{sender}>"
    message["In-Reply-To"] = str(to["Message-ID"])
    # the whole thread, oldest first, as every mail program writes it
    message["References"] = " ".join([*str(to["References"] or "").split(), str(to["Message-ID"])])
    quoted = "\n".join("> " + line for line in body(to).splitlines())
    message.set_content(f"{text}\n\nThe referee wrote:\n{quoted}\n")
    tmp = mail_dir / "inbox" / f".reply-{number}.tmp"
    tmp.write_bytes(bytes(message))
    tmp.rename(mail_dir / "inbox" / f"reply-{number:04d}.eml")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mail-dir", type=Path, required=True)
    parser.add_argument("--player", action="append", required=True, help="a player's address")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for mail")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    outbox = args.mail_dir / "outbox"
    answered: set[str] = set()
    number = 0
    waited = time.monotonic()
    while True:
        progress = False
        for path in sorted(outbox.glob("*.eml")):
            if path.name in answered:
                continue
            answered.add(path.name)
            message = read(path)
            subject = str(message["Subject"])
            to = next((p for p in args.player if p in str(message["To"])), None)
            print(f"  referee -> {to}: {subject}")
            progress = True
            if subject.startswith("Game over") and to == args.player[-1]:
                return
            if to is None or not subject.startswith("Your move"):
                continue
            choices = options(body(message))
            buys = [c for c in choices if c.startswith("buy")]
            move = rng.choice(buys or choices)
            number += 1
            print(f"{to} replies: {move}")
            reply(args.mail_dir, message, to, move, number)
        if progress:
            waited = time.monotonic()
        elif time.monotonic() - waited > args.timeout:
            raise SystemExit(f"no mail from the referee for {args.timeout:g} s: is it running?")
        time.sleep(0.05)


if __name__ == "__main__":
    main()
