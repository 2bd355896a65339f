"""The pure rules engine: no Django, no I/O, no clock, no global random module."""
