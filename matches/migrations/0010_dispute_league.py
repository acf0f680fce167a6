"""Each dispute carries its match's league (issue 18: the director's dispute queue and its count
read an institution's waiting disputes from an index instead of joining every one through its
report and match). Added empty and filled from each dispute's match here; required in 0011, a
migration of its own, as PostgreSQL will not alter a table with the fill's foreign-key checks
still pending in the same transaction."""

import django.db.models.deletion
from django.db import migrations, models


def fill_league(apps, schema_editor):
    Dispute = apps.get_model("matches", "Dispute")
    ResultReport = apps.get_model("matches", "ResultReport")
    league_of_report = ResultReport.objects.filter(pk=models.OuterRef("report_id")).values(
        "match__league_id"
    )[:1]
    Dispute.objects.update(league_id=models.Subquery(league_of_report))


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0015_format_labels_in_words"),
        ("matches", "0009_dispute_queue_order"),
    ]

    operations = [
        migrations.AddField(
            model_name="dispute",
            name="league",
            field=models.ForeignKey(
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="league.league",
            ),
        ),
        migrations.RunPython(fill_league, migrations.RunPython.noop),
    ]
