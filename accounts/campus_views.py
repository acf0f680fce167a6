"""The campus sign-in page a button leads to when its institution's identity provider is not
connected yet (as in the demo), or to continue on to the campus."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from .campus_csp import allow_forms_to
from .models import CampusSignIn


def campus_sign_in_page(request: HttpRequest, slug: str) -> HttpResponse:
    """An institution's campus sign-in: a button on to the campus's own page, or, where no
    identity provider is connected yet, what to do instead (200 either way)."""
    sign_in = get_object_or_404(
        CampusSignIn.objects.select_related("institution", "social_app"),
        institution__slug=slug,
        enabled=True,
    )
    if sign_in.ready:
        allow_forms_to(request, [sign_in])
    return render(request, "accounts/campus_sign_in.html", {"sign_in": sign_in})
