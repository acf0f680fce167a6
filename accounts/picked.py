"""The institution a staff page works on. A director's or a front desk's is their own; a site
admin belongs to none, picks one on the director's dashboard (`?institution=SLUG`), and every
staff page then works on that one (the dashboard's queues, the front desk, the set-up forms, the
ratings), as the dashboard does."""

from django.http import Http404, HttpRequest

from . import roles
from .models import Institution

# The session's key for a site admin's pick (the name it had when only the dashboard read it, so
# that sessions holding a pick keep it).
PICKED_INSTITUTION = "director_institution"


def remember_pick(request: HttpRequest, institution: Institution) -> None:
    request.session[PICKED_INSTITUTION] = institution.pk


def has_picked(request: HttpRequest) -> bool:
    return bool(request.session.get(PICKED_INSTITUTION))


def institution_at_work(request: HttpRequest) -> Institution | None:
    """The signed-in user's institution; a site admin's, the one they picked (None before they
    pick one, and for anyone signed out)."""
    institution = roles.institution_of(request.user)
    if institution is None and roles.is_site_admin(request.user):
        picked = request.session.get(PICKED_INSTITUTION)
        institution = Institution.objects.filter(pk=picked).first() if picked else None
    return institution


def front_desk_institution(request: HttpRequest) -> Institution:
    """The institution whose front desk this user staffs (a site admin's, the one picked); 404
    for everyone else."""
    institution = institution_at_work(request)
    if institution is None or not roles.is_front_desk_of(request.user, institution):
        raise Http404
    return institution


def todays_doors(request: HttpRequest, institution: Institution) -> str:
    """What the front desk sees first on a day with an event: its door (HTML, empty on other
    days). League, which knows the formats, puts its own answer here when it starts
    (league.apps); accounts knows none."""
    return ""
