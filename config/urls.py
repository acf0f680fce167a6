from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path, register_converter
from django.views.generic import RedirectView

from accounts import views as accounts_views
from events.views import offline as event_offline
from events.views import slips as event_slips
from league import views as league_views
from league.addresses import LeagueAddressConverter
from league.views import addresses, director_draw, director_exports, director_rounds, settings_files
from league.views import director as league_director
from league.views import ratings as league_ratings


class FaviconRedirect(RedirectView):
    """Browsers ask for /favicon.ico whatever the page links: send them to the site's icon."""

    permanent = True

    def get_redirect_url(self, *args, **kwargs):
        return static("favicon.svg")


# A league's public pages: /<campus>/leagues/<slug>/… (league/addresses.py).
register_converter(LeagueAddressConverter, "league")

urlpatterns = [
    path("favicon.ico", FaviconRedirect.as_view()),
    # The scoring table's service worker: served from the root, its scope covers the events.
    path("offline-worker.js", event_offline.offline_worker, name="offline_worker"),
    path("admin/", admin.site.urls),
    # Before allauth's own: the signup that turns a campus ID taken at the last moment into a message.
    path("accounts/signup/", accounts_views.signup, name="account_signup"),
    path("accounts/", include("allauth.urls")),
    # An entrant's own slip (S4): the address names no league.
    path("slip/", event_slips.slip_code, name="slip_code"),
    path("slip/<str:token>/", event_slips.slip_page, name="slip_page"),
    # A signed-in student's own campus's leagues; anyone else's, every campus's public ones.
    path("leagues/", league_views.league_list, name="league_list"),
    # Addresses from before each campus had its own, pinned to the league that held them.
    path("leagues/<slug:slug>/", addresses.old_address, name="old_league_address"),
    path("leagues/<slug:slug>/<path:rest>", addresses.old_address, name="old_league_page"),
    path("director/", league_director.dashboard, name="director_dashboard"),
    path("director/events/new/", settings_files.league_file_setup, name="event_setup"),
    path(
        "director/events/new/<slug:kind>/",
        settings_files.league_setup_form,
        name="league_setup_form",
    ),
    path("director/disputes/", league_director.disputes, name="director_disputes"),
    path("director/leagues/<slug:slug>/", director_rounds.director_league, name="director_league"),
    path(
        "director/leagues/<slug:slug>/draw/",
        director_draw.league_draw,
        name="director_league_draw",
    ),
    path(
        "director/leagues/<slug:slug>/rounds/<int:number>/extend/",
        director_rounds.round_extend,
        name="director_round_extend",
    ),
    path(
        "director/leagues/<slug:slug>/rounds/<int:number>/rule/",
        director_rounds.round_rule,
        name="director_round_rule",
    ),
    path("director/export/roster.csv", director_exports.export_roster, name="export_roster"),
    path(
        "director/export/<slug:slug>/standings.csv",
        director_exports.export_standings,
        name="export_standings",
    ),
    path(
        "director/export/<slug:slug>/results.csv",
        director_exports.export_results,
        name="export_results",
    ),
    path("director/exports/", director_exports.exports, name="director_exports"),
    path("matches/", include("matches.urls")),
    # Served by league, which reads every app's rows about the person; linked from /profile/.
    path("profile/my-data.json", league_views.my_data, name="my_data"),
    path("ratings/", league_ratings.rating_list, name="rating_list"),
    path("ratings/import/", league_ratings.ratings_import_page, name="ratings_import"),
    path("", league_views.home, name="home"),
    path("<slug:campus>/leagues/", addresses.campus_leagues, name="campus_leagues"),
    path("", include("clubs.urls")),
    path("", include("events.urls")),
    path("", include("league.urls")),
    path("", include("accounts.urls")),
]
