"""Judging a mail, pure: the judge, the ruling it returns, what it knows (facts), the commands,
and the wording of what follows from a ruling (telling, notices, confirming, deadlines)."""
