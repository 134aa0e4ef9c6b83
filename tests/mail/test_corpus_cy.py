"""The replies of tests/fixtures/replies/cy.toml, as people write them, each sent through the
real path (tests/mail/corpus.py): none misread; each read, at once or asked about and played
on a yes, but those listed as not read yet (docs/languages.md says what is not read)."""

from __future__ import annotations

from tests.mail.corpus import language_tests

#: The replies not read yet: each gets an answer, but not what it means.
NOT_READ_YET: set[str] = {
    "cy-031",
    "cy-263",
    "cy-301",
    "cy-343",
    "cy-347",
    "cy-396",
    "cy-428",
    "cy-438",
    "cy-439",
    "cy-486",
    "cy-494",
    "cy-496",
    "cy-520",
    "cy-528",
    "cy-532",
    "cy-534",
    "cy-536",
    "cy-569",
    "cy-588",
    "cy-589",
    "cy-592",
    "cy-593",
    "cy-594",
    "cy-610",
    "cy-614",
    "cy-632",
    "cy-633",
    "cy-645",
    "cy-647",
    "cy-654",
    "cy-655",
    "cy-772",
    "cy-777",
    "cy-782",
    "cy-808",
    "cy-811",
    "cy-819",
    "cy-823",
    "cy-830",
    "cy-873",
}  # fmt: skip

templates, test_a_reply_as_people_write_it_is_never_misread_and_is_read = language_tests(
    "cy", NOT_READ_YET
)
