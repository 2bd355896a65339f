"""Match types as data: which rules are in force in each (SH-071..SH-108)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class DoubleTeam(StrEnum):
    """SH-065/074: who may Double Team."""

    NONE = "none"
    LOSERS = "losers"  # Triple Threat: two players who would each have lost the roll
    TEAM = "team"  # team matches: two members of the same team


@dataclass(frozen=True)
class MatchType:
    """The rules in force in one match type."""

    key: str
    seats: int
    teams: tuple[int, ...] | None = None  # team per seat; None: every player alone
    elimination: bool = False  # False: first fall wins
    count_outs: bool = True  # the default; the `count_outs` option may switch it
    dq: bool = False
    bump_out: bool = False
    team_up: bool = False
    double_team: DoubleTeam = DoubleTeam.NONE
    protect: bool = False
    save: bool = False
    lone_plays_each: bool = False  # SH-087/094: the lone player draws 2, plays vs each
    birdcage: bool = False  # SH-110..SH-125: draft, entrants, its own Crowd Meter
    min_seats: int = 0  # 0: exactly `seats`

    def team(self, seat: int) -> int:
        return self.teams[seat] if self.teams else seat


MATCH_TYPES: dict[str, MatchType] = {m.key: m for m in (
    MatchType("one_on_one", 2),
    MatchType("triple_threat_elimination", 3, elimination=True, count_outs=False, dq=True,
              team_up=True, double_team=DoubleTeam.LOSERS),
    MatchType("triple_threat_first_fall", 3, double_team=DoubleTeam.LOSERS),
    MatchType("handicap", 3, teams=(0, 0, 1), count_outs=False, dq=True,
              double_team=DoubleTeam.TEAM, protect=True, save=True, lone_plays_each=True),
    MatchType("tag_team", 3, teams=(0, 0, 1), count_outs=False, dq=True,
              double_team=DoubleTeam.TEAM, protect=True, save=True, lone_plays_each=True),
    MatchType("tornado_tag_team", 4, teams=(0, 0, 1, 1), count_outs=False,
              double_team=DoubleTeam.TEAM, protect=True, save=True),
    MatchType("fatal_four_way_elimination", 4, elimination=True, count_outs=False, dq=True,
              bump_out=True, team_up=True),
    MatchType("fatal_four_way_first_fall", 4, bump_out=True, team_up=True),
    MatchType("birdcage", 6, elimination=True, count_outs=False, dq=True, bump_out=True,
              team_up=True, birdcage=True, min_seats=3),
)}
