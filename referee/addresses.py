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
from referee.wording.messages import say

#: The special-use names email_validator refuses (what each is for: the catalogue's
#: ``address.purpose.NAME``).
SPECIAL_USE = ("test", "local", "localhost", "arpa", "invalid", "onion")
#: Stands in for a special-use name while the rest of an address is checked.
_STAND_IN = "special-use-stand-in"


class AddressError(RequestError):
    """An address that cannot play, coded: ``address.invalid`` (not an address: ``why`` is
    the checker's own English) or ``address.special_use`` (in a special-use domain; ``allow``
    is what a game master may add to ``private_domains`` to allow it)."""

    allow: str | None = None

    @classmethod
    def special(cls, address: str, domain: str, special: str) -> AddressError:
        err = cls.of(
            "address.special_use",
            address=address,
            suffix=special,
            purpose=say(f"address.purpose.{special}"),
        )
        err.allow = domain.casefold().strip(".")
        return err

    @property
    def address(self) -> str:
        return str(self.params["address"])


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
            raise AddressError.special(written, domain, special)
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
            raise AddressError.of(
                "address.invalid", address=address.strip(), why=str(err).rstrip(".")
            ) from None
        normalized = str(checked.normalized)
        if special is not None:
            normalized = normalized.removesuffix(_STAND_IN) + special
        return normalized
