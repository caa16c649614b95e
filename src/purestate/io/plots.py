"""Pictures of results (shell side): learning curves as PNG files, drawn with matplotlib."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

from purestate.io.files import open_atomic

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def learning_curve(
    path: Path,
    blocks: Sequence[dict[str, int]],
    block: int,
    bead_change: Sequence[int],
    title: str,
) -> None:
    """Write a two-panel PNG: W/D/L rate per block, and Scroggs' cumulative 3W + D − L.

    Args:
        path: The PNG file to write.
        blocks: Per block of games, ``{"wins", "draws", "losses"}``.
        block: Games per block (for the x axis).
        bead_change: The cumulative +3/+1/−1 curve, one value per game.
        title: The figure title (agent vs opponent).
    """
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 7), sharex=False)
    xs = [(i + 1) * block for i in range(len(blocks))]
    for name, colour in (("wins", "tab:green"), ("draws", "tab:blue"), ("losses", "tab:red")):
        ys = [b[name] / max(1, b["wins"] + b["draws"] + b["losses"]) for b in blocks]
        ax1.plot(xs, ys, marker="o", markersize=3, label=name, color=colour)
    ax1.set_ylim(0, 1)
    ax1.set_ylabel(f"rate per block of {block} games")
    ax1.legend(loc="center right")
    ax1.grid(alpha=0.3)
    ax1.set_title(title)
    ax2.plot(range(1, len(bead_change) + 1), bead_change, color="tab:purple")
    ax2.set_xlabel("games")
    ax2.set_ylabel("cumulative 3·wins + draws − losses")
    ax2.grid(alpha=0.3)
    _save(fig, path)


def mean_curves(path: Path, aggregate: Sequence[dict[str, Any]], title: str) -> None:
    """Write a PNG of the mean W/D/L rate per block for each setting, with its 95% band.

    Args:
        path: The PNG file to write.
        aggregate: As returned by ``purestate.experiments.sweep.aggregate``.
        title: The figure title.
    """
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.5), sharey=True)
    for ax, name in zip(axes, ("wins", "draws", "losses"), strict=True):
        for a in aggregate:
            xs = [row["first_game"] - 1 + a["block"] for row in a["blocks"]]
            mean = [row[name]["mean"] for row in a["blocks"]]
            low = [row[name]["low"] for row in a["blocks"]]
            high = [row[name]["high"] for row in a["blocks"]]
            (line,) = ax.plot(xs, mean, label=f"{a['agent']} ({len(a['seeds'])} seeds)")
            ax.fill_between(xs, low, high, alpha=0.2, color=line.get_color())
        ax.set_title(name)
        ax.set_xlabel("games")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("rate per block (mean, 95% band)")
    axes[0].legend(fontsize=8)
    fig.suptitle(title)
    _save(fig, path)


def _save(fig: Any, path: Path) -> None:
    fig.tight_layout()
    with open_atomic(path, binary=True) as f:
        fig.savefig(f, format="png", dpi=100)
    plt.close(fig)


def close_all() -> None:
    """Release every open figure (for long-running shells)."""
    plt.close("all")


__all__: Any = ["close_all", "learning_curve", "mean_curves"]
