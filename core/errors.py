"""Domain errors: a broken rule, with a message the page or command shows as it is."""


class DomainError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotAllowed(DomainError):
    """The acting user may not do this. (Not Django's PermissionDenied, which means a 403 page:
    a view shows this one's message like any other broken rule.)"""


class BadValue(DomainError):
    """A value a person or a file gave that cannot be used: not a whole number, out of range,
    too long, or holding a character that cannot be stored (core/values.py)."""


class RowsRejected(DomainError):
    """A file whose bad rows refuse it all (a --strict import): the rows, as (line, reason)."""

    def __init__(self, message: str, rejected: list[tuple[int, str]]):
        super().__init__(message)
        self.rejected = rejected
