"""purestate.heuristics."""
