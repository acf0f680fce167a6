"""Volunteers are invited by name and address (issue 28): each EventScorer row keeps the name and
the address the director gave, and its user may be empty (an address whose account belongs to
another institution is never attached). Existing rows take their user's name and address."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import Q


def fill_name_and_email(apps, schema_editor):
    EventScorer = apps.get_model("league", "EventScorer")
    for scorer in EventScorer.objects.select_related("user"):
        user = scorer.user
        scorer.email = user.email.lower()
        scorer.name = f"{user.first_name} {user.last_name}".strip() or user.email
        scorer.save(update_fields=["email", "name"])


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0015_format_labels_in_words"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="eventscorer",
            name="name",
            field=models.CharField(default="", max_length=150),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="eventscorer",
            name="email",
            field=models.EmailField(
                default="", help_text="The address invited, lower-cased.", max_length=254
            ),
            preserve_default=False,
        ),
        migrations.RunPython(fill_name_and_email, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="eventscorer", name="one_scorer_row_per_event"),
        migrations.AlterField(
            model_name="eventscorer",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="scorer_for",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddConstraint(
            model_name="eventscorer",
            constraint=models.UniqueConstraint(
                fields=("league", "email"), name="one_invitation_per_address"
            ),
        ),
        migrations.AddConstraint(
            model_name="eventscorer",
            constraint=models.UniqueConstraint(
                condition=Q(user__isnull=False),
                fields=("league", "user"),
                name="one_scorer_row_per_event",
            ),
        ),
    ]
