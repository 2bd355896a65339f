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
from django.db import transaction
from kombu.exceptions import OperationalError

_local = threading.local()

# What `enqueue` raises while the broker is away (Redis down): kombu's, once its retries
# are used up. A caller that has written nothing says so; after a write, `after_commit`.
BROKER_DOWN = (OperationalError,)


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


def after_commit(call: Any) -> None:
    """Run `call` once the transaction commits (at once outside one). What it does follows
    from a write already made, so its failure (a broker away, a listener's bug) is logged,
    not raised: raised, it turned a stored write into an error for the client and kept the
    hooks after it from running. Each has its repair (the sweeps re-enqueue bot seats and
    simulation chunks and record missed results). `call` needs a `__qualname__` (a function
    or a lambda, not a partial): Django logs a failure by it."""
    transaction.on_commit(call, robust=True)
