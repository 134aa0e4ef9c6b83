"""Reading a mail that arrived: any bytes to a plain description (inbound), the mail programs'
footers, routing a reply to its game and player, its sender's authentication, and what the
reply says."""
