"""An integer that does not fit its column raises instead of being stored as another number
(issue 28: with server-side binding, psycopg's compiled dumpers cut a value to its column's
width, so a pre_adjustment of 99999999999 was stored as 1215752191). One test per integer kind,
through the ORM's three ways of writing: save(), update() and bulk_update()."""

import json
from datetime import timedelta

import pytest
from django.core.management.base import CommandError
from django.db import DataError, transaction
from django.db.models import BigIntegerField, Value

from accounts.models import Institution
from events.models import AssistSale
from league.models import Round
from matches.models import Seat


def _refused(write) -> DataError:
    with pytest.raises(DataError) as raised, transaction.atomic():
        write()
    return raised.value


def test_a_regular_integer_out_of_range_raises_instead_of_wrapping(match):
    seat = match.seats.order_by("order").first()

    error = _refused(
        lambda: Seat.objects.filter(pk=seat.pk).update(pre_adjustment_score=99999999999)
    )
    seat.pre_adjustment_score = 99999999999
    _refused(lambda: Seat.objects.bulk_update([seat], ["pre_adjustment_score"]))
    _refused(lambda: seat.save(update_fields=["pre_adjustment_score"]))

    assert "out of range for type integer" in str(error)
    seat.refresh_from_db()
    assert seat.pre_adjustment_score is None


def test_a_small_integer_out_of_range_raises_instead_of_wrapping(match):
    round_ = match.round
    round_.number = 70000  # was stored as 4464

    error = _refused(lambda: round_.save(update_fields=["number"]))

    assert "out of range for type smallint" in str(error)
    round_.refresh_from_db()
    assert round_.number == 1
    assert not Round.objects.filter(number=4464).exists()


def test_a_big_integer_out_of_range_raises_instead_of_wrapping(match):
    """No column of ours is a bigint yet: a bigint value the ORM adapts, as one would be."""
    too_big = Value(2**64 + 5, output_field=BigIntegerField())

    error = _refused(lambda: list(Seat.objects.annotate(big=too_big).values_list("big")))

    assert "out of range for type bigint" in str(error)
    fits = Value(2**63 - 1, output_field=BigIntegerField())
    assert Seat.objects.annotate(big=fits).values_list("big", flat=True)[0] == 2**63 - 1


def test_values_in_range_are_written_as_they_are(match):
    seat = match.seats.first()
    for value in (-(2**31), 0, 2**31 - 1):
        Seat.objects.filter(pk=seat.pk).update(pre_adjustment_score=value)
        seat.refresh_from_db()
        assert seat.pre_adjustment_score == value
    assert Institution.objects.filter(pk__gte=-(2**63)).exists()
    assert AssistSale.objects.filter(quantity__lte=2**15 - 1).count() == 0


def test_enter_scores_refuses_a_pre_adjustment_out_of_range_by_line(season, tmp_path):
    """What the probe found: `enter_scores` stored a pre_adjustment of 99999999999 as
    1215752191. The number is now refused, by line, with its range."""
    from tests.support import run, write

    event = {
        "name": "Range Fest",
        "slug": "range-fest",
        "format": "event",
        "date": (season.starts_on + timedelta(days=3)).isoformat(),
    }
    slug = season.institution.slug
    path = write(tmp_path, "f.json", json.dumps(event))
    run("create_event", path, "--institution", slug, "--season", season.slug)
    run("import_entrants", write(tmp_path, "e.csv", "name\nAl\nBo\n"), "--league", "range-fest")
    run("pair_round", "--league", "range-fest", "--all-entrants")
    card = "table,player_number,score,pre_adjustment\n1,1,400,99999999999\n1,2,300,\n"

    with pytest.raises(CommandError):
        run(
            "enter_scores", "--league", "range-fest", "--round", "1", write(tmp_path, "c.csv", card)
        )

    assert not Seat.objects.filter(match__league__slug="range-fest", score__isnull=False).exists()
    assert not Seat.objects.filter(pre_adjustment_score=1215752191).exists()


def test_a_reported_score_before_unplayed_tiles_out_of_range_is_refused(match, player):
    from matches.services import MatchError, report_submit

    with pytest.raises(MatchError, match="out of range"):
        report_submit(
            actor=player.user, match=match, scores=[400, 300], pre_adjustment=[99999999999, None]
        )
    assert not match.reports.exists()
