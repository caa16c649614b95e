"""Charts of runs as SVG (drawn here: no chart library): the MENACE lab's W/D/L bars and
cumulative line (``curve_svg``); a run page's rates per block with their 95% bands and Scroggs'
cumulative 3W + D - L line, each with labelled axes.

A run page's chart never draws more than a few hundred points, whatever the run's length: the
caller gives blocks (a run's page picks the block so there are at most about 100), and a line of
one point per game is thinned to ``MAX_POINTS``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from purestate.core.markup import escape

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 24, 28
MAX_POINTS = 800
"""The most points of the cumulative line (a long run's line is thinned to about this many)."""
COLOURS = {"wins": "#2e8b57", "draws": "#c8a400", "losses": "#c0392b"}
PALETTE = ("#1f5fbf", "#e07b00", "#2e8b57", "#c0392b", "#7b4fb0", "#8c564b", "#d6409f",
           "#555555", "#a0a000", "#17a2b8")  # fmt: skip
"""Colours of a sweep's settings, in order (an eleventh setting reuses the first's)."""


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


MARGIN = (52, 14, 26, 40)
"""Room around a run page's chart panel: left, right, top, bottom (the axes' labels)."""
M_LEFT, M_RIGHT, M_TOP, M_BOTTOM = MARGIN


@frozen
class Series:
    """One line of a rate chart: a rate at each x, with its 95% band."""

    label: str
    colour: str
    xs: tuple[int, ...]
    rate: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    tips: tuple[str, ...] = ()
    """Each point's hover text (empty: none)."""


def _ticks(top: float, count: int = 5) -> list[float]:
    """Round tick values from 0 to at least ``top`` (about ``count`` of them)."""
    if top <= 0:
        return [0.0]
    raw = top / count
    step = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1.0
    for m in (1, 2, 2.5, 5, 10):
        if step * m >= raw:
            step *= m
            break
    ticks, t = [], 0.0
    while t < top + step / 2:
        ticks.append(t)
        t += step
    return ticks


def _number(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 1 or v == 0 else f"{v:g}"


def _open(width: int, height: int, css: str = "chart") -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{css}" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" '
        f'font-size="11">'
    ]


def _axes(
    parts: list[str], box: tuple[float, float, float, float], xmax: float,
    ylo: float, yhi: float, xlabel: str, ylabel: str, percent: bool,
) -> None:  # fmt: skip
    """The frame, gridlines, tick labels and axis titles of a panel ``box`` (x, y, w, h)."""
    x0, y0, w, h = box
    parts.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#bbb"/>')
    span = yhi - ylo or 1
    if percent:
        ys = [0.0, 0.25, 0.5, 0.75, 1.0]
    else:  # round values, 0 among them
        ticks = _ticks(span, 4)
        step = ticks[1] if len(ticks) > 1 else span
        ys = [k * step for k in range(math.ceil(ylo / step), math.floor(yhi / step) + 1)]
    for v in ys:
        y = y0 + h * (yhi - v) / span
        if not y0 - 0.5 <= y <= y0 + h + 0.5:
            continue
        text = f"{v:.0%}" if percent else _number(v)
        parts.append(
            f'<line x1="{x0}" x2="{x0 + w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>'
            f'<text x="{x0 - 4}" y="{y + 4:.1f}" text-anchor="end" fill="#555">{text}</text>'
        )
    for v in _ticks(xmax, 6):
        x = x0 + w * v / (xmax or 1)
        if x > x0 + w + 0.5:
            continue
        parts.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y0 + h}" y2="{y0 + h + 4}" stroke="#999"/>'
            f'<text x="{x:.1f}" y="{y0 + h + 15}" text-anchor="middle" fill="#555">'
            f"{_number(v)}</text>"
        )
    parts.append(
        f'<text x="{x0 + w / 2:.1f}" y="{y0 + h + 31}" text-anchor="middle">'
        f"{escape(xlabel)}</text>"
        f'<text transform="translate({x0 - 40} {y0 + h / 2:.1f}) rotate(-90)" text-anchor="middle">'
        f"{escape(ylabel)}</text>"
    )


def rate_panel(
    parts: list[str], box: tuple[float, float, float, float], series: Sequence[Series],
    xmax: int, xlabel: str, ylabel: str, title: str = "",
) -> None:  # fmt: skip
    """Rates (0 to 1) against games played in the panel ``box``: each series a line with a dot
    per point (its hover text the point's tip) over its shaded 95% band."""
    x0, y0, w, h = box
    _axes(parts, box, xmax, 0.0, 1.0, xlabel, ylabel, percent=True)
    if title:
        parts.append(f'<text x="{x0}" y="{y0 - 6}" font-weight="bold">{escape(title)}</text>')

    def at(x: int, v: float) -> str:
        return f"{x0 + w * x / (xmax or 1):.1f},{y0 + h * (1 - v):.1f}"

    for s in series:
        if not s.xs:
            continue
        band = [at(x, v) for x, v in zip(s.xs, s.high, strict=True)]
        band += [at(x, v) for x, v in zip(reversed(s.xs), reversed(s.low), strict=True)]
        line = " ".join(at(x, v) for x, v in zip(s.xs, s.rate, strict=True))
        parts.append(
            f'<g class="series" data-label="{escape(s.label)}">'
            f'<polygon points="{" ".join(band)}" fill="{s.colour}" fill-opacity="0.18"/>'
            f'<polyline points="{line}" fill="none" stroke="{s.colour}" stroke-width="1.8"/>'
        )
        for i, (x, v) in enumerate(zip(s.xs, s.rate, strict=True)):
            cx, cy = at(x, v).split(",")
            tip = f"<title>{escape(s.tips[i])}</title>" if s.tips else ""
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="2.2" fill="{s.colour}">{tip}</circle>')
        parts.append("</g>")


def _legend(parts: list[str], x: float, y: float, series: Sequence[Series]) -> None:
    spans = " ".join(
        f'<tspan fill="{s.colour}">■</tspan><tspan> {escape(s.label)}   </tspan>' for s in series
    )
    parts.append(f'<text x="{x}" y="{y}" xml:space="preserve">{spans}</text>')


def learning_svg(blocks: Sequence[Mapping[str, Any]], block: int, games: int) -> str:
    """The W/D/L rate of each block of ``block`` games with its Wilson 95% band (``blocks``: per
    block ``games`` and ``win_rate``, ``draw_rate``, ``loss_rate``, each ``{rate, low, high}``,
    as ``web.runs.rates`` gives), against the games played at the block's end."""
    if not blocks:
        return '<p class="muted">No games recorded.</p>'
    width, height = 720, 300
    xs, ends = [], 0
    for b in blocks:
        ends += int(b["games"])
        xs.append(ends)
    series = []
    for name, key in (("wins", "win_rate"), ("draws", "draw_rate"), ("losses", "loss_rate")):
        r = [b[key] for b in blocks]
        tips = tuple(
            f"games {x - int(b['games']) + 1:,}-{x:,}: {p['rate']:.0%} {name} "
            f"(95% {p['low']:.0%}-{p['high']:.0%})"
            for x, b, p in zip(xs, blocks, r, strict=True)
        )
        series.append(Series(name, COLOURS[name], tuple(xs),
                             tuple(p["rate"] for p in r), tuple(p["low"] for p in r),
                             tuple(p["high"] for p in r), tips))  # fmt: skip
    parts = _open(width, height)
    box = (M_LEFT, M_TOP, width - M_LEFT - M_RIGHT, height - M_TOP - M_BOTTOM)
    rate_panel(parts, box, series, games, f"games played (each point ends a block of {block:,})",
               "share of the block's games")  # fmt: skip
    _legend(parts, M_LEFT, M_TOP - 8, series)
    parts.append(
        f'<text x="{width - M_RIGHT}" y="{M_TOP - 8}" text-anchor="end" fill="#777">'
        "bands: Wilson 95% intervals</text></svg>"
    )
    return "".join(parts)


def optimal_svg(points: Sequence[Mapping[str, Any]], block: int, games: int) -> str:
    """The share of the learner's moves the exact solver rates optimal, per block of ``block``
    games, with its Wilson 95% band (``points``: ``to``, the games played at the block's end,
    ``optimal`` of ``moves``, ``rate``, ``low``, ``high``)."""
    width, height = 720, 240
    tips = tuple(
        f"games to {p['to']:,}: {p['optimal']:,} of {p['moves']:,} moves optimal, {p['rate']:.0%} "
        f"(95% {p['low']:.0%}-{p['high']:.0%})"
        for p in points
    )
    series = Series("optimal moves (exact solver)", "#e07b00", tuple(p["to"] for p in points),
                    tuple(p["rate"] for p in points), tuple(p["low"] for p in points),
                    tuple(p["high"] for p in points), tips)  # fmt: skip
    parts = _open(width, height)
    box = (M_LEFT, M_TOP, width - M_LEFT - M_RIGHT, height - M_TOP - M_BOTTOM)
    rate_panel(parts, box, [series], games, f"games played (each point ends a block of {block:,})",
               "share of the learner's moves")  # fmt: skip
    _legend(parts, M_LEFT, M_TOP - 8, [series])
    parts.append("</svg>")
    return "".join(parts)


def references_svg(points: Sequence[Mapping[str, Any]]) -> str:
    """The learner's score against each fixed reference ((wins + draws / 2) / games, greedy,
    seats alternating) at each point of the run, with its Wilson 95% band (``points``:
    ``references.json``'s, as ``web.runs.reference_points`` checks them)."""
    width, height = 720, 260
    specs = [r["reference"] for r in points[0]["references"]]
    xs = tuple(int(p["games"]) for p in points)
    series = []
    for n, spec in enumerate(specs):
        rows = [p["references"][n] for p in points]
        tips = tuple(
            f"after {x:,} games, against {spec}: {r['score']:.0%} "
            f"(W {r['wins']} D {r['draws']} L {r['losses']}; 95% {r['low']:.0%}-{r['high']:.0%})"
            for x, r in zip(xs, rows, strict=True)
        )
        series.append(Series(spec, PALETTE[n % len(PALETTE)], xs,
                             tuple(r["score"] for r in rows), tuple(r["low"] for r in rows),
                             tuple(r["high"] for r in rows), tips))  # fmt: skip
    parts = _open(width, height)
    box = (M_LEFT, M_TOP, width - M_LEFT - M_RIGHT, height - M_TOP - M_BOTTOM)
    each = points[0]["references"][0]["games"] if specs else 0
    rate_panel(parts, box, series, max(xs[-1], 1),
               f"training games played (each point: {each} games a reference, seats alternating)",
               "score, greedy play")  # fmt: skip
    _legend(parts, M_LEFT, M_TOP - 8, series)
    parts.append("</svg>")
    return "".join(parts)


def cumulative_svg(curve: Sequence[int]) -> str:
    """Scroggs' cumulative 3W + D - L after each game, thinned to about ``MAX_POINTS`` points."""
    if not curve:
        return ""
    width, height = 720, 220
    n = len(curve)
    lo, hi = min(0, *curve), max(0, *curve)
    parts = _open(width, height)
    box = (M_LEFT, 12, width - M_LEFT - M_RIGHT, height - 12 - M_BOTTOM)
    x0, y0, w, h = box
    _axes(parts, box, n, lo, hi, "games played", "3W + D − L", percent=False)
    span = (hi - lo) or 1

    def at(i: int, v: int) -> str:
        return f"{x0 + w * i / n:.1f},{y0 + h * (hi - v) / span:.1f}"

    zero = y0 + h * hi / span
    parts.append(f'<line x1="{x0}" x2="{x0 + w}" y1="{zero:.1f}" y2="{zero:.1f}" stroke="#999"/>')
    # a point per pixel is all the eye sees: a long run's line keeps every step-th game and the last
    step = max(1, n // MAX_POINTS)
    kept = [*range(0, n - 1, step), n - 1]
    points = " ".join([at(0, 0)] + [at(i + 1, curve[i]) for i in kept])
    parts.append(
        f'<polyline points="{points}" fill="none" stroke="#7b4fb0" stroke-width="2">'
        f"<title>3W + D − L after {n:,} games: {curve[-1]:,}</title></polyline>"
        f'<text x="{x0 + 6}" y="{y0 + 14}" fill="#7b4fb0">Scroggs\' running 3W + D − L (+3 a '
        f"win, +1 a draw, −1 a loss): {curve[-1]:,} after {n:,} games</text></svg>"
    )
    return "".join(parts)


def sweep_svg(settings: Sequence[Mapping[str, Any]]) -> str:
    """A sweep's mean W/D/L rate per block for each agent setting, with the 95% band across its
    seeds (``settings``: ``aggregate.json``'s entries), in three panels as ``curves.png``."""
    drawn = [a for a in settings if a.get("blocks")]
    if not drawn:
        return '<p class="muted">No mean curves yet (the sweep has not aggregated its runs).</p>'
    panel_w, height = 330, 290
    width = 3 * panel_w + 20
    xmax = max(int(a["games"]) for a in drawn)
    parts = _open(width, height + 18 * (1 + (len(drawn) - 1) // 3))
    everything = []
    for p, name in enumerate(("wins", "draws", "losses")):
        series = []
        for i, a in enumerate(drawn):
            rows = a["blocks"]
            block, games = int(a["block"]), int(a["games"])
            xs = tuple(min((b + 1) * block, games) for b in range(len(rows)))
            got = [row[name] for row in rows]
            seeds = len(a.get("seeds") or [])
            tips = tuple(
                f"{a['agent']}, games to {x:,}: {name} {g['mean']:.0%} "
                f"(95% band {g['low']:.0%}-{g['high']:.0%}, {seeds} seeds)"
                for x, g in zip(xs, got, strict=True)
            )
            series.append(Series(f"{a['agent']} ({seeds} seeds)", PALETTE[i % len(PALETTE)], xs,
                                 tuple(max(0.0, min(1.0, g["mean"])) for g in got),
                                 tuple(max(0.0, g["low"]) for g in got),
                                 tuple(min(1.0, g["high"]) for g in got), tips))  # fmt: skip
        box = (p * panel_w + M_LEFT, M_TOP, panel_w - M_LEFT - M_RIGHT, height - M_TOP - M_BOTTOM)
        rate_panel(parts, box, series, xmax, "games played (end of each block)",
                   f"{name} per block (mean)", f"{name} rate")  # fmt: skip
        everything = series
    for row in range(0, len(everything), 3):
        _legend(parts, M_LEFT, height + 4 + 18 * (row // 3), everything[row : row + 3])
    parts.append("</svg>")
    return "".join(parts)
