"""Sections a page shows for an app above the page's own (pretix's way: features register with
the core). The profile is accounts' page and the match page is matches', but what a player wants
to see there may be kept by an app that imports them and so cannot be imported by them (ratings:
the rating history on the profile, a match's rating changes, R1). Such an app registers a
section for a page from its ``AppConfig.ready``; the page renders every registered section, in
the order they were registered, without knowing whose it is.

A section is a callable taking what the page passes (the profile; the match and its seats) and
returning None to show nothing, or a dict naming the template that draws it (``"template"``) and
carrying what that template reads; the page includes it with ``section`` set to the dict. A
section reads what it needs in a fixed number of queries, however much it shows."""

from collections import defaultdict
from collections.abc import Callable

Section = Callable[..., dict | None]

_sections: dict[str, list[Section]] = defaultdict(list)


def register(page: str, section: Section) -> Section:
    """Adds `section` to `page` ("profile", "match") once, however often it is registered
    (``ready`` may run more than once in tests)."""
    if section not in _sections[page]:
        _sections[page].append(section)
    return section


def sections_of(page: str, *what) -> list[dict]:
    """The sections of `page` that have something to show for `what`, in order."""
    return [shown for section in _sections[page] if (shown := section(*what)) is not None]
