"""A league's slug is unique within its campus (issue 50): the league keeps its season's
institution (`campus`), and every league's old address /leagues/<slug>/ is pinned to it."""

import django.db.models.deletion
from django.db import migrations, models


def fill_campus_and_pin(apps, schema_editor):
    League = apps.get_model("league", "League")
    OldLeagueAddress = apps.get_model("league", "OldLeagueAddress")
    Season = apps.get_model("accounts", "Season")
    League.objects.update(
        campus_id=models.Subquery(
            Season.objects.filter(pk=models.OuterRef("season_id")).values("institution_id")[:1]
        )
    )
    OldLeagueAddress.objects.bulk_create(
        OldLeagueAddress(slug=slug, league_id=pk)
        for pk, slug in League.objects.values_list("pk", "slug")
    )


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0012_campus_slugs"),
        ("league", "0028_pages_wanted"),
    ]

    operations = [
        migrations.CreateModel(
            name="OldLeagueAddress",
            fields=[
                ("slug", models.SlugField(primary_key=True, serialize=False)),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="league.league",
                    ),
                ),
            ],
        ),
        migrations.AddField(
            model_name="league",
            name="campus",
            field=models.ForeignKey(
                null=True,
                editable=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="accounts.institution",
            ),
        ),
        migrations.RunPython(fill_campus_and_pin, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="league",
            name="campus",
            field=models.ForeignKey(
                editable=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="accounts.institution",
            ),
        ),
        migrations.AlterField(
            model_name="league",
            name="slug",
            field=models.SlugField(
                help_text="Used in its public address, /<campus>/leagues/<slug>/; unique within the campus."
            ),
        ),
        migrations.AddConstraint(
            model_name="league",
            constraint=models.UniqueConstraint(
                fields=("campus", "slug"), name="league_slug_unique_per_campus"
            ),
        ),
    ]
