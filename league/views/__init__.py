"""League's pages by audience: public (`public`: a league, its standings, bracket, calendar and
words), the home page (`home`), a signed-in student's (`students`: the leagues list, joining, the waitlist,
withdrawing, their own data) and the director's (`director`, `director_exports`,
`director_rounds`, `settings_files`, reached by their module from the URLs)."""

from .home import home
from .public import (
    league_bracket,
    league_bracket_json,
    league_calendar_feed,
    league_detail,
    league_page_context,
    league_standings,
    league_standings_json,
    two_letter_words,
)
from .students import (
    LEAGUES_PER_PAGE,
    league_join_view,
    league_list,
    league_waitlist_leave_view,
    league_waitlist_view,
    league_withdraw_view,
    my_data,
)

__all__ = [
    "LEAGUES_PER_PAGE",
    "home",
    "league_bracket",
    "league_bracket_json",
    "league_calendar_feed",
    "league_detail",
    "league_join_view",
    "league_list",
    "league_page_context",
    "league_standings",
    "league_standings_json",
    "league_waitlist_leave_view",
    "league_waitlist_view",
    "league_withdraw_view",
    "my_data",
    "two_letter_words",
]
