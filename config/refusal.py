"""The one shape of a refused request, shared by the match and league services."""

from __future__ import annotations


class Refusal(Exception):
    """A refused request: `code` for machines, `detail` for people, `status` for HTTP."""

    def __init__(self, code: str, detail: str, status: int = 400) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.status = status

    def __reduce__(self) -> tuple[type, tuple[str, str, int]]:
        """Pickled whole, so a task that raises it reports it (Celery pickles errors)."""
        return (type(self), (self.code, self.detail, self.status))
