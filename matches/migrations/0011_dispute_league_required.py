"""Each dispute's league, filled by 0010, is now required, with the index the director's queue
counts from."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0010_dispute_league"),
    ]

    operations = [
        migrations.AlterField(
            model_name="dispute",
            name="league",
            field=models.ForeignKey(
                editable=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="league.league",
            ),
        ),
        migrations.AddIndex(
            model_name="dispute",
            index=models.Index(
                condition=models.Q(("resolved_at__isnull", True)),
                fields=["league"],
                name="dispute_waiting_by_league",
            ),
        ),
    ]
