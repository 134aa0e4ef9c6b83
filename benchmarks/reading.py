"""What reading a reply costs: the time :func:`referee.mail.reading.reply.read_reply` takes over the
replies of tests/fixtures/replies/ (every language, as people write them), each with the
quoted board below it as a mail program quotes it.

Prints the replies read, and the microseconds a reply takes: median, 95th percentile and
mean over REPEAT passes (the first pass, which fills the word caches, not counted). Runs
against any checkout that has ``read_reply``: with ``--checkout DIR``, that checkout's code
(to set today's figures beside an older commit's in one sitting).

    python benchmarks/reading.py [--repeat 20] [--checkout DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).parents[1]
QUOTED = "\n".join(
    ["", "On Tue, 8 Dec 2026 at 11:00, Splendor referee wrote:"]
    + [f"> line {n} of the board: BANK white 3 blue 2 green 4 red 3" for n in range(30)]
)


def replies() -> list[str]:
    texts = []
    for path in sorted((HERE / "tests" / "fixtures" / "replies").glob("*.toml")):
        with path.open("rb") as file:
            texts += [r["text"] + QUOTED for r in tomllib.load(file)["reply"]]
    return texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--checkout", type=Path, default=HERE)
    args = parser.parse_args()
    sys.path.insert(0, str(args.checkout))
    from referee.mail.reading.inbound import reply_text
    from referee.mail.reading.reply import read_reply

    texts = replies()
    for text in texts:  # (the word caches filled)
        read_reply(reply_text(text))
    took: list[float] = []
    for _ in range(args.repeat):
        for text in texts:
            start = time.perf_counter()
            read_reply(reply_text(text))
            took.append(time.perf_counter() - start)
    micro = sorted(t * 1e6 for t in took)
    print(f"code: {args.checkout}")
    print(f"replies: {len(texts)}, passes: {args.repeat}")
    print(
        f"a reply: median {statistics.median(micro):.0f} µs, "
        f"p95 {micro[int(len(micro) * 0.95)]:.0f} µs, mean {statistics.fmean(micro):.0f} µs"
    )


if __name__ == "__main__":
    main()
