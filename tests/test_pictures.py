"""Pictures and boxes a person can read: the pure parts (titles, positions, rates, key facts)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import purestate
from purestate.agents.menace import MenaceTable
from purestate.cli import app
from purestate.cli.menace import box_lines, cell_width
from purestate.core.episode import replay
from purestate.core.keys import key
from purestate.games.tron import Tron, parse_map, trails
from purestate.io.plots import (
    block_ends,
    curve_title,
    full_spec,
    game_spec_text,
    sweep_title,
    wrap_spec,
)
from purestate.io.tables import save_table
from purestate.io.tron import picture_facts
from purestate.solve import solve
from purestate.solve.analysis import optimal_move_rates, play_against_solver

TTT = purestate.make("tictactoe")
U, D, L, R = 0, 1, 2, 3


# ---- learning curve ------------------------------------------------------------------------------


def test_a_partial_last_block_sits_at_its_last_game() -> None:
    assert block_ends(250, 100) == [100, 200, 250]
    assert block_ends(300, 100) == [100, 200, 300]
    assert block_ends(7, 10) == [7]
    assert block_ends(0, 10) == []


def test_the_title_carries_both_specs_the_seat_the_game_options_and_the_seed() -> None:
    game = purestate.make("dots_and_boxes", rows=2, cols=3)
    spec = game_spec_text(game)
    assert spec.startswith("dots_and_boxes:") and "rows=2" in spec and "cols=3" in spec
    assert "_board" not in spec  # derived fields are not options
    assert game_spec_text(TTT) == "tictactoe"
    title = curve_title("qlearning:alpha=0.5", "second", "rules:p=0.7", spec, 42)
    for part in ("qlearning:alpha=0.5", "second", "rules:p=0.7", spec, "seed 42"):
        assert part in title
    # defaults spelled out, and a long spec broken after its commas only
    full = full_spec("qlearning", purestate.agent("qlearning"))
    assert full.startswith("qlearning:alpha=") and "epsilon=" in full
    assert wrap_spec(full, 40).replace("\n", "") == full
    assert all(len(line) <= 41 for line in wrap_spec(full, 40).splitlines())
    assert all(line.endswith(",") for line in wrap_spec(full, 40).splitlines()[:-1])
    swept = sweep_title(spec, "random", [3, 4, 5])
    assert spec in swept and "random" in swept and "3 seeds" in swept and "3, 4, 5" in swept
    assert "32 seeds (0-31)" in sweep_title(spec, "random", range(32))


def test_optimal_move_rates_by_hand_on_tictactoe() -> None:
    # X in the centre: O's corner reply draws, O's edge reply loses; every first move of X draws
    centre_corner, centre_edge = [4, 0], [4, 1]
    assert optimal_move_rates(TTT, solve(TTT), [centre_corner], 1, 10) == ((1, 1),)
    assert optimal_move_rates(TTT, solve(TTT), [centre_edge], 1, 10) == ((0, 1),)
    assert optimal_move_rates(TTT, solve(TTT), [centre_edge], 0, 10) == ((1, 1),)
    games = [centre_corner, centre_edge, centre_corner]
    assert optimal_move_rates(TTT, solve(TTT), games, 1, 2) == ((1, 2), (1, 1))
    # moves as text are read with the game's parser
    assert optimal_move_rates(TTT, solve(TTT), [["4", "1"]], 1, 1) == ((0, 1),)
    with pytest.raises(ValueError, match="block"):
        optimal_move_rates(TTT, solve(TTT), games, 1, 0)


def test_a_perfect_player_scores_one_and_the_solver_side_of_an_analysis_game_too() -> None:
    sol = solve(TTT)
    perfect, rnd = purestate.agent("perfect"), purestate.agent("random")
    eps = [purestate.play(TTT, (perfect, rnd), (None, None), key(i)) for i in range(30)]
    [(good, moved)] = optimal_move_rates(TTT, sol, [e.moves for e in eps], 0, 30)
    assert good == moved > 0
    [(good, moved)] = optimal_move_rates(TTT, sol, [e.moves for e in eps], 1, 30)
    assert good < moved  # random errs
    # an untrained Q-table's greedy game against the solver: the solver's own side is all optimal
    q = purestate.agent("qlearning")
    for seat in (0, 1):
        game = play_against_solver(TTT, q, q.initial_table(TTT, seat), sol, seat)
        [(good, moved)] = optimal_move_rates(TTT, sol, [game.moves], 1 - seat, 1)
        assert good == moved > 0


def test_selfplay_summary_records_the_optimal_moves_of_every_block(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        ["selfplay", "--agent", "qlearning", "--games", "25", "--block", "10", "--out", str(out),
         "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    blocks = summary["blocks"]
    assert len(blocks) == 3 and summary["game_spec"] == "tictactoe"
    expected = optimal_move_rates(TTT, solve(TTT), [r["moves"] for r in records], 0, 10)
    assert [(b["optimal_moves"], b["learner_moves"]) for b in blocks] == list(expected)
    # the learner moves first: it makes every odd ply of each game
    assert sum(b["learner_moves"] for b in blocks) == sum(
        (len(r["moves"]) + 1) // 2 for r in records
    )
    assert (out / "learning_curve.png").stat().st_size > 0


def test_a_game_too_large_to_solve_has_no_optimal_move_figures(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        ["selfplay", "--game", "dots_and_boxes:rows=4,cols=4", "--agent", "qlearning",
         "--opponent", "random", "--games", "3", "--block", "2", "--out", str(out), "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    blocks = summary["blocks"]
    assert len(blocks) == 2 and all("learner_moves" not in b for b in blocks)
    # the game with every option, for the title
    assert summary["game_spec"] == "dots_and_boxes:rows=4,cols=4,margin=true,numbering=id"


# ---- menace boxes --------------------------------------------------------------------------------


def test_a_box_with_a_count_over_a_thousand_keeps_its_grid() -> None:
    beads = {0: 1076, 1: 3, 5: 0}
    width = cell_width(beads.values())
    lines = box_lines("..X.O....", beads, width)
    assert len({len(line) for line in lines}) == 1
    assert "1076" in lines[1] and lines[0].strip() == "1079 beads"
    assert box_lines("....X....", {0: 4}, cell_width([4]))[1] == " 4 | · | · "


def test_menace_boxes_aligns_every_box_on_the_page(tmp_path: Path) -> None:
    m = purestate.agent("menace")
    t = m.initial_table(TTT, 0)
    first = t.boxes["........."]
    big = next(iter(first))
    t = MenaceTable(0, t.boxes.set(".........", first.set(big, 1076)))
    path = tmp_path / "table.json"
    save_table(path, TTT, m, t, 0, 1)
    result = CliRunner().invoke(app, ["menace", "boxes", "--table", str(path), "--limit", "7"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "1076" in text and "key:" in text
    total = sum(sum(b.values()) for b in t.boxes.values())
    assert f"304 boxes, {total} beads" in text and "showing 7" in text
    groups: list[list[str]] = [[]]
    for line in text.splitlines():
        if "|" in line or "+" in line:
            groups[-1].append(line)
        elif groups[-1]:
            groups.append([])
    groups = [g for g in groups if g]
    assert len(groups) >= 2
    for group in groups:
        # each drawn row of boxes: five board lines, every grid line in the same columns
        assert len(group) == 5 and len({len(line) for line in group}) == 1
        bars = {tuple(i for i, c in enumerate(line) if c in "|+") for line in group}
        assert len(bars) == 1


# ---- tron pictures -------------------------------------------------------------------------------


def _line(rules: str) -> Tron:
    game = purestate.make("tron", map=parse_map("######\n#1 2 #\n######\n", "line"), rules=rules)
    assert isinstance(game, Tron)
    return game


def test_tron_picture_marks_heads_the_crash_the_winner_and_the_moves() -> None:
    g = _line("alternating")
    moves = [R, U]  # the first seat steps right; the second runs into the wall above it
    facts = picture_facts(g, replay(g, moves).states, moves, ("ta2", "random"))
    assert facts.heads == (8, 9) and facts.crashes == (3,) and facts.winner == 0
    assert facts.moves == (1, 1)
    assert facts.title.startswith("ta2 as first (blue) vs random as second (red)")
    assert "first (blue) wins after 2 moves (1 by first (blue), 1 by second (red))" in facts.title


def test_tron_picture_of_simultaneous_crashes() -> None:
    g = _line("simultaneous")
    head_on = [R, L]
    facts = picture_facts(g, replay(g, head_on).states, head_on, ("a", "b"))
    assert facts.crashes == (8,) and facts.winner is None and "draw after 2 moves" in facts.title
    both = [U, D]
    facts = picture_facts(g, replay(g, both).states, both, ("a", "b"))
    assert set(facts.crashes) == {1, 15} and facts.heads == (7, 9)


def test_tron_trails_take_their_players_colours_given_the_history() -> None:
    from purestate.games.tron.drawing import TRAIL_COLOURS

    g = purestate.make("tron", map=parse_map("#######\n#1   2#\n#     #\n#######\n", "room"))
    moves = [D, D, R]  # both cycles go down, then player 1 turns towards player 2
    states = replay(g, moves, resigned=1).states
    last = states[-1]
    plain = str(purestate.svg(g, last))
    coloured = str(purestate.svg(g, last, history=states[:-1]))
    # behind its head player 1 has left two cells, player 2 one: grey without the history
    assert plain.count('fill="#c9c9c9"') == 3
    assert all(plain.count(f'fill="{c}"') == 0 for c in TRAIL_COLOURS)
    assert coloured.count('fill="#c9c9c9"') == 0
    assert [coloured.count(f'fill="{c}"') for c in TRAIL_COLOURS] == [2, 1]


def test_the_terminal_board_colours_each_trail_by_its_player() -> None:
    from purestate.cli.boards import board as _board_text

    g = purestate.make("tron", map=parse_map("#######\n#1   2#\n#     #\n#######\n", "room"))
    states = replay(g, [D, D, R], resigned=1).states
    text = _board_text(g, states)
    styles = {(span.start, span.end): str(span.style) for span in text.spans}
    cols = g.board.cols + 1  # each row ends with a newline
    assert styles[(1 * cols + 1, 1 * cols + 2)] == "blue"  # player 1 started at row 1, column 1
    assert styles[(2 * cols + 1, 2 * cols + 2)] == "blue"
    assert styles[(1 * cols + 5, 1 * cols + 6)] == "red"  # player 2 started at row 1, column 5
    assert sum(style in ("blue", "red") for style in styles.values()) == 3


@pytest.mark.parametrize("seat", ["first", "second"])
def test_a_person_at_the_terminal_is_shown_the_game_so_far(
    monkeypatch: pytest.MonkeyPatch, seat: str
) -> None:
    import purestate.cli.play as play_module

    shown: list[tuple[Any, ...]] = []
    real = play_module.board

    def spy(game: Any, states: Any) -> Any:
        shown.append(tuple(states))
        return real(game, states)

    monkeypatch.setattr(play_module, "board", spy)
    result = CliRunner().invoke(
        app, ["play", "tron:map=small_room", "--opponent", "tron_wall", "--seed", "2",
              "--seat", seat],
        input="R\nD\nq\n" if seat == "first" else "L\nU\nq\n",  # away from the walls
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    g = purestate.make("tron", map="small_room")
    start = g.initial()
    # three boards, each showing one more position, from the start (which the second seat is
    # never shown: the bot has moved by then)
    first = 1 if seat == "first" else 2
    assert [len(states) for states in shown] == [first, first + 1, first + 2]
    assert shown[0][0] == start and shown[2][:-1] == shown[1]
    t0, t1 = trails(shown[2])
    assert t0 >> start.head0 & 1 and t1 >> start.head1 & 1  # both start cells are trails
