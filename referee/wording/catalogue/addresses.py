"""Players' addresses refused (:mod:`referee.addresses`)."""

from referee.wording.catalogue import entry

entry(
    "address.invalid",
    "{address} is not a mail address: {why}",
    {"address": "quoted", "why": "english"},
    when="an address that is not a mail address (why: the address checker's English; a "
    "translation says that it is English, as in (in English: {why}))",
)
entry(
    "address.special_use",
    "{address} cannot play: its domain ends in .{suffix}, a special-use name {purpose}, which "
    "mail from the internet never reaches",
    {"address": "quoted", "suffix": "text", "purpose": "message"},
    when="an address in a special-use domain the referee does not allow",
)
for name, purpose in [
    ("test", "reserved for testing (RFC 6761)"),
    ("local", "for names on one local network only (multicast DNS, RFC 6762)"),
    ("localhost", "a name for the machine itself (RFC 6761)"),
    ("arpa", "reserved for the internet's own infrastructure"),
    ("invalid", "reserved as a name that is never valid (RFC 6761)"),
    ("onion", "for Tor onion services, which ordinary mail does not reach (RFC 7686)"),
]:
    entry(f"address.purpose.{name}", purpose, when=f"what the special-use name .{name} is for")
