"""The replies of tests/fixtures/replies/eo.toml, as people write them, each sent through the
real path (tests/mail/corpus.py): none misread; each read, at once or asked about and played
on a yes, but those listed as not read yet (docs/languages.md says what is not read)."""

from __future__ import annotations

from tests.mail.corpus import language_tests

#: The replies not read yet: each gets an answer, but not what it means.
NOT_READ_YET: set[str] = {
    "eo-184",
    "eo-294",
    "eo-301",
    "eo-338",
    "eo-381",
    "eo-395",
    "eo-425",
    "eo-437",
    "eo-444",
    "eo-532",
    "eo-535",
    "eo-563",
    "eo-604",
    "eo-626",
    "eo-628",
    "eo-649",
    "eo-666",
    "eo-686",
    "eo-690",
    "eo-704",
    "eo-735",
    "eo-738",
    "eo-846",
    "eo-864",
    "eo-875",
    "eo-892",
    "eo-897",
}  # fmt: skip

templates, test_a_reply_as_people_write_it_is_never_misread_and_is_read = language_tests(
    "eo", NOT_READ_YET
)
