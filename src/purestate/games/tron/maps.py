"""Tron maps: parsing map text into a frozen ``Map`` value (pure; no files are read here).

Two formats are read:

* CS1410 (Brown "Tron-141"): one row per line, no header. ``#`` wall, ``x`` barrier, `` `` empty,
  ``1`` and ``2`` the players' start cells. Rows are stripped of surrounding whitespace, as the
  course's loader does, so every row starts and ends with ``#``.
* Google AI Challenge 2010: a first line ``W H``, then ``H`` lines of exactly ``W`` characters
  from ``#``, `` ``, ``1``, ``2``. ``\\r`` is ignored.

A map must be enclosed by blocked cells (``#`` or ``x``), hold exactly one ``1`` and one ``2``,
and use no other character. Power-ups (``?``, ``*``, ``^``, ``!``, ``@``) are out of scope and
refused. Errors name the line and column (both 1-based) of the offending character.

Size: a map has at most ``MAX_MAP_SIDE`` rows and as many columns, the border included. The search
bots' work per move grows with the cells times the BFS layers; on an empty 200×200 map a move of
the default bot (``alphabeta:depth=4,eval=voronoi``) takes 0.05 s on average and 0.8 s at worst
compiled, 0.3-1.2 s and 5-15 s on the pure Python path (docs/games/tron.md). A bigger map is
refused before any board is built, naming the line that shows the size.

Cells are numbered row by row, ``cell = row * cols + col``; a set of cells is an int bitboard.
"""

from __future__ import annotations

import re

from attrs import field, frozen

from purestate.core.game import ParseError

MAX_MAP_SIDE = 200
"""The most rows, and the most columns, a map may have (the border included)."""

MAX_MAP_FILE_BYTES = 16 * (MAX_MAP_SIDE + 1) ** 2
"""More bytes than any map within ``MAX_MAP_SIDE`` needs, even with generous indentation: a
bigger file is refused before it is read."""

_HEADER = re.compile(r"^\s*(\d+)\s+(\d+)\s*$")
_POWER_UPS = {"?": "a random power-up", "*": "a trap", "^": "a speed boost", "!": "a bomb"}
_POWER_UPS["@"] = "an armor power-up"


class MapError(ParseError):
    """A map text that cannot be used (the message names the map, line and column)."""


class MapTooBig(MapError):
    """A map past the size limit (``MAX_MAP_SIDE``); the message names its size and the limit."""


def check_size(name: str, rows: int, cols: int, where: str = "", size: str = "") -> None:
    """Refuse a map bigger than ``MAX_MAP_SIDE`` in either direction.

    Args:
        name: The map's name, for the message.
        rows: Its rows.
        cols: Its columns.
        where: Where the size shows in the map text (e.g. ``", line 1"``), for the message.
        size: How to state the size (default: ``the map is ROWS×COLS``).

    Raises:
        MapTooBig: naming the map, its size and the limit.
    """
    if rows > MAX_MAP_SIDE or cols > MAX_MAP_SIDE:
        raise MapTooBig(
            f"map {name!r}{where}: {size or f'the map is {rows}×{cols}'}; maps are limited to "
            f"{MAX_MAP_SIDE}×{MAX_MAP_SIDE} cells, the border included"
        )


@frozen(cache_hash=True)
class Map:
    """A Tron map: the fixed obstacles and the players' start cells.

    Attributes:
        name: A name for people (the file stem of a shipped map).
        rows: Number of rows, the border included.
        cols: Number of columns, the border included.
        walls: Bitboard of ``#`` cells.
        barriers: Bitboard of ``x`` cells present from the start.
        starts: The start cells of player 0 (``1``) and player 1 (``2``).
    """

    name: str
    rows: int
    cols: int
    # bitboards print in hex: a big map's board has more decimal digits than Python will print
    walls: int = field(repr=hex)
    barriers: int = field(repr=hex)
    starts: tuple[int, int]

    def __attrs_post_init__(self) -> None:
        check_size(self.name, self.rows, self.cols)

    @property
    def size(self) -> int:
        """Number of cells, the border included."""
        return self.rows * self.cols

    @property
    def blocked(self) -> int:
        """Bitboard of the cells blocked before anyone moves (walls and barriers)."""
        return self.walls | self.barriers

    @property
    def free(self) -> int:
        """Bitboard of the cells a cycle may enter, the start cells included."""
        return ((1 << self.size) - 1) & ~self.blocked

    def cell(self, row: int, col: int) -> int:
        """The cell number of ``(row, col)``."""
        return row * self.cols + col

    def position(self, cell: int) -> tuple[int, int]:
        """The ``(row, col)`` of a cell number."""
        return divmod(cell, self.cols)

    def mirror(self, cell: int) -> int:
        """The point mirror of ``cell`` (a half turn about the centre of the map)."""
        r, c = self.position(cell)
        return self.cell(self.rows - 1 - r, self.cols - 1 - c)

    def text(self) -> str:
        """The map in the CS1410 format (parse_map(m.text()) == m, name aside)."""
        out = []
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                i = self.cell(r, c)
                if self.walls >> i & 1:
                    row.append("#")
                elif self.barriers >> i & 1:
                    row.append("x")
                elif i == self.starts[0]:
                    row.append("1")
                elif i == self.starts[1]:
                    row.append("2")
                else:
                    row.append(" ")
            out.append("".join(row))
        return "\n".join(out) + "\n"


def _where(name: str, line: int, col: int) -> str:
    return f"map {name!r}, line {line}, column {col}"


def parse_map(text: str, name: str = "map") -> Map:
    """Parse map text in either format (an AI-Challenge ``W H`` header selects that format).

    Args:
        text: The whole map file.
        name: What to call the map in the value and in error messages.

    Returns:
        The map.

    Raises:
        MapError: naming the line and column of the first problem found.
    """
    lines = text.replace("\r", "").split("\n")
    header = _HEADER.match(lines[0]) if lines else None
    # (line number, column offset, row text) per row; columns are reported 1-based in the file
    rows: list[tuple[int, int, str]] = []
    if header:
        width, height = int(header.group(1)), int(header.group(2))
        check_size(name, height, width, ", line 1", f"the header says {width}×{height}")
        body = lines[1:]
        while body and body[-1] == "":
            body.pop()
        if len(body) != height:
            raise MapError(
                f"map {name!r}: the header says {height} rows of {width}, found {len(body)} rows"
            )
        for i, line in enumerate(body):
            if len(line) != width:
                raise MapError(
                    f"{_where(name, i + 2, min(len(line), width) + 1)}: "
                    f"the row has {len(line)} characters, the header says {width}"
                )
            rows.append((i + 2, 0, line))
        allowed = "# 12"
    else:
        stripped = [(i + 1, line) for i, line in enumerate(lines)]
        while stripped and not stripped[-1][1].strip():
            stripped.pop()
        first = next((i for i, (_, line) in enumerate(stripped) if line.strip()), len(stripped))
        stripped = stripped[first:]
        if stripped:
            # refused before any row is looked at, naming the line that shows the size (only
            # the head of an oversized file may have been read: nothing here counts every row)
            first_line, first_row = stripped[0][0], stripped[0][1].strip()
            check_size(
                name,
                0,
                len(first_row),
                f", line {first_line}",
                f"its first row has {len(first_row)} cells",
            )
            if len(stripped) > MAX_MAP_SIDE:
                past = stripped[MAX_MAP_SIDE][0]
                check_size(
                    name, len(stripped), 0, f", line {past}", f"more than {MAX_MAP_SIDE} rows"
                )
        for lineno, line in stripped:
            core = line.strip()
            if not core:
                raise MapError(f"{_where(name, lineno, 1)}: an empty row inside the map")
            if line[0] in " \t":
                raise MapError(
                    f"{_where(name, lineno, 1)}: the map is not enclosed: "
                    "the row starts with a space instead of '#'"
                )
            rows.append((lineno, len(line) - len(line.lstrip()), core))
        allowed = "# x12"
    if not rows:
        raise MapError(f"map {name!r}: the map is empty")
    height = len(rows)
    width = len(rows[0][2])
    if height < 3 or width < 3:
        raise MapError(f"map {name!r}: a map needs at least 3 rows and 3 columns")
    walls = barriers = 0
    starts: dict[str, tuple[int, int, int]] = {}
    for r, (lineno, offset, row) in enumerate(rows):
        if len(row) != width:
            raise MapError(
                f"{_where(name, lineno, offset + min(len(row), width) + 1)}: "
                f"the row has {len(row)} cells, the first row has {width}"
            )
        for c, ch in enumerate(row):
            col = offset + c + 1
            cell = r * width + c
            if ch in _POWER_UPS:
                raise MapError(
                    f"{_where(name, lineno, col)}: {ch!r} ({_POWER_UPS[ch]}) is not supported: "
                    "power-ups are out of scope; replace it with ' ' or 'x'"
                )
            if ch not in allowed:
                shown = ", ".join(repr(a) for a in allowed)
                raise MapError(
                    f"{_where(name, lineno, col)}: unknown character {ch!r} (allowed: {shown})"
                )
            on_border = r in (0, height - 1) or c in (0, width - 1)
            if on_border and ch not in "#x":
                raise MapError(
                    f"{_where(name, lineno, col)}: the map is not enclosed: "
                    f"a border cell must be '#', found {ch!r}"
                )
            if ch == "#":
                walls |= 1 << cell
            elif ch == "x":
                barriers |= 1 << cell
            elif ch in "12":
                if ch in starts:
                    first_line, first_col, _ = starts[ch]
                    raise MapError(
                        f"{_where(name, lineno, col)}: a second player {ch} "
                        f"(the first is at line {first_line}, column {first_col})"
                    )
                starts[ch] = (lineno, col, cell)
    for ch in "12":
        if ch not in starts:
            raise MapError(f"map {name!r}: player {ch} has no start cell (put a {ch!r} in it)")
    return Map(name, height, width, walls, barriers, (starts["1"][2], starts["2"][2]))
