"""R1–R5 in the admin: a director reads their own institution's ratings, periods and imports,
never another's, and changes none of them by hand (runs and imports do)."""

import pytest
from django.urls import reverse

from league.rating_runs import rate
from matches.services import card_enter
from ratings.models import ImportedRating, PlayerRating, RatingPeriod
from tests.support import table_of

pytestmark = pytest.mark.django_db


def test_r1_a_director_reads_their_institutions_ratings_and_changes_none(
    client, league, table, director, outsider
):
    ada, bo, cy, di = table
    card_enter(actor=director.user, match=table_of(league, [ada, bo]), scores=[420, 380])
    rate(league.season.institution)
    PlayerRating.objects.create(
        player=outsider, rating=2222, deviation=80, volatility=0.06, games=30
    )
    ImportedRating.objects.create(player=cy, rating=1777, deviation=100)
    client.force_login(director.user)

    ratings = client.get(reverse("admin:ratings_playerrating_changelist")).content.decode()
    assert "Ada Example" in ratings and "Bo Example" in ratings
    assert "2222" not in ratings  # another institution's player
    period = RatingPeriod.objects.get()
    page = client.get(reverse("admin:ratings_ratingperiod_change", args=[period.pk]))
    assert page.status_code == 200 and "Ada Example" in page.content.decode()
    imported = client.get(reverse("admin:ratings_importedrating_changelist")).content.decode()
    assert "1777" in imported

    rating = PlayerRating.objects.get(player=ada)
    client.post(
        reverse("admin:ratings_playerrating_change", args=[ada.pk]),
        {"rating": 2500, "deviation": 50, "volatility": 0.06, "games": 1},
    )
    rating_after = PlayerRating.objects.get(player=ada)
    assert rating_after.rating == rating.rating  # read only
    assert client.get(reverse("admin:ratings_playerrating_add")).status_code == 403
