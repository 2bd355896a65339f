"""The one shape of a refused request, shared by the match and league services."""

from __future__ import annotations


class Refusal(Exception):
    """A refused request: `code` for machines, `detail` for people, `status` for HTTP;
    `seq`, where a stale read was refused (stale_seq), the seq the stream is at now, so a
    client reads it rather than parsing the sentence; `seat`, where it refuses something
    of one seat, that seat's index as the API numbers seats (from 0), where the sentence
    names it as the pages do ("Seat 2", from 1, or by its game's name)."""

    def __init__(self, code: str, detail: str, status: int = 400,
                 seq: int | None = None, seat: int | None = None) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.status = status
        self.seq = seq
        self.seat = seat

    def __reduce__(self) -> tuple[type, tuple[str, str, int, int | None, int | None]]:
        """Pickled whole, so a task that raises it reports it (Celery pickles errors)."""
        return (type(self), (self.code, self.detail, self.status, self.seq, self.seat))

    def body(self) -> dict[str, object]:
        """The refusal as an API answer's body."""
        body: dict[str, object] = {"code": self.code, "detail": self.detail}
        if self.seq is not None:
            body["seq"] = self.seq
        if self.seat is not None:
            body["seat"] = self.seat
        return body
