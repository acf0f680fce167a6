"""Each campus's leagues live at /<campus>/leagues/ (issue 50): an institution whose slug is a
word the site's own addresses use gets a new one, printed here. Its leagues' old addresses
(/leagues/<slug>/) are pinned by league's migration 0029 and keep working."""

import accounts.models.institutions
from django.db import migrations, models

RESERVED = accounts.models.institutions.RESERVED_CAMPUS_SLUGS


def rename_reserved(apps, schema_editor):
    Institution = apps.get_model("accounts", "Institution")
    taken = set(Institution.objects.values_list("slug", flat=True))
    for institution in Institution.objects.filter(slug__in=sorted(RESERVED)).order_by("pk"):
        new = f"{institution.slug}-campus"
        number = 2
        while new in taken:
            new = f"{institution.slug}-campus-{number}"
            number += 1
        taken.add(new)
        print(f"\n  Institution {institution.name!r}: slug {institution.slug!r} is now {new!r}")
        institution.slug = new
        institution.save(update_fields=["slug"])


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0011_campus_sign_in"),
    ]

    operations = [
        migrations.RunPython(rename_reserved, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="institution",
            name="slug",
            field=models.SlugField(
                help_text="Begins its leagues' addresses: /<slug>/leagues/.",
                unique=True,
                validators=[accounts.models.institutions.validate_campus_slug],
            ),
        ),
    ]
