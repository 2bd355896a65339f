"""Recorded streams replay as they were played, until a game's rules version is raised.

`tests/engine/recorded/<game>.json` holds seeded matches of each game (heuristic and random
seats, several seat counts and options), recorded under the game's `rules_version`: their
events, and at each step a short digest of who was to act and what they could do. A
change to the rules that replays any of them differently fails here, and asks for one of
two things:

- the change was not meant to alter play: mend it;
- it was (a rules fix): raise the game's `GameSpec.rules_version`, so the site refuses
  the streams recorded under the old rules instead of replaying them into other games
  (`matches.services`, `rules_changed`), then record again:

      .venv/bin/python tests/engine/test_recorded_streams.py [GAME ...]

The recorder refuses to overwrite streams of the current version that no longer replay:
raising the version is the way past this test. One change is no rules change: choices
widened by a card added to the set (a new Superstar an Event's draft offers), where every
recorded event is still allowed and every match ends as it did; `--widened` records again
under the same version then, and still refuses when an event is refused or a result
differs. It is a net over the paths seeded
matches take, not a proof: a change in a rare branch (a Gauntlet fall in the last round
of a Time Limit) may leave these streams as they were, so a rules fix raises the version
whether or not this test fails.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if __name__ == "__main__":  # run as a script: the project's packages from its root
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import registry
from engine.playout import play_match
from engine.protocol import JSON, BaseRules, Event, IllegalAction, PendingKind

HERE = Path(__file__).resolve().parent / "recorded"
RECORD = ".venv/bin/python tests/engine/test_recorded_streams.py"

# (game, seats, options): the tables recorded, two matches each.
TABLES: list[tuple[str, int, JSON]] = [
    ("super_showdown", 2, {}),
    ("super_showdown", 2, {"best_of": 3}),
    ("ultimate_showdown", 3, {}),
    ("ultimate_showdown", 6, {}),
    ("royal_rumble", 2, {}),
    ("royal_rumble", 5, {}),
    ("supershow", 2, {}),
    ("supershow", 3, {"match_type": "tag_team"}),
    ("supershow", 4, {"match_type": "fatal_four_way_first_fall"}),
    ("supershow", 6, {"match_type": "birdcage"}),
    ("superstar_showdown", 2, {}),
    ("superstar_showdown", 4, {"event": "tag_team_series"}),
    # Recorded under the Full Card's earlier key, which stored streams carry and still replay.
    ("superstar_showdown", 2, {"event": "smackdown"}),
    # The clocks: matches that end at their round or turn limit.
    ("superstar_showdown", 2, {"round_limit": 4}),
    ("superstar_showdown", 2, {"event": {"matches": [
        {"match": "gauntlet", "stipulation": "time_limit"},
        {"match": "head_to_head", "stipulation": "time_limit"}], "superstars_per_team": 3}}),
    ("supershow", 2, {"turn_limit": 10}),
    ("royal_rumble", 3, {"round_limit": 2}),
]
MATCHES_PER_TABLE = 2


def games() -> list[str]:
    return sorted({game for game, _, _ in TABLES})


def steps(rules: BaseRules[Any], options: JSON, seats: int,
          events: list[JSON]) -> Iterator[str]:
    """A short digest of each step of the replay: who is to act, and what each seat to
    decide may do (before the first event, and after each)."""
    state = rules.start(options, seats)
    for event in [None, *events]:
        if event is not None:
            state = rules.apply(state, Event.from_json(event))
        pending = rules.pending(state)
        moment: JSON = {"pending": pending.to_json()}
        if pending.kind is PendingKind.DECISION:
            moment["legal"] = [rules.legal_actions(state, seat) for seat in pending.seats]
        text = json.dumps(moment, sort_keys=True, separators=(",", ":"))
        yield hashlib.sha256(text.encode()).hexdigest()[:8]


def record_match(game: str, seats: int, options: JSON, seed: int) -> JSON:
    rules = registry.get_rules(game)
    resolved = rules.spec.resolve_options(options)
    bots = [registry.get_bot(game, "heuristic" if seat % 2 == 0 else "random")
            for seat in range(seats)]
    state, log = play_match(rules, bots, random.Random(seed), resolved)
    events = [event.to_json() for event in log]
    result = rules.result(state)
    assert result is not None
    return {"seats": seats, "options": resolved, "seed": seed, "events": events,
            "result": result.to_json(), "steps": list(steps(rules, resolved, seats, events))}


def recorded(game: str) -> JSON:
    return json.loads((HERE / f"{game}.json").read_text())


def replay_differs(game: str, data: JSON) -> str | None:
    """Where the recorded streams replay differently under today's rules, or None."""
    rules = registry.get_rules(game)
    for number, match in enumerate(data["matches"]):
        try:
            now = list(steps(rules, match["options"], match["seats"], match["events"]))
        except IllegalAction as exc:
            return f"match {number}: an event is refused now ({exc.code}: {exc.message})"
        first = next((i for i, (a, b) in enumerate(zip(now, match["steps"], strict=True))
                      if a != b), None)
        if first is not None:
            return (f"match {number} ({match['seats']} seats, {match['options']}): who acts "
                    f"or what they may do differs after event {first}")
    return None


@pytest.mark.parametrize("game", games())
def test_the_recorded_streams_replay_as_played_under_this_rules_version(game: str) -> None:
    rules = registry.get_rules(game)
    data = recorded(game)
    assert data["rules_version"] == rules.spec.rules_version, (
        f"{game} plays rules version {rules.spec.rules_version}; its streams were recorded "
        f"under {data['rules_version']}: record them again with `{RECORD} {game}`")
    differs = replay_differs(game, data)
    assert differs is None, (
        f"{game}'s rules replay a recorded stream differently ({differs}). Mend the change, "
        f"or raise {game}'s GameSpec.rules_version to {rules.spec.rules_version + 1} and "
        f"record again with `{RECORD} {game}` (a card added to the set that only widens "
        f"the choices: record again with `{RECORD} --widened {game}`)")
    final = [rules.result(rules.replay(match["options"], match["seats"], [
        Event.from_json(event) for event in match["events"]])) for match in data["matches"]]
    assert [result.to_json() if result else None for result in final] == [
        match["result"] for match in data["matches"]]


def test_every_game_has_recorded_streams() -> None:
    assert games() == sorted(registry.games())
    assert sorted(path.stem for path in HERE.glob("*.json")) == games()


def test_the_recorder_takes_widened_choices_only_where_every_match_plays_as_recorded(
        tmp_path: Path) -> None:
    """A step that offers other choices (as a card added to the set widens a draft) is
    recorded again under the same version with `--widened` alone; an event refused now or
    a match that ends otherwise is refused even so."""
    shipped = recorded("super_showdown")
    stored = tmp_path / "super_showdown.json"

    def store_with(change: Any) -> None:
        data = json.loads(json.dumps(shipped))
        data["matches"][0]["steps"][1] = "0" * 8
        change(data["matches"][0])
        stored.write_text(json.dumps(data))

    store_with(lambda match: None)
    with pytest.raises(SystemExit, match="pass --widened"):
        record("super_showdown", here=tmp_path)
    record("super_showdown", widened=True, here=tmp_path)
    assert json.loads(stored.read_text()) == shipped  # the same seeds, recorded again

    store_with(lambda match: match["result"].update(winners=[]))
    with pytest.raises(SystemExit, match="match 0: it ends otherwise now"):
        record("super_showdown", widened=True, here=tmp_path)
    store_with(lambda match: match["events"].append(match["events"][-1]))
    with pytest.raises(SystemExit, match="match 0: an event is refused now"):
        record("super_showdown", widened=True, here=tmp_path)


def ends_differently(game: str, data: JSON) -> str | None:
    """Where a recorded match is refused an event or ends otherwise under today's rules,
    or None: what choices widened by a new card leave as they were."""
    rules = registry.get_rules(game)
    for number, match in enumerate(data["matches"]):
        try:
            state = rules.replay(match["options"], match["seats"],
                                 [Event.from_json(event) for event in match["events"]])
        except IllegalAction as exc:
            return f"match {number}: an event is refused now ({exc.code}: {exc.message})"
        result = rules.result(state)
        if (result.to_json() if result else None) != match["result"]:
            return f"match {number}: it ends otherwise now"
    return None


def record(game: str, *, widened: bool = False, here: Path = HERE) -> None:
    rules = registry.get_rules(game)
    path = here / f"{game}.json"
    if path.exists():
        old = json.loads(path.read_text())
        differs = replay_differs(game, old)
        if old["rules_version"] == rules.spec.rules_version and differs is not None:
            otherwise = ends_differently(game, old) if widened else differs
            if otherwise is not None:
                raise SystemExit(
                    f"{game}: streams of rules version {old['rules_version']} replay "
                    f"differently ({otherwise}); raise its GameSpec.rules_version before "
                    "recording again" + ("" if widened else " (or, when a card added to "
                                         "the set only widened the choices, pass --widened)"))
    tables = [(seats, options) for key, seats, options in TABLES if key == game]
    matches = [record_match(game, seats, options, seed=1000 * number + index)
               for number, (seats, options) in enumerate(tables)
               for index in range(MATCHES_PER_TABLE)]
    data = {"game": game, "rules_version": rules.spec.rules_version, "matches": matches}
    here.mkdir(exist_ok=True)
    path.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
    print(f"{game}: {len(matches)} matches, {sum(len(m['events']) for m in matches)} events, "
          f"rules version {rules.spec.rules_version} -> {path}")


if __name__ == "__main__":
    widen = "--widened" in sys.argv[1:]
    for name in [arg for arg in sys.argv[1:] if arg != "--widened"] or games():
        record(name, widened=widen)
