"""Accounts' own domain errors; the shared ones (DomainError, NotAllowed) live in core.errors."""

from core.errors import DomainError


class NotEligible(DomainError):
    """The student is not eligible for the season (L10)."""


class RosterFileError(DomainError):
    """The roster file cannot be read as a whole; nothing was imported."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(f"Line {line}: {message}" if line else message)
        self.line = line


class CampusIdTaken(DomainError):
    """Another student of the institution already registered this campus ID (L10)."""

    def __init__(self):
        super().__init__(
            "This campus ID is already registered. If it is yours, log in or reset your "
            "password; if not, ask the front desk."
        )
