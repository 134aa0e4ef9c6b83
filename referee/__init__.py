"""referee: a play-by-email and turn-file referee for the board game Splendor."""

__version__ = "0.1.0"
