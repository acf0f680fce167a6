"""A campus's list of public leagues (``/<campus>/leagues/``) and the addresses from before each
campus had its own (``/leagues/<slug>/…``), which answer a permanent redirect to the league
pinned to them (``league.addresses``)."""

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from accounts.models import Institution
from core.middleware import indexed_if_welcome

from ..models import League, OldLeagueAddress

LEAGUES_PER_PAGE = 50


def campus_leagues(request: HttpRequest, campus: str) -> HttpResponse:
    """A campus's public leagues, newest season first, a page at a time."""
    institution = get_object_or_404(Institution, slug=campus)
    leagues = (
        League.objects.filter(campus=institution, public=True)
        .select_related("season__institution")
        .order_by("-season__starts_on", "name", "pk")
    )
    page = Paginator(leagues, LEAGUES_PER_PAGE).get_page(request.GET.get("page"))
    # It names no player: search engines may index it.
    response = render(
        request,
        "league/campus_leagues.html",
        {"institution": institution, "page": page, "leagues": page.object_list},
    )
    return indexed_if_welcome(response, True)


def old_address(request: HttpRequest, slug: str, rest: str = "") -> HttpResponse:
    """308, so a form posted from an old page is posted again to the new address."""
    pin = (
        OldLeagueAddress.objects.filter(slug=slug)
        .select_related("league__season__institution")
        .first()
    )
    if pin is None:
        raise Http404
    target = reverse("league_detail", args=[pin.league]) + rest
    if request.META.get("QUERY_STRING"):
        target += "?" + request.META["QUERY_STRING"]
    return HttpResponsePermanentRedirect(target, preserve_request=True)
