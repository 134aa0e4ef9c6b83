"""``language`` and ``timezone``: a player chooses the language of their letters and the time
zone their times are shown in (:mod:`referee.mail.judging.commands.choosing`)."""

from referee.wording.catalogue import entry

entry("command.language.usage", "language CODE", when="help: how language is written")
entry(
    "command.language.summary",
    "write to me in another language from now on (write 'language' alone for the list)",
    when="help: what language does",
)
entry("command.timezone.usage", "timezone AREA/CITY", when="help: how timezone is written")
entry(
    "command.timezone.summary",
    "show my deadlines and times in this time zone, like Asia/Dhaka or Europe/London",
    when="help: what timezone does",
)
entry("subject.language", "Splendor referee: your language", when="the answer to language")
entry("subject.timezone", "Splendor referee: your time zone", when="the answer to timezone")
entry(
    "language.answer",
    "From now on the referee writes to you in English, and reads your moves and commands "
    "in English.",
    when="the answer to language, written in the language chosen (its name is in the text)",
)
entry(
    "language.needs",
    "Write 'language' and the language you want, like: language cy. The languages: {choices}.",
    {"choices": "text"},
    when="language written without a language",
)
entry(
    "language.unknown",
    "The referee does not write {language}. The languages: {choices}.",
    {"language": "quoted", "choices": "text"},
    when="language written with a language the referee does not write",
)
entry(
    "timezone.answer",
    "From now on your deadlines and times are shown in the time zone {zone}: it is {now} there "
    "now.",
    {"zone": "text", "now": "when"},
    when="the answer to timezone",
)
entry(
    "timezone.needs",
    "Write 'timezone' and the time zone you want, as an area and a city: for example "
    "timezone Asia/Dhaka, timezone Europe/London or timezone UTC.",
    when="timezone written without a time zone",
)
entry(
    "timezone.unknown",
    "{zone} is not a time zone the referee knows. Write it as an area and a city, like "
    "Asia/Dhaka, Europe/Reykjavik or America/New_York.",
    {"zone": "quoted"},
    when="timezone written with a time zone the referee does not know",
)
