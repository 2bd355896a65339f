"""End to end through the API: staff run a round robin of four bots to its end.

Celery runs eagerly without a broker, so once the start commits the bots play every
match and each result records itself (match_finished -> league.tasks.record_result),
which needs real commits: a transactional database.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from league_api_helpers import GAME
from rest_framework.test import APIClient

BOTS = ["random", "heuristic", "random", "heuristic"]


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.content
    return response.json()


@pytest.mark.django_db(transaction=True)
def test_a_round_robin_of_bots_plays_out_and_its_tables_agree(organizer_api: APIClient) -> None:
    season = ok(organizer_api.post("/api/seasons/", {"name": "Bot league", "game": GAME},
                                   format="json"), 201)
    event = ok(organizer_api.post("/api/events/", {
        "name": "Bots' night", "game": GAME, "format": "round_robin", "season": season["id"],
    }, format="json"), 201)
    url = f"/api/events/{event['id']}/"
    for i, bot in enumerate(BOTS, start=1):
        ok(organizer_api.post(f"{url}entrants/", {"bot": bot, "name": f"{bot} {i}"},
                              format="json"), 201)

    started = ok(organizer_api.post(f"{url}start/"))

    assert started["status"] == "finished"
    names = {e["key"]: e["name"] for e in started["entrants"]}
    assert len(names) == 4

    bracket = ok(organizer_api.get(f"{url}bracket/"))
    assert len(bracket) == 6  # everyone meets everyone once
    met = Counter(frozenset(s["entrant"] for s in p["slots"]) for p in bracket)
    assert set(met.values()) == {1} and len(met) == 6
    for pairing in bracket:
        assert pairing["match_status"] == "finished" and pairing["match"] is not None
        keys = [s["entrant"] for s in pairing["slots"]]
        assert set(pairing["result"]) == set(keys)
        assert [s["name"] for s in pairing["slots"]] == [names[k] for k in keys]
        assert [s["place"] for s in pairing["slots"]] == [pairing["result"][k] for k in keys]

    standings = ok(organizer_api.get(f"{url}standings/"))
    assert sorted(row["entrant"] for row in standings) == sorted(names)
    assert [row["rank"] for row in standings] == sorted(row["rank"] for row in standings)
    tally = _tally(bracket)
    for row in standings:
        assert row["wins"] + row["draws"] + row["losses"] == 3
        assert (row["wins"], row["draws"], row["losses"]) == tally[row["entrant"]]
        assert row["points"] == row["wins"] + 0.5 * row["draws"]  # the format's default scoring
        assert row["name"] == names[row["entrant"]]

    records = ok(organizer_api.get(f"{url}records/"))
    kinds = [r["kind"] for r in records["results"]]
    assert records["count"] == len(kinds) == 4 + 1 + 6 + 6 + 1
    assert kinds[:5] == ["entrant_added"] * 4 + ["started"]
    assert Counter(kinds) == {"entrant_added": 4, "started": 1, "match_created": 6,
                              "result_recorded": 6, "finished": 1}
    assert kinds[-1] == "finished"
    assert [r["seq"] for r in records["results"]] == list(range(1, len(kinds) + 1))
    assert {r["actor"] for r in records["results"] if r["kind"] == "entrant_added"} == {
        "organizer"}
    recorded = {r["payload"]["pairing"]: r["payload"]["placements"]
                for r in records["results"] if r["kind"] == "result_recorded"}
    assert recorded == {p["pairing"]: p["result"] for p in bracket}

    table = ok(organizer_api.get(f"/api/seasons/{season['id']}/standings/"))
    by_name = {row["name"]: (row["wins"], row["draws"], row["losses"]) for row in table}
    assert by_name == {names[k]: tally[k] for k in names}
    assert all(row["events"] == 1 for row in table)


def _tally(bracket: list[dict[str, Any]]) -> dict[str, tuple[int, int, int]]:
    """Wins, draws and losses of each entrant, read off the bracket's results."""
    out: dict[str, list[int]] = {}
    for pairing in bracket:
        places = pairing["result"]
        for key, place in places.items():
            row = out.setdefault(key, [0, 0, 0])
            firsts = list(places.values()).count(1)
            row[0 if place == 1 and firsts == 1 else 1 if place == 1 else 2] += 1
    return {k: (w, d, lo) for k, (w, d, lo) in out.items()}


@pytest.mark.django_db
def test_a_client_that_sends_the_seq_it_read_has_its_actions_applied_once(
        organizer_api: APIClient) -> None:
    """Each answer carries the Event's seq; sent back as `expected_seq` it lets the action
    through, and a retry of the same request (the answer lost) is refused, not repeated."""
    event = ok(organizer_api.post("/api/events/", {
        "name": "Retry night", "game": GAME, "format": "round_robin"}, format="json"), 201)
    url = f"/api/events/{event['id']}"
    seq = ok(organizer_api.get(f"{url}/"))["seq"]
    ok(organizer_api.post(f"{url}/entrants/", {"bot": "random", "expected_seq": seq},
                          format="json"), 201)
    retry = organizer_api.post(f"{url}/entrants/", {"bot": "random", "expected_seq": seq},
                               format="json")
    assert (retry.status_code, retry.json()["code"]) == (409, "stale_seq")
    # the refusal says where the Event is now, read as the Event's own answer gives it
    assert retry.json()["seq"] == ok(organizer_api.get(f"{url}/"))["seq"] > seq
    seq = retry.json()["seq"]
    ok(organizer_api.post(f"{url}/entrants/", {"bot": "heuristic", "expected_seq": seq},
                          format="json"), 201)
    after = ok(organizer_api.post(f"{url}/seed/", {"method": "random", "expected_seq": seq + 1},
                                  format="json"))
    assert after["seq"] == seq + 2
    assert sorted(e["bot"] for e in after["entrants"]) == ["heuristic", "random"]
