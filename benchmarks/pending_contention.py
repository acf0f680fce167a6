"""The pending-eligibility count under a roster import: what the database's triggers (migration
accounts 0009) cost the import, and whether anyone waits on the count meanwhile.

At the largest campus of a copy of a template: the registrar's whole roster (every student's
campus ID but those of 200 "bystanders") is imported in one transaction, as the director's
upload does, while another connection records ID checks of the bystanders one after another
and a third reads the dashboard's count. Reported: the import's time, and each ID check's and
each count's time during the import and before it (nothing running). Then the same import on a
second copy with the triggers switched off: the triggers' cost to the import.

Run by `run.py --ten-times`; on its own: `python benchmarks/pending_contention.py TEMPLATE`.
"""

import json
import os
import subprocess
import sys
import threading
import time

from harness import PY, ROOT, env, fresh_copy, say

BYSTANDERS = 200
TRIGGER_TABLES = [
    "accounts_playerprofile",
    "accounts_user",
    "accounts_user_groups",
    "accounts_eligibility",
    "accounts_season",
    "auth_group",
]


def measure(template_name: str) -> dict:
    results = {}
    for triggers in (True, False):
        database = fresh_copy(template_name)
        say(f"  roster import at the largest campus, triggers {'on' if triggers else 'off'}")
        output = subprocess.run(
            [PY, __file__, "--inside", "on" if triggers else "off"],
            cwd=ROOT,
            env=env(database),
            check=True,
            text=True,
            stdout=subprocess.PIPE,
            timeout=1800,
        ).stdout
        results["triggers_on" if triggers else "triggers_off"] = json.loads(
            output.strip().splitlines()[-1]
        )
    return results


def _inside(triggers: bool) -> dict:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django  # noqa: PLC0415

    django.setup()
    from django.db import connection  # noqa: PLC0415
    from django.db.models import Count  # noqa: PLC0415

    from accounts import roles  # noqa: PLC0415
    from accounts.models import Institution, PendingStudentsChange, PlayerProfile  # noqa: PLC0415
    from accounts.pending import pending_total  # noqa: PLC0415
    from accounts.selectors import current_season, pending_students  # noqa: PLC0415
    from accounts.services import id_check_record, roster_import  # noqa: PLC0415

    if not triggers:
        with connection.cursor() as cursor:
            for table in TRIGGER_TABLES:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
    institution = Institution.objects.annotate(students=Count("profiles")).order_by("-students")[0]
    season = current_season(institution)
    desk = (
        PlayerProfile.objects.filter(institution=institution, user__groups__name=roles.FRONT_DESK)
        .select_related("user")
        .first()
        .user
    )
    pending = list(pending_students(institution, season).order_by("pk")[:BYSTANDERS])
    bystander_ids = {profile.pk for profile in pending}
    campus_ids = [
        campus_id
        for pk, campus_id in institution.profiles.exclude(campus_id="").values_list(
            "pk", "campus_id"
        )
        if pk not in bystander_ids
    ]
    roster = ("campus_id\n" + "\n".join(campus_ids) + "\n").encode()
    pending_before = pending_total(institution.pk, season.pk)

    def checks(profiles, stop=None) -> list[float]:
        """ID checks one after another on their own connection, each timed (ms)."""
        times = []
        for profile in profiles:
            if stop is not None and stop.is_set():
                break
            began = time.perf_counter()
            id_check_record(actor=desk, profile=profile, season=season)
            times.append((time.perf_counter() - began) * 1000)
            if stop is not None:
                time.sleep(0.02)  # spread over the import
        connection.close()
        return times

    def counts(stop) -> list[float]:
        times = []
        while not stop.is_set():
            began = time.perf_counter()
            pending_total(institution.pk, season.pk)
            times.append((time.perf_counter() - began) * 1000)
            time.sleep(0.05)
        connection.close()
        return times

    quiet = checks(pending[:20])  # nothing else running
    stop = threading.Event()
    during: dict[str, list[float]] = {}
    threads = [
        threading.Thread(target=lambda: during.__setitem__("checks", checks(pending[20:], stop))),
        threading.Thread(target=lambda: during.__setitem__("counts", counts(stop))),
    ]
    began = time.perf_counter()
    importing = threading.Thread(
        target=lambda: during.__setitem__(
            "import", roster_import(actor=None, season=season, data=roster)
        )
    )
    importing.start()
    time.sleep(0.2)  # the import has begun writing
    for thread in threads:
        thread.start()
    importing.join()
    import_seconds = time.perf_counter() - began
    stop.set()
    for thread in threads:
        thread.join()
    connection.close()
    kept = pending_total(institution.pk, season.pk)
    live = pending_students(institution, season).count()
    return {
        "campus_students": len(campus_ids) + len(pending),
        "roster_rows": len(campus_ids),
        "newly_eligible": during["import"].newly_eligible,
        "pending_before": pending_before,
        "pending_after": kept,
        "count_right": (kept == live) if triggers else None,
        "count_rows": PendingStudentsChange.objects.filter(season=season).count(),
        "import_seconds": round(import_seconds, 2),
        "id_check_ms_quiet": _spread(quiet),
        "id_check_ms_during_import": _spread(during["checks"]),
        "count_ms_during_import": _spread(during["counts"]),
    }


def _spread(times: list[float]) -> dict:
    ordered = sorted(times)
    if not ordered:
        return {"n": 0}
    return {
        "n": len(ordered),
        "median": round(ordered[len(ordered) // 2], 1),
        "max": round(ordered[-1], 1),
    }


if __name__ == "__main__":
    if sys.argv[1:2] == ["--inside"]:
        print(json.dumps(_inside(sys.argv[2] == "on")))
    else:
        print(json.dumps(measure(sys.argv[1]), indent=2))
