"""The picture value ``purestate.svg()`` returns, and the small SVG-writing helpers games' drawings
share (``Drawn.draw``): elements, text, the document frame, the players' colours, X and O.

In the core so that every game's module may draw itself without importing a layer above it.
Pure: strings from values."""

from __future__ import annotations

from attrs import frozen

from purestate.core.markup import escape, quoteattr

PLAYER_COLOURS = ("#1f5fbf", "#c0392b")
"""Player 0 (X, A, cycle 1) blue; player 1 (O, B, cycle 2) red."""
PLAYER_TINTS = ("#d6e4f7", "#f6d5d1")
"""Light versions of the players' colours, for claimed areas."""
HIGHLIGHT = "#ffe27a"
"""The last move's background."""
ACTIVE = "#fff6d6"
"""Where the player to move may play (ultimate and Xtreme small boards)."""
WIN = "#2e9e4f"
"""The stroke through a winning line."""
INK = "#222"
PAPER = "#fbfaf5"
TITLE_HEIGHT = 26
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


@frozen
class Picture:
    """An SVG picture of a board.

    Attributes:
        text: The SVG document.
    """

    text: str

    def __str__(self) -> str:
        """The SVG document."""
        return self.text

    def _repr_svg_(self) -> str:
        """What Jupyter displays."""
        return self.text


def move_data(text: str, legal: bool) -> dict[str, str | None]:
    """The attributes that make a square or line clickable: ``data-move`` when ``text`` is a
    legal move, else ``data-illegal`` (the game then explains why), as ``drawing`` promises."""
    return {"data_move": text, "data_illegal": None} if legal else {"data_illegal": text}


def el(tag: str, body: str = "", /, **attrs: object) -> str:
    """One SVG element; attribute names use ``_`` for ``-`` (``stroke_width``), values escaped.

    A trailing ``_`` is dropped (``class_``), and ``None`` values are left out.
    """
    parts = [tag]
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        parts.append(f"{name}={quoteattr(str(value))}")
    head = " ".join(parts)
    return f"<{head}>{body}</{tag}>" if body else f"<{head}/>"


def text(x: float, y: float, words: str, size: int = 14, **attrs: object) -> str:
    """A text element with the shared font (the words are escaped)."""
    return el("text", escape(words), x=x, y=y, font_size=size, font_family=FONT, **attrs)


def document(width: float, height: float, body: str, title: str, game: str) -> str:
    """A standalone SVG document: the title line above a board drawn ``height`` high.

    Args:
        width: The board's width.
        height: The board's height (without the title).
        body: The board's elements, drawn with y = 0 at the board's top.
        title: A line above the board; empty for none.
        game: The game's name, kept in a ``data-game`` attribute for the browser.
    """
    top = TITLE_HEIGHT if title else 0
    # wide enough for the title too (about 9 units per bold character at 15 px)
    w, h = round(max(width, 16 + 9 * len(title))), round(height + top)
    head = text(8, 18, title, 15, font_weight="bold", fill=INK) if title else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" data-game={quoteattr(game)} class="board">'
        f'<rect width="{w}" height="{h}" fill="{PAPER}"/>{head}'
        f'<g transform="translate(0,{top})">{body}</g></svg>\n'
    )


def cross(x: float, y: float, size: float, colour: str, width: float) -> str:
    """An X filling the square of side ``size`` at (x, y), inset by a fifth."""
    a, b = size * 0.2, size * 0.8
    return el(
        "path",
        d=f"M{x + a},{y + a}L{x + b},{y + b}M{x + b},{y + a}L{x + a},{y + b}",
        stroke=colour,
        stroke_width=width,
        stroke_linecap="round",
        fill="none",
    )


def nought(x: float, y: float, size: float, colour: str, width: float) -> str:
    """An O filling the square of side ``size`` at (x, y), inset by a fifth."""
    return el(
        "circle",
        cx=x + size / 2,
        cy=y + size / 2,
        r=size * 0.3,
        stroke=colour,
        stroke_width=width,
        fill="none",
    )


def winning_line(centres: list[tuple[float, float]], width: float, cells: str) -> str:
    """A green stroke through the centres of a winning line's cells, over the marks but taking
    no clicks; ``cells`` (the game's names for them) goes in ``data-cells`` for the browser."""
    (x1, y1), (x2, y2) = centres[0], centres[-1]
    return el("path", d=f"M{x1},{y1}L{x2},{y2}", stroke=WIN, stroke_width=width, opacity=0.6,
              stroke_linecap="round", fill="none", pointer_events="none", class_="win",
              data_cells=cells)  # fmt: skip
