"""``menace:preset=tuned``: the sweep's configuration of Michie's machine (see
docs/experiments/menace-presets.md) learns to hold ``perfect`` far sooner than Scroggs'."""

from __future__ import annotations

import purestate
from purestate.agents.menace import Menace
from purestate.experiments.selfplay import Selfplay
from purestate.experiments.sweep import Chunk, play_chunk


def test_tuned_preset_is_michies_machine_with_the_sweeps_numbers() -> None:
    m = purestate.agent("menace:preset=tuned")
    assert isinstance(m, Menace)
    assert m.beads == (4, 2, 1)
    assert m.incentives == (8, 6, -6)
    assert m.symmetric_moves == "dedupe"
    assert m.empty == "refill"
    assert not m.include_forced


def test_tuned_spec_round_trips() -> None:
    for spec in [
        "menace:preset=tuned",
        "menace:preset=tuned,empty=resign",
        "menace:preset=tuned,beads=8/4/2/1,incentives=3/1/-1",
    ]:
        m = purestate.agent(spec)
        assert m.spec == spec
        assert purestate.agent(m.spec) == m
    assert purestate.agent("menace:preset=tuned,empty=resign").beads == (4, 2, 1)


def test_tuned_loses_far_fewer_games_to_perfect_than_scroggs() -> None:
    # fixed seeds, so the figures are exact: scroggs loses 46, 51, 35 of its first 300 games,
    # tuned 11, 8, 6; a factor of three leaves a wide margin on either side
    for seed in range(3):
        losses = {}
        for preset in ("scroggs", "tuned"):
            run = Selfplay(agent=f"menace:preset={preset}", opponent="perfect", seed=seed)
            result = play_chunk(Chunk(run, 0, 300, None))
            assert not result.refused and len(result.outcomes) == 300
            losses[preset] = result.outcomes.count(-1)
        assert 3 * losses["tuned"] <= losses["scroggs"], (seed, losses)


def test_the_presets_page_shows_what_its_sweep_gives() -> None:
    # docs/experiments/menace-presets.md promises that anyone rerunning its sweep gets its
    # figures: play the same 3 presets x 32 seeds x 2,000 games and read the page's table
    import re
    import statistics
    from pathlib import Path

    page = Path(__file__).parent.parent / "docs" / "experiments" / "menace-presets.md"
    rows = re.findall(
        r"^\| `menace:preset=(\w+)` \| (\d+) \| ([\d.]+) \| (\d+)–(\d+) \| (\d+) \|$",
        page.read_text(encoding="utf-8"),
        re.MULTILINE,
    )
    assert [r[0] for r in rows] == ["michie", "scroggs", "tuned"]
    for preset, runs, median, low, high, died in rows:
        losses, dead = [], 0
        for seed in range(int(runs)):
            run = Selfplay(agent=f"menace:preset={preset}", opponent="perfect", seed=seed)
            result = play_chunk(Chunk(run, 0, 2000, None))
            losses.append(result.outcomes.count(-1))
            dead += result.refused > 0
        assert statistics.median(losses) == float(median), preset
        assert (min(losses), max(losses), dead) == (int(low), int(high), int(died)), preset
