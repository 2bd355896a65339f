"""Matches: the append-only event store, the match service, bot-seat tasks, API and pages."""
