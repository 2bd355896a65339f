"""Signals other apps listen to; matches never imports them (league -> matches only)."""

from django.dispatch import Signal

# Sent once, after the commit that finished a match: sender=Match, match=<Match>.
match_finished = Signal()

# Sent after every commit that appended to a match: sender=Match, match_id=<int>, seq=<int>.
match_advanced = Signal()
