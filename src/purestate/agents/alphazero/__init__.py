"""``alphazero``: a network's priors and value guide PUCT search, and the network learns from its
own search by self-play (AlphaZero, Silver et al. 2017), pure and seeded.

``agent.py`` holds the agent, its table and the self-play pieces; ``network.py`` the network
(JAX, plain pytrees); ``training.py`` the examples, the replay buffer and the optax steps. JAX and
optax are the optional extra ``purestate[alphazero]``: this package imports without them, and
building the agent without them is refused in one line naming the extra.
"""

from purestate.agents.alphazero.agent import AlphaZero, Job, Net, Played, play_job

__all__ = ["AlphaZero", "Job", "Net", "Played", "play_job"]
