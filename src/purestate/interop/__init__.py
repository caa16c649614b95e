"""Bridges to the ecosystem: OpenSpiel games and bots, PettingZoo environments.

The OpenSpiel bridge is split by direction: ``from_openspiel`` loads any two-player, sequential,
perfect-information, deterministic OpenSpiel game as a purestate ``Game``
(``purestate.make("openspiel:connect_four")``), ``to_openspiel`` exposes any purestate game as a
pyspiel game (``as_pyspiel``, with observation tensors), and ``openspiel`` holds what they share
(importing pyspiel, its errors as one line, move ids). ``bots`` wraps OpenSpiel's bots as
purestate agents. ``pettingzoo`` turns any purestate game into a PettingZoo AEC environment.
What both show a learner is each game's ``planes`` hook: a position as 0/1 planes seen by one
player (a game bridged from OpenSpiel gives OpenSpiel's tensor through the same hook).

Both need optional extras (``purestate[openspiel]``, ``purestate[pettingzoo]``); without them
the bridge refuses with one line naming the extra. The bridges hold pyspiel objects but do no
I/O: pyspiel is used as a library of pure functions, and a pyspiel state is never mutated once a
purestate value shares it.
"""
