"""Tron's pictures: the vector grid (``Tron.draw``) and the coloured terminal board
(``Tron.coloured_board``), walls, barriers, trails and the two cycles' heads.

A state knows which cells are occupied, not whose trail they are: given the game's earlier states
(``history``) each trail takes its player's colour (``rules.trails``); without them trails are
grey. The heads carry the players' colours. The four cells beside the head of the player to move
carry ``data-move`` (U, D, L, R): a move into an obstacle is legal and loses, so it is clickable.
The terminal board is ``render``'s text with each trail in its player's colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from purestate.core.picture import HIGHLIGHT, INK, PLAYER_COLOURS, document, el, text
from purestate.games.tron.rules import trails

if TYPE_CHECKING:
    from purestate.games.tron.rules import State, Tron

MARGIN = 10
MAX_SIDE = 560
"""The board's longest side in SVG units: cells shrink on big maps."""
TRAIL_COLOURS = ("#9fb9e3", "#e6a79f")
"""Player 1's and player 2's trails: their colours, lightened so the heads stand out."""


def draw(game: Tron, state: State, title: str, last: Any, history: Sequence[State] = ()) -> str:
    """The grid; the move targets of the player to move are outlined and clickable; trails in
    their player's colour when ``history`` (the states before ``state``) is given."""
    m = game.board
    owned = trails((*history, state)) if history else (0, 0)
    cell = max(3, min(28, MAX_SIDE // max(m.rows, m.cols)))
    heads = (state.head0, state.head1)
    parts = [el("rect", x=MARGIN, y=MARGIN, width=cell * m.cols, height=cell * m.rows, fill="#fff")]
    for i in range(m.size):
        r, c = divmod(i, m.cols)
        x, y = MARGIN + cell * c, MARGIN + cell * r
        if m.walls >> i & 1:
            parts.append(el("rect", x=x, y=y, width=cell, height=cell, fill="#444"))
        elif m.barriers >> i & 1:
            parts.append(el("rect", x=x, y=y, width=cell, height=cell, fill="#8a7f6a"))
        elif state.blocked >> i & 1 and i not in heads:
            fill = next((TRAIL_COLOURS[p] for p in (0, 1) if owned[p] >> i & 1), "#c9c9c9")
            parts.append(el("rect", x=x, y=y, width=cell, height=cell, fill=fill))
    for p, h in enumerate(heads):
        if h < 0:
            continue
        r, c = divmod(h, m.cols)
        x, y = MARGIN + cell * c, MARGIN + cell * r
        ring = HIGHLIGHT if last is not None and p != state.to_move else "none"
        parts.append(
            el("circle", cx=x + cell / 2, cy=y + cell / 2, r=cell * 0.42,
               fill=PLAYER_COLOURS[p], stroke=ring, stroke_width=max(1, cell // 8),
               class_=f"head head{p + 1}")
        )  # fmt: skip
    if not game.is_over(state):
        head = heads[state.to_move]
        for move in game.legal(state):
            r, c = divmod(head + game.topology.deltas[move], m.cols)
            parts.append(
                el("rect", x=MARGIN + cell * c + 1, y=MARGIN + cell * r + 1, width=cell - 2,
                   height=cell - 2, fill="transparent", stroke=PLAYER_COLOURS[state.to_move],
                   stroke_dasharray="3 2", class_="cell", data_move=game.format_move(move))
            )  # fmt: skip
    width = 2 * MARGIN + cell * m.cols
    height = 2 * MARGIN + cell * m.rows
    parts.append(text(MARGIN, height + 6, _status(game, state), 13, fill=INK))
    return document(max(width, 200), height + 16, "".join(parts), title, game.spec.name)


def _status(game: Tron, state: State) -> str:
    returns = game.returns(state)
    if game.is_over(state):
        if returns[0] == returns[1]:
            return "draw"
        return f"player {1 if returns[0] > 0 else 2} won"
    return f"player {state.to_move + 1} to move"


STYLES = ("bold blue", "bold red")
"""The heads' terminal styles, player 1's and player 2's."""
TRAIL_STYLES = ("blue", "red")


def coloured_board(game: Tron, states: Sequence[State]) -> tuple[tuple[str, str], ...]:
    """The last of ``states`` as ``render`` writes it, in (text, style) pieces: each cycle and
    its trail (worked out from ``states``) in its player's colour, other trails dim."""
    m = game.board
    s = states[-1]
    trail = trails(states)
    pieces: list[tuple[str, str]] = []
    for r in range(m.rows):
        for c in range(m.cols):
            i = r * m.cols + c
            if i == s.head0:
                pieces.append(("1", STYLES[0]))
            elif i == s.head1:
                pieces.append(("2", STYLES[1]))
            elif m.walls >> i & 1:
                pieces.append(("#", "white"))
            elif trail[0] >> i & 1:
                pieces.append(("x", TRAIL_STYLES[0]))
            elif trail[1] >> i & 1:
                pieces.append(("x", TRAIL_STYLES[1]))
            elif s.blocked >> i & 1:
                pieces.append(("x", "dim"))
            else:
                pieces.append((" ", ""))
        pieces.append(("\n", ""))
    pieces.append((game.render(s).splitlines()[-1], ""))
    return tuple(pieces)
