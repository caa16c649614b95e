"""Pictures of results (shell side): learning curves as PNG files, drawn with matplotlib."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from purestate.core.learning import wilson
from purestate.core.spec import format_spec
from purestate.io.files import open_atomic


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (files, no screen), imported on first use.

    Importing pyplot takes about half a second, which every command paid at start-up when it
    was imported with this module; only the commands that draw pay it now.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def figure(**kw: Any) -> Any:
    """A matplotlib figure drawn by the Agg canvas (files, no screen), outside pyplot.

    pyplot keeps every figure it makes in a registry until it is closed; a figure made here
    belongs to its caller alone, and its picture is pyplot's, pixel for pixel.

    Args:
        **kw: ``matplotlib.figure.Figure``'s options (``figsize``, ...).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(**kw)
    FigureCanvasAgg(fig)
    return fig


_RATES = (("wins", "tab:green"), ("draws", "tab:blue"), ("losses", "tab:red"))


def block_ends(games: int, block: int) -> list[int]:
    """Where each block's point goes on a curve: the number of its last game, so a last, partial
    block (250 games in blocks of 100) sits at 250, not at 300.

    Args:
        games: Games in the run.
        block: Games per block.
    """
    return [min(end, games) for end in range(block, games + block, block)][: -(-games // block)]


def full_spec(name: str, obj: Any) -> str:
    """The spec string of a game or agent with every option spelled out, defaults included (a
    spec string leaves defaults out; a picture should say what ran), e.g.
    ``"dots_and_boxes:rows=2,cols=2,margin=true,numbering=id"``.

    Args:
        name: The registered name.
        obj: The game or agent (an attrs value; anything else gives its ``spec``).
    """
    if not attrs.has(type(obj)):
        return str(getattr(obj, "spec", name))
    return format_spec(name, obj, always=tuple(f.name for f in attrs.fields(type(obj))))


def game_spec_text(game: Any) -> str:
    """A game's spec string with every option spelled out (``full_spec``)."""
    return full_spec(game.spec.name, game)


def wrap_spec(spec: str, width: int = 90) -> str:
    """A spec broken into lines of at most about ``width`` characters after its commas, so a long
    spec fits a title and still reads (and copies) as one."""
    lines = [""]
    for part in spec.split(","):
        piece = part if not lines[-1] else "," + part
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines[-1] += ","
            lines.append(part)
        else:
            lines[-1] += piece
    return "\n".join(lines)


def curve_title(agent_spec: str, seat: str, opponent_spec: str, game_spec: str, seed: int) -> str:
    """The title of a learning curve: both players' full specs, the learner's seat, the game with
    its options, and the seed.

    Args:
        agent_spec: The learner's full spec (``full_spec``).
        seat: The learner's seat (``"first"`` or ``"second"``).
        opponent_spec: The opponent's full spec (or ``"self"``).
        game_spec: The game with its options (``game_spec_text``).
        seed: The run's seed.
    """
    # about 95 characters fit the figure's width at the title's size, label included
    lines = (
        (f"learner ({seat} player): ", agent_spec),
        ("opponent: ", opponent_spec),
        ("game: ", f"{game_spec}, seed {seed}"),
    )
    return "\n".join(label + wrap_spec(spec, 95 - len(label)) for label, spec in lines)


def _band(
    ax: Any, xs: Sequence[int], hits: Sequence[int], totals: Sequence[int], **kw: Any
) -> None:
    """A rate per block with its Wilson 95% band (blocks with no trials are left out)."""
    pts = [(x, h, n) for x, h, n in zip(xs, hits, totals, strict=True) if n]
    if not pts:
        return
    x = [p[0] for p in pts]
    bands = [wilson(h, n) for _, h, n in pts]
    (line,) = ax.plot(x, [h / n for _, h, n in pts], marker="o", markersize=3, **kw)
    ax.fill_between(
        x, [b[0] for b in bands], [b[1] for b in bands], alpha=0.2, color=line.get_color()
    )


def _legend_below(ax: Any) -> None:
    # below the axes, outside them: a legend inside would cover a rate near 0 or 1
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=4, fontsize=8, frameon=False)


def learning_curve(
    path: Path,
    summary: dict[str, Any],
    bead_change: Sequence[int],
    title: str,
    beads: bool = True,
) -> None:
    """Write a learning curve PNG: W/D/L rate per block with Wilson 95% bands; the share of the
    learner's moves that were optimal per block when the summary's blocks carry
    ``optimal_moves``/``learner_moves``; Scroggs' cumulative 3W + D − L when ``beads``.

    Args:
        path: The PNG file to write.
        summary: The run's summary (``games``, ``block`` and ``blocks``: per block ``wins``,
            ``draws``, ``losses``, and optionally ``optimal_moves`` and ``learner_moves``).
        bead_change: The cumulative +3/+1/−1 curve, one value per game.
        title: The figure title (``curve_title``).
        beads: Whether to draw the bead-change panel (MENACE's own measure).
    """
    blocks = summary["blocks"]
    block = summary["block"]
    optimal = bool(blocks) and "learner_moves" in blocks[0]
    panels = 1 + optimal + beads
    fig = figure(figsize=(8, 2.2 + 2.6 * panels))
    axes = fig.subplots(panels, 1, squeeze=False)
    axs = list(axes[:, 0])
    xs = block_ends(summary["games"], block)
    xlabel = f"games played (each point ends a block of {block} games)"
    ax = axs.pop(0)
    played = [b["wins"] + b["draws"] + b["losses"] for b in blocks]
    for name, colour in _RATES:
        _band(ax, xs, [b[name] for b in blocks], played, label=f"{name} rate", color=colour)
    ax.set_ylim(0, 1)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of the block's games")
    ax.grid(alpha=0.3)
    ax.set_title(title, fontsize=9)
    _legend_below(ax)
    if optimal:
        ax = axs.pop(0)
        _band(
            ax,
            xs,
            [b["optimal_moves"] for b in blocks],
            [b["learner_moves"] for b in blocks],
            label="optimal-move rate (exact solver)",
            color="tab:orange",
        )
        ax.set_ylim(0, 1.02)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("share of the learner's moves")
        ax.grid(alpha=0.3)
        _legend_below(ax)
    if beads:
        ax = axs.pop(0)
        ax.plot(range(1, len(bead_change) + 1), bead_change, color="tab:purple",
                label="bead change (3 per win, 1 per draw, −1 per loss)")  # fmt: skip
        ax.set_xlabel("games played")
        ax.set_ylabel("cumulative 3·W + D − L")
        ax.grid(alpha=0.3)
        _legend_below(ax)
    fig.text(0.01, 0.005, "bands: Wilson 95% intervals", fontsize=7, color="dimgray")
    _save(fig, path)


def sweep_title(game_spec: str, opponent: str, seeds: Sequence[int]) -> str:
    """The title of a sweep's mean curves: the game with its options, the opponent, the seeds.

    Args:
        game_spec: The game with its options.
        opponent: The opponent's spec.
        seeds: The seeds each setting ran with.
    """
    ordered = sorted(seeds)
    if len(ordered) > 3 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        listed = f"{ordered[0]}-{ordered[-1]}"
    else:
        listed = ", ".join(str(s) for s in seeds)
    return f"{game_spec} vs {opponent}: mean of {len(seeds)} seeds ({listed})"


def mean_curves(path: Path, aggregate: Sequence[dict[str, Any]], title: str) -> None:
    """Write a PNG of the mean W/D/L rate per block for each setting, with its 95% band.

    Args:
        path: The PNG file to write.
        aggregate: As returned by ``purestate.experiments.sweep.aggregate``.
        title: The figure title (``sweep_title``).
    """
    fig = figure(figsize=(14, 5))
    axes = fig.subplots(1, 3, sharey=True)
    for ax, name in zip(axes, ("wins", "draws", "losses"), strict=True):
        for a in aggregate:
            xs = block_ends(a["games"], a["block"])[: len(a["blocks"])]
            mean = [row[name]["mean"] for row in a["blocks"]]
            low = [row[name]["low"] for row in a["blocks"]]
            high = [row[name]["high"] for row in a["blocks"]]
            (line,) = ax.plot(xs, mean, label=f"{a['agent']} ({len(a['seeds'])} seeds)")
            ax.fill_between(xs, low, high, alpha=0.2, color=line.get_color())
        ax.set_title(f"{name} rate")
        ax.set_xlabel("games played (end of each block)")
        ax.set_ylabel(f"{name} per block (mean, 95% band)")
        ax.set_ylim(0, 1)
        ax.tick_params(labelleft=True)  # shared, but each panel reads on its own
        ax.grid(alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(3, max(1, len(labels))), fontsize=8,
               frameon=False)  # fmt: skip
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.06 + 0.03 * ((len(labels) - 1) // 3), 1, 1))
    _save(fig, path, tight=False)


def reference_curve(path: Path, points: Sequence[dict[str, Any]], title: str) -> None:
    """Write the learner's curve against fixed references as a PNG: per reference, its score
    ((wins + draws / 2) / games, greedy play, seats alternating) at each point of the run, with
    the score's Wilson 95% band.

    Args:
        path: The PNG file to write.
        points: ``experiments.references.reference_point``'s points, in order of games.
        title: The figure title (``curve_title``).
    """
    fig = figure(figsize=(8, 4.8))
    ax = fig.subplots()
    specs = [r["reference"] for r in points[0]["references"]] if points else []
    for n, spec in enumerate(specs):
        xs = [p["games"] for p in points]
        rows = [p["references"][n] for p in points]
        (line,) = ax.plot(xs, [r["score"] for r in rows], marker="o", markersize=3,
                          label=f"against {spec}")  # fmt: skip
        ax.fill_between(xs, [r["low"] for r in rows], [r["high"] for r in rows], alpha=0.2,
                        color=line.get_color())  # fmt: skip
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("training games played")
    ax.set_ylabel("score (wins + draws / 2), greedy play")
    ax.grid(alpha=0.3)
    ax.set_title(title, fontsize=9)
    _legend_below(ax)
    each = points[0]["references"][0]["games"] if specs else 0
    fig.text(0.01, 0.005, f"each point: {each} games against each reference, seats alternating; "
             "bands: Wilson 95% intervals", fontsize=7, color="dimgray")  # fmt: skip
    _save(fig, path)


def _save(fig: Any, path: Path, tight: bool = True) -> None:
    if tight:
        fig.tight_layout()
    # tight_layout leaves a placeholder layout engine behind, and savefig lays out a figure that
    # has one with a whole extra pass of drawing (all text measured again, nothing shown): the
    # layout is done, so none is needed, and the pixels are the same
    fig.set_layout_engine(None)
    with open_atomic(path, binary=True) as f:
        fig.savefig(f, format="png", dpi=100)


def close_all() -> None:
    """Release every open figure (for long-running shells)."""
    pyplot().close("all")


__all__: Any = [
    "block_ends",
    "close_all",
    "curve_title",
    "full_spec",
    "game_spec_text",
    "learning_curve",
    "mean_curves",
    "reference_curve",
    "sweep_title",
    "wrap_spec",
]
