"""The institution's rating list (R1): every rated player, highest first, for its signed-in
members. Named as members see players (P2: a withheld student is a number; P4: a forgotten one
"Former player N"), the reader's own row named and marked. And the director's import of known
ratings (R5), as `manage.py import_ratings` does it."""

from functools import partial

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from accounts import privacy, roles
from accounts.picked import institution_at_work
from accounts.services import RosterRejected
from core.errors import DomainError
from ratings.imports import ratings_import
from ratings.models import PlayerRating
from ratings.rating_file import MAX_BYTES

from .. import tasks
from ..selectors import rating_cells
from .director import _director_institution

RATINGS_PER_PAGE = 100


@login_required
def rating_list(request: HttpRequest) -> HttpResponse:
    """A page of the list: the count and the page's rows, two queries besides the session. A
    site admin's is the institution they picked on the director's dashboard."""
    institution = institution_at_work(request)
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
            "is_director": roles.is_director_of(request.user, institution),
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


class RatingFileForm(forms.Form):
    file = forms.FileField(
        label="Ratings (CSV)",
        help_text="A header line naming campus_id or email, and rating (deviation optional): "
        "one line a player, for example 1234567,1650.",
    )
    encoding = forms.CharField(initial="utf-8", help_text="utf-8 unless the file says otherwise.")
    strict = forms.BooleanField(required=False, label="Import nothing if any line is refused")


@login_required
def ratings_import_page(request: HttpRequest) -> HttpResponse:
    """The director brings in known ratings (R5): each line's player starts from it; refused
    lines are listed by number, and the ratings are worked out again by a worker."""
    institution = _director_institution(request)
    form = RatingFileForm(request.POST or None, request.FILES or None)
    refused = []
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                result = ratings_import(
                    actor=request.user,
                    institution=institution,
                    # Read no further than the limit: the declared size is the sender's word.
                    data=form.cleaned_data["file"].read(MAX_BYTES + 1),
                    encoding=form.cleaned_data["encoding"],
                    strict=form.cleaned_data["strict"],
                )
                if result.imported:
                    transaction.on_commit(partial(tasks.ask_to_rate, institution.pk), robust=True)
        except RosterRejected as error:
            form.add_error("file", error.message)
            refused = error.rejected
        except DomainError as error:
            form.add_error("file", error.message)
        else:
            if not result.refused:
                messages.success(request, f"{result.line()}. The list follows in a minute.")
                return redirect("rating_list")
            refused = result.refused
            messages.warning(request, f"{result.line()}: see the lines below.")
    return render(request, "league/ratings_import.html", {"form": form, "refused": refused})
