"""One process of the concurrency check: submit the results of the given matches (each by its
first seat, as the winner) and print a JSON line of which ones the service accepted."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from core.errors import DomainError  # noqa: E402
from matches.models import Match, Seat  # noqa: E402
from matches.services import report_submit  # noqa: E402

accepted, refused = [], []
for match_id in map(int, sys.argv[1:]):
    match = Match.objects.get(pk=match_id)
    winner = Seat.objects.select_related("player__user").get(match=match, order=1).player.user
    try:
        # Some were agreed for a time still to come: the players say they played earlier.
        report_submit(actor=winner, match=match, scores=[420, 380], played_earlier=True)
        accepted.append(match_id)
    except DomainError as error:
        refused.append([match_id, error.message])
print(json.dumps({"accepted": accepted, "refused": refused}))
