"""purestate.experiments."""
