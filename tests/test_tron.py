"""Tron: rules (CS1410 alternating, AI-Challenge simultaneous), maps, bots, heuristics, CLI."""

from __future__ import annotations

import builtins
import importlib.resources
import io
import json
from typing import Any

import pytest
from tests.moves import play_moves

import purestate
from purestate.agents.tron_bots import with_linear_weights
from purestate.core import registry
from purestate.core.game import IllegalMove, ParseError
from purestate.experiments import tron as series
from purestate.games.tron import MOVES, MapError, State, Tron, parse_map
from purestate.games.tron.rules import D, L, R, U
from purestate.heuristics import tron as H
from purestate.io.maps import load_map, shipped_map, shipped_names
from purestate.io.tron import read_weights

SMALL = "#####\n#1  #\n#   #\n#  2#\n#####\n"


def tron(**params: Any) -> Tron:
    game = purestate.make("tron", **params)
    assert isinstance(game, Tron)
    return game


def small(**params: Any) -> Tron:
    return tron(map=parse_map(SMALL, "tiny"), **params)


# ---- maps ---------------------------------------------------------------------------------------


def test_shipped_maps_load_with_the_reference_layouts() -> None:
    names = shipped_names()
    for n in ("empty_room", "center_block", "diagonal_blocks", "small_room", "divider", "joust"):
        assert n in names
    for n in names:
        m = shipped_map(n)
        assert m.name == n
        assert parse_map(m.text(), n) == m
        tron(map=n)  # every shipped map makes a game
    er = shipped_map("empty_room")
    assert (er.rows, er.cols, er.free.bit_count()) == (13, 13, 121)
    assert er.starts == (er.cell(1, 1), er.cell(11, 11))
    cb = shipped_map("center_block")
    assert cb.free.bit_count() == 96 + 9
    assert cb.starts == (cb.cell(3, 4), cb.cell(9, 8))
    db = shipped_map("diagonal_blocks")
    assert db.free.bit_count() == 104
    assert db.starts == (db.cell(4, 5), db.cell(8, 7))
    assert shipped_map("small_room").free.bit_count() == 25


def test_a_shipped_map_resolves_without_reading_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record or spec naming a shipped map is replayed in the pure layers, which read no file."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a shipped map was read from a file")

    shipped_names.cache_clear()
    shipped_map.cache_clear()
    with monkeypatch.context() as m:
        m.setattr(importlib.resources, "files", refuse)
        m.setattr(builtins, "open", refuse)
        m.setattr(io, "open", refuse)
        game = purestate.make_spec("tron:map=small_room")
        names = shipped_names()
    assert isinstance(game, Tron)
    assert game.board == shipped_map("small_room")
    assert game.board.free.bit_count() == 25
    assert "small_room" in names


def test_ai_challenge_format_is_read() -> None:
    m = parse_map("5 4\r\n#####\r\n#1 2#\r\n#   #\r\n#####\r\n", "ai")
    assert (m.rows, m.cols) == (4, 5)
    assert m.starts == (m.cell(1, 1), m.cell(1, 3))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#####\n#1  #\n    #\n#  2#\n#####\n", "line 3, column 1: the map is not enclosed"),
        ("#####\n#1  #\n# ? #\n#  2#\n#####\n", "line 3, column 3: '?'"),
        ("#####\n#1 *#\n#   #\n#  2#\n#####\n", "line 2, column 4: '*' (a trap)"),
        ("#####\n#1  #\n# o #\n#  2#\n#####\n", "line 3, column 3: unknown character 'o'"),
        ("#####\n#1  #\n#  1#\n#  2#\n#####\n", "line 3, column 4: a second player 1"),
        ("#####\n#1  #\n#   #\n#   #\n#####\n", "player 2 has no start cell"),
        ("#####\n#1  #\n#    #\n#  2#\n#####\n", "line 3, column 6: the row has 6 cells"),
        ("5 3\n#####\n#1 2 #\n#####\n", "line 3, column 6: the row has 6 characters"),
        ("5 3\n#####\n#1x2#\n#####\n", "line 3, column 3: unknown character 'x'"),
    ],
)
def test_bad_maps_are_refused_naming_line_and_column(text: str, message: str) -> None:
    with pytest.raises(MapError, match="map 'bad'") as err:
        parse_map(text, "bad")
    assert message in str(err.value)


def test_unknown_map_name_and_missing_file_are_refused(tmp_path: Any) -> None:
    with pytest.raises(purestate.SpecError, match="unknown Tron map 'nope'"):
        tron(map="nope")
    with pytest.raises(purestate.SpecError, match="no such map file"):
        load_map(str(tmp_path / "missing.txt"))
    f = tmp_path / "mine.txt"
    f.write_text(SMALL)
    assert load_map(str(f)) == parse_map(SMALL, "mine")


# ---- alternating rules (CS1410) ----------------------------------------------------------------


def test_alternating_moves_leave_barriers_and_crashes_lose() -> None:
    g = small()
    s = g.initial()
    assert g.legal(s) == MOVES and g.to_move(s) == 0
    s = g.step(s, R)  # player 1: (1,1) -> (1,2)
    assert g.to_move(s) == 1 and s.head0 == g.board.cell(1, 2)
    assert s.blocked >> g.board.cell(1, 1) & 1  # the old cell is a barrier
    s2 = g.step(s, D)  # player 2 runs into the wall
    assert g.is_over(s2) and g.returns(s2) == (1.0, -1.0) and g.legal(s2) == ()
    with pytest.raises(IllegalMove, match="over"):
        g.step(s2, U)
    with pytest.raises(IllegalMove, match="not a move"):
        g.step(s, 7)


def test_moving_back_into_own_trail_crashes() -> None:
    g = small()
    s = play_moves(g, [R, L])  # player 1 right, player 2 left
    s = g.step(s, L)  # player 1 back into its own old cell
    assert g.returns(s) == (-1.0, 1.0)


def test_head_on_collision_crashes_the_mover_not_a_draw() -> None:
    g = small()
    # 1 at (1,1), 2 at (3,3): 1 goes to (1,2)->(2,2); 2 is then next to it at (3,2)
    s = play_moves(g, [R, L, D])  # 1:(1,2), 2:(3,2), 1:(2,2)
    s = g.step(s, U)  # player 2 moves into player 1's head
    assert g.is_over(s) and g.returns(s) == (1.0, -1.0)


def test_first_player_option() -> None:
    g = small(first_player=1)
    s = g.initial()
    assert g.to_move(s) == 1
    s = g.step(s, U)
    assert s.head1 == g.board.cell(2, 3) and g.to_move(s) == 0
    with pytest.raises(purestate.SpecError, match="first_player"):
        purestate.make_spec("tron:first_player=2")


def test_no_draws_and_length_bound_under_alternating_rules() -> None:
    g = tron(map="small_room")
    rnd = purestate.agent("random")
    for i in range(40):
        ep = purestate.play(g, (rnd, rnd), (None, None), purestate.key(i))
        assert ep.returns in ((1.0, -1.0), (-1.0, 1.0))
        assert len(ep.moves) <= g.board.free.bit_count() - 1


# ---- simultaneous rules (AI Challenge 2010) ----------------------------------------------------


def test_simultaneous_same_square_is_a_draw() -> None:
    g = small(rules="simultaneous")
    s = play_moves(g, [R, U])  # 1:(1,2), 2:(2,3)
    s = g.step(s, D)  # 1 commits (2,2)
    assert s.pending == D and s.head0 == g.board.cell(1, 2)  # nothing moved yet
    s = g.step(s, L)  # 2 also goes to (2,2)
    assert g.is_over(s) and g.returns(s) == (0.0, 0.0)


def test_simultaneous_swap_and_double_crash_are_draws() -> None:
    m = parse_map("######\n#1 2 #\n######\n", "line")
    g = tron(map=m, rules="simultaneous")
    s = play_moves(g, [R, L])  # both into (1,2)
    assert g.returns(s) == (0.0, 0.0)  # same square
    s = play_moves(g, [U, D])  # both into walls
    assert g.is_over(s) and g.returns(s) == (0.0, 0.0)
    s = play_moves(g, [U, R])  # only player 1 crashes
    assert g.returns(s) == (-1.0, 1.0)


def test_simultaneous_swap_is_a_draw() -> None:
    m = parse_map("#####\n#12 #\n#####\n", "adjacent")
    g = tron(map=m, rules="simultaneous")
    s = play_moves(g, [R, L])
    assert g.is_over(s) and g.returns(s) == (0.0, 0.0)


def test_pending_move_is_hidden_from_the_second_mover() -> None:
    g = small(rules="simultaneous")
    s0 = g.initial()
    seen: list[State] = []

    class Spy:
        spec = "spy"
        learns = False

        def initial_table(self, game: Any, seat: int) -> None:
            return None

        def learn(self, game: Any, table: Any, episode: Any, seat: int) -> None:
            return None

        def act(self, game: Any, table: Any, state: Any, key: Any) -> purestate.Decision[int]:
            seen.append(state)
            return purestate.Decision(D if game.to_move(state) == 0 else U)

    ep = purestate.play(g, (Spy(), Spy()), (None, None), purestate.key(0))
    assert ep.states[1].pending == D  # the true state holds the committed move
    assert seen[1].pending == -1 and seen[1].to_move == 1  # player 2 does not see it
    assert seen[1] == g.observation(ep.states[1], 1)
    # the observation differs from every state where player 1 had moved otherwise
    for m in MOVES:
        assert g.observation(g.step(s0, m), 1) == seen[1]


# ---- starts, symmetries, codec -----------------------------------------------------------------


def test_mirror_starts_are_point_symmetric_and_never_the_centre() -> None:
    for name in ("empty_room", "center_block", "diagonal_blocks"):
        m = shipped_map(name)
        centre = m.cell(m.rows // 2, m.cols // 2)
        seen = set()
        for seed in range(60):
            g = tron(map=name, start="mirror", start_seed=seed)
            s = g.initial()
            assert s.head1 == m.mirror(s.head0)
            assert centre not in (s.head0, s.head1)
            assert s == tron(map=name, start="mirror", start_seed=seed).initial()
            r, c = m.position(s.head0)
            if name == "center_block":
                assert not (5 <= r <= 7 and 5 <= c <= 7)  # never in the sealed pocket
            seen.add(s.head0)
        assert len(seen) > 20


def test_symmetry_groups_follow_the_maps() -> None:
    assert len(tron(map="empty_room").symmetries) == 8
    assert len(tron(map="center_block").symmetries) == 8
    assert len(tron(map="diagonal_blocks").symmetries) == 4
    assert len(tron(map="divider").symmetries) == 4


def test_codec_and_parse_move() -> None:
    g = small(rules="simultaneous")
    s = g.step(g.initial(), R)
    text = g.encode(s)
    assert text == "#####/#1..#/#...#/#..2#/#####;2;R;-"
    assert g.decode(text) == s
    for bad in ("nonsense", "#####;1;-;-", text.replace(";2;", ";3;"), text.replace("#1", "#o")):
        with pytest.raises(ParseError):
            g.decode(bad)
    assert [g.parse_move(s, t) for t in ("u", "Down", "W", "\x1b[C")] == [U, D, L, R]
    with pytest.raises(ParseError, match="not a move"):
        g.parse_move(s, "jump")
    assert "hidden" in g.render(s)


def test_map_value_or_name_make_equal_boards() -> None:
    a = tron(map="small_room")
    b = tron(map=shipped_map("small_room"))
    assert a.board == b.board and a.initial() == b.initial()
    assert hash(a) == hash(tron(map="small_room"))


# ---- heuristics ---------------------------------------------------------------------------------


def _state(text: str, to_move: int = 0, **params: Any) -> tuple[Tron, State]:
    """A game on the map ``text`` and its start position."""
    g = tron(map=parse_map(text, "hand"), first_player=to_move, **params)
    return g, g.initial()


def test_voronoi_ties_go_to_the_player_to_move() -> None:
    # a corridor: 1 . . . 2 -> the middle cell is equidistant
    g, s = _state("#######\n#1   2#\n#######\n")
    v = H.voronoi(s, g.topology)
    m = g.board
    assert v.ties == 1 << m.cell(1, 3)
    assert v.own0 == 1 << m.cell(1, 2) and v.own1 == 1 << m.cell(1, 4)
    assert not v.separated and v.distance == 4
    assert H.voronoi_eval(g, s) > 0  # player 1 to move gets the tie
    g1, s1 = _state("#######\n#1   2#\n#######\n", to_move=1)
    assert H.voronoi_eval(g1, s1) == -H.voronoi_eval(g, s)
    gs, ss = _state("#######\n#1   2#\n#######\n", rules="simultaneous")
    assert H.voronoi_eval(gs, ss) == 0.0  # simultaneous: the tie is neutral


def test_sealed_pocket_is_never_counted() -> None:
    g = tron(map="center_block")
    s = g.initial()
    t = g.topology
    v = H.voronoi(s, t)
    m = g.board
    pocket = sum(1 << m.cell(r, c) for r in range(5, 8) for c in range(5, 8))
    assert not (v.reach0 | v.reach1) & pocket
    assert (v.own0 | v.own1 | v.ties).bit_count() == 96 - 2
    free = H.free_cells(s, t)
    assert not H.flood(free, 1 << s.head0, t.cols) & pocket


def test_parity_bound_on_hand_made_regions() -> None:
    g, _ = _state("#######\n#1    #\n#######\n#     #\n#  2  #\n#######\n")
    t = g.topology
    m = g.board
    row = sum(1 << m.cell(1, c) for c in range(2, 6))  # 4 cells in a row: a path of 4
    assert H.parity_bound(row, m.cell(1, 1), t.even) == 4
    # a plus shape around the head's neighbour: cells of one colour are short
    cells = [(3, 1), (3, 2), (3, 3), (4, 2)]
    region = sum(1 << m.cell(r, c) for r, c in cells)
    head = m.cell(4, 1)  # next to (3,1) and (4,2)
    # head colour = (4+1) odd; same colour: (3,2) -> A=1, other: (3,1),(3,3),(4,2) -> B=3
    assert H.parity_bound(region, head, t.even) == 3


def test_articulation_points_on_a_corridor() -> None:
    g, s = _state("#########\n#1      #\n####### #\n#2      #\n#########\n")
    t = g.topology
    m = g.board
    free = H.free_cells(s, t)
    region = H.flood(free, 1 << s.head0, t.cols)
    cuts = H.articulation_points(region, s.head0, t)
    # every corridor cell but the far end of player 2's row cuts the region
    assert cuts >> m.cell(1, 2) & 1 and cuts >> m.cell(2, 7) & 1
    assert not cuts >> m.cell(3, 2) & 1  # the dead end
    assert H.chamber_value(region, s.head0, region, 0, t) == region.bit_count()


def test_chamber_counts_only_one_branch_of_side_rooms() -> None:
    # the head sits at a fork: two dead-end rooms of 3 cells; a cycle can fill one of them
    g, s = _state("#########\n#   1   #\n#########\n#2      #\n#########\n")
    t = g.topology
    region = H.flood(H.free_cells(s, t), 1 << s.head0, t.cols)
    assert region.bit_count() == 6
    assert H.chamber_value(region, s.head0, region, 0, t) == 3
    assert H.fill_length(region, s.head0, t) == 3


def test_a_battlefront_chamber_costs_the_walk_not_the_room() -> None:
    # the head's room (12 open cells after the cut at its door) leads through a door and a
    # corridor (7 cells) to the opponent: filling the room and then fighting is impossible, so
    # the tree takes the room alone (12), not room + corridor (19, the value with no opponent)
    g, s = _state("#########\n#   1   #\n#       #\n####### #\n#2      #\n#########\n")
    t = g.topology
    enemy = 1 << g.board.cell(4, 2)
    region = H.free_cells(s, t) & ~enemy
    assert H.chamber_value(region, s.head0, region, enemy, t) == 12
    assert H.chamber_value(region, s.head0, region, 0, t) == 19


def test_chamber_scores_cells_and_edges() -> None:
    # one chamber of 5 cells (no cut vertex: the head closes a cycle); counted by hand, the
    # cells have 2, 2, 1, 3, 2 free neighbours (the head is not free): E = 10
    g, s = _state("#######\n#1  #2#\n#   ###\n#######\n")
    t = g.topology
    free = H.free_cells(s, t)
    region = H.flood(free, 1 << s.head0, t.cols)
    assert region.bit_count() == 5
    assert H.edges(region, free, t.cols) == 10
    assert H.chamber_value(region, s.head0, region, 0, t) == 5
    assert H.chamber_value(region, s.head0, region, 0, t, 0.5, free) == 5 + 0.5 * 10


def test_fill_length_is_exact_on_small_rooms() -> None:
    g = tron(map="small_room")
    s = g.initial()
    t = g.topology
    free = H.free_cells(s, t) & ~(1 << s.head1)
    # 5x5 room, head in a corner: a snake fills every other cell (23 of 23 reachable + head)
    region = H.flood(free, 1 << s.head0, t.cols)
    assert H.fill_length(region, s.head0, t) == region.bit_count() == 23


def test_separated_endgame_value_follows_the_move_order() -> None:
    # divider-like: two rooms of equal size; under alternating rules the mover runs out first
    text = "#######\n#1    #\n#######\n#2    #\n#######\n"
    g0, s0 = _state(text, to_move=0)
    assert H.voronoi(s0, g0.topology).separated
    assert H.voronoi_eval(g0, s0) < -H.HALF  # player 1 moves first and crashes first
    g1, s1 = _state(text, to_move=1)
    assert H.voronoi_eval(g1, s1) > H.HALF
    gs, ss = _state(text, rules="simultaneous")
    assert abs(H.voronoi_eval(gs, ss)) < 0.01  # equal rooms draw
    for ev in (H.space, H.voronoi_eval, H.chamber_eval, H.linear):
        assert -1 < ev(g0, s0) < 1


def test_evaluations_are_registered_and_refuse_other_games() -> None:
    for name in ("space", "voronoi", "chamber", "linear"):
        ev = registry.evaluation(name)
        g = tron()
        assert -1 < ev(g, g.initial()) < 1
        with pytest.raises(purestate.SpecError, match="made for tron, not tictactoe"):
            ev(purestate.make("tictactoe"), purestate.make("tictactoe").initial())


# ---- bots ---------------------------------------------------------------------------------------


def test_tron_random_plays_only_safe_moves() -> None:
    g, s = _state("#####\n#1 ##\n# # #\n#  2#\n#####\n")
    bot = purestate.agent("tron_random")
    moves = {bot.act(g, None, s, purestate.key(i)).move for i in range(40)}
    assert moves == {D, R}


def test_tron_random_plays_up_when_trapped() -> None:
    g, s = _state("#####\n#1#2#\n#####\n")
    assert g.safe_moves(s) == ()
    assert purestate.agent("tron_random").act(g, None, s, purestate.key(0)).move == U


def test_tron_wall_hugs_in_its_order() -> None:
    # head in the open at (3,3) of a 7x7 room: no target touches an obstacle except via walls
    g, s = _state("#######\n#     #\n#     #\n#  1  #\n#     #\n#    2#\n#######\n")
    bot = purestate.agent("tron_wall:order=RLDU")
    d = bot.act(g, None, s, purestate.key(0))
    # every target of (3,3) has 3 free neighbours (it touches only the head): fall back to safe[0]
    assert d.move == U and d.table == (R, L, D, U)
    s2 = g.step(g.step(s, R), U)  # 1 to (3,4); 2 to (4,5)
    d2 = bot.act(g, d.table, s2, purestate.key(1))
    # from (3,4): R -> (3,5) touches the wall: first in the order RLDU
    assert d2.move == R
    # the shuffled order is drawn once from the key and then kept
    shuffled = purestate.agent("tron_wall").act(g, None, s, purestate.key(5))
    assert sorted(shuffled.table) == [U, D, L, R]
    assert shuffled == purestate.agent("tron_wall").act(g, None, s, purestate.key(5))
    with pytest.raises(purestate.SpecError, match="order"):
        purestate.agent("tron_wall:order=UUDL")


def test_tron_greedy_takes_the_bigger_room() -> None:
    # player 1 at a fork: left leads to 1 cell, right to 4
    g, s = _state("#########\n## 1    #\n#########\n#2      #\n#########\n")
    assert purestate.agent("tron_greedy").act(g, None, s, purestate.key(0)).move == R


def test_bots_refuse_other_games() -> None:
    ttt = purestate.make("tictactoe")
    for name in ("tron_random", "tron_wall", "tron_greedy"):
        # the one Tron check (heuristics.tron.as_tron) the evaluations make too: one line
        with pytest.raises(purestate.SpecError, match=rf"^{name} is made for tron, not tictactoe$"):
            purestate.agent(name).initial_table(ttt, 0)


def test_bot_strength_order_on_small_series() -> None:
    bots = ("tron_greedy", "tron_random")
    setup = series.Setup("empty_room", "alternating", "map", bots, None, 3)
    res = [series.run_game(setup, i) for i in range(40)]
    assert sum(r.winner == 0 for r in res) >= 26  # greedy beats random (about 85%)
    setup = series.Setup(
        "diagonal_blocks",
        "alternating",
        "map",
        ("alphabeta:depth=2,eval=voronoi", "tron_random"),
        None,
        3,
    )
    res = [series.run_game(setup, i) for i in range(10)]
    assert sum(r.winner == 0 for r in res) >= 8


def test_linear_weights_are_injected() -> None:
    ab = purestate.agent("alphabeta:depth=1,eval=linear")
    w = tuple(float(i) for i in range(len(H.TERMS) + 1))
    weighted = with_linear_weights(ab, w)
    assert weighted.spec == ab.spec
    g = tron()
    s = g.initial()
    assert weighted.evaluation()(g, s) == H.linear_evaluation(w)(g, s)
    assert with_linear_weights(purestate.agent("tron_wall"), w) == purestate.agent("tron_wall")
    with pytest.raises(ValueError, match="linear weights"):
        H.linear_evaluation((1.0,))


# ---- the runner and the learning commands -------------------------------------------------------


def _cli(*args: str) -> Any:
    from typer.testing import CliRunner

    from purestate.cli import app

    return CliRunner().invoke(app, list(args))


def test_run_prints_the_gamerunner_lines_with_both_spellings() -> None:
    a = _cli("tron", "run", "-bots", "greedy", "random", "-map", "small_room", "-multi_test", "6",
             "-no_image", "--seed", "4")  # fmt: skip
    assert a.exit_code == 0, a.output
    assert "out of 6 times" in a.output and "First (blue) won" in a.output
    assert "first (blue) = tron_greedy:" in a.output and "layer 1" not in a.output
    assert "95% CI" in a.output and "first mover won" in a.output
    b = _cli("tron", "run", "--bots", "greedy", "random", "--map", "small_room", "--multi-test",
             "6", "--no-image", "--seed", "4")  # fmt: skip
    assert b.output == a.output


def test_run_json_is_the_same_for_any_number_of_jobs() -> None:
    args = ["tron", "run", "--bots", "wall", "random", "--map", "small_room", "--multi-test", "8",
            "--no-image", "--seed", "9", "--json", "--start", "mirror"]  # fmt: skip
    one = json.loads(_cli(*args).output)
    two = json.loads(_cli(*args, "--jobs", "2").output)
    assert one == two
    assert one["games"] == 8 and len(one["winners"]) == 8
    p1 = one["player1"]
    assert p1["wins"] + p1["draws"] + p1["losses"] == 8 and p1["draws"] == 0
    low, high = one["player1_ci95"]
    assert low <= one["player1_win_rate"] <= high


def test_run_names_the_bots_by_their_canonical_specs_as_records_do(tmp_path: Any) -> None:
    # typed with the options in another order: named as the agent writes its spec, everywhere
    typed = "alphabeta:eval=voronoi,depth=1"
    args = ["tron", "run", "--bots", typed, "wall", "--map", "small_room", "--no-image",
            "--seed", "2"]  # fmt: skip
    canonical = purestate.agent(typed).spec
    assert canonical != typed
    summary = json.loads(_cli(*args, "--json").output)
    assert summary["bots"] == [canonical, "tron_wall"]
    text = _cli(*args, "--out", str(tmp_path / "r")).output
    assert f"first (blue) = {canonical}:" in text and typed not in text
    [record] = [json.loads(line) for line in (tmp_path / "r" / "games.jsonl").open()]
    assert record["players"] == summary["bots"]


def test_run_draws_a_game_and_saves_pictures(tmp_path: Any) -> None:
    r = _cli("tron", "run", "--bots", "random", "random", "--map", "small_room", "--seed", "1",
             "--save", str(tmp_path / "g.png"), "--delay", "0")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "#######" in r.output and (tmp_path / "g.png").stat().st_size > 0
    r = _cli("tron", "run", "--bots", "random", "random", "--map", "small_room", "--seed", "1",
             "--no-image", "--save", str(tmp_path / "g.gif"))  # fmt: skip
    assert r.exit_code == 0, r.output
    assert (tmp_path / "g.gif").read_bytes()[:3] == b"GIF"


def test_run_refuses_bad_input_in_one_line(tmp_path: Any) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("#####\n#1 ?#\n#  2#\n#####\n")
    for args, message in (
        (("--map", "nowhere"), "unknown Tron map"),
        (("--map", str(bad)), "line 2, column 4"),
        (("--bots", "wall", "nobot"), "unknown agent"),
    ):
        r = _cli("tron", "run", "--no-image", "--seed", "1", *args)
        assert r.exit_code == 2, r.output
        assert message in r.output and "Traceback" not in r.output


def test_dataset_fit_and_weights_file(tmp_path: Any) -> None:
    data = tmp_path / "ds" / "positions.jsonl"  # --out is a folder
    r = _cli("tron", "dataset", "--out", str(data.parent), "--pair", "greedy wall", "--pair",
             "random greedy", "--map", "small_room", "--games", "12", "--seed", "2")  # fmt: skip
    assert r.exit_code == 0, r.output
    lines = data.read_text().splitlines()
    rec = json.loads(lines[0])
    assert set(rec["features"]) == set(H.FEATURES) and rec["outcome"] in (-1, 1)
    weights = tmp_path / "fit" / "weights.json"
    r = _cli("tron", "fit", str(data), "--out", str(weights.parent), "--all-positions", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["test_positions"] > 0 and out["test_mse"] >= 0
    w = read_weights(weights)
    assert len(w) == len(H.TERMS) + 1
    r = _cli("tron", "run", "--bots", "alphabeta:depth=1,eval=linear", "random", "--map",
             "small_room", "--no-image", "--seed", "1", "--weights", str(weights))  # fmt: skip
    assert r.exit_code == 0, r.output
    r = _cli("tron", "fit", str(data), "--out", str(weights.parent), "--force", "--terms",
             "voronoi_dn,mover")  # fmt: skip
    assert r.exit_code == 0, r.output
    w = read_weights(weights)
    assert [i for i, x in enumerate(w) if x != 0] == [1, 7]  # bias first, then the terms
    r = _cli("tron", "fit", str(data), "--terms", "nonsense")
    assert r.exit_code == 2 and "unknown terms" in r.output
    (tmp_path / "other.json").write_text('{"format": "something/1"}')
    r = _cli("tron", "run", "--no-image", "--weights", str(tmp_path / "other.json"))
    assert r.exit_code == 2 and "not a Tron weights file" in r.output
    r = _cli("tron", "fit", str(tmp_path / "other.json"))
    assert r.exit_code == 2 and "not a Tron position record" in r.output
    # a data set from before the chamber feature changed is refused, not silently mixed in
    old = tmp_path / "old.jsonl"
    stale = {k: v for k, v in rec.items() if k != "features_version"}
    old.write_text(lines[0] + "\n" + json.dumps(stale) + "\n")
    r = _cli("tron", "fit", str(old))
    assert r.exit_code == 2 and "line 2: features of version 1" in r.output


def test_maps_command_lists_the_shipped_maps() -> None:
    r = _cli("tron", "maps", "--json")
    assert r.exit_code == 0
    names = {row["name"] for row in json.loads(r.output)}
    assert {"empty_room", "center_block", "diagonal_blocks"} <= names


def test_fill_search_reaches_the_parity_bound_on_whole_rooms() -> None:
    for name in ("divider", "empty_room", "center_block", "diagonal_blocks"):
        g = tron(map=name)
        s = g.initial()
        t = g.topology
        region = H.flood(H.free_cells(s, t) & ~(1 << s.head1), 1 << s.head0, t.cols)
        assert H.fill_length(region, s.head0, t) == H.parity_bound(region, s.head0, t.even)


def test_divider_is_a_pure_filling_race_won_by_the_second_mover() -> None:
    # two halves of 104 cells: both depth-2 Voronoi bots fill theirs completely, so the first
    # mover runs out first (104 safe moves, then a crash) and the second mover wins
    ab = purestate.agent("alphabeta:depth=2,eval=voronoi")
    for first in (0, 1):
        g = tron(map="divider", first_player=first)
        ep = purestate.play(g, (ab, ab), (None, None), purestate.key(first))
        assert ep.outcome(1 - first) == 1
        assert ep.movers.count(first) == 105 and ep.movers.count(1 - first) == 104


# ---- big maps: no recursion that grows with the map, a size limit, bounded counts ---------------


def _empty_map_text(rows: int, cols: int) -> str:
    """An empty room with the players in opposite corners (CS1410 format)."""
    inner = [list("#" + " " * (cols - 2) + "#") for _ in range(rows - 2)]
    inner[0][1] = "1"
    inner[-1][-2] = "2"
    return "\n".join(["#" * cols, *("".join(r) for r in inner), "#" * cols]) + "\n"


def _serpentine(n: int) -> str:
    """An n×n map whose free cells are one corridor winding from row 1 to row n - 2."""
    rows = []
    for r in range(n):
        if r in (0, n - 1):
            rows.append("#" * n)
        elif r % 2:
            rows.append("#" + " " * (n - 2) + "#")
        else:
            gap = n - 2 if r % 4 == 2 else 1
            rows.append("".join(" " if c == gap else "#" for c in range(n)))
    first = list(rows[1])
    first[1] = "1"
    rows[1] = "".join(first)
    last = list(rows[n - 2])
    last[n - 2 if (n - 2) % 4 == 1 else 1] = "2"
    rows[n - 2] = "".join(last)
    return "\n".join(rows) + "\n"


def test_a_corridor_longer_than_the_recursion_limit_is_walked_to_its_end() -> None:
    # 1,797 cells in a row, every one but the last a cut vertex: the chamber tree and the fill
    # search are as deep as the corridor is long (they used to raise RecursionError)
    g = tron(map=parse_map(_serpentine(61), "serpentine"))
    s = g.initial()
    t = g.topology
    region = H.flood(H.free_cells(s, t), 1 << s.head0, t.cols)
    assert region.bit_count() == 1797
    assert H.articulation_points(region, s.head0, t).bit_count() == 1796
    assert H.chamber_value(region, s.head0, region, 0, t) == 1797
    assert H.fill_length(region, s.head0, t) == 1797


def test_alphabeta_searches_deeper_than_the_recursion_limit() -> None:
    # both cycles in one corridor of 1,797 cells: each has one safe move, so iterative deepening
    # soon reaches depths that the recursive negamax (two frames a ply) could not
    from purestate.agents.alphabeta import search

    g = tron(map=parse_map(_serpentine(61), "serpentine"))
    value, move, stats = search(g, g.initial(), 600)
    assert stats.depth == 600 and not stats.proven
    assert move == R and value == 0.0


@pytest.mark.parametrize("evaluation", ["voronoi", "chamber", "linear"])
def test_search_bots_play_a_35x35_game_to_the_end(tmp_path: Any, evaluation: str) -> None:
    # the players are soon separated on this map, and the endgame fill of a region of over a
    # thousand cells raised RecursionError with every evaluation (ta2, chamber, student)
    path = tmp_path / "empty35.txt"
    path.write_text(_empty_map_text(35, 35))
    r = _cli("tron", "run", "--bots", f"alphabeta:depth=1,eval={evaluation}", "greedy",
             "--map", str(path), "--seed", "1", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["games"] == 1 and out["winners"] == [1]


def test_a_200x200_map_is_allowed_and_played_to_the_end(tmp_path: Any) -> None:
    # player 2 starts in a pocket of 4 cells: separated from the first move, player 1's search
    # measures its fill of 39,000 cells at every leaf (RecursionError before)
    rows = [list(r) for r in _empty_map_text(200, 200).splitlines()]
    rows[197][194:] = "######"
    rows[198][194] = "#"
    path = tmp_path / "pocket200.txt"
    path.write_text("\n".join("".join(r) for r in rows) + "\n")
    m = load_map(str(path))
    assert (m.rows, m.cols) == (200, 200) and m.free.bit_count() == 198 * 198 - 6
    # a board this big has more decimal digits than Python prints: values show it in hex
    assert repr(tron(map=m).initial()).startswith("State(blocked=0x")
    r = _cli("tron", "run", "--bots", "alphabeta:depth=1,eval=voronoi", "greedy", "--map",
             str(path), "--seed", "1", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["winners"] == [1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_empty_map_text(5, 201), "line 1: its first row has 201 cells"),
        (_empty_map_text(201, 5), "line 201: more than 200 rows"),
        ("\n\n" + _empty_map_text(250, 4), "line 203: more than 200 rows"),
        ("201 3\n" + "#" * 201 + "\n", "line 1: the header says 201×3"),
        ("3 999\n###\n", "line 1: the header says 3×999"),
    ],
)
def test_maps_past_the_size_limit_are_refused_in_one_line(
    tmp_path: Any, text: str, message: str
) -> None:
    path = tmp_path / "huge.txt"
    path.write_text(text)
    with pytest.raises(MapError, match="maps are limited to 200×200 cells"):
        parse_map(text, "huge")
    r = _cli("tron", "run", "--map", str(path), "--no-image", "--seed", "1")
    assert r.exit_code == 2, r.output
    assert r.output.count("\n") == 1 and "Traceback" not in r.output
    assert f"{path}: map 'huge', {message}; maps are limited to 200×200 cells" in r.output


def test_a_huge_map_file_is_refused_without_being_read_whole(tmp_path: Any) -> None:
    from purestate.games.tron.maps import MAX_MAP_FILE_BYTES

    path = tmp_path / "empty2000.txt"
    path.write_text(_empty_map_text(2000, 2000))
    blank = tmp_path / "blank.txt"
    blank.write_text(" \n" * MAX_MAP_FILE_BYTES)
    for p, message in (
        (path, "map 'empty2000', line 1: its first row has 2000 cells; maps are limited"),
        (blank, f"more than {MAX_MAP_FILE_BYTES:,} bytes, more than any map within the size"),
    ):
        r = _cli("tron", "run", "--map", str(p), "--no-image", "--seed", "1")
        assert r.exit_code == 2, r.output
        assert r.output.count("\n") == 1 and "Traceback" not in r.output
        assert f"{p}: {message}" in r.output


def test_a_map_value_past_the_size_limit_is_refused() -> None:
    from purestate.games.tron.maps import Map, MapTooBig

    with pytest.raises(MapTooBig, match="the map is 3×201; maps are limited to 200×200"):
        Map("wide", 3, 201, 0, 0, (0, 1))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("run", "-multi_test", str(10**23)), "'--multi-test' / '-multi_test'"),
        (("run", "--jobs", str(10**23)), "'--jobs'"),
        (("run", "--delay", "1e23"), "'--delay'"),
        (("run", "--delay", "nan"), "'--delay'"),
        (("dataset", "--games", str(10**23)), "'--games'"),
        (("dataset", "--every", str(10**23)), "'--every'"),
        (("dataset", "--jobs", str(10**23)), "'--jobs'"),
        (("dataset", "--games", "5000", "--seed", "1"), "more than 10,000 games in one data set"),
    ],
    ids=[
        "run-multi_test",
        "run-jobs",
        "run-delay",
        "run-delay-nan",
        "dataset-games",
        "dataset-every",
        "dataset-jobs",
        "dataset-total",
    ],
)
def test_absurd_counts_are_refused_before_anything_is_allocated(
    tmp_path: Any, args: tuple[str, ...], message: str
) -> None:
    r = _cli("tron", *args, "--no-image" if args[0] == "run" else "--out",
             *(() if args[0] == "run" else (str(tmp_path / "d.jsonl"),)))  # fmt: skip
    assert r.exit_code == 2, r.output
    assert r.output.count("\n") == 1 and "Traceback" not in r.output
    assert message in r.output
    assert not (tmp_path / "d.jsonl").exists()


def test_impossible_hand_built_states_are_refused_in_one_line() -> None:
    game = Tron(map="empty_room")
    s = game.initial()
    with pytest.raises(IllegalMove, match="both heads on one cell"):  # was accepted
        State(s.blocked, s.head0, s.head0, 0)
    wall = State(s.blocked, 0, s.head1, 0)  # cell 0 is a wall: step said "negative shift count"
    for use in (game.check, game.render, game.encode):
        with pytest.raises(IllegalMove, match="not a tron position: a head on a wall"):
            use(wall)
    with pytest.raises(IllegalMove, match=r"pending must be -1 or a move 0-3 \(got 7\)"):
        State(s.blocked, s.head0, s.head1, 0, 7)  # encode raised IndexError


def test_decoding_a_head_on_a_barrier_is_a_parse_error() -> None:
    game = Tron(map="joust")  # the one shipped map with barriers
    text = game.encode(game.initial())
    board, rest = text.split(";", 1)
    barrier = next(i for i in range(game.board.size) if game.board.barriers >> i & 1)
    cells = list(board.replace("/", ""))
    head = cells.index("1")
    cells[head], cells[barrier] = "x", "1"
    rows = ["".join(cells[r * game.board.cols : (r + 1) * game.board.cols])
            for r in range(game.board.rows)]  # fmt: skip
    with pytest.raises(ParseError, match="a head on a wall or barrier"):
        game.decode("/".join(rows) + ";" + rest)
