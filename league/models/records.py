"""What the site keeps of its own work: the morning digest sent (once a day), each nightly run,
and each league's public pages as they are served (the read model)."""

from django.db import models
from django.db.models import Q
from django.utils import timezone

from accounts.models import Institution

from .leagues import League


class DigestLog(models.Model):
    """The morning digest went out for this institution and day: claimed before sending, so a
    second run of the night sends nothing new; it only queues again what was never delivered."""

    institution = models.ForeignKey(Institution, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    recipients = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    # Its messages in the outbox: a rerun of the night queues again those never delivered.
    email_ids = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["institution", "day"], name="one_digest_per_institution_and_day"
            ),
        ]

    def __str__(self):
        return f"Digest {self.institution.slug} {self.day}"


class NightlyRun(models.Model):
    """One night of the nightly pipeline for one institution: the day it acted as, the days it
    covered (more than one when nights were missed), when it started and finished and what the
    night did (``summary``: its totals, every run of it included, written after each step). The
    day is unique: a rerun of the same night reuses its row.

    It answers when the nightly last ran (the dashboard, the digest), which nights were missed
    (`covers_from` up to the day before `day`), and what a night did, which the digest reads
    back from the audit trail between the moments of `covers_from` and `day`."""

    institution = models.ForeignKey(Institution, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    covers_from = models.DateField(
        help_text="The first night this run covers: the day after the last finished run."
    )
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    summary = models.CharField(max_length=200, blank=True)
    erased = models.JSONField(
        default=dict,
        blank=True,
        help_text="What the night's retention erased (P5, league.retention.Erased), by kind.",
    )
    failures = models.JSONField(
        default=list,
        blank=True,
        help_text="The steps that failed in this night's last run, each a league's (its slug and "
        "name, the step, the reason in words; the error is in the log): the others went on.",
    )
    leased_by = models.CharField(
        max_length=120,
        blank=True,
        help_text="Who runs this night now (host, process); empty: nobody.",
    )
    lease_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Until when they hold it: longer than a task may run, so the lease of a worker "
        "that died runs out and the task Celery hands out again takes the night over.",
    )

    class Meta:
        ordering = ["-day"]
        constraints = [
            models.UniqueConstraint(
                fields=["institution", "day"], name="one_nightly_run_per_institution_and_day"
            ),
            models.CheckConstraint(
                condition=Q(covers_from__lte=models.F("day")), name="nightly_run_covers_up_to_day"
            ),
        ]

    def __str__(self):
        return f"Nightly {self.institution.slug} {self.day}"


class LeaguePage(models.Model):
    """A league's public pages as they are served: the standings and bracket pages' content (for
    the institution's members and, where the league is stricter in public, for everyone else) and
    their JSON (the public's names), rendered in the transaction that changes what they show (``league.pages``).

    A read model, not a timed cache: the only code that changes standings, brackets or a
    league's details also rewrites it. A result made final while another refresh of its league
    runs shows once that refresh and one more are done (``RefreshWanted``), typically within a
    second. Serving a page is then one query and the site's frame around it."""

    league = models.OneToOneField(
        League, on_delete=models.CASCADE, primary_key=True, related_name="page"
    )
    standings_html = models.TextField()
    standings_json = models.TextField()
    bracket_html = models.TextField()
    bracket_json = models.TextField()
    # An event's leaderboard content and event.json (E3); empty for other formats.
    event_html = models.TextField(blank=True, default="")
    event_json = models.TextField(blank=True, default="")
    # What readers who are not the institution's members see where the league names players
    # more strictly in public (P1); empty where they see the same as members.
    standings_html_public = models.TextField(blank=True, default="")
    bracket_html_public = models.TextField(blank=True, default="")
    event_html_public = models.TextField(blank=True, default="")
    rendered_at = models.DateTimeField()
    layout = models.CharField(
        max_length=12, help_text="Which version of the templates rendered it (league.pages.layout)."
    )

    def __str__(self):
        return f"Pages of {self.league}"


class RefreshWanted(models.Model):
    """A result became final in this league while another process was refreshing it: the
    standings and pages are to be rebuilt once more (``league.refresh.refresh_when_free``). The
    refresh that takes the row deletes it before it reads the results."""

    league = models.OneToOneField(
        League, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    wanted_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return f"Refresh of {self.league_id} wanted since {self.wanted_at}"


class PagesWanted(models.Model):
    """A card was counted into this league's standings row by row (``league.refresh``'s
    ``count_results``): its stored pages are to be rendered again, by beat's sweep within
    seconds, with every card counted meanwhile (or at once where tasks run in-process). The
    render that takes the row deletes it before it reads."""

    league = models.OneToOneField(
        League, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    wanted_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return f"Pages of {self.league_id} wanted since {self.wanted_at}"


class RefreshFailure(models.Model):
    """This league's standings, bracket or pages could not be refreshed since `since` (the last
    try at `failed_at`): a result, a join or the nightly went through, and what follows it
    failed for this league alone (``league.refresh``). Deleted by the next refresh that works;
    until then the league is wanted (``RefreshWanted``) and the dashboard says so in words.
    The error itself is in the log."""

    league = models.OneToOneField(
        League, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    step = models.CharField(max_length=20, help_text="standings, bracket or pages")
    reason = models.CharField(max_length=200)
    since = models.DateTimeField()
    failed_at = models.DateTimeField()

    def __str__(self):
        return f"{self.league_id}: {self.step} failing since {self.since}"


class OldLeagueAddress(models.Model):
    """A league's address from before each campus had its own (``/leagues/<slug>/``), pinned to
    the league that held it then: printed QR codes, subscribed calendars and bookmarks keep
    working through a permanent redirect, and no later league of the slug takes it over."""

    slug = models.SlugField(primary_key=True)
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")

    def __str__(self):
        return f"/leagues/{self.slug}/ → league {self.league_id}"
