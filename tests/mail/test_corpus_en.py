"""The replies of tests/fixtures/replies/en.toml, as people write them, each sent through the
real path (tests/mail/corpus.py): none misread; each read, at once or asked about and played
on a yes, but those listed as not read yet (docs/languages.md says what is not read)."""

from __future__ import annotations

from tests.mail.corpus import language_tests

#: The replies not read yet: each gets an answer, but not what it means.
NOT_READ_YET: set[str] = {
    "en-140",
    "en-169",
    "en-178",
    "en-233",
    "en-241",
    "en-276",
    "en-295",
    "en-312",
    "en-379",
    "en-381",
    "en-394",
    "en-395",
    "en-407",
    "en-423",
    "en-431",
    "en-432",
    "en-479",
    "en-498",
    "en-514",
    "en-539",
    "en-569",
    "en-597",
    "en-598",
    "en-653",
    "en-658",
    "en-692",
    "en-695",
    "en-696",
    "en-775",
    "en-780",
    "en-810",
    "en-814",
    "en-832",
    "en-843",
    "en-867",
    "en-891",
}  # fmt: skip

templates, test_a_reply_as_people_write_it_is_never_misread_and_is_read = language_tests(
    "en", NOT_READ_YET
)
