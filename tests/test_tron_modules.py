"""Tron's modules: one flood fill, data-set files read and written in io, a CLI of public calls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.test_public_names import private_uses

import purestate
from purestate.games.tron import Tron, grid
from purestate.heuristics import tron as H
from purestate.io.files import FileFormatError
from purestate.io.tron import read_positions, write_positions

CLI = Path(purestate.__file__).parent / "cli"


def tron(**params: Any) -> Tron:
    game = purestate.make("tron", **params)
    assert isinstance(game, Tron)
    return game


# ---- the one flood fill -------------------------------------------------------------------------


def test_the_heuristics_and_the_rules_share_one_flood_fill() -> None:
    assert H.flood is grid.flood
    assert H.neighbours_of is grid.neighbours_of


def test_flood_never_counts_its_seed_cells_even_when_they_are_free() -> None:
    g = tron(map="empty_room")
    s = g.initial()
    t = g.topology
    blocked = H.free_cells(s, t)
    head = 1 << s.head0
    # the head made free: a path out and back would reach it again, yet it is not counted
    region = H.flood(blocked | head, head, t.cols)
    assert not region & head
    assert region == H.flood(blocked, head, t.cols)
    # and the caller that wants the seed ORs it in: the start cell's component of the map
    component = H.flood(g.board.free, 1 << g.board.starts[0], t.cols) | 1 << g.board.starts[0]
    assert component >> g.board.starts[1] & 1


# ---- data-set files -----------------------------------------------------------------------------


def _record(game: int, outcome: int) -> dict[str, Any]:
    return {
        "series": "0:small_room",
        "game": game,
        "ply": 0,
        "position": "x",
        "features": dict.fromkeys(H.FEATURES, 0.25),
        "features_version": H.FEATURES_VERSION,
        "outcome": outcome,
    }


def test_positions_files_round_trip_one_compact_record_a_line(tmp_path: Path) -> None:
    path = tmp_path / "positions.jsonl"
    records = [_record(0, 1), _record(1, -1), _record(2, 0)]
    write_positions(path, records)
    lines = path.read_text().splitlines()
    assert len(lines) == 3 and all(", " not in line and ": " not in line for line in lines)
    assert read_positions(path) == records


@pytest.mark.parametrize(
    ("second", "message"),
    [
        ("[1, 2]", "line 3: not a Tron position record"),
        ('{"features": {}, "outcome": 1, "game": 0}', "line 3: not a Tron position record"),
        (json.dumps({**_record(1, 2)}), "line 3: not a Tron position record"),
        (json.dumps({k: v for k, v in _record(1, 1).items() if k != "game"}), "line 3: not a"),
        (
            json.dumps({k: v for k, v in _record(1, 1).items() if k != "features_version"}),
            "line 3: features of version 1",
        ),
    ],
)
def test_positions_files_refuse_a_bad_record_naming_its_line(
    tmp_path: Path, second: str, message: str
) -> None:
    path = tmp_path / "positions.jsonl"
    path.write_text(json.dumps(_record(0, 1)) + "\n\n" + second + "\n")
    with pytest.raises(FileFormatError, match=message) as e:
        read_positions(path)
    assert str(path) in str(e.value)


def test_a_positions_file_without_positions_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "positions.jsonl"
    path.write_text("\n\n")
    with pytest.raises(FileFormatError, match="no positions"):
        read_positions(path)


# ---- the CLI calls only public functions --------------------------------------------------------


def test_the_tron_cli_calls_only_public_functions_of_other_modules() -> None:
    # the finder sees both spellings, so an empty answer below means something
    source = "from purestate.experiments import tron as series\nseries._agent('x')\n"
    source += "from purestate.cli.common import _clocked\n"
    assert private_uses(source) == ["from purestate.cli.common import _clocked", "series._agent"]
    assert private_uses((CLI / "tron.py").read_text(encoding="utf-8")) == []
