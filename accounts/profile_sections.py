"""More sections of the profile page, added by the apps above accounts.

The profile is accounts' page, but some of what a player wants to see there is kept by apps that
import accounts and so cannot be imported by it (ratings: their rating history, R1). Such an app
registers a section from its ``AppConfig.ready``; the profile renders every registered section,
in the order they were registered, without knowing whose it is.

A section is a callable ``(profile) -> dict | None``: None shows nothing; a dict names the
template that draws it (``"template"``) and carries what that template reads, which the profile
includes with ``section`` set to the dict. A section reads what it needs in a fixed number of
queries, however much it shows (the profile's query count does not grow with a player's past).
"""

from collections.abc import Callable

from .models import PlayerProfile

Section = Callable[[PlayerProfile], dict | None]

_sections: list[Section] = []


def register(section: Section) -> Section:
    """Adds `section` to every profile page (once, however often it is registered: ``ready``
    may run more than once in tests). Usable as a decorator."""
    if section not in _sections:
        _sections.append(section)
    return section


def sections_of(profile: PlayerProfile) -> list[dict]:
    """The sections that have something to show for `profile`, in order."""
    shown = []
    for section in _sections:
        context = section(profile)
        if context is not None:
            shown.append(context)
    return shown
