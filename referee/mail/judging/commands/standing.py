"""``standings``: who is ahead among the players the sender has finished games with."""

from __future__ import annotations

from dataclasses import replace

from referee.mail.judging.commands import command
from referee.mail.judging.commands.requests import to_sender
from referee.mail.judging.ruling import Context, Ruling
from referee.standings import standings
from referee.wording.messages import Message, say


def standings_of(ctx: Context) -> tuple[int, list[Message]]:
    """The standings among the sender and everyone they finished a game with (no one else's
    results, and names, never addresses): how many games count, and a line for each."""
    me = ctx.sender.lower()
    games = ctx.seen.finishes
    mine = [g for g in games if any(p.player == me for p in g.places)]
    circle = {p.player for g in mine for p in g.places}
    lines = []
    for place, line in enumerate((s for s in standings(games) if s.player in circle), 1):
        said = {
            "place": place,
            "played": line.played,
            "won": line.won,
            "shared": line.shared,
            "resigned": line.resigned,
            "rating": round(line.rating),
        }
        if line.player == me:
            lines.append(say("standings.line.you", **said))
        else:
            lines.append(say("standings.line", name=line.name, **said))
    return len(mine), lines


@command(
    "standings",
    example="standings",
    scopes=("referee", "game"),
    order=6,
    needs=frozenset({"finishes"}),
)
def standings_(ctx: Context, argument: str) -> Ruling:
    count, lines = standings_of(ctx)
    says = [say("standings.answer", games=count) if lines else say("standings.none")]
    letter = to_sender(ctx, "standings", say("subject.standings"), says)
    if lines:
        title = say("standings.listing", count=len(lines))
        letter = replace(letter, listing=tuple(lines), listing_title=title)
    return Ruling("answered", "done", f"answered standings ({len(lines)})", letters=[letter])
