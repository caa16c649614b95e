"""purestate.solve."""
