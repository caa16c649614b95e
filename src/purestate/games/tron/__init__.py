"""Tron (light cycles): ``rules`` holds the game, ``maps`` the map parser, ``shipped`` the maps
purestate ships (user map files are read by ``purestate.io.maps``)."""

from purestate.games.tron.maps import Map, MapError, parse_map
from purestate.games.tron.rules import MOVE_NAMES, MOVES, State, Tron, trails

__all__ = ["MOVES", "MOVE_NAMES", "Map", "MapError", "State", "Tron", "parse_map", "trails"]
