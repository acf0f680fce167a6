"""Naming a person to whoever reads (P1, P2): the one path every name takes to a reader.

- ``name_style(user, league)``: which names a reader of a league's pages sees: the league's
  staff (its institution's front desk and directors, site admins) names as given, withheld ones
  included (``STAFF``); members (signed in at the league's institution) full names, withheld
  students as numbers; everyone else the league's public style (full, first name and last
  initial, or numbers).
- ``Said``: a sentence made where the reader is not known (a refusal raised by a service) that
  names people. It becomes text in the names its reader may read when a page, a message or a
  form shows it: the request being answered is known for the whole request
  (``ReaderMiddleware``). Read outside a request (a command, a log line), it names every person
  by number. So a refusal naming a withheld student says "Player 7" to a stranger and her name
  to the director, and a service never needs to know who will read it.
"""

from contextvars import ContextVar

from . import privacy, roles

STAFF = ""  # no style: the name as given (``PlayerProfile.name``)


def is_member(user, institution_id: int) -> bool:
    """Signed in at this institution, or a site admin: reads names as members do (P1)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    profile = getattr(user, "profile", None)
    return profile is not None and profile.institution_id == institution_id


def name_style(user, league) -> str:
    institution = league.season.institution
    if user is not None and roles.is_front_desk_of(user, institution):
        return STAFF
    if is_member(user, institution.pk):  # site admins were staff above
        return privacy.FULL
    return league.names_in_public


# The request being answered, whose user reads whatever is said meanwhile.
_request: ContextVar = ContextVar("request_being_answered", default=None)


class Said:
    """A sentence that names people: `text` with "{}" where each of `people` goes, in order.
    A person is a player profile, or (a profile, their player number at the club or event the
    sentence is about). `league` is the league whose pages the sentence belongs to."""

    def __init__(self, text: str, *people, league):
        self.text, self.people, self.league = text, people, league

    def to(self, user) -> str:
        """The sentence in the names `user` may read (None: nobody known, every name a number)."""
        style = privacy.NUMBER if user is None else name_style(user, self.league)
        names = []
        for person in self.people:
            profile, number = person if isinstance(person, tuple) else (person, None)
            names.append(profile.name_in(style, number))
        return self.text.format(*names)

    def __str__(self) -> str:
        request = _request.get()
        return self.to(getattr(request, "user", None) if request is not None else None)

    def __eq__(self, other) -> bool:
        return str(self) == (other if isinstance(other, str) else str(other))

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"Said({self.text!r})"


class ReaderMiddleware:
    """Keeps the request being answered, so what is said meanwhile (``Said``) is said to its
    user. After AuthenticationMiddleware, and before MessageMiddleware, which turns the
    messages into text as the response leaves."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _request.set(request)
        try:
            return self.get_response(request)
        finally:
            _request.reset(token)
