"""The institution's rating list (R1): every rated player, highest first, for its signed-in
members. Named as members see players (P2: a withheld student is a number; P4: a forgotten one
"Former player N"), the reader's own row named and marked."""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from accounts import privacy, roles
from ratings.models import PlayerRating

from ..selectors import rating_cells

RATINGS_PER_PAGE = 100


@login_required
def rating_list(request: HttpRequest) -> HttpResponse:
    """A page of the list: the count and the page's rows, two queries besides the session."""
    institution = roles.institution_of(request.user)
    if institution is None:
        raise Http404
    own = getattr(request.user, "profile", None)
    rows = (
        PlayerRating.objects.filter(player__institution=institution)
        .order_by("-rating", "player_id")
        .values(
            "player_id",
            "rating",
            "deviation",
            "games",
            "last_played",
            "player__user__first_name",
            "player__user__last_name",
            "player__display_name",
            "player__withholds_name",
            "player__registrar_withholds",
            "player__erased_at",
        )
    )
    page = Paginator(rows, RATINGS_PER_PAGE).get_page(request.GET.get("page"))
    first = page.start_index()
    page.object_list = [
        _row(row, first + index, own.pk if own else None) for index, row in enumerate(page)
    ]
    return render(
        request,
        "league/rating_list.html",
        {
            "institution": institution,
            "page": page,
            "rows": page.object_list,
        },
    )


def _row(row: dict, rank: int, own_id: int | None) -> dict:
    full = (
        f"{row['player__user__first_name'] or ''} {row['player__user__last_name'] or ''}".strip()
        or row["player__display_name"]
    )
    mine = row["player_id"] == own_id
    name = (
        full
        if mine
        else privacy.shown_name(
            row["player_id"],
            full,
            style=privacy.FULL,
            withheld=row["player__withholds_name"] or row["player__registrar_withholds"],
            erased=row["player__erased_at"] is not None,
        )
    )
    return {
        "rank": rank,
        "name": name,
        "mine": mine,
        "games": round(row["games"]),
        "last_played": row["last_played"],
        **rating_cells(row["rating"], row["deviation"]),
    }
