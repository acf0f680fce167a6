"""The front desk's way to an event's door on its day, first on their home and on the front
desk's page (accounts asks through ``accounts.picked.todays_doors``, which league.apps fills):
each format says which of its leagues open a door today (``formats.doors_today``)."""

from django.http import HttpRequest
from django.template.loader import render_to_string

from .. import formats


def todays_doors(request: HttpRequest, institution) -> str:
    """The doors open today at the institution, as a card of big links; empty on other days."""
    doors = formats.doors_today(institution)
    if not doors:
        return ""
    return render_to_string("league/_doors_today.html", {"doors": doors}, request=request)
