"""What every game's card-data loader shares."""

from __future__ import annotations


class CardDataError(ValueError):
    """A data file that does not follow its schema; names the file, card and field."""

    def __init__(self, source: str, card: str | None, field: str, problem: str) -> None:
        where = f"{source}: card {card!r}" if card is not None else source
        super().__init__(f"{where}: field {field!r}: {problem}")
        self.source, self.card, self.field, self.problem = source, card, field, problem
