"""The engine's exceptions: one base class, so callers can catch everything the engine raises."""


class ScrabbleError(Exception):
    """Base class of every error the rules engine raises on purpose."""


class IllegalPlay(ScrabbleError):
    """A placement the rules forbid (G4: one line, no gaps, touching, centre first, no overwrite).

    ``reason`` is a short stable code for programs and tests; the message is for people.
    """

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason
        self.message = message


class GcgError(ScrabbleError):
    """A game record that cannot be read: the message names the line it failed on."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message
