"""Seat.awaited: whether the live match waits for the seat's decision, written with each
append from now on and, here, for the matches already live (replayed by the engine; a
match whose stream its game no longer replays is left unmarked, as its page shows it)."""

from django.db import migrations, models


def mark_awaited(apps, schema_editor):
    from engine import registry
    from engine.protocol import Event, PendingKind

    Match = apps.get_model("matches", "Match")
    MatchEvent = apps.get_model("matches", "MatchEvent")
    Seat = apps.get_model("matches", "Seat")
    games = registry.games()
    for match in Match.objects.filter(status="active").iterator():
        rules = games.get(match.game)
        if rules is None or match.rules_version != rules.spec.rules_version:
            continue
        try:
            state = rules.start(match.options, match.n_seats)
            for row in MatchEvent.objects.filter(match=match).order_by("seq").iterator():
                stored = ({"kind": "decision", "seat": row.seat,
                           "action": row.payload["action"]} if row.kind == "decision"
                          else {"kind": "chance", "outcome": row.payload["outcome"]})
                state = rules.apply(state, Event.from_json(stored))
            pending = rules.pending(state)
        except Exception:  # a stream the rules refuse: its page says so, unmarked
            continue
        if pending.kind is PendingKind.DECISION:
            Seat.objects.filter(match=match, index__in=list(pending.seats)).update(awaited=True)


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0006_rules_version'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='awaited',
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_awaited, migrations.RunPython.noop),
    ]
