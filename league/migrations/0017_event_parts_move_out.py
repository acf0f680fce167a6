"""An event's own parts move to the events app (issue 29): league keeps no column that only an
event uses, and its picture of the six event models goes (their tables stay, under events:
``events/0001``, which copies the columns' values into its rows before this runs)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0016_volunteer_invitations"),
    ]

    operations = [
        migrations.RemoveField(
            model_name='entry',
            name='category',
        ),
        migrations.RemoveField(
            model_name='league',
            name='champion_category',
        ),
        migrations.RemoveField(
            model_name='entry',
            name='team',
        ),
        migrations.RemoveField(
            model_name='league',
            name='event_date',
        ),
        migrations.RemoveField(
            model_name='league',
            name='seats_per_table',
        ),
        migrations.RemoveField(
            model_name='league',
            name='short_team',
        ),
        migrations.RemoveField(
            model_name='league',
            name='team_size',
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='assistsale',
                    name='item',
                ),
                migrations.RemoveField(
                    model_name='assistsale',
                    name='entry',
                ),
                migrations.RemoveField(
                    model_name='assistsale',
                    name='league',
                ),
                migrations.RemoveField(
                    model_name='assistsale',
                    name='round',
                ),
                migrations.RemoveField(
                    model_name='assistsale',
                    name='sold_by',
                ),
                migrations.RemoveField(
                    model_name='assistsale',
                    name='voided_by',
                ),
                migrations.RemoveField(
                    model_name='eventcategory',
                    name='league',
                ),
                migrations.RemoveField(
                    model_name='eventscorer',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='eventscorer',
                    name='league',
                ),
                migrations.RemoveField(
                    model_name='eventscorer',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='roundperiod',
                    name='round',
                ),
                migrations.RemoveField(
                    model_name='team',
                    name='league',
                ),
                migrations.DeleteModel(
                    name='AssistItem',
                ),
                migrations.DeleteModel(
                    name='AssistSale',
                ),
                migrations.DeleteModel(
                    name='EventCategory',
                ),
                migrations.DeleteModel(
                    name='EventScorer',
                ),
                migrations.DeleteModel(
                    name='RoundPeriod',
                ),
                migrations.DeleteModel(
                    name='Team',
                ),
            ],
            database_operations=[],
        ),
    ]
