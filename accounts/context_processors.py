"""What the frame's navigation needs to know of the user's roles (the links are core's)."""

from . import roles


def navigation(request):
    """``can_use_front_desk`` is asked only when the page draws the signed-in navigation, and
    answers from the user's groups, which ``roles`` reads once per request."""
    return {"can_use_front_desk": lambda: roles.is_front_desk_anywhere(request.user)}
