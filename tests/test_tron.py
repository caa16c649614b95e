"""Tron: rules (CS1410 alternating, AI-Challenge simultaneous), maps, bots, heuristics, CLI."""

from __future__ import annotations

from typing import Any

import pytest

import purestate
from purestate.core.game import IllegalMove, ParseError, play_moves
from purestate.games.tron import MOVES, MapError, State, Tron, parse_map
from purestate.games.tron.rules import D, L, R, U
from purestate.io.maps import load_map, shipped_map, shipped_names

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
