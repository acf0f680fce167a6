"""The "Sign in with <Institution>" buttons of the log-in and sign-up pages: one query."""

from django import template

from ..campus_csp import allow_forms_to
from ..models import CampusSignIn

register = template.Library()


@register.inclusion_tag("accounts/_campus_sign_in_buttons.html", takes_context=True)
def campus_sign_in_buttons(context):
    request = context.get("request")
    sign_ins = list(
        CampusSignIn.objects.filter(enabled=True)
        .select_related("institution", "social_app")
        .order_by("institution__name")
    )
    allow_forms_to(request, [s for s in sign_ins if s.ready])
    return {
        "sign_ins": sign_ins,
        "csrf_token": context.get("csrf_token"),
        "next": request.GET.get("next", "") if request else "",
    }
