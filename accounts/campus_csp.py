"""The Content-Security-Policy's form-action on a page with campus sign-in buttons: each button
posts here and is sent on to the campus's identity provider, and browsers hold that redirect
to form-action too. The buttons name the providers' origins (`allow_forms_to`); this
middleware, listed after django-csp's so that it answers first, adds them to the page's policy."""

from urllib.parse import urlsplit


def origin(url: str) -> str | None:
    parts = urlsplit(url or "")
    if parts.scheme in ("http", "https") and parts.netloc:
        return f"{parts.scheme}://{parts.netloc}"
    return None


def allow_forms_to(request, sign_ins) -> None:
    origins = getattr(request, "_campus_form_origins", set())
    for sign_in in sign_ins:
        app_settings = sign_in.social_app.settings if sign_in.social_app_id else {}
        idp = app_settings.get("idp") or {}
        for url in (sign_in.issuer, idp.get("sso_url"), idp.get("metadata_url")):
            if found := origin(url):
                origins.add(found)
    if request is not None:
        request._campus_form_origins = origins


def unreachable() -> tuple[type[BaseException], ...]:
    """What the way to a campus's identity provider raises when it does not answer, answers
    with an error, or its metadata cannot be read."""
    import requests
    from lxml.etree import XMLSyntaxError
    from onelogin.saml2.errors import OneLogin_Saml2_Error

    return (OSError, requests.RequestException, OneLogin_Saml2_Error, XMLSyntaxError)


CAMPUS_ANSWERS = {"saml_finish_acs", "saml_acs", "openid_connect_callback"}


class CampusFormsMiddleware:
    """Also: an answer from the campus that allauth refuses by raising PermissionDenied (its
    state already used: a replayed assertion or callback) ends on the refusal page too; an
    identity provider that cannot be reached, on a page saying so."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        origins = getattr(request, "_campus_form_origins", None)
        if origins:
            update = dict(getattr(response, "_csp_update", None) or {})
            update["form-action"] = sorted(origins)
            response._csp_update = update
        return response

    def process_exception(self, request, exception):
        from django.core.exceptions import PermissionDenied
        from django.shortcuts import render

        match = getattr(request, "resolver_match", None)
        name = match.url_name if match is not None else ""
        if not name.startswith(("saml_", "openid_connect_")):
            return None
        if isinstance(exception, unreachable()):
            # The campus's identity provider cannot be reached, or its metadata read: said in
            # words (503), never a server error.
            return render(
                request,
                "accounts/campus_sign_in_unavailable.html",
                {"slug": match.kwargs.get("organization_slug") or match.kwargs.get("provider_id")},
                status=503,
            )
        if not isinstance(exception, PermissionDenied) or name not in CAMPUS_ANSWERS:
            return None
        from .social import refuse

        return refuse(
            request,
            "This answer from the campus's sign-in had been used before, or was not one this "
            "site asked for. Nothing was changed. Start again from the log-in page.",
        )
