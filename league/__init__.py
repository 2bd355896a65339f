"""The organizer's half: players now; teams, seasons, Events and brackets to come."""
