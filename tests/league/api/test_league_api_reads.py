"""League reads: who may read, Events and their filters, the bracket, standings, records,
teams, and the OpenAPI schema."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from league_api_helpers import GAME, ROLES, first_link
from rest_framework.test import APIClient

from league import events
from league.models import Entrant, Event, EventMatch, Season, Standing, Team
from league.services import player_for
from matches.models import Match

pytestmark = pytest.mark.django_db

READS = [
    "/api/seasons/", "/api/seasons/{season}/", "/api/seasons/{season}/standings/",
    "/api/events/", "/api/events/{event}/", "/api/events/{event}/bracket/",
    "/api/events/{event}/standings/", "/api/events/{event}/records/",
    "/api/players/", "/api/players/{player}/", "/api/players/{player}/matches/",
    "/api/players/{player}/ratings/", "/api/players/{player}/ratings/history/",
    "/api/teams/", "/api/teams/{team}/",
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("path", READS)
def test_who_may_read(as_role: Callable[[str], APIClient], running_event: Event,
                      season: Season, player: Any, path: str, role: str) -> None:
    team = Team.objects.create(name="Reds")
    url = path.format(season=season.pk, event=running_event.pk, team=team.pk,
                      player=player_for(player).pk)
    response = as_role(role).get(url)
    assert response.status_code == (401 if role == "anonymous" else 200), response.content
    if role == "anonymous":
        assert response.json()["code"] == "not_authenticated"


@pytest.mark.parametrize("path", ["seasons", "events", "players", "teams"])
def test_an_unknown_id_is_404_with_a_code(outsider_api: APIClient, path: str) -> None:
    response = outsider_api.get(f"/api/{path}/999999/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_events_are_filtered_by_season_game_and_status(
        outsider_api: APIClient, organizer: Any, season: Season, draft_event: Event,
        running_event: Event) -> None:
    loose = events.create_event(name="Open", game="superstar_showdown", format="swiss",
                                by=organizer)

    def found(query: str) -> set[int]:
        response = outsider_api.get(f"/api/events/?{query}")
        assert response.status_code == 200, response.content
        return {e["id"] for e in response.json()["results"]}

    assert found("") == {draft_event.pk, running_event.pk, loose.pk}
    assert found(f"season={season.pk}") == {draft_event.pk, running_event.pk}
    assert found("game=superstar_showdown") == {loose.pk}
    assert found("status=running") == {running_event.pk}
    assert found(f"status=draft&season={season.pk}") == {draft_event.pk}
    assert outsider_api.get("/api/events/?status=paused").status_code == 400


def test_an_event_shows_its_entrants_format_and_options(outsider_api: APIClient,
                                                        running_event: Event) -> None:
    data = outsider_api.get(f"/api/events/{running_event.pk}/").json()
    assert (data["status"], data["format"], data["game"]) == ("running", "round_robin", GAME)
    assert data["organizers"] == ["organizer"]
    assert isinstance(data["format_options"], dict) and isinstance(data["match_options"], dict)
    assert [(e["key"], e["name"], e["bot"]) for e in data["entrants"]] == [
        ("e1", "Bot 1", "random"), ("e2", "Bot 2", "heuristic"),
        ("e3", "Bot 3", "random"), ("e4", "Bot 4", "heuristic")]
    assert [e["seed"] for e in data["entrants"]] == [1, 2, 3, 4]


def test_a_drafts_settings_change_is_answered_shown_and_recorded(
        organizer_api: APIClient, outsider_api: APIClient, draft_event: Event) -> None:
    """What the organizer sent replaces the Event's, what they left out is kept, and every
    reader sees the new settings and the record that changed them."""
    url = f"/api/events/{draft_event.pk}/"
    seq = outsider_api.get(url).json()["seq"]
    answer = organizer_api.post(f"{url}settings/", {
        "format": "swiss", "format_options": {"rounds": 2}, "turn_deadline_minutes": 20,
        "expected_seq": seq}, format="json")
    assert answer.status_code == 200, answer.content
    data = outsider_api.get(url).json()
    assert data == answer.json()
    assert (data["format"], data["format_options"]["rounds"], data["match_options"],
            data["turn_deadline_minutes"], data["deadline_policy"], data["seq"]) == (
        "swiss", 2, {"best_of": 1}, 20, "bot", seq + 1)
    (record,) = [r for r in outsider_api.get(f"{url}records/").json()["results"]
                 if r["kind"] == "settings_changed"]
    assert (record["seq"], record["actor"], record["payload"]["format"],
            record["payload"]["was"]["format"]) == (seq + 1, "organizer", "swiss",
                                                    "round_robin")
    described = organizer_api.options(f"{url}settings/").json()["actions"]["POST"]
    assert {"format", "format_options", "match_options", "turn_deadline_minutes",
            "deadline_policy", "deadline_bot", "expected_seq"} <= set(described)


def test_a_draft_has_an_empty_bracket_and_no_standings(outsider_api: APIClient,
                                                       draft_event: Event) -> None:
    assert outsider_api.get(f"/api/events/{draft_event.pk}/bracket/").json() == []
    assert outsider_api.get(f"/api/events/{draft_event.pk}/standings/").json() == []


def test_a_pods_bracket_names_every_entrant_a_forfeit_put_out(
        outsider_api: APIClient, organizer: Any, player: Any, player2: Any,
        outsider: Any) -> None:
    """A Royal Rumble pod of three (RR-34/55 and the forfeit decision of
    engine/games/royal_rumble): olga's forfeit puts her out, alice's leaves bruno, who
    wins. The bracket named olga alone (`forfeit`); `forfeits` names both, in order."""
    event = events.create_event(name="Trio", game="royal_rumble", format="heats",
                                by=organizer, format_options={"pod_size": 3})
    for user in (player, player2, outsider):
        events.add_entrant(event=event, by=organizer, player=user.username)
    events.seed_event(event=event, by=organizer, method="hand", order=["e1", "e2", "e3"])
    events.start_event(event=event, by=organizer)
    link = first_link(event)
    for key in ("e3", "e1"):
        events.forfeit(event=event, by=organizer, pairing=link.pairing, entrant=key)
    assert events.record_match_result(match=Match.objects.get(pk=link.match_id))
    (pod,) = outsider_api.get(f"/api/events/{event.pk}/bracket/").json()
    assert (pod["result"], pod["forfeit"], pod["forfeits"]) == (
        {"e1": 2, "e2": 1, "e3": 3}, "e3", ["e3", "e1"])


def test_an_elimination_bracket_shows_the_slots_still_to_be_decided(
        outsider_api: APIClient, organizer: Any, make_event: Callable[..., Event],
        finish: Callable[..., None]) -> None:
    event = make_event("single_elimination")
    events.start_event(event=event, by=organizer)
    semi = first_link(event)
    finish(semi, semi.entrants[1])
    bracket = outsider_api.get(f"/api/events/{event.pk}/bracket/").json()
    assert len(bracket) == 3
    played, waiting = (next(p for p in bracket if p["pairing"] == semi.pairing),
                       next(p for p in bracket if p["round"] == 2))
    assert played["match_status"] == "finished"
    assert played["result"] == {semi.entrants[0]: 1, semi.entrants[1]: 2}
    assert played["forfeit"] == semi.entrants[1]
    assert [s["place"] for s in played["slots"]] == [1, 2]
    assert (waiting["match"], waiting["match_status"], waiting["result"]) == (None, None, None)
    # The semifinal's winner is named at once; the other slot names its source.
    assert [s["entrant"] for s in waiting["slots"]] == [semi.entrants[0], None]
    assert [s["source"] for s in waiting["slots"]] == ["winner of W1-1", "winner of W1-2"]
    assert [s["state"] for s in waiting["slots"]] == ["filled", "pending"]
    assert [s["state"] for s in played["slots"]] == ["filled", "filled"]


def test_a_bracket_slot_known_empty_reads_empty_not_pending(
        outsider_api: APIClient, organizer: Any, make_event: Callable[..., Event],
        finish: Callable[..., None]) -> None:
    """A bye and the winner of a semifinal nobody won are empty for good, where a slot
    whose match is still to be played waits: both read `entrant: null` with a source."""
    def states(event: Event) -> dict[str, list[tuple[str | None, str]]]:
        bracket = outsider_api.get(f"/api/events/{event.pk}/bracket/").json()
        return {p["pairing"]: [(s["entrant"], s["state"]) for s in p["slots"]]
                for p in bracket}

    three = make_event("single_elimination", bots=3)
    events.start_event(event=three, by=organizer)
    assert states(three)["W1-1"][1] == (None, "empty")  # seed 4 of 3: a bye
    top = Entrant.objects.get(event=three, seed=1).key
    assert states(three)["W2-1"] == [(top, "filled"), (None, "pending")]  # the bye's winner
    four = make_event("single_elimination", bots=4)
    events.start_event(event=four, by=organizer)
    semi = EventMatch.objects.get(event=four, pairing="W1-1")
    finish(semi, semi.entrants[1])
    events.correct_result(event=four, by=organizer, pairing="W1-1",
                          placements=dict.fromkeys(semi.entrants, 2))
    assert states(four)["W1-1"] == [(semi.entrants[0], "filled"), (semi.entrants[1], "filled")]
    assert states(four)["W2-1"] == [(None, "empty"), (None, "pending")]
    finish(other := EventMatch.objects.get(event=four, pairing="W1-2"), other.entrants[1])
    assert states(four)["W2-1"] == [(None, "empty"), (other.entrants[0], "filled")]
    schema = outsider_api.get("/api/schema/")
    assert b"SlotStateEnum" in schema.content


def _slots(api: APIClient, event: Event) -> dict[str, list[tuple[str | None, str]]]:
    bracket = api.get(f"/api/events/{event.pk}/bracket/").json()
    return {p["pairing"]: [(s["entrant"], s["state"]) for s in p["slots"]] for p in bracket}


def _keys(event: Event) -> list[str]:
    return list(Entrant.objects.filter(event=event).order_by("seed").values_list("key",
                                                                                 flat=True))


def test_a_byes_winner_is_named_in_the_next_round_while_its_other_slot_waits(
        outsider_api: APIClient, organizer: Any, make_event: Callable[..., Event]) -> None:
    """Of three, the top seed has a bye: the final's first slot is theirs already (the
    page's diagram draws them there), where the API said "pending" with nobody in it."""
    event = make_event("single_elimination", bots=3)
    events.start_event(event=event, by=organizer)
    one, two, three = _keys(event)
    slots = _slots(outsider_api, event)
    assert slots["W1-1"] == [(one, "filled"), (None, "empty")]
    assert slots["W1-2"] == [(two, "filled"), (three, "filled")]
    assert slots["W2-1"] == [(one, "filled"), (None, "pending")]


def test_a_decided_feeders_winner_is_named_while_the_other_feeder_is_still_played(
        outsider_api: APIClient, organizer: Any, make_event: Callable[..., Event],
        finish: Callable[..., None]) -> None:
    """Of five: three byes and a match in round 1, the second round's pairing of two byes'
    winners filled by the format, the other named as far as known, then the final."""
    event = make_event("single_elimination", bots=5)
    events.start_event(event=event, by=organizer)
    one, two, three, four, five = _keys(event)
    slots = _slots(outsider_api, event)
    assert slots["W2-1"] == [(one, "filled"), (None, "pending")]
    assert slots["W2-2"] == [(two, "filled"), (three, "filled")]
    assert slots["W3-1"] == [(None, "pending"), (None, "pending")]
    finish(EventMatch.objects.get(event=event, pairing="W2-2"), three)
    slots = _slots(outsider_api, event)
    assert slots["W2-1"] == [(one, "filled"), (None, "pending")]
    assert slots["W3-1"] == [(None, "pending"), (two, "filled")]
    finish(EventMatch.objects.get(event=event, pairing="W1-2"), five)
    finish(EventMatch.objects.get(event=event, pairing="W2-1"), four)
    assert _slots(outsider_api, event)["W3-1"] == [(one, "filled"), (two, "filled")]


def test_a_double_elimination_names_a_decided_matchs_winner_and_loser_where_they_go(
        outsider_api: APIClient, organizer: Any, make_event: Callable[..., Event],
        finish: Callable[..., None]) -> None:
    event = make_event("double_elimination", bots=4)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.get(event=event, pairing="W1-1")
    winner, loser = link.entrants
    finish(link, loser)
    bracket = outsider_api.get(f"/api/events/{event.pk}/bracket/").json()
    named = {(p["pairing"], s["source"]): (s["entrant"], s["state"])
             for p in bracket for s in p["slots"]}
    assert named[("W2-1", "winner of W1-1")] == (winner, "filled")
    assert named[("W2-1", "winner of W1-2")] == (None, "pending")
    assert named[next(k for k in named if k[1] == "loser of W1-1")] == (loser, "filled")
    assert named[next(k for k in named if k[1] == "loser of W1-2")] == (None, "pending")


@pytest.mark.parametrize("fmt", ["round_robin", "swiss", "single_elimination", "multistage"])
def test_a_walkovers_winner_who_withdrew_later_is_still_named(
        outsider_api: APIClient, organizer: Any, make_event: Callable[..., Event],
        fmt: str) -> None:
    """Both entrants of a first-round match withdraw, one after the other: the format
    keeps the walkover the first withdrawal gave the second (the standings count it; a
    bracket sent them on). The bracket named nobody in `walkover` (it
    read who is still in: nobody)."""
    event = make_event(fmt)
    events.start_event(event=event, by=organizer)
    link = first_link(event)
    first, second = link.entrants
    events.withdraw_entrant(event=event, by=organizer, key=first)
    events.withdraw_entrant(event=event, by=organizer, key=second)
    bracket = outsider_api.get(f"/api/events/{event.pk}/bracket/").json()
    row = next(p for p in bracket if p["pairing"] == link.pairing)
    assert (row["result"], row["walkover"]) == (None, second)
    if fmt == "single_elimination":  # it counts how far one went, not walkovers as wins
        return
    won = sum(p["walkover"] == second or any(
        s["entrant"] == second and s["outcome"] == "win" for s in p["slots"])
        for p in bracket)
    assert won == Standing.objects.get(event=event, entrant__key=second).wins >= 1


def test_a_walkover_that_is_a_loss_for_both_is_told_from_a_pairing_that_is_none(
        outsider_api: APIClient, organizer: Any, make_event: Callable[..., Event]) -> None:
    """A round robin pairing whose winner-to-be withdrew before its round came is a loss
    for both: `walkover` was null there as for any pairing no withdrawal decided, so a
    client could not tell it was decided at all."""
    event = make_event("round_robin")
    events.start_event(event=event, by=organizer)
    first = first_link(event).entrants[0]
    events.withdraw_entrant(event=event, by=organizer, key=first)
    bracket = outsider_api.get(f"/api/events/{event.pk}/bracket/").json()
    later = next(p for p in bracket if p["round"] == 2
                 and first in [s["entrant"] for s in p["slots"]])
    second = next(s["entrant"] for s in later["slots"] if s["entrant"] != first)
    assert later["walkover"] == second and later["walkover_no_winner"] is False
    events.withdraw_entrant(event=event, by=organizer, key=second)  # before round 2 came
    bracket = outsider_api.get(f"/api/events/{event.pk}/bracket/").json()
    rows = {p["pairing"]: p for p in bracket}
    assert (rows[later["pairing"]]["walkover"], rows[later["pairing"]]["walkover_no_winner"],
            rows[later["pairing"]]["result"]) == (None, True, None)
    assert [p["pairing"] for p in bracket if p["walkover_no_winner"]] == [later["pairing"]]
    # The others: a walkover with its winner, or no walkover at all (a match still to play).
    assert any(p["walkover"] for p in bracket)
    assert any(p["walkover"] is None and p["result"] is None and not p["walkover_no_winner"]
               for p in bracket)
    # The standings count it as the flag says: a loss for each, no win for either.
    for key in (first, second):
        standing = Standing.objects.get(event=event, entrant__key=key)
        decided = [p for p in bracket if key in [s["entrant"] for s in p["slots"]]
                   and (p["walkover"] or p["walkover_no_winner"] or p["result"])]
        assert standing.wins == sum(p["walkover"] == key for p in decided)
        assert standing.losses == len(decided) - standing.wins - standing.draws


def test_standings_and_records_of_a_running_event(outsider_api: APIClient,
                                                  running_event: Event,
                                                  finish: Callable[..., None]) -> None:
    link = first_link(running_event)
    finish(link, link.entrants[1])
    rows = outsider_api.get(f"/api/events/{running_event.pk}/standings/").json()
    assert len(rows) == 4
    winner = next(r for r in rows if r["entrant"] == link.entrants[0])
    name = running_event.entrants.get(key=link.entrants[0]).name
    assert (winner["rank"], winner["wins"], winner["name"]) == (1, 1, name)
    assert sum(r["wins"] for r in rows) == sum(r["losses"] for r in rows) == 1
    records = outsider_api.get(f"/api/events/{running_event.pk}/records/").json()
    kinds = [r["kind"] for r in records["results"]]
    assert kinds[:5] == ["entrant_added"] * 4 + ["started"]
    assert kinds[-1] == "result_recorded"
    assert records["results"][0]["actor"] == "organizer"
    assert records["results"][-1]["actor"] is None


def test_standings_sharing_a_rank_are_listed_as_the_events_page_lists_them(
        outsider_api: APIClient, organizer: Any) -> None:
    """Eleven in a round robin, none played: all share first place, listed in seed order
    as the Event's page and its CSV list them (e2 before e10), where the API listed them
    by key as text (e10 and e11 before e2)."""
    from django.test import Client

    event = events.create_event(name="Eleven", game=GAME, format="round_robin", by=organizer)
    for i in range(11):
        events.add_entrant(event=event, by=organizer, bot="random", name=f"Bot {i + 1}")
    events.start_event(event=event, by=organizer)
    rows = outsider_api.get(f"/api/events/{event.pk}/standings/").json()
    assert {r["rank"] for r in rows} == {1}
    assert [r["entrant"] for r in rows] == [f"e{i}" for i in range(1, 12)]
    page = Client()
    page.force_login(organizer)
    csv = page.get(f"/league/dashboard/events/{event.pk}/standings.csv").content.decode()
    assert [line.split(",")[1] for line in csv.splitlines()[1:]] == [r["entrant"] for r in rows]


# A round robin of six, every match won (e1..e6 as A..F): A, B, C and D end on 2 wins.
# Among the four, B and C win 2, A and D 1; taken again, B beat C and A beat D.
BEATEN_BY = {("e1", "e4"): "e1", ("e1", "e5"): "e1", ("e1", "e2"): "e2", ("e1", "e3"): "e3",
             ("e2", "e3"): "e2", ("e2", "e4"): "e4", ("e3", "e4"): "e3", ("e4", "e5"): "e4",
             ("e2", "e5"): "e5", ("e3", "e5"): "e5", ("e5", "e6"): "e5"}


def test_the_standings_show_the_head_to_head_pass_that_split_a_tie(
        outsider_api: APIClient, organizer: Any, make_event: Callable[..., Event],
        finish: Callable[..., None]) -> None:
    """B above C and A above D read 2 and 2, 1 and 1: the value shown was the first
    pass's, not the one that put them apart."""
    from django.test import Client

    event = make_event("round_robin", bots=6, format_options={"tiebreaks": ["head_to_head"]})
    events.start_event(event=event, by=organizer)
    while (link := EventMatch.objects.filter(event=event).exclude(
            match__status=Match.Status.FINISHED).select_related("match").first()) is not None:
        winner = BEATEN_BY.get(tuple(sorted(link.entrants)), "e6")  # (F beats the rest)
        finish(link, next(e for e in link.entrants if e != winner))
    rows = {r["entrant"]: r for r in outsider_api.get(
        f"/api/events/{event.pk}/standings/").json()}
    assert [rows[e]["rank"] for e in ("e6", "e5", "e2", "e3", "e1", "e4")] == [1, 2, 3, 4, 5, 6]
    assert [rows[e]["tiebreaks"]["head_to_head"] for e in ("e2", "e3", "e1", "e4")] == [
        2, 2, 1, 1]
    assert [rows[e]["tiebreaks"]["head_to_head:2"] for e in ("e2", "e3", "e1", "e4")] == [
        1, 0, 1, 0]
    assert "head_to_head:2" not in rows["e6"]["tiebreaks"]
    page = Client()
    page.force_login(organizer)
    csv = page.get(f"/league/dashboard/events/{event.pk}/standings.csv").content.decode()
    header, *lines = csv.splitlines()
    assert header.endswith(",head_to_head,head_to_head:2,group")
    assert [line.split(",")[-3:-1] for line in lines][2:] == [
        ["2.0", "1.0"], ["2.0", "0.0"], ["1.0", "1.0"], ["1.0", "0.0"]]
    html = page.get(f"/league/events/{event.pk}/").content.decode()
    assert '<th class="tb on-ask">Head to head</th><th class="tb on-ask">Head to head, pass 2</th>' in html


def test_a_season_and_its_table(outsider_api: APIClient, season: Season,
                                running_event: Event, finish: Callable[..., None]) -> None:
    link = first_link(running_event)
    finish(link, link.entrants[1])
    data = outsider_api.get(f"/api/seasons/{season.pk}/").json()
    assert (data["name"], data["game"]) == ("Autumn league", GAME)
    assert sorted(data["organizers"]) == ["alice", "organizer"]
    table = outsider_api.get(f"/api/seasons/{season.pk}/standings/").json()
    assert table[0]["wins"] == 1 and table[0]["points"] == 3
    assert [r["rank"] for r in table] == sorted(r["rank"] for r in table)


def test_staff_make_a_team_of_members(organizer_api: APIClient, outsider_api: APIClient,
                                      player: Any, player2: Any) -> None:
    response = organizer_api.post("/api/teams/", {"name": "Reds", "members": ["alice", "bruno"]},
                                  format="json")
    assert response.status_code == 201, response.content
    team = outsider_api.get(f"/api/teams/{response.json()['id']}/").json()
    assert sorted(m["username"] for m in team["members"]) == ["alice", "bruno"]
    assert team["created_by"] == "organizer"
    assert [t["name"] for t in outsider_api.get("/api/teams/").json()["results"]] == ["Reds"]


def test_a_team_enters_an_event_by_name(organizer_api: APIClient, draft_event: Event,
                                        player: Any) -> None:
    organizer_api.post("/api/teams/", {"name": "Reds", "members": ["alice"]}, format="json")
    response = organizer_api.post(f"/api/events/{draft_event.pk}/entrants/", {"team": "Reds"},
                                  format="json")
    assert response.status_code == 201, response.content
    assert (response.json()["name"], response.json()["key"]) == ("Reds", "e5")


def test_the_schema_documents_the_league_without_warnings(anon_api: APIClient,
                                                          tmp_path: Path) -> None:
    call_command("spectacular", "--validate", "--fail-on-warn",
                 "--file", str(tmp_path / "schema.yaml"))
    doc = anon_api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = doc["paths"]
    for path in ["/api/seasons/", "/api/events/{id}/bracket/", "/api/events/{id}/seed/",
                 "/api/events/{id}/entrants/{key}/withdraw/", "/api/players/{id}/matches/",
                 "/api/players/{id}/ratings/history/", "/api/teams/"]:
        assert path in paths
    seed = paths["/api/events/{id}/seed/"]["post"]
    assert set(seed["responses"]) >= {"200", "400", "401", "403", "404", "409"}
    history = paths["/api/players/{id}/matches/"]["get"]
    assert {p["name"] for p in history["parameters"]} >= {"game", "season", "opponent",
                                                           "result", "page"}
    # Who made an Event, a team or a simulation job is null once that account is gone
    # (a job started from the command line has nobody): the schema says so.
    schemas = doc["components"]["schemas"]
    for name in ("LeagueEvent", "Team", "SimulationJob", "SimulationJobRow"):
        assert schemas[name]["properties"]["created_by"].get("nullable") is True, name


def test_a_held_round_waits_for_its_release(organizer_api: APIClient,
                                            held_event: Callable[[str], Event]) -> None:
    event = held_event("swiss")
    url = f"/api/events/{event.pk}/"
    waiting = [p for p in organizer_api.get(f"{url}bracket/").json() if p["round"] == 2]
    assert waiting and all(p["held"] and p["match"] is None for p in waiting)

    assert organizer_api.post(f"{url}release/").status_code == 200

    second = [p for p in organizer_api.get(f"{url}bracket/").json() if p["round"] == 2]
    assert all(not p["held"] and p["match_status"] == "active" for p in second)
    kinds = [r["kind"] for r in organizer_api.get(f"{url}records/").json()["results"]]
    assert kinds[-3:] == ["round_released", "match_created", "match_created"]


def test_hand_pairings_for_a_held_round_make_its_matches(
        organizer_api: APIClient, held_event: Callable[[str], Event]) -> None:
    event = held_event("swiss")
    response = organizer_api.post(f"/api/events/{event.pk}/pairings/",
                                  {"pairings": [["e1", "e2"], ["e3", "e4"]]}, format="json")
    assert response.status_code == 200, response.content
    second = [p for p in organizer_api.get(f"/api/events/{event.pk}/bracket/").json()
              if p["round"] == 2]
    assert sorted([s["entrant"] for s in p["slots"]] for p in second) == [["e1", "e2"],
                                                                          ["e3", "e4"]]
    assert all(p["match_status"] == "active" and not p["held"] for p in second)


def test_hand_pairings_refused_name_the_entrants_left_out_not_their_keys(
        organizer_api: APIClient, held_event: Callable[[str], Event]) -> None:
    event = held_event("swiss")
    names = dict(Entrant.objects.filter(event=event).values_list("key", "name"))
    response = organizer_api.post(f"/api/events/{event.pk}/pairings/",
                                  {"pairings": [["e1", "e2"]]}, format="json")
    assert response.status_code == 400
    assert response.json() == {"code": "missing_entrant",
                               "detail": f"Not paired: {names['e3']}, {names['e4']}."}


def test_a_refusal_names_a_match_by_its_label_not_its_pairing_id(
        organizer_api: APIClient, held_event: Callable[[str], Event]) -> None:
    """The answer quoted "R2-1 has no recorded result to correct.", an id the pages show
    only beside the label they name the match by."""
    event = held_event("swiss")
    response = organizer_api.post(f"/api/events/{event.pk}/corrections/", {
        "pairing": "R2-1", "placements": {"e1": 1, "e2": 2}}, format="json")
    assert response.status_code == 409
    assert response.json() == {"code": "no_result",
                               "detail": "Round 2 board 1 has no recorded result to correct."}
    # A pairing the Event has not is not found, as a forfeit of one is.
    response = organizer_api.post(f"/api/events/{event.pk}/corrections/", {
        "pairing": "R9-9", "placements": {"e1": 1, "e2": 2}}, format="json")
    assert (response.status_code, response.json()) == (404, {
        "code": "unknown_pairing", "detail": "No pairing 'R9-9' in this Event."})
    response = organizer_api.post(f"/api/events/{event.pk}/forfeit/",
                                  {"pairing": "R2-1", "entrant": "e1"}, format="json")
    assert response.json() == {"code": "unknown_pairing",
                               "detail": "Round 2 board 1 has no match yet."}


def test_an_events_constructed_decks_are_read_by_its_organizers_alone(
        organizer: Any, organizer_api: APIClient, outsider_api: APIClient) -> None:
    """SH-050 decks are hidden (as a match's are, GET /api/matches/{id}/): an Event's
    secret match options read "hidden" for everyone but those who organize it."""
    from engine.games.supershow.cards import CATALOG

    ox, mira = CATALOG.competitors["ox_valdane"], CATALOG.competitors["mira_quickstep"]
    decks = [[c.key for c in mira.deck[:27]] + [c.key for c in ox.deck[27:]],
             [c.key for c in ox.deck[:27]] + [c.key for c in mira.deck[27:]]]
    options = {"competitors": ["ox_valdane", "mira_quickstep"], "decks": decks}
    event = events.create_event(name="Decks night", game="supershow", format="round_robin",
                                by=organizer, match_options=options)
    url = f"/api/events/{event.pk}/"
    assert outsider_api.get(url).json()["match_options"]["decks"] == ["hidden", "hidden"]
    listed = outsider_api.get("/api/events/", {"game": "supershow"}).json()["results"]
    assert [e["match_options"]["decks"] for e in listed] == [["hidden", "hidden"]]
    assert outsider_api.get(url).json()["match_options"]["competitors"] == options["competitors"]
    assert organizer_api.get(url).json()["match_options"]["decks"] == decks
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    assert outsider_api.get(url).json()["match_options"]["decks"] == decks


def _two_decks() -> list[list[str]]:
    from engine.games.supershow.cards import CATALOG

    ox, mira = CATALOG.competitors["ox_valdane"], CATALOG.competitors["mira_quickstep"]
    return [[c.key for c in mira.deck[:27]] + [c.key for c in ox.deck[27:]],
            [c.key for c in ox.deck[:27]] + [c.key for c in mira.deck[27:]]]


def test_a_finished_match_keeps_its_events_decks_hidden_until_the_event_is_over(
        organizer: Any, player: Any, player_api: APIClient, outsider_api: APIClient,
        finish: Callable[[Any, str], None]) -> None:
    """Every match of an Event is dealt the same decks: the first match to finish showed
    them (in its options, and its history showed every card) to the players of the matches
    still live, who face those decks."""
    from league.models import EventMatch
    from matches import services as match_services

    decks = _two_decks()
    event = events.create_event(name="Decks cup", game="supershow",
                                format="single_elimination", by=organizer,
                                match_options={"competitors": ["ox_valdane", "mira_quickstep"],
                                               "decks": decks})
    events.add_entrant(event=event, by=organizer, player=player.username)
    for name in ("Bot 1", "Bot 2", "Bot 3"):
        events.add_entrant(event=event, by=organizer, bot="random", name=name)
    events.seed_event(event=event, by=organizer, method="hand", order=["e1", "e2", "e3", "e4"])
    events.start_event(event=event, by=organizer)
    links = list(EventMatch.objects.filter(event=event).select_related("match"))
    mine = next(link for link in links if "e1" in link.entrants)
    other = next(link for link in links if "e1" not in link.entrants)
    finish(other, other.entrants[1])
    done = other.match
    done.refresh_from_db()
    assert done.status == "finished"
    for client in (player_api, outsider_api):
        read = client.get(f"/api/matches/{done.pk}/").json()
        assert read["options"]["decks"] == ["hidden", "hidden"]
        history = client.get(f"/api/matches/{done.pk}/events/").json()
        assert history[0]["data"] != done.events.get(seq=1).payload
        replay = client.get(f"/api/matches/{done.pk}/replay/", {"at": 1}).json()
        assert replay["seats"] is None
    assert not match_services.unveiled(done)
    mine.match.refresh_from_db()
    assert mine.match.status == "active"
    while (live := EventMatch.objects.filter(event=event, match__status="active").first()):
        finish(live, live.entrants[1])
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    assert outsider_api.get(f"/api/matches/{done.pk}/").json()["options"]["decks"] == decks
    assert match_services.unveiled(done)


def test_a_finished_match_of_an_event_without_decks_is_shown_in_full(
        organizer: Any, outsider_api: APIClient, finish: Callable[[Any, str], None]) -> None:
    """Only given decks are kept: an Event's options name every option, `decks` null."""
    from league.models import EventMatch
    from matches import services as match_services

    event = events.create_event(name="Plain cup", game="supershow",
                                format="single_elimination", by=organizer)
    assert event.match_options["decks"] is None
    for name in ("Bot 1", "Bot 2", "Bot 3", "Bot 4"):
        events.add_entrant(event=event, by=organizer, bot="random", name=name)
    events.start_event(event=event, by=organizer)
    link = EventMatch.objects.filter(event=event).first()
    assert link is not None
    finish(link, link.entrants[1])
    link.match.refresh_from_db()
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    assert match_services.unveiled(link.match)
    replay = outsider_api.get(f"/api/matches/{link.match.pk}/replay/", {"at": 1}).json()
    assert replay["seats"] is not None


def test_an_organizer_who_plays_in_the_event_does_not_read_its_decks(
        organizer: Any, player: Any, organizer_api: APIClient, player_api: APIClient) -> None:
    """A player may organize (a season's organizer, a co-organizer of the Event); while the
    Event runs one who holds an entry would read the decks they face. (One who could read
    them does not enter: `reads_decks`.)"""
    event = events.create_event(name="Club decks", game="supershow", format="round_robin",
                                by=organizer, match_options={"decks": _two_decks()})
    url = f"/api/events/{event.pk}/"
    events.add_entrant(event=event, by=organizer, player=player.username)
    event.organizers.add(player)  # made a co-organizer once entered
    assert player_api.get(url).json()["match_options"]["decks"] == ["hidden", "hidden"]
    assert organizer_api.get(url).json()["match_options"]["decks"] == _two_decks()


def test_a_drafts_stored_setting_now_refused_is_named_and_fixed_by_a_change(
        organizer_api: APIClient, draft_event: Event) -> None:
    """A draft stored with a tiebreak naming a figure its game never reports (made before
    the check): a change that keeps it is refused, naming the stored format options; one
    that replaces them goes through."""
    stored = {**draft_event.format_options, "tiebreaks": ["diff:eliminations"]}
    Event.objects.filter(pk=draft_event.pk).update(format_options=stored)
    url = f"/api/events/{draft_event.pk}/settings/"
    refused = organizer_api.post(url, {"turn_deadline_minutes": 20}, format="json")
    assert refused.status_code == 400, refused.content
    assert refused.json()["code"] == "bad_option"
    assert refused.json()["detail"].startswith(
        "The Event's format options as stored are refused now, and this change keeps them: "
        "The tiebreak 'diff:eliminations' names a figure")
    answer = organizer_api.post(url, {"turn_deadline_minutes": 20,
                                      "format_options": {"tiebreaks": ["head_to_head"]}},
                                format="json")
    assert answer.status_code == 200, answer.content
    assert (answer.json()["format_options"]["tiebreaks"],
            answer.json()["turn_deadline_minutes"]) == (["head_to_head"], 20)
