"""Signals other apps listen to; matches never imports them (league -> matches only)."""

from django.dispatch import Signal

# Sent once, after the commit that finished a match: sender=Match, match=<Match>.
match_finished = Signal()

# Sent after every commit that appended to a match: sender=Match, match_id=<int>, seq=<int>.
match_advanced = Signal()

# Asked, with sender=Match, match=<Match>, before a finished match's hidden information is
# unveiled; a receiver returns True to keep it hidden (another app knows the match's secret
# options are still in use elsewhere).
match_sealed = Signal()
