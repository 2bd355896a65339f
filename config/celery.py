"""The Celery app; its settings come from Django's (CELERY_ prefix)."""

from __future__ import annotations

import os
import warnings

from celery import Celery
from celery.exceptions import CPendingDeprecationWarning

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("showdown")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# At each broker connection loss Celery warns that it will cancel running tasks by default
# one day; config/settings.py decides (CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_...).
warnings.filterwarnings("ignore", message=r"\s*In Celery 5\.1 we introduced an optional "
                        r"breaking change", category=CPendingDeprecationWarning)
