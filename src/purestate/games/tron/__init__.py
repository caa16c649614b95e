"""Tron (light cycles): ``rules`` holds the game, ``maps`` the map parser; ``maps/*.txt`` are the
shipped maps (read by ``purestate.io.maps``)."""

from purestate.games.tron.maps import Map, MapError, parse_map
from purestate.games.tron.rules import MOVE_NAMES, MOVES, State, Tron

__all__ = ["MOVES", "MOVE_NAMES", "Map", "MapError", "State", "Tron", "parse_map"]
