"""What the site's frame (base.html) needs on every page."""

from functools import cache

from django.templatetags.static import static
from django.urls import reverse


@cache
def frame_links() -> dict[str, str]:
    """The frame's links and stylesheet. They are the same on every page of a running site, so
    they are worked out once per process: reversing and looking them up on each request was a
    quarter of a one-query page's time."""
    return {
        "home": reverse("home"),
        "leagues": reverse("league_list"),
        "ratings": reverse("rating_list"),
        "profile": reverse("profile"),
        "front_desk": reverse("front_desk"),
        "director": reverse("director_dashboard"),
        "admin": reverse("admin:index"),
        "login": reverse("account_login"),
        "signup": reverse("account_signup"),
        "logout": reverse("account_logout"),
        "stylesheet": static("css/site.css"),
        "favicon": static("favicon.svg"),
    }


def frame(request):
    return {"frame": frame_links()}
