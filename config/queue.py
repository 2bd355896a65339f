"""Hand a task to Celery, or, without a broker, run it in-process without nesting.

In the embedded default tasks run eagerly. A task that commits can make more tasks due
(a bot move finishes a match, the result opens the next round, its bots move...); run
directly, each would start inside the last one's commit hook and a long Event would
overflow the stack. So an eager task that is due while another runs waits in a queue
that the outermost call drains, one task after another.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

from django.conf import settings

_local = threading.local()


def enqueue(task: Any, *args: Any) -> None:
    """`task.delay(*args)` with a broker; an in-process trampoline without one."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        task.delay(*args)
        return
    pending: deque[tuple[Any, tuple[Any, ...]]] | None = getattr(_local, "pending", None)
    if pending is not None:
        pending.append((task, args))
        return
    _local.pending = pending = deque([(task, args)])
    try:
        while pending:
            due, due_args = pending.popleft()
            due.apply(args=due_args)
    finally:
        _local.pending = None
