"""The maps purestate ships, by name: each map's drawing is a value in this module.

A record or a spec string names a shipped map (``tron:map=empty_room``) and is replayed in the pure
layers, so turning the name into a ``Map`` must not read a file: the drawings live here, in the
CS1410 format (``maps.py`` describes it), and each is parsed once, on first use. A user's own map
file is read by the shell (``purestate.io.maps.load_map``) and handed to the game as a ``Map``.

To ship a new map, add its drawing below under its name; ``purestate tron maps`` lists it.
"""

from __future__ import annotations

from purestate.core.memo import memo
from purestate.core.spec import SpecError
from purestate.games.tron.maps import Map, parse_map

# name -> drawing, in name order. The notes on each map are in docs/games/tron.md.
_DRAWINGS: dict[str, str] = {
    "big_room": """\
#################
#1              #
#               #
#               #
#               #
#               #
#               #
#               #
#               #
#               #
#               #
#               #
#               #
#               #
#               #
#              2#
#################
""",
    "center_block": """\
#############
#           #
#           #
#   1       #
#   #####   #
#   #   #   #
#   #   #   #
#   #   #   #
#   #####   #
#       2   #
#           #
#           #
#############
""",
    "diagonal_blocks": """\
#############
#           #
# ##        #
# ##        #
#    1      #
#    ###    #
#    ###    #
#    ###    #
#      2    #
#        ## #
#        ## #
#           #
#############
""",
    "divider": """\
#################
#               #
#               #
#               #
#       1       #
#               #
#               #
#               #
#################
#               #
#               #
#               #
#       2       #
#               #
#               #
#               #
#################
""",
    "empty_room": """\
#############
#1          #
#           #
#           #
#           #
#           #
#           #
#           #
#           #
#           #
#           #
#          2#
#############
""",
    "joust": """\
#################
#               #
#               #
#               #
#               #
#       1       #
#               #
#               #
###x###   ###x###
#               #
#               #
#       2       #
#               #
#               #
#               #
#               #
#################
""",
    "quadrant": """\
###############
#1     #      #
#      #      #
#             #
#      #      #
#      #      #
#      #      #
### ####### ###
#      #      #
#      #      #
#      #      #
#             #
#      #      #
#      #     2#
###############
""",
    "ring": """\
###############
#             #
#      1      #
#             #
#   ### ###   #
#   #     #   #
#   #     #   #
#             #
#   #     #   #
#   #     #   #
#   ### ###   #
#             #
#      2      #
#             #
###############
""",
    "small_room": """\
#######
#1    #
#     #
#     #
#     #
#    2#
#######
""",
}


@memo(size=1, why="no arguments: one value")
def shipped_names() -> tuple[str, ...]:
    """The names of the maps shipped with purestate, sorted."""
    return tuple(sorted(_DRAWINGS))


# an unknown name raises before anything is remembered, so only shipped names are keys
@memo(size=None, why="keys are the names of the maps shipped in this module: a few")
def shipped_map(name: str) -> Map:
    """The shipped map called ``name`` (e.g. ``"empty_room"``), parsed once and cached.

    Raises:
        SpecError: if no shipped map has that name (the message lists the names).
    """
    if name not in _DRAWINGS:
        raise SpecError(f"unknown Tron map {name!r} (maps: {', '.join(shipped_names())})")
    return parse_map(_DRAWINGS[name], name)


__all__ = ["shipped_map", "shipped_names"]
