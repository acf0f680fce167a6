"""The event's own parts move into this app (issue 29: each format in its own home).

Six models that were league's (categories, teams, the rounds' periods, volunteer scorers, the
assists and their sales) come here with their tables and rows: only Django's picture of them
moves (SeparateDatabaseAndState), the tables keep their names. The event-only columns of
league's own tables become rows of this app's: a league's day, seats per table, team size and
champion category an ``Event``; an entry's category and team an ``Entrant``. The rows are copied
here before league drops the columns (``run_before`` league 0017), so league's migrations never
name this app. ``RoundCards`` (a round's printed cards) is new."""

import django.core.validators
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

COPY_FORWARD = [
    """
    INSERT INTO events_event
        (league_id, date, seats_per_table, team_size, short_team, champion_category_id)
    SELECT id, event_date, seats_per_table, team_size, short_team, champion_category_id
    FROM league_league WHERE format = 'event'
    """,
    """
    INSERT INTO events_entrant (entry_id, category_id, team_id)
    SELECT entry.id, entry.category_id, entry.team_id
    FROM league_entry entry JOIN league_league league ON league.id = entry.league_id
    WHERE league.format = 'event'
    """,
]


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("league", "0016_volunteer_invitations"),
        ("accounts", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]
    # Copy the columns before league drops them.
    run_before = [("league", "0017_event_parts_move_out")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='AssistItem',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=60)),
                        ('first_cents', models.PositiveIntegerField()),
                        ('later_cents', models.PositiveIntegerField()),
                        ('position', models.PositiveSmallIntegerField(default=0)),
                        ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='assist_items', to='league.league')),
                    ],
                    options={
                        'db_table': 'league_assistitem',
                        'ordering': ['league', 'position', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='AssistSale',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('quantity', models.PositiveSmallIntegerField(validators=[django.core.validators.MinValueValidator(1)])),
                        ('unit_cents', models.PositiveIntegerField()),
                        ('sold_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('voided_at', models.DateTimeField(blank=True, null=True)),
                        ('void_reason', models.CharField(blank=True, max_length=300)),
                        ('entry', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='assist_sales', to='league.entry')),
                        ('item', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='sales', to='events.assistitem')),
                        ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='assist_sales', to='league.league')),
                        ('round', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='assist_sales', to='league.round')),
                        ('sold_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('voided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'league_assistsale',
                        'ordering': ['league', 'sold_at', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='EventCategory',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=60)),
                        ('pairing_group', models.CharField(help_text='Categories with the same group are paired together.', max_length=60)),
                        ('turn_seconds', models.PositiveSmallIntegerField(blank=True, help_text='Per-turn limit (G8), e.g. 150 for 2:30; empty: untimed.', null=True)),
                        ('position', models.PositiveSmallIntegerField(default=0)),
                        ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='categories', to='league.league')),
                    ],
                    options={
                        'verbose_name_plural': 'event categories',
                        'db_table': 'league_eventcategory',
                        'ordering': ['league', 'position', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='EventScorer',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=150)),
                        ('email', models.EmailField(help_text='The address invited, lower-cased.', max_length=254)),
                        ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                        ('created_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='scorers', to='league.league')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='scorer_for', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'league_eventscorer',
                    },
                ),
                migrations.CreateModel(
                    name='RoundPeriod',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveSmallIntegerField()),
                        ('starts', models.TimeField(help_text='Local time at the institution.')),
                        ('minutes', models.PositiveSmallIntegerField(validators=[django.core.validators.MinValueValidator(1)])),
                        ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='periods', to='league.round')),
                    ],
                    options={
                        'db_table': 'league_roundperiod',
                        'ordering': ['round', 'number'],
                    },
                ),
                migrations.CreateModel(
                    name='Team',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=120)),
                        ('league', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='teams', to='league.league')),
                    ],
                    options={
                        'db_table': 'league_team',
                        'ordering': ['league', 'name'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='assistitem',
                    constraint=models.UniqueConstraint(fields=('league', 'name'), name='assist_item_name_unique'),
                ),
                migrations.AddConstraint(
                    model_name='assistsale',
                    constraint=models.CheckConstraint(condition=models.Q(('quantity__gte', 1)), name='assist_sale_quantity_1_up'),
                ),
                migrations.AddConstraint(
                    model_name='assistsale',
                    constraint=models.CheckConstraint(condition=models.Q(('voided_at__isnull', True), models.Q(('void_reason', ''), _negated=True), _connector='OR'), name='assist_sale_void_has_reason'),
                ),
                migrations.AddConstraint(
                    model_name='eventcategory',
                    constraint=models.UniqueConstraint(fields=('league', 'name'), name='category_name_unique'),
                ),
                migrations.AddConstraint(
                    model_name='eventscorer',
                    constraint=models.UniqueConstraint(fields=('league', 'email'), name='one_invitation_per_address'),
                ),
                migrations.AddConstraint(
                    model_name='eventscorer',
                    constraint=models.UniqueConstraint(condition=models.Q(('user__isnull', False)), fields=('league', 'user'), name='one_scorer_row_per_event'),
                ),
                migrations.AddConstraint(
                    model_name='roundperiod',
                    constraint=models.UniqueConstraint(fields=('round', 'number'), name='period_number_unique'),
                ),
                migrations.AddConstraint(
                    model_name='team',
                    constraint=models.UniqueConstraint(fields=('league', 'name'), name='team_name_unique'),
                ),
            ],
            database_operations=[],
        ),
        migrations.CreateModel(
            name='RoundCards',
            fields=[
                ('round', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='cards', serialize=False, to='league.round')),
                ('printed_at', models.DateTimeField(help_text="When the round's score cards were last printed.")),
                ('seating_changed_after_print', models.BooleanField(default=False, help_text="Paired again or swapped after its cards were printed: the scoring table asks for the players' numbers on each card.")),
            ],
            options={
                'verbose_name_plural': 'round cards',
            },
        ),
        migrations.CreateModel(
            name='Event',
            fields=[
                ('league', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='event', serialize=False, to='league.league')),
                ('date', models.DateField(blank=True, help_text="The event's day.", null=True)),
                ('seats_per_table', models.PositiveSmallIntegerField(default=2, help_text='Seats per table (2 to 4).', validators=[django.core.validators.MinValueValidator(2), django.core.validators.MaxValueValidator(4)])),
                ('team_size', models.PositiveSmallIntegerField(blank=True, help_text='The team size (E5), empty for no fixed size.', null=True)),
                ('short_team', models.CharField(choices=[('sum', "The plain sum of its members' scores"), ('average_fill', "Each empty place counts its members' average")], default='sum', max_length=12)),
                ('champion_category', models.ForeignKey(blank=True, help_text="Whose first place is the event's champion (E3: Competitive).", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='events.eventcategory')),
            ],
        ),
        migrations.CreateModel(
            name='Entrant',
            fields=[
                ('entry', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='entrant', serialize=False, to='league.entry')),
                ('category', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='entrants', to='events.eventcategory')),
                ('team', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='entrants', to='events.team')),
            ],
        ),
        # Backwards, league's columns come back empty: its own 0017 re-adds them; nothing is
        # copied back (an event rolled back this far is re-created from its settings file).
        migrations.RunSQL(COPY_FORWARD, migrations.RunSQL.noop),
    ]
