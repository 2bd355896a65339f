"""League models. A Player is the league's face of a user account."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Player(models.Model):
    """One per user: the name shown at tables and in standings."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]

    def __str__(self) -> str:
        return self.display_name
