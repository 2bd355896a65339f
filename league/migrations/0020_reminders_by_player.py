from django.db import migrations


def people(entrant):
    """The pks of the players of an entry: its own, or its team's members."""
    if entrant.player_id is not None:
        return [entrant.player_id]
    if entrant.team_id is not None:
        return list(entrant.team.members.order_by("pk").values_list("pk", flat=True))
    return []


def reminded_players(apps, schema_editor):
    """`Event.reminded` by player, from by entry: each player of an entry reminded (its own,
    a team's members) holds its stamp, so nobody is mailed again. A player entered alone
    and in a team holds the stamp of their entry first by key."""
    Event = apps.get_model("league", "Event")
    Entrant = apps.get_model("league", "Entrant")
    for event in Event.objects.exclude(reminded={}):
        players: dict[str, str] = {}
        for entrant in (Entrant.objects.filter(event=event, key__in=list(event.reminded))
                        .order_by("key")):
            for pk in people(entrant):
                players.setdefault(str(pk), event.reminded[entrant.key])
        event.reminded = players
        event.save(update_fields=["reminded"])


def reminded_entries(apps, schema_editor):
    """Back: each entry holds the stamp of its first player reminded."""
    Event = apps.get_model("league", "Event")
    Entrant = apps.get_model("league", "Entrant")
    for event in Event.objects.exclude(reminded={}):
        entries: dict[str, str] = {}
        for entrant in Entrant.objects.filter(event=event).order_by("key"):
            stamps = [event.reminded[str(pk)] for pk in people(entrant)
                      if str(pk) in event.reminded]
            if stamps:
                entries[entrant.key] = stamps[0]
        event.reminded = entries
        event.save(update_fields=["reminded"])


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0019_player_time_zone"),
    ]

    operations = [
        migrations.RunPython(reminded_players, reminded_entries),
    ]
