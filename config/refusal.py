"""The one shape of a refused request, shared by the match and league services."""

from __future__ import annotations


class Refusal(Exception):
    """A refused request: `code` for machines, `detail` for people, `status` for HTTP;
    `seq`, where a stale read was refused (stale_seq), the seq the stream is at now, so a
    client reads it rather than parsing the sentence."""

    def __init__(self, code: str, detail: str, status: int = 400,
                 seq: int | None = None) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        self.status = status
        self.seq = seq

    def __reduce__(self) -> tuple[type, tuple[str, str, int, int | None]]:
        """Pickled whole, so a task that raises it reports it (Celery pickles errors)."""
        return (type(self), (self.code, self.detail, self.status, self.seq))

    def body(self) -> dict[str, object]:
        """The refusal as an API answer's body."""
        body: dict[str, object] = {"code": self.code, "detail": self.detail}
        if self.seq is not None:
            body["seq"] = self.seq
        return body
