"""purestate: two-player board games and the agents that learn and search them.

The core is functional: states are immutable values, rules are pure functions, agents are pure
policies plus updates that return new tables, and randomness comes from explicit keys.

Example:
    >>> import purestate
    >>> game = purestate.make("tictactoe")
    >>> menace = purestate.agent("menace:preset=scroggs")
    >>> human = purestate.agent("rules:p=0.7")
    >>> tables = (menace.initial_table(game, 0), None)
    >>> ep = purestate.play(game, (menace, human), tables, purestate.key(0))
    >>> ep.returns in ((1.0, -1.0), (0.0, 0.0), (-1.0, 1.0))
    True
"""

# The packages purestate.games and purestate.agents are imported first so that the names below
# stay bound to the registry functions ``games()`` and ``agents()`` (a later import of a game
# module would otherwise rebind them to the packages). Import game modules with
# ``from purestate.games import tictactoe``.
import purestate.agents as _agents_package  # noqa: F401
import purestate.games as _games_package  # noqa: F401
from purestate.core.agent import Agent, Decision
from purestate.core.episode import Episode, play
from purestate.core.game import Game, GameSpec, IllegalMove, ParseError
from purestate.core.keys import Key, fold_in, key, split
from purestate.core.learning import Tally, TrainStep, blocks, tally, train, wilson
from purestate.core.record import Record, RecordError, replay
from purestate.core.registry import agent, agents, games, make, make_spec
from purestate.core.spec import SpecError
from purestate.drawing import Picture, svg

__all__ = [
    "Agent",
    "Decision",
    "Episode",
    "Game",
    "GameSpec",
    "IllegalMove",
    "Key",
    "ParseError",
    "Picture",
    "Record",
    "RecordError",
    "SpecError",
    "Tally",
    "TrainStep",
    "agent",
    "agents",
    "blocks",
    "fold_in",
    "games",
    "key",
    "make",
    "make_spec",
    "play",
    "replay",
    "split",
    "svg",
    "tally",
    "train",
    "wilson",
]
__version__ = "0.1.0"  # the one place the version is written (pyproject.toml reads it)
