"""Routing replies to (game, player), and proving they come from the player.

Each (game, seat) has a key: an HMAC of the game id, seat and the player's registered
address under the service's secret, so it cannot be guessed and needs no table. The key
rides in the Reply-To of every mail to that player (plus-addressing,
``referee+g1.0.KEY@example.org``) and in our Message-IDs (``<g1.0.KEY.t0005.RANDOM@…>``), so
a reply is routed by its To address, or by In-Reply-To / References when a mail program
drops the plus part. A reply is accepted only when its key is right *and* its From is the
player's registered address.

The turn a reply answers (a reply to an older turn's mail is stale) is that of the mail
named by In-Reply-To when it is one of ours to that player; else of the newest of ours to
them in References, by turn rather than by position: real mail programs list the whole
conversation there, oldest first, the player's own earlier replies included, and some trim
or reorder it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, replace

from referee.invitations import Invitation
from referee.record import GAME_ID, GameRecord

_CONFIRM = re.compile(r"confirm\.(?P<token>[a-z2-7]{16})")
#: A confirmation of ours: ``<confirm.TOKEN.RANDOM@domain>``.
_OUR_CONFIRM = re.compile(r"<confirm\.(?P<token>[a-z2-7]{16})\.[0-9a-z]+@[^<>\s]+>")
_ROUTE = re.compile(r"(?P<game>[a-z0-9][a-z0-9_-]*)\.(?P<seat>[0-3])\.(?P<key>[a-z2-7]{16})")
#: One of our Message-IDs: the route, the turn of the mail, a random part, our domain.
_OUR_ID = re.compile(rf"<{_ROUTE.pattern}\.t(?P<turn>\d{{4,}})\.[0-9a-z]+@[^<>\s]+>")


@dataclass(frozen=True)
class Route:
    """Where a reply goes: the game, the seat, and the turn of the mail it answers (if known)."""

    game: str
    seat: int
    key: str
    turn: int | None = None


def player_key(secret: bytes, game: str, seat: int, email: str) -> str:
    """The unguessable key of one player in one game (16 base32 letters, 80 bits)."""
    mac = hmac.new(secret, f"{game}\x00{seat}\x00{email.lower()}".encode(), hashlib.sha256)
    return base64.b32encode(mac.digest()[:10]).decode().lower()


def reply_address(referee: str, game: str, seat: int, key: str) -> str:
    """The player's own address at the referee: ``local+game.seat.key@domain``."""
    local, _, domain = referee.partition("@")
    return f"{local.split('+')[0]}+{game}.{seat}.{key}@{domain}"


def message_id(
    referee: str, game: str, seat: int, key: str, turn: int, unique: str | None = None
) -> str:
    """The Message-ID of a mail to one player about ``turn``, carrying their route; ``unique``
    (lower-case letters and digits) tells it from every other mail, else a random part."""
    domain = referee.partition("@")[2] or "referee.invalid"
    return f"<{game}.{seat}.{key}.t{turn:04d}.{unique or secrets.token_hex(6)}@{domain}>"


def find_route(
    recipients: list[str], in_reply_to: list[str], references: list[str], referee: str
) -> Route | None:
    """The route a reply carries, and the turn of the mail of ours it answers.

    The route comes from a plus address of ours among the recipients, else from a
    Message-ID of ours the reply answers (the one in ``In-Reply-To``, else the newest one in
    ``References``). Keys are not checked here (see :func:`authentic`)."""
    for plus in _plus_parts(recipients, referee):
        m = _ROUTE.fullmatch(plus)
        if m:
            route = Route(m.group("game"), int(m.group("seat")), m.group("key"))
            return _answering(route, in_reply_to, references)
    for ids in (in_reply_to, references):
        ours = [r for r in map(_our_mail, ids) if r is not None]
        if ours:
            newest = max(ours, key=lambda r: r.turn or 0)
            return _answering(replace(newest, turn=None), in_reply_to, references)
    return None


def _answering(route: Route, in_reply_to: list[str], references: list[str]) -> Route:
    """``route`` with the turn of the mail it answers: the mail named by ``In-Reply-To`` when
    it is one of ours to this player; else the newest of ours to them in ``References`` (by
    turn: clients keep References oldest first, but some trim or reorder it); else unknown."""
    for ids in (in_reply_to, references):
        turns = [
            r.turn
            for r in map(_our_mail, ids)
            if r is not None and (r.game, r.seat, r.key) == (route.game, route.seat, route.key)
        ]
        if turns:
            return replace(route, turn=max(t for t in turns if t is not None))
    return route


def _our_mail(message_id: str) -> Route | None:
    """The route and turn carried by one of our Message-IDs, or None for anyone else's."""
    m = _OUR_ID.fullmatch(message_id.strip())
    if m is None:
        return None
    return Route(m.group("game"), int(m.group("seat")), m.group("key"), int(m.group("turn")))


def authentic(route: Route, record: GameRecord, sender: str, secret: bytes) -> str | None:
    """None when the reply may move for the route's player; else why it may not."""
    if not GAME_ID.fullmatch(route.game) or route.game != record.id:
        return "the reply names no game of ours"
    if route.seat >= len(record.players):
        return "the reply names no seat of this game"
    player = record.players[route.seat]
    expected = player_key(secret, record.id, route.seat, player.email)
    if not hmac.compare_digest(expected, route.key):
        return "the reply's key is wrong"
    if sender.lower() != player.email.lower():
        return f"it comes from {sender or 'no address'}, not from the player's registered address"
    return None


def authentic_invitation(
    route: Route, invitation: Invitation, sender: str, secret: bytes
) -> str | None:
    """None when the reply may answer the invitation for the route's seat; else why not:
    an invitation is answered only from the address it was sent to."""
    if route.game != invitation.game or route.seat >= len(invitation.seats):
        return "the reply names no seat of this invitation"
    invited = invitation.seats[route.seat].address
    if not hmac.compare_digest(player_key(secret, invitation.game, route.seat, invited), route.key):
        return "the reply's key is wrong"
    if sender.lower() != invited.lower():
        return f"it comes from {sender or 'no address'}, not from the address invited"
    return None


def confirmation_token(secret: bytes, address: str, line: str) -> str:
    """The token of the confirmation asked of ``address`` for the command ``line`` (16
    base32 letters): the same command from the same address is the same confirmation."""
    said = f"confirm\x00{address.lower()}\x00{line}".encode()
    mac = hmac.new(secret, said, hashlib.sha256)
    return base64.b32encode(mac.digest()[:10]).decode().lower()


def confirmation_address(referee: str, token: str) -> str:
    """Where a confirmation's reply goes: ``local+confirm.TOKEN@domain``."""
    local, _, domain = referee.partition("@")
    return f"{local.split('+')[0]}+confirm.{token}@{domain}"


def confirmation_id(referee: str, token: str, unique: str) -> str:
    """The Message-ID of a confirmation (``unique``: lower-case letters and digits)."""
    domain = referee.partition("@")[2] or "referee.invalid"
    return f"<confirm.{token}.{unique}@{domain}>"


def find_confirmation(
    recipients: list[str], in_reply_to: list[str], references: list[str], referee: str
) -> str | None:
    """The token of the confirmation a reply answers: from the plus address it was sent to,
    else from a confirmation of ours it names (In-Reply-To, then References); None when it
    answers none."""
    for plus in _plus_parts(recipients, referee):
        m = _CONFIRM.fullmatch(plus)
        if m:
            return m.group("token")
    for message_id in [*in_reply_to, *reversed(references)]:
        m = _OUR_CONFIRM.fullmatch(message_id.strip())
        if m:
            return m.group("token")
    return None


def routed_name(plus: str) -> str | None:
    """The game id or confirmation token a plus part (what follows the ``+``) names, by
    which a worker of several keeps it (:mod:`referee.shards`); None when it names neither."""
    route = _ROUTE.fullmatch(plus.lower())
    if route is not None:
        return route.group("game")
    confirm = _CONFIRM.fullmatch(plus.lower())
    return confirm.group("token") if confirm is not None else None


def _plus_parts(recipients: list[str], referee: str) -> list[str]:
    """What follows the ``+`` of each recipient that is a plus address of the referee's."""
    local, _, domain = referee.lower().partition("@")
    base = local.split("+")[0]
    parts = []
    for address in recipients:
        a_local, _, a_domain = address.lower().partition("@")
        if a_domain == domain and a_local.startswith(base + "+"):
            parts.append(a_local[len(base) + 1 :])
    return parts
