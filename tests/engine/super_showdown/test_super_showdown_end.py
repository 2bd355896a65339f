"""Piles, winning and the best of 3: SU-39 to SU-44 (seat 0 is the Hero unless stated)."""

from __future__ import annotations

from itertools import product

from engine.games.super_showdown.rules import game_end
from engine.games.super_showdown.state import GameRecord, Phase, Tally, WinReason
from engine.protocol import PendingKind

APART = ((1, 1), (6, 6))
FOUR_WHITE = ("decoy-white", "force-field", "sonic-hearing", "scanner-sight")
FOUR_GREEN = ("decoy-green", "ray-gun", "whisper-network", "shadow-step")


def _record(number, hero, winner, reason=WinReason.FIVE_VICTORIOUS):
    return GameRecord(number, hero, winner, reason, (Tally(5, 0), Tally(0, 0)))


def test_victory_and_defeat_piles_show_their_numbers_to_everyone(ss):
    """SU-39: victorious and defeated cards go to open piles, numbers visible to both."""
    after = ss.reveal(("titan-grip", "ice-blast"), APART)
    views = [ss.rules.view(after, viewer) for viewer in (0, 1, None)]
    for view in views:
        assert [(c["id"], c["number"]) for c in view["victory_pile"]] == [("titan-grip", 13)]
        assert [(c["id"], c["number"]) for c in view["defeat_pile"]] == [("ice-blast", 9)]


def test_five_of_your_colour_victorious_wins(ss):
    """SU-40: five Hero (white) cards in the Victory pile win for the Hero."""
    after = ss.reveal(("titan-grip", "ice-blast"), APART, victory=FOUR_WHITE)
    result = ss.rules.result(after)
    assert after.phase is Phase.OVER and result is not None
    assert result.winners == (0,) and result.placements == (1, 2)
    assert after.games[-1].reason is WinReason.FIVE_VICTORIOUS
    assert result.figures[0]["own_victorious"] == 5


def test_five_of_the_nemesis_colour_defeated_wins(ss):
    """SU-41: five white cards in the Defeat pile win for the Villain."""
    after = ss.reveal(("wall-crawl", "doom-cannon"), APART, defeat=FOUR_WHITE)
    result = ss.rules.result(after)
    assert result is not None and result.winners == (1,)
    assert after.games[-1].reason is WinReason.FIVE_DEFEATED
    assert result.figures[1]["nemesis_defeated"] == 5


def test_both_winning_at_once_goes_to_more_cards_counting_for_you(ss):
    """SU-42 (decision): both reach a five in one Showdown: more cards for you wins."""
    after = ss.reveal(("jet-flight", "ice-blast"), APART, defeat=FOUR_WHITE + FOUR_GREEN,
                      victory=("wall-crawl",))
    # Hero: 1 white victorious + 5 green defeated = 6; Villain: 0 + 5 white defeated = 5.
    assert ss.rules.result(after).winners == (0,)
    assert after.games[-1].reason is WinReason.BOTH_MORE_CARDS


def test_the_both_win_tiebreak_counts_defeated_nemesis_cards_too(ss):
    """SU-42 (decision): cards counting for you are your colour victorious plus the
    nemesis' colour defeated; equal fives on the Victory pile are settled by the defeats."""
    state = ss.reveal(("solar-flare", "ice-blast"), ((1, 1), (3, 4)), to=(3, 3),
                      victory=FOUR_WHITE + FOUR_GREEN,
                      defeat=("lightning-reflexes", "titan-grip"))
    after = ss.choose(state, 1, ["solar-flare", "ice-blast"], [])
    # Hero: 5 white victorious + 0 green defeated; Villain: 5 green + 2 white defeated.
    tallies = after.games[-1].tallies
    assert (tallies[0].own_victorious, tallies[1].own_victorious) == (5, 5)
    assert ss.rules.result(after).winners == (1,)
    assert after.games[-1].reason is WinReason.BOTH_MORE_CARDS


def test_both_winning_at_once_with_equal_cards_is_a_draw(ss):
    """SU-42 (decision): equal counts when both reach a five make a drawn game."""
    after = ss.reveal(("jet-flight", "ice-blast"), APART, defeat=FOUR_WHITE + FOUR_GREEN)
    result = ss.rules.result(after)
    assert result.draw and result.winners == () and result.placements == (1, 1)
    assert after.games[-1].reason is WinReason.BOTH_DRAW


def test_nine_rounds_always_produce_a_winner_and_the_safety_net_ends_the_game():
    """SU-42 (decision): with all 18 cards on the piles someone has five; the net still ends it."""
    for white_up, green_up in product(range(10), repeat=2):
        hero = Tally(white_up, 9 - green_up)
        villain = Tally(green_up, 9 - white_up)
        end = game_end((hero, villain), hands_empty=True)
        assert end is not None and end.reason is not WinReason.CARDS_EXHAUSTED
    net = game_end((Tally(2, 2), Tally(3, 2)), hands_empty=True)
    assert net is not None and (net.winner, net.reason) == (1, WinReason.CARDS_EXHAUSTED)
    assert game_end((Tally(2, 2), Tally(3, 2)), hands_empty=False) is None


def test_a_best_of_three_goes_on_to_a_new_game_then_ends_at_two_wins(ss):
    """SU-43: a best of 3 plays on after one win and ends when a seat has two."""
    first = ss.reveal(("titan-grip", "ice-blast"), APART, victory=FOUR_WHITE, best_of=3)
    assert first.phase is Phase.DEAL and ss.rules.pending(first).kind is PendingKind.CHANCE
    assert [g.winner for g in first.games] == [0]
    second = ss.reveal(("titan-grip", "ice-blast"), APART, victory=FOUR_WHITE, best_of=3,
                       games=first.games)
    result = ss.rules.result(second)
    assert second.phase is Phase.OVER and result.winners == (0,)
    assert result.figures[0]["games_won"] == 2 and result.figures[1]["games_won"] == 0


def test_each_game_of_a_series_is_dealt_anew_and_the_new_villain_starts(ss):
    """SU-44 (decision): re-deal every game; roles follow the new cards; the Villain starts."""
    first = ss.reveal(("titan-grip", "ice-blast"), APART, victory=FOUR_WHITE, best_of=3)
    assert first.hands == ((), ()) and first.victory == () and first.hero is None
    second = ss.deal(first, ss.green)  # seat 0 now holds the green cards
    assert second.hero == 1 and second.starter == 0 and second.round == 1
    assert second.game_number == 2


def test_a_series_stops_after_three_games_even_when_level(ss):
    """SU-44 (decision): at most three games; level after three (a drawn game) is a drawn series."""
    games = (_record(1, 0, 0), _record(2, 0, None, WinReason.BOTH_DRAW))
    third = ss.reveal(("wall-crawl", "doom-cannon"), APART, defeat=FOUR_WHITE, best_of=3,
                      games=games)
    result = ss.rules.result(third)
    assert third.phase is Phase.OVER and len(third.games) == 3
    assert result.draw and result.placements == (1, 1)


def _played_out(best_of: int, seed: int) -> list[str]:
    """The narration of the event that ends a series played at random."""
    import random

    from engine.games.super_showdown import RULES
    from engine.protocol import Event

    rng, state = random.Random(seed), RULES.start({"best_of": best_of}, 2)
    while True:
        pending = RULES.pending(state)
        if pending.kind is PendingKind.CHANCE:
            event = Event.chance(RULES.sample_chance(state, rng))
        else:
            seat = rng.choice(pending.seats)
            event = Event.decision(seat, rng.choice(RULES.legal_actions(state, seat)))
        after = RULES.apply(state, event)
        if RULES.pending(after).is_over:
            return RULES.narrate(state, event)
        state = after


def test_a_single_game_is_told_won_once_and_a_series_adds_its_score():
    """A best of 1 ends with one line on who won the game, not that line twice over (the
    series' summary is the game's own); a best of 3 says the game and then the series."""
    for seed in range(3):
        told = _played_out(1, seed)
        assert sum("won the game" in line or "was a draw" in line for line in told) == 1, told
        series = _played_out(3, seed)
        assert sum("best of 3" in line for line in series) == 1, series
