"""Domain errors: a broken rule, with a message the page or command shows as it is."""


class DomainError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class PermissionDenied(DomainError):
    """The acting user may not do this."""


class NotEligible(DomainError):
    """The student is not eligible for the season (L10)."""


class RosterFileError(DomainError):
    """The roster file cannot be read as a whole; nothing was imported."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(f"Line {line}: {message}" if line else message)
        self.line = line
