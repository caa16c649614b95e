"""MENACE: the box counts of the reference, bead arithmetic, resignation, files, learning."""

from __future__ import annotations

import json
from collections import Counter
from itertools import islice
from pathlib import Path

import pytest
from pyrsistent import pmap

import purestate
from purestate.agents.menace import Menace, MenaceTable, box_key
from purestate.core.episode import Episode, replay
from purestate.core.keys import key
from purestate.io.files import FileFormatError
from purestate.io.tables import load_table, save_table

GAME = purestate.make("tictactoe")


def stages(spec: str, seat: int) -> dict[int, int]:
    m = purestate.agent(spec)
    assert isinstance(m, Menace)
    return dict(sorted(Counter(b.stage for b in m.boxes_for(GAME, seat)).items()))


def test_michie_has_304_boxes_by_move() -> None:
    assert stages("menace", 0) == {1: 1, 2: 12, 3: 108, 4: 183}
    assert len(purestate.agent("menace").initial_table(GAME, 0).boxes) == 304


def test_forced_boxes_and_second_player_counts() -> None:
    assert sum(stages("menace:include_forced=true", 0).values()) == 338
    assert stages("menace", 1) == {1: 3, 2: 38, 3: 153, 4: 95}


def test_initial_beads_totals() -> None:
    all_moves = purestate.agent("menace").initial_table(GAME, 0)
    dedupe = purestate.agent("menace:symmetric_moves=dedupe").initial_table(GAME, 0)
    assert all_moves.beads == 1917
    assert sum(len(b) for b in all_moves.boxes.values()) == 1182
    assert dedupe.beads == 1720
    assert sum(len(b) for b in dedupe.boxes.values()) == 1087


def test_scroggs_first_box_has_centre_corner_side() -> None:
    t = purestate.agent("menace:preset=scroggs").initial_table(GAME, 0)
    first = t.boxes["........."]
    assert sorted(first.values()) == [8, 8, 8]
    assert {m in (0, 2, 6, 8) for m in first} == {True, False}
    assert 4 in first


def test_beads_only_on_legal_moves_and_by_stage() -> None:
    m = purestate.agent("menace")
    t = m.initial_table(GAME, 0)
    for b in m.boxes_for(GAME, 0):
        state = GAME.decode(b.key)
        assert set(t.boxes[b.key]) == set(GAME.legal(state))
        assert set(t.boxes[b.key].values()) == {(4, 3, 2, 1)[b.stage - 1]}


def test_spec_strings_round_trip() -> None:
    for spec in [
        "menace",
        "menace:preset=scroggs",
        "menace:preset=scroggs,beads=4/3/2/1",
        "menace:incentives=1/0/-1,empty=floor",
        "menace:symmetric_moves=dedupe,include_forced=true,empty=refill",
    ]:
        m = purestate.agent(spec)
        assert purestate.agent(m.spec) == m
    assert purestate.agent("menace:preset=scroggs").beads == (8, 4, 2, 1)
    assert purestate.agent("menace:preset=scroggs,beads=4/3/2/1").beads == (4, 3, 2, 1)


def test_bad_specs_are_refused_clearly() -> None:
    with pytest.raises(purestate.SpecError, match="preset"):
        purestate.agent("menace:preset=gardner")
    with pytest.raises(purestate.SpecError, match="no option 'bead'"):
        purestate.agent("menace:bead=3")
    with pytest.raises(purestate.SpecError, match="empty"):
        purestate.agent("menace:empty=explode")


def _episode(moves: list[int]) -> Episode:
    return replay(GAME, moves)


def test_learn_adds_incentives_to_every_box_used() -> None:
    m = purestate.agent("menace")
    t = m.initial_table(GAME, 0)
    # X: 0, 1, 2 wins across the top row; O: 3, 4
    win = _episode([0, 3, 1, 4, 2])
    t2 = m.learn(GAME, t, win, 0)
    for s, mv, p in zip(win.states, win.moves, win.movers, strict=False):
        if p != 0:
            continue
        k, g = box_key(GAME, s)
        canon = GAME.transform_move(mv, g)
        assert t2.boxes[k][canon] == t.boxes[k][canon] + 3
    lost = m.learn(GAME, t, win, 1) if False else None  # seat 1 has no boxes in this table
    assert lost is None
    # the same game from O's side is a loss for a second-player MENACE
    o_menace = m.initial_table(GAME, 1)
    o2 = m.learn(GAME, o_menace, win, 1)
    changed = [k for k in o_menace.boxes if o_menace.boxes[k] != o2.boxes[k]]
    assert len(changed) == 2
    for k in changed:
        diff = {mv: o2.boxes[k][mv] - o_menace.boxes[k][mv] for mv in o2.boxes[k]}
        assert sorted(diff.values())[0] == -1 and sum(diff.values()) == -1


def test_learn_leaves_its_input_unchanged() -> None:
    m = purestate.agent("menace")
    t = m.initial_table(GAME, 0)
    before = t.boxes
    m.learn(GAME, t, _episode([0, 3, 1, 4, 2]), 0)
    assert t.boxes is before and t == m.initial_table(GAME, 0)


def test_beads_never_go_below_zero_and_floor_keeps_one() -> None:
    lose = _episode([0, 4, 1, 2, 8, 6])  # O completes 2-4-6
    assert lose.returns == (-1.0, 1.0)
    for spec, floor in (("menace", 0), ("menace:empty=floor", 1)):
        m = purestate.agent(spec)
        t = m.initial_table(GAME, 0)
        for _ in range(10):
            t = m.learn(GAME, t, lose, 0)
        assert min(min(b.values()) for b in t.boxes.values()) == floor


def test_empty_box_resigns_and_empty_first_box_refuses() -> None:
    m = purestate.agent("menace")
    t = m.initial_table(GAME, 0)
    empty_first = MenaceTable(0, t.boxes.set(".........", pmap(dict.fromkeys(range(9), 0))))
    rnd = purestate.agent("random")
    ep = purestate.play(GAME, (m, rnd), (empty_first, None), key(1))
    assert ep.resigned == 0 and ep.moves == () and ep.returns == (-1.0, 1.0)
    # refill: the same empty box is played from its initial beads and refilled by learning
    r = purestate.agent("menace:empty=refill")
    ep2 = purestate.play(GAME, (r, rnd), (empty_first, None), key(1))
    assert ep2.resigned is None and len(ep2.moves) >= 5
    t3 = r.learn(GAME, empty_first, ep2, 0)
    delta = {1: 3, 0: 1, -1: -1}[ep2.outcome(0)]
    assert sum(t3.boxes["........."].values()) == 9 * 4 + delta


def test_act_maps_the_drawn_bead_back_through_the_symmetry() -> None:
    m = purestate.agent("menace")
    t = m.initial_table(GAME, 0)
    state = GAME.step(GAME.step(GAME.initial(), 8), 4)  # X corner 8, O centre
    k, g = box_key(GAME, state)
    only = GAME.transform_move(5, g)  # put every bead on the canonical image of square 5
    box = pmap({mv: (7 if mv == only else 0) for mv in t.boxes[k]})
    table = MenaceTable(0, t.boxes.set(k, box))
    for i in range(20):
        assert m.act(GAME, table, state, key(i)).move == 5


def test_same_key_same_game_and_train_prefix() -> None:
    m, rnd = purestate.agent("menace"), purestate.agent("random")
    tables = (m.initial_table(GAME, 0), None)
    run = list(islice(purestate.train(GAME, (m, rnd), tables, key(5)), 60))
    again = list(islice(purestate.train(GAME, (m, rnd), tables, key(5)), 30))
    assert [s.episode for s in run[:30]] == [s.episode for s in again]
    assert run[29].tables == again[29].tables
    resumed = list(islice(purestate.train(GAME, (m, rnd), run[29].tables, key(5), start=30), 30))
    assert [s.episode for s in resumed] == [s.episode for s in run[30:]]
    assert resumed[-1].tables == run[-1].tables


def test_menace_learns_against_random() -> None:
    """Loss rate falls (seed 0; the gap is several times the noise)."""
    m, rnd = purestate.agent("menace"), purestate.agent("random")
    steps = list(
        islice(purestate.train(GAME, (m, rnd), (m.initial_table(GAME, 0), None), key(0)), 3000)
    )
    early = sum(s.episode.outcome(0) < 0 for s in steps[:300]) / 300
    late = sum(s.episode.outcome(0) < 0 for s in steps[-1000:]) / 1000
    assert early > 0.15
    assert late < early - 0.07


def test_menace_plays_menace_with_separate_boxes() -> None:
    m = purestate.agent("menace")
    tables = (m.initial_table(GAME, 0), m.initial_table(GAME, 1))
    steps = list(islice(purestate.train(GAME, (m, m), tables, key(3), learning=(True, True)), 200))
    t0, t1 = steps[-1].tables
    assert t0.seat == 0 and t1.seat == 1
    assert t0 != tables[0] and t1 != tables[1]


def test_table_file_round_trip_and_refusals(tmp_path: Path) -> None:
    m = purestate.agent("menace:preset=scroggs")
    t = m.initial_table(GAME, 0)
    t = m.learn(GAME, t, _episode([0, 3, 1, 4, 2]), 0)
    path = tmp_path / "table.json"
    save_table(path, GAME, m, t, 0, 1)
    loaded = load_table(path, GAME, m)
    assert loaded.table == t and loaded.games == 1 and loaded.seat == 0
    data = json.loads(path.read_text())
    assert data["format"] == "purestate.menace/1" and len(data["boxes"]) == 304
    bad = tmp_path / "bad.json"
    for text, match in [
        ("{not json", "not valid JSON"),
        (json.dumps({**data, "format": "purestate.menace/9"}), "version 9"),
        (json.dumps({**data, "format": "purestate.qlearning/1"}), "needs"),
        (json.dumps({**data, "game": "dots_and_boxes"}), "not for 'tictactoe'"),
        (json.dumps({**data, "boxes": {"XXX......": {"beads": {"3": 1}}}}), "reachable"),
        (json.dumps({**data, "boxes": {".........": {"beads": {"4": -2}}}}), "bead count"),
    ]:
        bad.write_text(text)
        with pytest.raises(FileFormatError, match=match):
            load_table(bad, GAME, m)
        assert bad.read_text() == text
