"""The server-made diagrams: brackets by format, and the rating chart."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any
from xml.etree import ElementTree

import pytest

from league import formats, svg
from league.formats import MatchResult

NS = "{http://www.w3.org/2000/svg}"


def played(key: str, entrants: list[str], options: dict[str, Any] | None = None,
           matches: int = 999) -> tuple[Any, Any, dict[str, dict[str, int]]]:
    """A format's state after `matches` ready pairings went to their first-listed entrant."""
    fmt = formats.get_format(key)
    state = fmt.start(entrants, options or {})
    results: dict[str, dict[str, int]] = {}
    for _ in range(matches):
        ready = fmt.ready(state)
        if not ready:
            break
        seated = list(ready[0].entrants)
        placements = {e: i + 1 for i, e in enumerate(seated)}
        state = fmt.record(state, MatchResult(ready[0].id, placements))
        results[ready[0].id] = placements
    return fmt, state, results


def draw(key: str, entrants: list[str], options: dict[str, Any] | None = None,
         matches: int = 999, links: dict[str, str] | None = None) -> str:
    fmt, state, results = played(key, entrants, options, matches)
    champion = fmt.standings(state)[0].entrant if fmt.is_complete(state) else None
    return svg.bracket_svg(fmt.pairings(state), names={e: f"Name {e}" for e in entrants},
                           results=results, links=links or {}, champion=champion)


def boxes(markup: str) -> dict[str, str]:
    """pairing id -> the class of its box."""
    return dict((m[2], m[1]) for m in re.finditer(r'<g class="bx (bx-\w+)" data-pairing="([^"]+)"',
                                                  markup))


def texts(markup: str) -> list[str]:
    return [t.text or "" for t in ElementTree.fromstring(markup).iter(f"{NS}text")]


def test_a_finished_single_elimination_has_every_round_connectors_and_the_champion() -> None:
    markup = draw("single_elimination", ["a", "b", "c", "d"])
    ElementTree.fromstring(markup)  # well-formed
    assert set(boxes(markup)) == {"W1-1", "W1-2", "W2-1"}
    assert markup.count('class="bx-link"') == 2 + 1  # two semifinals into the final, trophy
    assert re.search(r'<text class="champ-name"[^>]*>Name a</text>', markup)
    assert "Champion: Name a" not in texts(markup)  # the trophy box says it already


def test_byes_are_drawn_as_byes_and_future_slots_say_where_they_come_from() -> None:
    markup = draw("single_elimination", ["a", "b", "c", "d", "e"], matches=0)
    words = texts(markup)
    assert words.count("bye") == 3
    assert "Winner of Quarterfinal 2" in words
    assert boxes(markup)["W3-1"] == "bx-waiting"


def test_a_live_match_is_a_link_to_its_match_page() -> None:
    markup = draw("single_elimination", ["a", "b", "c", "d"], matches=1,
                  links={"W1-2": "/matches/42/"})
    assert '<a href="/matches/42/" id="bracket-W1-2"><g class="bx bx-live" ' \
        'data-pairing="W1-2">' in markup


def test_a_box_whose_match_the_page_lists_is_no_tab_stop_of_its_own() -> None:
    """The Event page lists each match with its link: a keyboard user tabbed to every match
    twice, once in the drawing. A tap, a click and a screen reader still follow the box."""
    fmt, state, results = played("single_elimination", ["a", "b", "c", "d"], None, 0)
    markup = svg.bracket_svg(fmt.pairings(state), names={}, results=results,
                             links={"W1-1": "/matches/41/", "W1-2": "/matches/42/"},
                             listed={"W1-2"})
    assert '<a href="/matches/41/" id="bracket-W1-1"><g ' in markup
    assert '<a href="/matches/42/" id="bracket-W1-2" tabindex="-1"><g ' in markup


def test_a_live_match_says_playing_now_in_words_on_a_row_of_its_own() -> None:
    """Its accent frame and label were all that told a live match from one waiting: colour,
    which a screen reader does not read and not everyone tells apart. The words go in the
    link (a screen reader reads them in its name), on a row under the names, so neither the
    label nor a name is cut shorter for them."""
    markup = draw("single_elimination", ["a", "b", "c", "d"], matches=1,
                  links={"W1-2": "/matches/42/"})
    root = ElementTree.fromstring(markup)
    link = root.find(f"{NS}a")
    assert link is not None
    said = ["".join(t.itertext()) for t in link.iter(f"{NS}text")]
    assert said == ["Semifinal 2", "Name b", "Name c", "Playing now"]
    assert texts(markup).count("Playing now") == 1  # not the one played, nor the final
    frames = {g.get("data-pairing"): float(g.find(f"{NS}rect").get("height") or 0)
              for g in root.iter(f"{NS}g") if g.get("data-pairing")}
    assert frames == {"W1-1": 2 * svg.LINE_H, "W1-2": 3 * svg.LINE_H, "W2-1": 2 * svg.LINE_H}


def label_of(markup: str, pairing: str) -> ElementTree.Element:
    """The label drawn above a pairing's box."""
    root = ElementTree.fromstring(markup)
    box = next(g for g in root.iter(f"{NS}g") if g.get("data-pairing") == pairing)
    label = box.find(f"{NS}text[@class='bx-label']")
    assert label is not None
    return label


def shown_and_read(text: ElementTree.Element) -> tuple[str, str | None]:
    """What a text shows (its lines as one) and its <title>, which a screen reader reads."""
    title = text.find(f"{NS}title")
    shown = "".join(part.text or "" for part in [text, *text.findall(f"{NS}tspan")])
    return shown, None if title is None else title.text


def test_a_label_drops_the_title_its_section_is_headed_by_and_is_read_whole() -> None:
    """ "Group A, Round 1 match 1" ran past its box into the next column on a phone; under
    the heading "Group A" it shows "Round 1 match 1", and its <title> has it whole."""
    assert svg.label_lines("Group A, Round 10 match 6", "group A") == ["Round 10 match 6"]
    markup = draw("multistage", [f"e{i}" for i in range(8)], {"groups": 2}, matches=0)
    assert "Group A" in texts(markup)
    assert shown_and_read(label_of(markup, "A:R1-1")) == (
        "Round 1 match 1", "Group A, Round 1 match 1")
    whole = draw("single_elimination", ["a", "b", "c", "d"], matches=0)
    assert shown_and_read(label_of(whole, "W1-1")) == ("Semifinal 1", None)


def test_a_double_elimination_label_drops_the_side_its_heading_names_and_fits_a_line() -> None:
    """Under "Winners bracket" every "Winners round 1 match 1" wrapped to two lines, which
    made the diagram tall; it shows "Round 1 match 1", its <title> the whole label."""
    assert svg.label_lines("Winners round 12 match 16", "winners") == ["Round 12 match 16"]
    assert svg.label_lines("Grand final reset", "grand_final") == ["Grand final reset"]
    markup = draw("double_elimination", [f"e{i}" for i in range(8)], matches=0)
    assert {"Winners bracket", "Losers bracket"} <= set(texts(markup))
    assert shown_and_read(label_of(markup, "W1-1")) == (
        "Round 1 match 1", "Winners round 1 match 1")
    assert shown_and_read(label_of(markup, "L2-1")) == (
        "Round 2 match 1", "Losers round 2 match 1")
    assert ElementTree.fromstring(markup).find(f".//{NS}tspan") is None  # none wraps


def test_each_sides_final_reads_with_its_sides_name_under_its_heading() -> None:
    """Under "Losers bracket" (or "Winners bracket") it read "Final", which a reader takes
    for the Event's final (the grand final's); it keeps its side's name, in a multistage
    Event's group too."""
    assert svg.label_lines("Losers final", "losers") == ["Losers final"]
    assert svg.label_lines("Group A, Losers final", "group A") == ["Losers final"]
    markup = draw("double_elimination", [f"e{i}" for i in range(8)], matches=0)
    assert shown_and_read(label_of(markup, "L4-1")) == ("Losers final", None)
    assert shown_and_read(label_of(markup, "W3-1")) == ("Winners final", None)


def test_a_long_label_wraps_between_words_keeping_a_number_with_its_word() -> None:
    assert svg.label_lines("Winners round 12 match 16", "bracket") == [
        "Winners round 12", "match 16"]
    assert svg.label_lines("Group A, Losers round 10 match 8", "group A") == [
        "Losers round 10", "match 8"]
    assert svg.label_lines("Final", "bracket") == ["Final"]
    # What two lines cannot hold ends in an ellipsis; a word wider than a line is cut.
    lines = svg.label_lines("The grand showdown of the whole summer season", "bracket")
    assert lines == ["The grand showdown of", "the whole summer seas\u2026"]
    assert svg.label_lines("Extraordinarilylongwordedness final", "bracket") == [
        "Extraordinarilylongwo-", "rdedness final"]
    assert all(len(line) <= svg.LABEL_CHARS for line in lines)


def test_a_wrapped_label_is_a_line_a_tspan_read_as_one_and_its_box_sits_under_it() -> None:
    fmt, state, _ = played("single_elimination", ["a", "b", "c", "d"], matches=0)
    pairings = [replace(p, label="The grand showdown of summer") if p.id == "W2-1" else p
                for p in fmt.pairings(state)]
    markup = svg.bracket_svg(pairings, names={})
    label = label_of(markup, "W2-1")
    lines = label.findall(f"{NS}tspan")
    assert [line.text for line in lines] == ["The grand showdown of ", "summer"]
    assert "".join(label.itertext()) == "The grand showdown of summer"  # read whole, spaced
    assert label.find(f"{NS}title") is None  # nothing cut
    root = ElementTree.fromstring(markup)
    box = next(g for g in root.iter(f"{NS}g") if g.get("data-pairing") == "W2-1")
    frame = box.find(f"{NS}rect[@class='bx-frame']")
    assert frame is not None
    second = float(lines[1].get("y") or 0)
    assert float(frame.get("y") or 0) == second + 5  # under the second line, as under one


def test_a_name_or_a_source_cut_short_is_read_whole_in_its_title() -> None:
    fmt, state, _ = played("single_elimination", ["a", "b", "c", "d"], matches=0)
    long = "Bartholomew the Magnificent"
    markup = svg.bracket_svg(fmt.pairings(state), names={"a": long, "b": "b", "c": "c",
                                                         "d": "d"})
    root = ElementTree.fromstring(markup)
    named = next(t for t in root.iter(f"{NS}text") if t.get("class") == "ln ln-entrant"
                 and (t.text or "").startswith("Bartholomew"))
    assert shown_and_read(named) == (long[: svg.NAME_CHARS - 1] + "\u2026", long)
    short = next(t for t in root.iter(f"{NS}text") if t.text == "b")
    assert short.find(f"{NS}title") is None


def test_a_bracket_is_a_named_group_whose_names_and_links_a_screen_reader_reaches() -> None:
    """An image role would make the names and match links inside it presentational: a
    screen reader would hear 'Bracket diagram' and none of the links a keyboard reaches."""
    markup = draw("single_elimination", ["a", "b", "c", "d"], matches=1,
                  links={"W1-2": "/matches/42/"})
    root = ElementTree.fromstring(markup)
    assert root.get("role") == "group"
    title = root.find(f"{NS}title")
    assert title is not None and title.text == "Bracket diagram"
    assert root.find(f"{NS}a") is not None
    assert 'role="img"' not in markup


def test_a_bracket_shrinks_no_further_than_85_percent_and_carries_no_style() -> None:
    """Wider than a phone (which draws it 1:1), it shrinks to the page. The
    Content-Security-Policy allows no style attribute: the width the bracket keeps goes in
    data-min-width, which static/js/league.js makes its min-width."""
    root = ElementTree.fromstring(draw("single_elimination", ["a", "b", "c", "d"]))
    assert root.get("style") is None
    assert root.get("data-min-width") == str(int(int(root.get("width") or 0) * 0.85))
    assert int(root.get("width") or 0) > 300  # two rounds of boxes


def test_double_elimination_has_winners_losers_and_grand_final_sections() -> None:
    markup = draw("double_elimination", ["a", "b", "c", "d"])
    words = texts(markup)
    assert {"Winners bracket", "Losers bracket", "Grand final"} <= set(words)
    assert {"W1-1", "W2-1", "L1-1", "L2-1", "GF"} <= set(boxes(markup))


def test_round_robin_is_a_round_by_round_grid_with_the_champion_in_the_banner() -> None:
    markup = draw("round_robin", ["a", "b", "c", "d"])
    ids = boxes(markup)
    assert len([i for i in ids if i.startswith("R")]) == 6
    assert markup.count('class="bx-link"') == 0  # a grid: no connectors, no trophy box
    fmt, state, _ = played("round_robin", ["a", "b", "c", "d"])
    assert f"Champion: Name {fmt.standings(state)[0].entrant}" in texts(markup)


def test_heats_are_drawn_as_pods_with_places() -> None:
    markup = draw("heats", [f"p{i}" for i in range(8)], {"pod_size": 4})
    root = ElementTree.fromstring(markup)
    places = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "ln-place"]
    assert "Heats" in texts(markup) and "Final" in texts(markup)
    assert places.count("4th") == 2 and places.count("1st") == 3  # two pods of 4, a final


def test_a_box_s_places_read_as_places_not_as_scores() -> None:
    """"heuristic bot 2 / search-easy bot 1" beside the names read as a score of 2-1 to the
    loser: a place says it is one ("2nd", "1st"), and is read out as "2nd place"."""
    markup = draw("single_elimination", ["a", "b", "c", "d"])
    root = ElementTree.fromstring(markup)
    places = [t for t in root.iter(f"{NS}text") if t.get("class") == "ln-place"]
    shown = sorted(t.text or "" for t in places)
    assert shown == ["1st"] * 3 + ["2nd"] * 3
    assert sorted(t.findtext(f"{NS}title") or "" for t in places) == [
        "1st place"] * 3 + ["2nd place"] * 3
    assert [svg.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
        "111th"]


def test_names_are_escaped() -> None:
    fmt, state, _ = played("single_elimination", ["a", "b"], matches=0)
    markup = svg.bracket_svg(fmt.pairings(state), names={"a": "<b>&co", "b": "x"})
    assert "<b>" not in markup and "&lt;b&gt;&amp;co" in markup


def test_the_rating_chart_has_a_line_per_game_and_a_legend() -> None:
    markup = svg.rating_chart_svg({"Super Showdown": [0.0, 1.5, 3.2], "Other": [2.0]})
    root = ElementTree.fromstring(markup)
    lines = list(root.iter(f"{NS}polyline"))
    assert len(lines) == 2 and len(lines[0].get("points", "").split()) == 3
    assert "Super Showdown" in texts(markup) and "3 matches" in texts(markup)
    assert svg.rating_chart_svg({}) == "" and svg.bracket_svg([], names={}) == ""


def test_the_rating_chart_says_its_lines_in_words_and_tells_them_apart_by_dash() -> None:
    """A screen reader reads an image's name and description, not its points; and two
    games' lines differed by colour alone, which not every reader tells apart."""
    markup = svg.rating_chart_svg({"Super Showdown": [0.0, 1.5, 3.2, 2.5], "Other": [2.0]})
    root = ElementTree.fromstring(markup)
    assert root.get("role") == "img"
    described = root.find(f"{NS}desc")
    assert described is not None and described.text == (
        "Super Showdown: 4 rated matches, from 0.00 to 2.50 (lowest 0.00, highest 3.20). "
        "Other: 1 rated match, from 2.00 to 2.00 (lowest 2.00, highest 2.00).")
    dashes = [line.get("stroke-dasharray") for line in root.iter(f"{NS}polyline")]
    assert len(set(dashes)) == 2
    keys = [line.get("stroke-dasharray") for line in root.iter(f"{NS}line")
            if line.get("stroke-width") == "2"]
    assert keys == dashes  # the legend's sample of each line
    assert "&lt;b&gt;" in svg.rating_chart_svg({"<b>": [1.0]})


def test_one_rated_match_is_labelled_1_match_under_its_point() -> None:
    """A player's first rated match drew "1" at the axis's left and "1 matches" at its
    right, either side of a point in the middle."""
    root = ElementTree.fromstring(svg.rating_chart_svg({"Super Showdown": [3.44]}))
    axis = [(t.text, t.get("x")) for t in root.iter(f"{NS}text") if t.get("class") == "axis"
            and not re.fullmatch(r"-?[\d.]+", t.text or "")]
    point = next(root.iter(f"{NS}circle"))
    assert axis == [("1 match", point.get("cx"))]


def test_the_rating_chart_writes_no_minus_nought() -> None:
    """One rated match at 0.98 draws the axis from -0.02: its bottom reads 0.0, as a
    rating just under zero reads 0.00 in words."""
    assert ">-0.0<" not in svg.rating_chart_svg({"Super Showdown": [0.98]})
    root = ElementTree.fromstring(svg.rating_chart_svg({"Super Showdown": [-0.001, 0.5]}))
    described = root.find(f"{NS}desc")
    assert described is not None and "-0.00" not in (described.text or "")


@pytest.mark.parametrize("key", ["swiss", "multistage"])
def test_every_other_format_draws(key: str) -> None:
    markup = draw(key, [f"e{i}" for i in range(1, 7)])
    ElementTree.fromstring(markup)
    assert boxes(markup)


def test_the_winner_of_a_bye_is_shown_in_the_next_round_at_once() -> None:
    markup = draw("double_elimination", ["a", "b", "c"], matches=0)
    final = markup.split('data-pairing="W2-1"')[1].split("</g>")[0]
    assert "Name a" in final and "Winner of" in final  # seed 1's bye; the other still open
    losers = markup.split('data-pairing="L1-1"')[1].split("</g>")[0]
    assert "bye" in losers and "Loser of" in losers


def test_the_rating_chart_is_drawn_no_smaller_than_1_to_1_so_its_14px_text_stays_14px() -> None:
    """It shrank with a phone's screen, its text to 11px: its width in the page's px goes in
    data-min-width (static/js/league.js makes it its min-width), and fits a phone of 390px."""
    root = ElementTree.fromstring(svg.rating_chart_svg({"Super Showdown": [0.0, 1.5]}))
    assert root.get("data-min-width") == str(svg.CHART_W) == root.get("viewBox", "").split()[2]
    assert svg.CHART_W <= 330  # 390px less the page's and the card's padding


def test_a_match_both_sides_forfeited_sends_a_bye_on_not_a_winner_still_to_come() -> None:
    """The next boxes said 'Winner of Winners round 1 match 1' of a decided Event, as if
    it waited for a winner, where the format passed nobody on (nor down)."""
    fmt = formats.get_format("double_elimination")
    state = fmt.start(["a", "b", "c", "d"], {})
    results = {"W1-1": {"a": 2, "d": 2}, "W1-2": {"b": 2, "c": 2}}
    for pid, placements in results.items():
        state = fmt.record(state, MatchResult(pid, placements))
    assert fmt.is_complete(state)
    markup = svg.bracket_svg(fmt.pairings(state), names={e: e for e in "abcd"},
                             results=results)
    assert "Winner of" not in markup and "Loser of" not in markup
    for later in ("W2-1", "L1-1", "GF"):
        assert boxes(markup)[later] == "bx-bye"


def test_a_decided_matchs_winner_and_loser_are_drawn_where_they_go_at_once() -> None:
    """The next match names who a played match sends there (the API's bracket reads the
    same) while its other slot still says where its entrant comes from."""
    fmt, state, results = played("double_elimination", ["a", "b", "c", "d"], matches=1)
    (first,) = results
    winner, loser = sorted(results[first], key=results[first].__getitem__)
    known = svg.known_slots(fmt.pairings(state), results)
    nexts = {p.id: p for p in fmt.pairings(state)}
    onward = next(p for p in nexts.values() if f"winner of {first}" in p.sources)
    down = next(p for p in nexts.values() if f"loser of {first}" in p.sources)
    assert known[onward.id][onward.sources.index(f"winner of {first}")] == winner
    assert known[down.id][down.sources.index(f"loser of {first}")] == loser
    assert None in known[onward.id] and None in known[down.id]
    assert onward.slots == (None, None)  # the format's own pairing is unchanged
    markup = svg.bracket_svg(fmt.pairings(state), names={e: f"Name {e}" for e in "abcd"},
                             results=results)
    assert texts(markup).count(f"Name {winner}") == 2
    assert texts(markup).count(f"Name {loser}") == 2


def box_of(markup: str, pairing: str) -> ElementTree.Element:
    return next(g for g in ElementTree.fromstring(markup).iter(f"{NS}g")
                if g.get("data-pairing") == pairing)


def test_a_walkovers_winner_is_marked_as_a_played_matchs_winner_and_says_walkover() -> None:
    """A match a withdrawal ended had its winner's line shaded but nothing where a
    played match says "1st": the match list said "walkover", the diagram said nothing."""
    fmt = formats.get_format("single_elimination")
    names = {"a": "Ann", "b": "Bo", "c": "A longer name too", "d": "Dee"}
    state = fmt.withdraw(fmt.withdraw(fmt.start(list("abcd")), "d"), "b")
    assert fmt.walkovers(state) == {"W1-1": "a", "W1-2": "c"}
    markup = svg.bracket_svg(fmt.pairings(state), names=names, ended=fmt.walkovers(state),
                             withdrawn={"b", "d"})
    for pairing, winner in (("W1-1", "Ann"), ("W1-2", "A longer name too")):
        box = box_of(markup, pairing)
        won = [t for t in box.iter(f"{NS}text") if "ln-won" in (t.get("class") or "")]
        assert len(won) == 1 and "".join(won[0].itertext()).startswith(winner[:10])
        assert len(list(box.iter(f"{NS}rect"))) == 2  # the frame and the winner's shade
        (mark,) = [t for t in box.iter(f"{NS}text") if t.get("class") == "ln-place"]
        assert mark.find(f"{NS}title").text == "won by walkover"
        # Whole beside a short name; beside a long one, shorter, the name kept whole.
        assert mark.text == ("walkover" if winner == "Ann" else "w/o")
        assert won[0].text == winner
    # The next match, both walkovers' winners in it, is not one.
    final = box_of(markup, "W2-1")
    assert not [t for t in final.iter(f"{NS}text") if t.get("class") == "ln-place"]
    assert [t.text for t in final.iter(f"{NS}text")][1:] == ["Ann", "A longer name too"]


def test_a_final_won_by_walkover_has_the_champion_under_it() -> None:
    fmt, state, results = played("single_elimination", ["a", "b", "c", "d"], matches=2)
    state = fmt.withdraw(state, "b")
    assert fmt.is_complete(state) and fmt.standings(state)[0].entrant == "a"
    markup = svg.bracket_svg(fmt.pairings(state), names={e: f"Name {e}" for e in "abcd"},
                             results=results, ended={"W2-1": "a"}, withdrawn={"b"},
                             champion="a")
    assert re.search(r'<text class="champ-name"[^>]*>Name a</text>', markup)
    assert "Champion: Name a" not in texts(markup)
    assert "walkover" in texts(markup)


def test_a_walkover_both_sides_withdrew_from_sends_a_bye_on_not_a_winner_still_to_come() -> None:
    """Nobody goes on from a match both of whose entrants had withdrawn when it was
    settled: the next box said "Winner of Semifinal 1" as if one were still to come,
    where the API's bracket reads the slot empty, and went on saying it once the other
    semifinal was played."""
    fmt = formats.get_format("single_elimination")
    state = replace(fmt.start(list("abcd")), withdrawn=frozenset("ad"))
    assert fmt.walkovers(state) == {"W1-1": None}
    names = {e: f"Name {e}" for e in "abcd"}
    for results in ({}, {"W1-2": {"b": 1, "c": 2}}):
        for pid, placements in results.items():
            state = fmt.record(state, MatchResult(pid, placements))
        markup = svg.bracket_svg(fmt.pairings(state), names=names, results=results,
                                 ended=fmt.walkovers(state), withdrawn={"a", "d"})
        lines = [t.text for t in box_of(markup, "W2-1").iter(f"{NS}text")][1:]
        assert lines == ["bye", "Name b" if results else "Winner of Semifinal 2"]
        assert "Winner of Semifinal 1" not in markup
        # The API's bracket names the slots as the diagram does: the first one empty.
        known = svg.known_slots(fmt.pairings(state), results, fmt.walkovers(state))
        assert known["W2-1"] == (None, "b" if results else None)
