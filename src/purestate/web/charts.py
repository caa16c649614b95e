"""The learning curve of a run as an SVG chart (drawn here: no chart library)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 24, 28
MAX_POINTS = 800
"""The most points of the cumulative line (a long run's line is thinned to about this many)."""
COLOURS = {"wins": "#2e8b57", "draws": "#c8a400", "losses": "#c0392b"}


def curve_svg(curve: Sequence[int], blocks: Sequence[Mapping[str, int]], block: int) -> str:
    """Two panels: W/D/L per block of ``block`` games as stacked bars, and the cumulative
    3W + D - L line (Scroggs' chart) over the games.

    Each bar and the line carry a ``<title>``, which browsers show on hover.
    """
    if not curve:
        return '<p class="muted">No games recorded.</p>'
    half = (HEIGHT - TOP - BOTTOM) // 2 - 8
    inner = WIDTH - LEFT - RIGHT
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{WIDTH}" '
        f'height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" '
        f'font-size="11">'
    ]
    # top panel: stacked W/D/L bars per block
    bar = inner / max(1, len(blocks))
    for i, b in enumerate(blocks):
        total = max(1, b["wins"] + b["draws"] + b["losses"])
        y: float = TOP
        for kind in ("losses", "draws", "wins"):
            h = half * b[kind] / total
            label = f"games {i * block + 1}-{i * block + total}: {b[kind]} {kind}"
            parts.append(
                f'<rect x="{LEFT + i * bar + 1:.1f}" y="{y:.1f}" width="{max(1, bar - 2):.1f}" '
                f'height="{h:.1f}" fill="{COLOURS[kind]}"><title>{escape(label)}</title></rect>'
            )
            y += h
    parts.append(
        f'<text x="{LEFT}" y="{TOP - 4}"><tspan fill="{COLOURS["wins"]}">■ wins</tspan> '
        f'<tspan fill="{COLOURS["draws"]}">■ draws</tspan> '
        f'<tspan fill="{COLOURS["losses"]}">■ losses</tspan></text>'
        f'<text x="4" y="{TOP + half / 2:.0f}">W/D/L</text>'
        f'<text x="4" y="{TOP + half / 2 + 13:.0f}">per {block}</text>'
    )
    # bottom panel: the cumulative incentive
    lo, hi = min(0, *curve), max(0, *curve)
    span = max(1, hi - lo)
    top2 = TOP + half + 16
    n = len(curve)

    def xy(i: int, v: int) -> str:
        x = LEFT + inner * (i + 1) / n
        y = top2 + half * (hi - v) / span
        return f"{x:.1f},{y:.1f}"

    zero = top2 + half * hi / span
    parts.append(
        f'<line x1="{LEFT}" x2="{LEFT + inner}" y1="{zero:.1f}" y2="{zero:.1f}" stroke="#aaa"/>'
    )
    # a point per pixel is all the eye sees: a long run's line keeps every step-th game and the last
    step = max(1, n // MAX_POINTS)
    kept = [*range(0, n - 1, step), n - 1]
    points = " ".join([f"{LEFT},{zero:.1f}"] + [xy(i, curve[i]) for i in kept])
    parts.append(
        f'<polyline points="{points}" fill="none" stroke="#1f5fbf" stroke-width="2">'
        f"<title>3W + D - L after {n} games: {curve[-1]}</title></polyline>"
    )
    parts.append(
        f'<text x="4" y="{top2 + 10}">{hi}</text><text x="4" y="{top2 + half:.0f}">{lo}</text>'
        f'<text x="{LEFT}" y="{HEIGHT - 6}">3W + D − L, cumulative, over {n} games '
        f"(now {curve[-1]})</text>"
    )
    parts.append("</svg>")
    return "".join(parts)
