"""purestate.core."""
