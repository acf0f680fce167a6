"""`league` follows what other apps announce (docs/design.md: matches never imports league)."""

from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver

from accounts.models import Institution
from accounts.signals import forgotten, names_changed, ruled_ineligible
from matches.signals import results_finalised

from . import tasks
from .models import Entry, League
from .rating_runs import finished_whole_periods
from .refresh import count_cards, refresh_leagues, refresh_when_free, render_after_commit
from .schedules import sync_nightly_schedule
from .services import forgotten_players_leave, ineligibility_forfeits
from .standings import LEAGUE_SETTINGS


@receiver(results_finalised)
def keep_standings_and_brackets_live(sender, league_ids, match_ids=(), **kwargs):
    """A result became final: that league's standings, bracket and pages follow at once, or,
    while another request is refreshing them, as soon as that refresh is done (a hall's burst
    of cards: ``refresh.refresh_when_free``). A card counted at an event (final for the first
    time) counts into its players' rows alone and its pages follow within seconds
    (``refresh.count_cards``). An event whose every result is now final is rated at once (R2),
    by a worker once this commits."""

    refresh_when_free(count_cards(league_ids, match_ids))
    for institution_id, league_id in finished_whole_periods(league_ids):
        transaction.on_commit(partial(tasks.ask_to_rate, institution_id, [league_id]), robust=True)


@receiver(ruled_ineligible)
def settle_the_matches_of_an_ineligible_player(sender, profile, season, actor, reason, **kwargs):
    """L10: a player ruled ineligible mid-season forfeits what they have left to play."""

    ineligibility_forfeits(actor=actor, player=profile, season=season)


@receiver(pre_save, sender="league.League")
def note_a_change_to_the_standings_settings(sender, instance, **kwargs):
    """The forfeit spreads are in every forfeit's spread: compare them with the stored league."""

    stored = None
    if instance.pk is not None:
        stored = sender.objects.filter(pk=instance.pk).values(*LEAGUE_SETTINGS).first()
    instance._standings_settings_changed = stored is not None and any(
        stored[name] != getattr(instance, name) for name in LEAGUE_SETTINGS
    )


@receiver(post_save, sender="league.League")
def render_an_edited_leagues_pages(sender, instance, **kwargs):
    """Its name, season or spreads show on its pages; a new spread changes its standings too,
    rebuilt in the transaction of the edit."""

    if getattr(instance, "_standings_settings_changed", False):
        refresh_leagues([instance.pk])
    else:
        render_after_commit([instance.pk])


@receiver(post_save, sender="accounts.Season")
def render_the_pages_of_an_edited_season(sender, instance, **kwargs):
    """The season's name shows on its leagues' pages."""

    render_after_commit(lambda: list(instance.leagues.values_list("pk", flat=True)))


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def render_the_pages_of_a_renamed_player(sender, instance, update_fields=None, **kwargs):
    """Players' names show on their leagues' pages. A login saves only ``last_login``: skipped."""
    if update_fields is not None and not {"first_name", "last_name"} & set(update_fields):
        return

    render_after_commit(
        lambda: list(
            Entry.objects.filter(player__user_id=instance.pk).values_list("league_id", flat=True)
        )
    )


# What a profile's save may change that its leagues' pages show: a guest's name, withholding.
SHOWN_PROFILE_FIELDS = ("display_name", "withholds_name", "registrar_withholds")


@receiver(pre_save, sender="accounts.PlayerProfile")
def note_a_change_to_a_shown_profile(sender, instance, update_fields=None, **kwargs):
    if update_fields is not None and not set(SHOWN_PROFILE_FIELDS) & set(update_fields):
        instance._shown_changed = False
        return
    stored = None
    if instance.pk is not None:
        stored = sender.objects.filter(pk=instance.pk).values(*SHOWN_PROFILE_FIELDS).first()
    instance._shown_changed = stored is not None and any(
        stored[name] != getattr(instance, name) for name in SHOWN_PROFILE_FIELDS
    )


@receiver(post_save, sender="accounts.PlayerProfile")
def render_the_pages_of_a_profile_shown_anew(sender, instance, **kwargs):
    """A guest renamed (in the admin, say) or a name withheld by any path: their leagues' pages
    follow, whoever saved the profile."""
    if getattr(instance, "_shown_changed", False):
        render_after_commit(
            lambda: list(
                Entry.objects.filter(player_id=instance.pk).values_list("league_id", flat=True)
            )
        )


@receiver(forgotten)
def forgotten_players_leave_their_leagues(sender, profile_ids, actor=None, **kwargs):
    """P4: a forgotten player waits for no place and leaves every league still to play as a
    withdrawal does: the place goes to the first waiting, the games left to the opponents."""
    forgotten_players_leave(profile_ids=profile_ids, actor=actor)


@receiver(names_changed)
def render_the_pages_of_players_named_anew(sender, profile_ids, **kwargs):
    """A name withheld, released or forgotten (P2, P4) shows on those players' leagues' pages."""
    ids = list(profile_ids)
    render_after_commit(
        lambda: list(Entry.objects.filter(player_id__in=ids).values_list("league_id", flat=True))
    )


@receiver(pre_save, sender=Institution)
def note_a_change_to_public_names(sender, instance, **kwargs):
    stored = sender.objects.filter(pk=instance.pk).values_list("public_names", flat=True).first()
    instance._public_names_changed = stored is not None and stored != instance.public_names


@receiver(post_save, sender=Institution)
def render_the_pages_of_an_institution_named_anew(sender, instance, **kwargs):
    """How the institution names players in public (P1) shows on every page of its leagues."""
    if getattr(instance, "_public_names_changed", False):
        render_after_commit(
            lambda: list(
                League.objects.filter(season__institution=instance).values_list("pk", flat=True)
            )
        )


@receiver(post_save, sender=Institution)
def schedule_the_nightly_run(sender, instance, **kwargs):

    sync_nightly_schedule(instance)
