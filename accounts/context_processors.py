"""What the site's frame (base.html) needs on every page."""

from functools import cache

from django.templatetags.static import static
from django.urls import reverse

from . import roles


@cache
def frame_links() -> dict[str, str]:
    """The frame's links and stylesheet. They are the same on every page of a running site, so
    they are worked out once per process: reversing and looking them up on each request was a
    quarter of a one-query page's time."""
    return {
        "home": reverse("home"),
        "leagues": reverse("league_list"),
        "profile": reverse("profile"),
        "front_desk": reverse("front_desk"),
        "director": reverse("director_dashboard"),
        "admin": reverse("admin:index"),
        "login": reverse("account_login"),
        "signup": reverse("account_signup"),
        "logout": reverse("account_logout"),
        "stylesheet": static("css/site.css"),
    }


def navigation(request):
    """``can_use_front_desk`` is asked only when the page draws the signed-in navigation, and
    answers from the user's groups, which ``roles`` reads once per request."""
    return {
        "frame": frame_links(),
        "can_use_front_desk": lambda: roles.is_front_desk_anywhere(request.user),
    }
