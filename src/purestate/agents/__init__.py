"""purestate.agents."""
