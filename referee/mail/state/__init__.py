"""What the service keeps on disk beside the games, in ``<games>/.mail/``: the spool, the
outbox, notes, threads, the ledger, status, the service lock, and each game's mail trail."""
