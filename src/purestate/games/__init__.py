"""purestate.games."""
