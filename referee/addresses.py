"""Players' mail addresses: checked by their syntax (no look-ups on the network), with the
special-use domains of the internet (``.test``, ``.local``, ``.localhost``, ``.arpa``,
``.invalid``, ``.onion``: RFC 6761 and after) refused for what they are, unless the game
master allows them for a private mail system (the setting ``private_domains``, and always the
referee's own domain).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from email_validator import EmailNotValidError, validate_email

from referee.errors import RequestError

#: The special-use names email_validator refuses, with what each is for.
SPECIAL_USE: dict[str, str] = {
    "test": "reserved for testing (RFC 6761)",
    "local": "for names on one local network only (multicast DNS, RFC 6762)",
    "localhost": "a name for the machine itself (RFC 6761)",
    "arpa": "reserved for the internet's own infrastructure",
    "invalid": "reserved as a name that is never valid (RFC 6761)",
    "onion": "for Tor onion services, which ordinary mail does not reach (RFC 7686)",
}
#: Stands in for a special-use name while the rest of an address is checked.
_STAND_IN = "special-use-stand-in"


class AddressError(RequestError):
    """An address that cannot play: ``why`` says what is wrong, ``allow`` (for a special-use
    domain) what a game master may add to ``private_domains`` to allow it."""

    def __init__(self, address: str, why: str, allow: str | None = None) -> None:
        what = "is not a mail address" if allow is None else "cannot play"
        super().__init__(f"{address!r} {what}: {why}")
        self.address = address
        self.why = why
        self.allow = allow


def special_use(domain: str) -> str | None:
    """The special-use name ``domain`` is, or ends in ("test"); None for any other."""
    labels = domain.casefold().rstrip(".").split(".")
    return labels[-1] if labels[-1] in SPECIAL_USE else None


def _within(domain: str, allowed: str) -> bool:
    domain, allowed = domain.casefold().rstrip("."), allowed.casefold().strip(".")
    return domain == allowed or domain.endswith("." + allowed)


@dataclass(frozen=True)
class Addresses:
    """The rules for players' addresses: the special-use domains this referee allows (its
    own address's domain and ``private_domains``)."""

    private_domains: tuple[str, ...] = ()

    @classmethod
    def of(cls, referee_address: str, private_domains: Iterable[str] = ()) -> Addresses:
        own = referee_address.rpartition("@")[2]
        return cls(tuple(dict.fromkeys([*(d for d in [own] if d), *private_domains])))

    def allows(self, domain: str) -> bool:
        return any(_within(domain, allowed) for allowed in self.private_domains)

    def check(self, address: str) -> str:
        """``address`` as it is kept (its domain in lower case); AddressError saying what is
        wrong with it."""
        written = address.strip()
        local, at, domain = written.rpartition("@")
        special = special_use(domain) if at else None
        if special is not None and not self.allows(domain):
            raise AddressError(
                written,
                f"its domain ends in .{special}, a special-use name {SPECIAL_USE[special]}, "
                "which mail from the internet never reaches",
                allow=domain.casefold().strip("."),
            )
        if special is not None:  # allowed: check the rest as if it were an ordinary name
            head = domain.rstrip(".")[: -len(special)]
            written = f"{local}@{head}{_STAND_IN}"
        try:
            checked = validate_email(
                written,
                check_deliverability=False,
                globally_deliverable=False,
                allow_smtputf8=False,
            )
        except EmailNotValidError as err:
            raise AddressError(address.strip(), str(err).rstrip(".")) from None
        normalized = str(checked.normalized)
        if special is not None:
            normalized = normalized.removesuffix(_STAND_IN) + special
        return normalized
