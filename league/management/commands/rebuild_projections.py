"""Drop and rebuild every projection (entrants, standings, season tables, ratings, round
scores, Ranking Points)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from league.projections import rebuild_all


class Command(BaseCommand):
    help = "Rebuild every league projection from the Event and match streams."

    def handle(self, *args: Any, **options: Any) -> None:
        counts = rebuild_all()
        self.stdout.write("Rebuilt: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
