"""What the frame's navigation needs to know of the user's roles (the links are core's)."""

from . import roles


def navigation(request):
    """What the signed-in navigation offers, each asked only when the page draws it:
    ``can_use_front_desk`` answers from the user's groups, which ``roles`` reads once per
    request; ``has_profile`` and ``can_browse_leagues`` from the profile the session's query
    loaded with the user. A site admin without an institution has no profile and no leagues of
    their own; an event's volunteer scorer (an account without a campus ID) plays in none."""

    def profile():
        return getattr(request.user, "profile", None) if request.user.is_authenticated else None

    def can_browse_leagues():
        own = profile()
        return own is not None and bool(own.campus_id or roles.is_front_desk_anywhere(request.user))

    return {
        "can_use_front_desk": lambda: roles.is_front_desk_anywhere(request.user),
        "has_profile": lambda: profile() is not None,
        "can_browse_leagues": can_browse_leagues,
    }
