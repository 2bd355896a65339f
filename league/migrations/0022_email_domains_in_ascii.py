import contextlib

from django.conf import settings
from django.db import migrations
from django.utils.encoding import punycode


def ascii_domain(email):
    """`email` with its domain in ASCII (IDNA) and lower case, as
    league.services.normalized_email stores it from now on (written out here, as it is
    today: a migration does not follow the code)."""
    local, at, domain = email.rpartition("@")
    if not at:
        return email
    with contextlib.suppress(UnicodeError):
        domain = punycode(domain)
    return f"{local}@{domain.lower()}"


def normalize(apps, schema_editor):
    """The stored addresses (an account's, and one waiting for its confirmation) with
    their domains in ASCII, lower case: x@Bücher.example and x@xn--bcher-kva.example were
    two addresses to the reset links and their counts. Nothing else is written."""
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Player = apps.get_model("league", "Player")
    for model, field in ((User, "email"), (Player, "pending_email")):
        for pk, email in model.objects.exclude(**{field: ""}).values_list("pk", field):
            if (normal := ascii_domain(email)) != email:
                model.objects.filter(pk=pk).update(**{field: normal})


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0021_reminder_tries'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # Back: the addresses stay in ASCII, which the earlier code read as well.
        migrations.RunPython(normalize, migrations.RunPython.noop),
    ]
