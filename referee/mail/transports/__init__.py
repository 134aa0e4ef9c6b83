"""Transports: where mail comes from (the inbox side) and where letters go (the outlet side): a
directory of mail files, IMAP, LMTP, SMTP, the workers' LMTP doors, and the lock on a shared
mailbox."""
