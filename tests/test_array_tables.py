"""Array table files (``.npz``: ``.npy`` arrays and a JSON manifest): a saved table loads equal
and saves to the same bytes; every hostile or broken archive is refused on one line naming the
file, never unpickled, never written over; a run whose learner keeps arrays is killed at any write
and resumes to the uninterrupted run's bytes. The learner is ``tests/counting_agent.py``'s
``counts`` (numpy only, no JAX)."""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import os
import struct
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient
from tests.counting_agent import FORMAT, Counts, CountsTable, register
from tests.kills import Killed, files, invoke, kill_everywhere
from typer.testing import Result

import purestate
from purestate.core.hooks import array_table_of
from purestate.core.keys import key
from purestate.io import array_tables
from purestate.io.array_tables import ARCHIVE, MANIFEST, is_archive
from purestate.io.files import FileFormatError
from purestate.io.tables import (
    load_table,
    load_table_agent,
    save_table,
    table_bytes,
    table_game,
    table_suffix,
)
from purestate.web.app import create_app, table_files

TTT = purestate.make("tictactoe")
AGENT = Counts()


def _trained(games: int = 30) -> CountsTable:
    t0 = AGENT.initial_table(TTT, 0)
    steps = purestate.train(
        TTT, (AGENT, AGENT), (t0, t0), key(3), learning=(True, True), shared=True
    )
    table: CountsTable = list(itertools.islice(steps, games))[-1].tables[0]
    return table


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "table.npz"
    save_table(path, TTT, AGENT, _trained(), 0, 30)
    return path


def one_line(e: pytest.ExceptionInfo[FileFormatError], path: Path) -> str:
    text = str(e.value)
    assert "\n" not in text and text.startswith(str(path)), text
    return text


def one_line_error(r: Result) -> str:
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), r.output
    return lines[0]


# --- the hook and the round trip -------------------------------------------------------------


def test_the_hook_is_found_only_on_a_learner_of_arrays() -> None:
    assert array_table_of(AGENT) is AGENT
    for spec in ("menace", "qlearning", "random", "mcts"):
        assert array_table_of(purestate.agent(spec)) is None
    assert table_suffix(AGENT) == ".npz"
    assert table_suffix(purestate.agent("menace")) == ".json"


def test_a_saved_table_loads_equal_and_saves_to_the_same_bytes(saved: Path) -> None:
    table = _trained()
    loaded = load_table(saved, TTT, AGENT)
    assert (loaded.table, loaded.seat, loaded.games, loaded.agent) == (table, 0, 30, "counts")
    # both seats learned into the one table, and something was learned
    assert table.seen == 60 and table.plays.sum() > 0
    again = saved.parent / "again.npz"
    save_table(again, TTT, AGENT, loaded.table, loaded.seat, loaded.games)
    assert again.read_bytes() == saved.read_bytes()
    # the arrays handed to the agent are read-only: a table is a value
    assert not loaded.table.plays.flags.writeable
    # the bytes are the table's value's, however its arrays are laid out in memory
    flipped = CountsTable(table.plays.astype(">i8"), np.asfortranarray(table.returns), table.seen)
    assert table_bytes(TTT, AGENT, flipped, 0, 30) == saved.read_bytes()


def test_the_manifest_holds_the_envelope_the_meta_and_a_digest_per_array(saved: Path) -> None:
    with zipfile.ZipFile(saved) as z:
        names = [i.filename for i in z.infolist()]
        assert names == [MANIFEST, "plays.npy", "value/returns.npy"]
        assert {i.compress_type for i in z.infolist()} == {zipfile.ZIP_STORED}
        assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        manifest = json.loads(z.read(MANIFEST))
    assert manifest["format"] == FORMAT and manifest["archive"] == ARCHIVE
    assert (manifest["game"], manifest["game_spec"]) == ("tictactoe", "tictactoe")
    assert (manifest["agent"], manifest["seat"], manifest["games"]) == ("counts", 0, 30)
    assert manifest["meta"] == {"moves": 9, "seen": 60}
    table = _trained()
    assert manifest["arrays"] == [
        {"name": "plays", "dtype": "<i8", "shape": [9], "sha256": _sha(table.plays)},
        {"name": "value/returns", "dtype": "<f8", "shape": [9], "sha256": _sha(table.returns)},
    ]
    # numpy reads it too, without unpickling anything
    with np.load(saved, allow_pickle=False) as z:
        assert np.array_equal(z["plays"], table.plays)
        assert np.array_equal(z["value/returns"], table.returns)
    assert table_game(saved) == "tictactoe"


def _sha(a: np.ndarray[Any, Any]) -> str:
    return hashlib.sha256(a.astype(a.dtype.newbyteorder("<")).tobytes()).hexdigest()


# --- hostile and broken archives --------------------------------------------------------------

Entries = list[tuple[str, bytes]]


def _parts(path: Path) -> tuple[dict[str, Any], Entries]:
    with zipfile.ZipFile(path) as z:
        manifest = json.loads(z.read(MANIFEST))
        entries = [(i.filename, z.read(i)) for i in z.infolist() if i.filename != MANIFEST]
    return manifest, entries


def _zip(
    manifest: Any, entries: Entries, how: int = zipfile.ZIP_STORED, first: bool = True
) -> bytes:
    """An archive of ``manifest`` (JSON, or bytes as they are) and ``entries``, in that order."""
    text = manifest if isinstance(manifest, bytes) else json.dumps(manifest).encode()
    out = io.BytesIO()
    head = [(MANIFEST, text)]
    with warnings.catch_warnings(), zipfile.ZipFile(out, "w", how) as z:
        warnings.simplefilter("ignore")  # a repeated name, on purpose
        for name, data in (head + entries) if first else (entries + head):
            z.writestr(name, data)
    return out.getvalue()


def _npy(a: Any, allow_pickle: bool = False) -> bytes:
    out = io.BytesIO()
    np.save(out, a, allow_pickle=allow_pickle)
    return out.getvalue()


UNPICKLED: list[bool] = []


def _unpickled() -> object:
    UNPICKLED.append(True)
    return object()


class Trap:
    """An object that records being unpickled."""

    def __reduce__(self) -> tuple[Callable[[], object], tuple[()]]:
        return _unpickled, ()


def _array_meta(m: dict[str, Any], i: int, **changes: Any) -> dict[str, Any]:
    arrays = [dict(a) for a in m["arrays"]]
    arrays[i].update(changes)
    return {**m, "arrays": arrays}


Case = Callable[[dict[str, Any], Entries], bytes]

CASES: dict[str, tuple[Case, str]] = {
    "an entry with ../": (
        lambda m, e: _zip(m, [*e, ("../evil.npy", e[0][1])]),
        "holds an entry '../evil.npy' that its manifest.json does not name",
    ),
    "an absolute entry": (
        lambda m, e: _zip(m, [*e, ("/tmp/evil.npy", e[0][1])]),
        "does not name",
    ),
    "a name with ..": (
        lambda m, e: _zip(_array_meta(m, 0, name="../plays"), [("../plays.npy", e[0][1]), e[1]]),
        "'../plays' is not an array name",
    ),
    "a pickled object array named as such": (
        lambda m, e: _zip(
            _array_meta(m, 0, dtype="|O", shape=[1]),
            [("plays.npy", _npy(np.array([Trap()], dtype=object), True)), e[1]],
        ),
        "has dtype '|O'",
    ),
    "a pickled object array under a number's dtype": (
        lambda m, e: _zip(
            m, [("plays.npy", _npy(np.array([Trap()] * 9, dtype=object), True)), e[1]]
        ),
        "its header says |O (9,), its manifest <i8 (9,)",
    ),
    "a shape the manifest does not give": (
        lambda m, e: _zip(_array_meta(m, 0, shape=[3, 3]), e),
        "its header says <i8 (9,), its manifest <i8 (3, 3)",
    ),
    "a dtype the manifest does not give": (
        lambda m, e: _zip(m, [("plays.npy", _npy(np.zeros(9, dtype=np.int32))), e[1]]),
        "its header says <i4 (9,)",
    ),
    "a digest that does not match": (
        lambda m, e: _zip(_array_meta(m, 1, sha256="0" * 64), e),
        "array 'value/returns': its values do not have the SHA-256 its manifest gives",
    ),
    "data cut short": (
        lambda m, e: _zip(m, [(e[0][0], e[0][1][:-8]), e[1]]),
        "bytes of data, but <i8 (9,) needs 72",
    ),
    "a missing entry": (lambda m, e: _zip(m, e[:1]), "lacks the entry 'value/returns.npy'"),
    "entries out of order": (lambda m, e: _zip(m, e[::-1]), "not in the manifest.json's order"),
    "a repeated entry": (lambda m, e: _zip(m, [e[0], *e]), "repeated"),
    "the manifest not first": (lambda m, e: _zip(m, e, first=False), "first entry is not"),
    "compressed entries": (
        lambda m, e: _zip(m, e, zipfile.ZIP_DEFLATED),
        "entry 'manifest.json' is compressed or encrypted",
    ),
    "another archive layout": (lambda m, e: _zip({**m, "archive": "x/2"}, e), "says archive 'x/2'"),
    "no meta": (lambda m, e: _zip({k: v for k, v in m.items() if k != "meta"}, e), "no 'meta'"),
    "a manifest that is a list": (lambda m, e: _zip([m], e), "is not a JSON object"),
    "a manifest that is not JSON": (
        lambda m, e: _zip(json.dumps(m).replace('"archive"', "'archive'").encode(), e),
        "not valid JSON",
    ),
    "another agent's format": (
        lambda m, e: _zip({**m, "format": "purestate.alphazero/1"}, e),
        "a 'purestate.alphazero/1' table, but 'counts' needs 'purestate.test_counts/1'",
    ),
    "a newer version": (
        lambda m, e: _zip({**m, "format": "purestate.test_counts/2"}, e),
        "format version 2 is not supported (need 1)",
    ),
    "another game": (
        lambda m, e: _zip({**m, "game": "connect_four"}, e),
        "a table for 'connect_four', not for 'tictactoe'",
    ),
    "a bad seat": (lambda m, e: _zip({**m, "seat": 7}, e), "bad 'seat' or 'games' field"),
    "meta the agent refuses": (
        lambda m, e: _zip({**m, "meta": {**m["meta"], "moves": 10}}, e),
        "a table of 10 moves, not 9",
    ),
    "arrays the agent refuses": (
        lambda m, e: _zip(
            _array_meta(m, 0, sha256=_sha(-np.ones(9, dtype=np.int64))),
            [("plays.npy", _npy(-np.ones(9, dtype=np.int64))), e[1]],
        ),
        "plays must be 9 counts",
    ),
    "a cut-short archive": (lambda m, e: _zip(m, e)[:-100], "no end record"),
    "half an archive": (lambda m, e: _zip(m, e)[: len(_zip(m, e)) // 2], "no end record"),
    "a zip comment": (lambda m, e: _comment(_zip(m, e)), "cut short, or a comment added?"),
    "garbage after PK": (lambda m, e: b"PK" + bytes(range(256)) * 4, "no end record"),
    "not a zip at all": (lambda m, e: b'{"format": "purestate.test_counts/1"}', "not an array"),
    "an entry claiming to be huge": (lambda m, e: _huge(_zip(m, e)), "more than"),
}


def _comment(data: bytes) -> bytes:
    out = io.BytesIO(data)
    with zipfile.ZipFile(out, "a") as z:
        z.comment = b"hello"
    return out.getvalue()


def _huge(data: bytes) -> bytes:
    """The archive with its first array's sizes in the central directory set to 2 GiB - 1."""
    at = data.index(b"PK\x01\x02", data.index(b"PK\x01\x02") + 4)  # the second directory entry
    return data[: at + 20] + struct.pack("<2L", 2**31 - 1, 2**31 - 1) + data[at + 28 :]


@pytest.mark.parametrize("case", CASES)
def test_a_hostile_or_broken_archive_is_refused_on_one_line(
    saved: Path, tmp_path: Path, case: str
) -> None:
    make, says = CASES[case]
    manifest, entries = _parts(saved)
    bad = tmp_path / "bad.npz"
    bad.write_bytes(make(manifest, entries))
    before = bad.read_bytes()
    UNPICKLED.clear()
    with pytest.raises(FileFormatError) as e:
        load_table(bad, TTT, AGENT)
    assert says in one_line(e, bad)
    assert UNPICKLED == []
    assert bad.read_bytes() == before


def test_the_untouched_parts_load(saved: Path, tmp_path: Path) -> None:
    """The cases above refuse for what they change: rebuilt unchanged, the archive loads."""
    manifest, entries = _parts(saved)
    again = tmp_path / "again.npz"
    again.write_bytes(_zip(manifest, entries))
    assert load_table(again, TTT, AGENT).table == _trained()


def test_sizes_and_counts_are_capped_before_reading(
    saved: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(array_tables, "MAX_ARRAYS", 1)
    with pytest.raises(FileFormatError) as e:
        load_table(saved, TTT, AGENT)
    assert "3 entries, more than the 2 a table file may hold" in one_line(e, saved)
    monkeypatch.setattr(array_tables, "MAX_ARRAYS", 10)
    monkeypatch.setattr(array_tables, "MAX_MANIFEST_BYTES", 100)
    with pytest.raises(FileFormatError) as e:
        load_table(saved, TTT, AGENT)
    assert "entry 'manifest.json' says" in one_line(e, saved)
    monkeypatch.setattr("purestate.io.tables.MAX_TABLE_BYTES", 1000)
    with pytest.raises(FileFormatError) as e:
        load_table(saved, TTT, AGENT)
    assert "larger than the 1,000" in one_line(e, saved)


def test_the_other_kind_of_table_is_refused_by_each_agent(saved: Path, tmp_path: Path) -> None:
    menace = purestate.agent("menace")
    with pytest.raises(FileFormatError) as e:
        load_table(saved, TTT, menace)
    says = f"an array table (.npz archive), but {menace.spec!r} saves JSON tables"
    assert says in one_line(e, saved)
    json_table = tmp_path / "menace.json"
    save_table(json_table, TTT, menace, menace.initial_table(TTT, 0), 0, 0)
    with pytest.raises(FileFormatError) as e:
        load_table(json_table, TTT, AGENT)
    assert "not an array table (.npz archive), which 'counts' saves" in one_line(e, json_table)
    # and a file name that says the other kind is refused before anything is written
    cases = ((tmp_path / "t.json", AGENT, _trained()),
             (tmp_path / "m.npz", menace, menace.initial_table(TTT, 0)))  # fmt: skip
    for path, who, table in cases:
        with pytest.raises(FileFormatError) as e:
            save_table(path, TTT, who, table, 0, 0)
        assert "give a file name ending in" in one_line(e, path)
        assert not path.exists()


def test_a_link_is_followed_only_for_a_file_the_user_names(saved: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.npz"
    link.symlink_to(saved)
    assert load_table(link, TTT, AGENT).table == _trained()
    with pytest.raises(FileFormatError) as e:
        load_table(link, TTT, AGENT, follow=False)
    assert "is a symbolic link" in one_line(e, link)


def test_the_agent_the_file_names_reads_it(saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)
    made, loaded = load_table_agent(saved, TTT)
    assert made == AGENT and loaded.table == _trained()


def test_is_archive_tells_the_kinds_apart(saved: Path) -> None:
    assert is_archive(saved.read_bytes())
    assert not is_archive(b'{"format": "purestate.menace/1"}')


# --- the commands ---------------------------------------------------------------------------

RUN = ["selfplay", "--agent", "counts", "--opponent", "self", "--games", "40",
       "--checkpoint", "10", "--seed", "3", "--no-plot"]  # fmt: skip
MIXED = ["selfplay", "--agent", "menace", "--opponent", "counts", "--games", "30",
         "--checkpoint", "10", "--seed", "4", "--no-plot"]  # fmt: skip


def _to(games: int) -> list[str]:
    """``RUN`` with ``games`` as its total."""
    return [str(games) if a == "40" else a for a in RUN]


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A finished 40-game run of ``counts`` against itself."""
    register(monkeypatch)
    folder = tmp_path / "run"
    assert invoke(*RUN, "--out", str(folder)).exit_code == 0
    return folder


def test_a_run_saves_an_array_table_that_the_commands_read(run: Path, tmp_path: Path) -> None:
    assert {"table.npz", "checkpoint.json", "games.jsonl"} <= set(files(run))
    assert not (run / "table.json").exists()
    loaded = load_table(run / "table.npz", TTT, AGENT)
    assert loaded.games == 40 and loaded.table.seen == 80  # both seats learn into one table
    checkpoint = json.loads((run / "checkpoint.json").read_text())
    digest = hashlib.sha256((run / "table.npz").read_bytes()).hexdigest()
    assert checkpoint["files"] == {"table.npz": digest}
    r = invoke("evaluate", "--table", str(run / "table.npz"), "--games", "10", "--json")
    assert r.exit_code == 0, r.output
    # more games on top, then the same total in one go: the same bytes
    r = invoke("selfplay", "--resume", str(run / "table.npz"), "--more", "20")
    assert r.exit_code == 0, r.output
    whole = tmp_path / "whole"
    r = invoke(*_to(60), "--out", str(whole))
    assert r.exit_code == 0, r.output
    assert files(run)["table.npz"] == files(whole)["table.npz"]


def test_commands_refuse_a_bad_array_table_in_one_line_and_leave_it(
    saved: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    register(monkeypatch)
    manifest, entries = _parts(saved)
    bad = tmp_path / "bad.npz"
    bad.write_bytes(_zip(_array_meta(manifest, 0, sha256="0" * 64), entries))
    before = bad.read_bytes()
    for cmd in (["evaluate", "--table", str(bad)], ["play", "--table", str(bad), "--learn"],
                ["analyze", "--table", str(bad)]):  # fmt: skip
        assert "SHA-256" in one_line_error(invoke(*cmd)), cmd
        assert bad.read_bytes() == before
    # a good table, but --save-table names a JSON file: refused before the first game
    line = one_line_error(
        invoke("play", "--table", str(saved), "--learn", "--save-table", str(tmp_path / "x.json"))
    )
    assert "give a file name ending in .npz" in line
    # a table with no positions to judge: analyze says so on one line
    assert "does not say which positions" in one_line_error(
        invoke("analyze", "--table", str(saved))
    )


def test_a_link_as_the_run_folders_table_is_refused(run: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.npz"
    os.replace(run / "table.npz", outside)
    (run / "table.npz").symlink_to(outside)
    before = outside.read_bytes()
    line = one_line_error(invoke(*_to(50), "--resume", str(run)))
    assert "table.npz is a symbolic link" in line
    assert outside.read_bytes() == before


def test_a_run_with_an_edited_array_table_is_refused(run: Path) -> None:
    table = load_table(run / "table.npz", TTT, AGENT).table
    save_table(run / "table.npz", TTT, AGENT, table, 0, 40)  # the same table: the same bytes
    assert invoke(*_to(50), "--resume", str(run)).exit_code == 0
    other = _trained(5)
    save_table(run / "table.npz", TTT, AGENT, other, 0, 50)
    line = one_line_error(invoke(*_to(60), "--resume", str(run)))
    assert "table.npz does not match the checkpoint" in line


def test_the_browser_app_plays_and_reads_a_runs_array_table(run: Path) -> None:
    app = create_app(run.parent)
    client = TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False)
    assert "table:run/table.npz" in table_files(run.parent)
    view = client.post(
        "/api/play", json={"game": "tictactoe", "seat": 1, "opponent": "table:run/table.npz"}
    ).json()
    assert view["opponent"] == "counts" and len(view["moves"]) == 1
    # the run's page asks for the table after its last game: read from table.npz
    table = client.get("/api/runs/run/table/40").json()
    assert (table["agent"], table["games"], table["kind"]) == ("counts", 40, "other")


def test_a_kill_between_the_commit_and_the_tables_move_is_finished_on_resume(
    run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checkpoint names the new table's digest, but table.npz is still the previous one and
    the new one waits under its pending name: resuming moves it in and goes on as if unkilled."""
    real, moves = os.replace, []

    def replace(src: Any, dst: Any) -> None:
        if Path(src).name == ".table.npz.pending.tmp":
            moves.append(src)
            if len(moves) == 2:  # the second checkpoint's table
                raise Killed
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    killed = tmp_path / "killed"
    assert isinstance(invoke(*RUN, "--out", str(killed)).exception, Killed)
    monkeypatch.setattr(os, "replace", real)
    checkpoint = json.loads((killed / "checkpoint.json").read_text())
    pending = (killed / ".table.npz.pending.tmp").read_bytes()
    assert checkpoint["games"] == 20
    assert checkpoint["files"]["table.npz"] == hashlib.sha256(pending).hexdigest()
    assert load_table(killed / "table.npz", TTT, AGENT).games == 10  # the previous checkpoint's
    r = invoke(*RUN, "--resume", str(killed))
    assert r.exit_code == 0, r.output
    assert files(killed) == files(run)


@pytest.mark.parametrize("cmd", [RUN, MIXED], ids=["shared array table", "json and array"])
def test_a_kill_at_any_write_resumes_to_the_uninterrupted_files(
    tmp_path: Path, kill_at: list[int], monkeypatch: pytest.MonkeyPatch, cmd: list[str]
) -> None:
    # every durable write, the pending tables' and their renames after the checkpoint included
    register(monkeypatch)
    writes = kill_everywhere(cmd, tmp_path, kill_at)
    assert writes > 10
    names = set(files(tmp_path / "whole"))
    assert ("table.npz" in names) == (cmd is RUN)
    assert ("opponent_table.npz" in names) == (cmd is MIXED)
