"""purestate.io."""
