"""Signals other apps listen to; matches never imports them (league -> matches only)."""

from django.dispatch import Signal

# Sent once, after the commit that finished a match: sender=Match, match=<Match>.
match_finished = Signal()

# Sent after every commit that appended to a match: sender=Match, match_id=<int>, seq=<int>.
match_advanced = Signal()

# Asked, with sender=Match, matches=<list of Match>, before finished matches' hidden
# information is unveiled; a receiver returns the ids of those to keep hidden (another app
# knows their secret options are still in use elsewhere). A page of matches asks once.
match_sealed = Signal()
