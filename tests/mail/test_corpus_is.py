"""The replies of tests/fixtures/replies/is.toml, as people write them, each sent through the
real path (tests/mail/corpus.py): none misread; each read, at once or asked about and played
on a yes, but those listed as not read yet (docs/languages.md says what is not read)."""

from __future__ import annotations

from tests.mail.corpus import language_tests

#: The replies not read yet: each gets an answer, but not what it means.
NOT_READ_YET: set[str] = {
    "is-009",
    "is-211",
    "is-229",
    "is-376",
    "is-384",
    "is-389",
    "is-400",
    "is-432",
    "is-438",
    "is-442",
    "is-501",
    "is-510",
    "is-541",
    "is-550",
    "is-552",
    "is-562",
    "is-568",
    "is-607",
    "is-609",
    "is-619",
    "is-670",
    "is-687",
    "is-695",
    "is-696",
    "is-724",
    "is-742",
    "is-757",
    "is-781",
    "is-824",
    "is-830",
    "is-840",
    "is-852",
    "is-869",
    "is-870",
    "is-875",
}  # fmt: skip

templates, test_a_reply_as_people_write_it_is_never_misread_and_is_read = language_tests(
    "is", NOT_READ_YET
)
