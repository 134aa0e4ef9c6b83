"""Whether the receiving mail server vouches for a mail's sender: its
``Authentication-Results`` (RFC 8601), read with the ``authres`` library.

A server that checks DMARC, DKIM and SPF writes what it found in an ``Authentication-Results``
header at the top of the mail, naming itself (its *authserv-id*). Anyone can write such a
header into a mail they send, so only the topmost one naming the server the game master trusts
(the setting ``trusted_authserv_id``) counts; that server must be one that removes headers
claiming its name from the mail it receives (RFC 8601, section 5), as OpenDMARC and
Rspamd do.

The sender is vouched for when that header says DMARC passed for the domain of the From
address, or a DKIM signature of that domain (or of a domain within it, or containing it:
relaxed alignment) passed.
"""

from __future__ import annotations

from collections.abc import Sequence

import authres  # type: ignore[import-untyped]


def vouched_for(results: Sequence[str], sender: str, trusted: str | None) -> str | None:
    """How the trusted server ``trusted`` vouched for ``sender``, going by the mail's
    ``Authentication-Results`` header values ``results`` (topmost first): "DMARC pass" or
    "DKIM pass (example.org)", or None when it did not (or nothing is trusted)."""
    domain = sender.rpartition("@")[2].strip().lower()
    if not trusted or not domain:
        return None
    for value in results:
        try:
            header = authres.AuthenticationResultsHeader.parse_value(value)
        except (authres.AuthResError, ValueError, IndexError):
            continue
        if str(header.authserv_id).strip().lower() != trusted.strip().lower():
            continue
        return _passed(header, domain)  # the topmost header of the trusted server only
    return None


def _passed(header: authres.AuthenticationResultsHeader, domain: str) -> str | None:
    """DMARC's pass for ``domain`` first, else an aligned DKIM signature's."""
    passed = []
    for result in header.results:
        if str(result.result).lower() == "pass":
            said = {(p.type, p.name): str(p.value).strip().lower() for p in result.properties}
            passed.append((str(result.method).lower(), said))
    for method, said in passed:
        if method == "dmarc" and said.get(("header", "from"), domain) == domain:
            return "DMARC pass"
    for method, said in passed:
        if method == "dkim":
            signer = said.get(("header", "d")) or said.get(("header", "i"), "").rpartition("@")[2]
            if _aligned(signer, domain):
                return f"DKIM pass ({signer})"
    return None


def _aligned(signer: str, domain: str) -> bool:
    """Whether a DKIM signature by ``signer`` speaks for mail from ``domain``: the same
    domain, or one within the other (relaxed alignment, without a public suffix list: a bare
    top-level domain never counts)."""
    if "." not in signer or "." not in domain:
        return False
    return signer == domain or domain.endswith("." + signer) or signer.endswith("." + domain)
