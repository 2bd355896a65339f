"""The content files: counts, validation errors that name file, card and field, sense."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.games.ultimate_showdown.cards import CARDS, CardDataError, load_cards

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
DATA = Path(__file__).resolve().parents[3] / "engine" / "games" / "ultimate_showdown" / "data"


def _raw(name: str):
    return yaml.load((DATA / name).read_text("utf-8"), Loader=LOADER)


def _broken(tmp_path, name: str, change) -> CardDataError:
    data = _raw(name)
    change(data)
    path = tmp_path / name
    path.write_text(yaml.dump(data, Dumper=DUMPER), "utf-8")
    kwargs = {"contenders": path} if name == "contenders.yaml" else {"challenges": path}
    with pytest.raises(CardDataError) as err:
        load_cards(**kwargs)
    return err.value


def test_the_sets_are_complete_and_unique():
    assert len(CARDS.contenders) == 150 and len(CARDS.challenges) == 50
    names = [c.name for c in CARDS]
    assert len(set(names)) == 150


def test_every_challenge_has_a_clear_favourite_and_a_debate():
    """Bots can reason (the best fits stand a quarter above the typical Contender);
    humans can argue (several close behind the best)."""
    for card in CARDS.challenges.values():
        for side in (card.front, card.back):
            fits = sorted((side.fit(c) for c in CARDS), reverse=True)
            assert fits[0] >= 1.25 * fits[len(fits) // 2], side.id
            assert sum(f >= fits[0] * 0.8 for f in fits) >= 3, side.id


def test_a_bad_attribute_names_the_file_card_and_field(tmp_path):
    def change(data):
        data["contenders"][3]["attributes"]["speed"] = 11
    err = _broken(tmp_path, "contenders.yaml", change)
    card = _raw("contenders.yaml")["contenders"][3]["id"]
    assert (err.source, err.card, err.field) == ("contenders.yaml", card, "attributes.speed")
    assert "contenders.yaml" in str(err) and card in str(err) and "attributes.speed" in str(err)


def test_a_missing_name_and_an_unknown_field(tmp_path):
    err = _broken(tmp_path, "contenders.yaml", lambda d: d["contenders"][0].pop("name"))
    assert (err.card, err.field) == ("grizzly-bear", "name")
    err = _broken(tmp_path, "contenders.yaml",
                  lambda d: d["contenders"][0].update({"power": 9}))
    assert err.field == "power"


def test_a_duplicate_id_and_a_short_deck(tmp_path):
    err = _broken(tmp_path, "contenders.yaml",
                  lambda d: d["contenders"][1].update({"id": d["contenders"][0]["id"]}))
    assert err.field == "id"
    err = _broken(tmp_path, "contenders.yaml", lambda d: d["contenders"].pop())
    assert err.field == "contenders" and "150" in str(err)


def test_a_challenge_weight_on_an_unknown_attribute(tmp_path):
    def change(data):
        data["challenges"][4]["back"]["weights"] = {"luck": 2}
    err = _broken(tmp_path, "challenges.yaml", change)
    assert (err.source, err.card, err.field) == ("challenges.yaml", "card-05",
                                                 "back.weights.luck")


def test_a_challenge_card_without_a_back(tmp_path):
    err = _broken(tmp_path, "challenges.yaml", lambda d: d["challenges"][0].pop("back"))
    assert (err.card, err.field) == ("card-01", "back")


def test_bad_yaml_is_named(tmp_path):
    path = tmp_path / "contenders.yaml"
    path.write_text("contenders: [", "utf-8")
    with pytest.raises(CardDataError) as err:
        load_cards(contenders=path)
    assert err.value.field == "(yaml)"
