"""The replies of tests/fixtures/replies/bn.toml, as people write them, each sent through the
real path (tests/mail/corpus.py): none misread; each read, at once or asked about and played
on a yes, but those listed as not read yet (docs/languages.md says what is not read)."""

from __future__ import annotations

from tests.mail.corpus import language_tests

#: The replies not read yet: each gets an answer, but not what it means.
NOT_READ_YET: set[str] = {
    "bn-046",
    "bn-224",
    "bn-231",
    "bn-297",
    "bn-308",
    "bn-344",
    "bn-351",
    "bn-377",
    "bn-386",
    "bn-392",
    "bn-393",
    "bn-422",
    "bn-427",
    "bn-434",
    "bn-445",
    "bn-495",
    "bn-497",
    "bn-504",
    "bn-531",
    "bn-532",
    "bn-546",
    "bn-560",
    "bn-565",
    "bn-595",
    "bn-596",
    "bn-609",
    "bn-611",
    "bn-621",
    "bn-624",
    "bn-626",
    "bn-644",
    "bn-646",
    "bn-654",
    "bn-656",
    "bn-658",
    "bn-662",
    "bn-681",
    "bn-693",
    "bn-713",
    "bn-732",
    "bn-736",
    "bn-746",
    "bn-770",
    "bn-822",
    "bn-856",
    "bn-857",
    "bn-860",
    "bn-864",
    "bn-868",
    "bn-882",
}  # fmt: skip

templates, test_a_reply_as_people_write_it_is_never_misread_and_is_read = language_tests(
    "bn", NOT_READ_YET
)
