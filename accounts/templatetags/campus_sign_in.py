"""The "Sign in with <Institution>" buttons of the log-in and sign-up pages: one query."""

from django import template

from ..models import CampusSignIn

register = template.Library()


@register.inclusion_tag("accounts/_campus_sign_in_buttons.html", takes_context=True)
def campus_sign_in_buttons(context):
    request = context.get("request")
    return {
        "sign_ins": list(
            CampusSignIn.objects.filter(enabled=True)
            .select_related("institution")
            .order_by("institution__name")
        ),
        "csrf_token": context.get("csrf_token"),
        "next": request.GET.get("next", "") if request else "",
    }
