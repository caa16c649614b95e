"""A run folder is data, never instructions (issue 20): whatever a folder from someone else holds,
a command reads and writes only the folder's own files, refuses what it cannot trust in one line,
and never resumes a run other than the one that was started."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from purestate.cli import app
from purestate.io.files import FileFormatError
from purestate.io.records import append_records, read_records
from purestate.io.selfplay import KERNELS_FILE

runner = CliRunner()

SELFPLAY = ["selfplay", "--games", "40", "--checkpoint", "20", "--seed", "1", "--no-plot"]
SWEEP = ["sweep", "--grid", "menace", "--seeds", "0", "--games", "30", "--block", "10",
         "--checkpoint", "10", "--opponent", "random", "--jobs", "1"]  # fmt: skip
PRECIOUS = b"precious notes\n"


def invoke(*args: str, input: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=input)


def one_line_error(r: Result) -> str:
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), r.output
    return lines[0]


def files(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` (not through links) by relative path, with its bytes."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def results(folder: Path) -> dict[str, bytes]:
    """``files`` but ``kernels.jsonl``, which has a line for each part of a run."""
    return {name: data for name, data in files(folder).items() if name != KERNELS_FILE}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def resume(folder: Path, *more: str) -> Result:
    return invoke("selfplay", "--resume", str(folder), "--no-plot", *(more or ("--more", "10")))


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("saved") / "run"
    r = invoke(*SELFPLAY, "--out", str(out))
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture
def run(saved_run: Path, tmp_path: Path) -> Path:
    """A copy of a finished 40-game selfplay run (checkpointed at 20 and 40)."""
    copy = tmp_path / "run"
    shutil.copytree(saved_run, copy)
    return copy


@pytest.fixture(scope="module")
def saved_sweep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("saved") / "sweep"
    r = invoke(*SWEEP, "--out", str(out))
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture
def sweep_run(saved_sweep: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A copy of a sweep whose one run was killed after its last checkpoint, before its summary,
    and that run's folder."""
    copy = tmp_path / "sweep"
    shutil.copytree(saved_sweep, copy)
    inner = next((copy / "runs").glob("*/seed-0"))
    (inner / "summary.json").unlink()
    return copy, inner


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A file of the user's outside every run folder: it must never change."""
    path = tmp_path / "elsewhere" / "notes.txt"
    path.parent.mkdir()
    path.write_bytes(PRECIOUS)
    return path


def edit_checkpoint(folder: Path, **fields: object) -> None:
    path = folder / "checkpoint.json"
    data = json.loads(path.read_text())
    data.update(fields)
    path.write_text(json.dumps(data))


def log_lines(folder: Path) -> list[dict[str, object]]:
    return [json.loads(x) for x in (folder / "games.jsonl").read_text().splitlines()]


def write_log(folder: Path, records: list[dict[str, object]]) -> None:
    text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    (folder / "games.jsonl").write_text(text)


# --- finding 2: names in a run file are plain names inside the folder ------------------------


@pytest.mark.parametrize("how", ["absolute", "parent", "nested", "empty", "dot", "lock"])
def test_a_checkpoint_naming_a_file_outside_its_folder_is_refused(
    run: Path, outside: Path, how: str
) -> None:
    name = {"absolute": str(outside), "parent": "../elsewhere/notes.txt",
            "nested": "sub/notes.txt", "empty": "", "dot": ".", "lock": ".lock"}[how]  # fmt: skip
    # the pending file a commit would have left for that name, where resuming looks for it
    evil = b"replaced by the folder\n"
    pending = run / f".{name}.pending.tmp"
    pending.parent.mkdir(parents=True, exist_ok=True)
    pending.write_bytes(evil)
    checkpoint = json.loads((run / "checkpoint.json").read_text())
    checkpoint["files"][name] = sha256(evil)
    (run / "checkpoint.json").write_text(json.dumps(checkpoint))
    before = files(run)
    line = one_line_error(resume(run))
    assert "checkpoint.json" in line and "not a plain file name" in line
    assert outside.read_bytes() == PRECIOUS
    assert files(run) == before


@pytest.fixture
def shallow_outside() -> Iterator[Path]:
    """``outside`` one folder below the system's temporary folder: the attack below mirrors the
    file's absolute path as folders inside the run, which must stay within the walk's depth
    limit however deep pytest's own temporary folders are (they are deeper under xdist)."""
    folder = Path(tempfile.mkdtemp())
    path = folder / "notes.txt"
    path.write_bytes(PRECIOUS)
    yield path
    shutil.rmtree(folder)


def test_a_sweep_run_naming_a_file_outside_is_refused(
    sweep_run: tuple[Path, Path], shallow_outside: Path
) -> None:
    outside = shallow_outside
    sweep, inner = sweep_run
    evil = b"replaced by the folder\n"
    pending = inner / f".{outside}.pending.tmp"
    pending.parent.mkdir(parents=True)
    pending.write_bytes(evil)
    checkpoint = json.loads((inner / "checkpoint.json").read_text())
    checkpoint["files"][str(outside)] = sha256(evil)
    (inner / "checkpoint.json").write_text(json.dumps(checkpoint))
    line = one_line_error(invoke(*SWEEP, "--resume", str(sweep)))
    assert "not a plain file name" in line
    assert outside.read_bytes() == PRECIOUS


# --- finding 2: nothing is followed through a link ------------------------------------------


def test_a_lock_that_is_a_link_truncates_nothing(tmp_path: Path, outside: Path) -> None:
    out = tmp_path / "new"
    out.mkdir()
    (out / ".lock").symlink_to(outside)
    line = one_line_error(invoke("selfplay", "--games", "5", "--out", str(out)))
    assert f"{out / '.lock'} is a symbolic link" in line
    assert outside.read_bytes() == PRECIOUS
    (out / ".lock").unlink()
    os.link(outside, out / ".lock")  # another name of the same file: truncating it is the same
    line = one_line_error(invoke("selfplay", "--games", "5", "--out", str(out)))
    assert "hard link" in line
    assert outside.read_bytes() == PRECIOUS


@pytest.mark.parametrize(
    "name",
    ["games.jsonl", "table.json", "checkpoint.json", "run.json", "summary.json", ".lock",
     ".table.json.pending.tmp"],
)  # fmt: skip
@pytest.mark.parametrize("mode", ["resume", "force"])
def test_a_run_folder_holding_a_link_is_refused(
    run: Path, tmp_path: Path, name: str, mode: str
) -> None:
    # the link points to a copy of the file it stands for (plus a line), as a crafted folder would:
    # followed, it would be read as the run's and written over, cut or appended to
    target = tmp_path / "elsewhere" / name
    target.parent.mkdir()
    own = run / name
    target.write_bytes((own.read_bytes() if own.exists() else b"") + b"more\n")
    own.unlink(missing_ok=True)
    own.symlink_to(target)
    before = target.read_bytes()
    cmd = resume(run) if mode == "resume" else invoke(*SELFPLAY, "--out", str(run), "--force")
    line = one_line_error(cmd)
    assert f"{own} is a symbolic link" in line
    assert target.read_bytes() == before
    assert own.is_symlink()


def test_a_linked_folder_inside_a_sweep_is_refused(
    sweep_run: tuple[Path, Path], tmp_path: Path
) -> None:
    sweep, inner = sweep_run
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(inner, elsewhere)
    before = files(elsewhere)
    shutil.rmtree(inner)
    inner.symlink_to(elsewhere, target_is_directory=True)
    line = one_line_error(invoke(*SWEEP, "--resume", str(sweep)))
    assert f"{inner} is a symbolic link" in line
    assert files(elsewhere) == before


def test_a_hard_linked_log_is_refused(run: Path, tmp_path: Path) -> None:
    other = tmp_path / "other-run-games.jsonl"
    os.link(run / "games.jsonl", other)
    before = other.read_bytes()
    line = one_line_error(resume(run))
    assert f"{run / 'games.jsonl'} has other names (a hard link)" in line
    assert other.read_bytes() == before


def test_a_pipe_in_a_run_folder_is_refused_not_waited_on(run: Path) -> None:
    (run / "games.jsonl").unlink()
    os.mkfifo(run / "games.jsonl")
    cmd = [sys.executable, "-m", "purestate", "selfplay", "--resume", str(run), "--more", "5"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "is not a regular file" in done.stderr and "Traceback" not in done.stderr


# --- findings 8 and 9: an edited log is refused, naming the file and the line ----------------


def _other_result(records: list[dict[str, object]], i: int) -> dict[str, object]:
    return next(r for r in records if r["result"] != records[i]["result"])


@pytest.mark.parametrize("edit", ["result", "result and returns", "moves", "banana"])
def test_an_edited_record_is_refused_naming_its_line(run: Path, edit: str) -> None:
    records = log_lines(run)
    r = records[4]
    if edit == "moves":
        r["moves"] = [r["moves"][0], *r["moves"]][: len(r["moves"])]  # a square played twice
    elif edit == "banana":
        r["result"] = "banana"
    else:
        other = _other_result(records, 4)
        r["result"] = other["result"]
        if edit == "result and returns":
            r["returns"] = other["returns"]
    write_log(run, records)
    before = files(run)
    line = one_line_error(resume(run))
    assert f"{run / 'games.jsonl'}, line 5:" in line
    assert files(run) == before


def test_a_log_edited_consistently_is_refused_by_the_checkpoints_digest(run: Path) -> None:
    # game 5 replaced by the moves, returns and result of a game that ended otherwise: every
    # record replays to what it says, only the digest in checkpoint.json tells
    records = log_lines(run)
    other = _other_result(records, 4)
    records[4] = {**records[4], **{k: other[k] for k in ("moves", "returns", "result")}}
    write_log(run, records)
    line = one_line_error(resume(run))
    assert f"{run / 'games.jsonl'}: its first 40 lines are not the ones checkpointed" in line


def test_a_folder_checkpointed_before_log_digests_resumes_with_its_records_replayed(
    run: Path, tmp_path: Path
) -> None:
    whole = tmp_path / "whole"
    assert invoke(*SELFPLAY[:2], "50", *SELFPLAY[3:], "--out", str(whole)).exit_code == 0
    checkpoint = json.loads((run / "checkpoint.json").read_text())
    del checkpoint["log_sha256"]
    (run / "checkpoint.json").write_text(json.dumps(checkpoint))
    old = files(run)
    records = log_lines(run)
    records[4]["result"] = _other_result(records, 4)["result"]
    write_log(run, records)
    assert f"{run / 'games.jsonl'}, line 5:" in one_line_error(resume(run))
    for name, data in old.items():
        (run / name).write_bytes(data)
    r = resume(run)
    assert r.exit_code == 0, r.output
    assert results(run) == results(whole)


def test_an_overlong_line_in_a_log_is_refused_without_reading_it(run: Path) -> None:
    lines = (run / "games.jsonl").read_bytes().splitlines(keepends=True)
    lines[2] = b"[" * (2 << 20) + b"\n"
    (run / "games.jsonl").write_bytes(b"".join(lines))
    line = one_line_error(resume(run))
    assert f"{run / 'games.jsonl'}, line 3: longer than" in line


# --- findings 8 and 9: run.json and checkpoint.json values are checked like options ---------


@pytest.mark.parametrize(
    "value", ['"abc"', "null", "NaN", "Infinity", "1e400", "1e30", "250.5", "true", "0", "-3",
              "[40]"],
)  # fmt: skip
def test_a_bad_game_count_in_run_json_is_one_line(run: Path, value: str) -> None:
    path = run / "run.json"
    text = path.read_text()
    assert '"games": 40' in text
    path.write_text(text.replace('"games": 40', f'"games": {value}'))
    before = files(run)
    line = one_line_error(resume(run, "--checkpoint", "20"))
    assert f"{path}: 'games' is" in line and "--games N" in line
    assert files(run) == before
    # the way out the line names: the run's total given again
    r = resume(run, "--games", "50")
    assert r.exit_code == 0, r.output
    assert json.loads(path.read_text())["games"] == 50


@pytest.mark.parametrize("fmt", ['"purestate.run/99"', "null", "3", '"purestate.sweep/1"'])
def test_a_run_json_of_an_unknown_format_is_refused(run: Path, fmt: str) -> None:
    path = run / "run.json"
    data = json.loads(path.read_text())
    data["format"] = "@@"
    path.write_text(json.dumps(data).replace('"@@"', fmt))
    before = files(run)
    assert "is not a selfplay run's" in one_line_error(resume(run))
    assert files(run) == before


@pytest.mark.parametrize(
    ("field", "value"),
    [("seed", "NaN"), ("seed", '"1"'), ("game", "5"), ("game", '"tictactoe:rows=99"'),
     ("agent", "null"), ("agent", '"menace:preset=nosuch"'), ("opponent", "[]"),
     ("seat", '"middle"'), ("format", '"purestate.run/99"'), ("as_typed", '"x"')],
)  # fmt: skip
def test_bad_settings_in_run_json_are_one_line(run: Path, field: str, value: str) -> None:
    path = run / "run.json"
    data = json.loads(path.read_text())
    data[field] = "@@"
    path.write_text(json.dumps(data).replace('"@@"', value))
    before = files(run)
    r = resume(run)
    if r.exit_code == 0:  # a field resuming ignores: the run continues as it was saved
        assert field == "as_typed", r.output
    else:
        one_line_error(r)
        assert files(run) == before


@pytest.mark.parametrize(
    ("field", "value"),
    [("refused_at", "abc"), ("refused_at", True), ("refused_at", -1), ("refused_at", 41),
     ("refused_at", 1.5), ("games", True), ("games", "40"), ("games", 1e30), ("games", -1),
     ("games", 10**9), ("log_sha256", 7)],
)  # fmt: skip
def test_bad_values_in_a_checkpoint_are_one_line(run: Path, field: str, value: object) -> None:
    edit_checkpoint(run, **{field: value})
    before = files(run)
    line = one_line_error(resume(run))
    assert "checkpoint" in line
    if field != "log_sha256":  # a digest that is no string reads as a log edited since
        assert f"'{field}' is {value!r}" in line, line
    assert files(run) == before


# --- finding 7: play --learn never changes a run's table behind its checkpoint ---------------

# a person trying every square in turn, whatever MENACE plays, then declining another game
EVERY_SQUARE = "".join(f"{s}\n" for s in range(9)) * 5 + "n\n"


def test_play_learn_leaves_a_runs_table_to_the_run(run: Path, tmp_path: Path) -> None:
    table = run / "table.json"
    before = files(run)
    line = one_line_error(invoke("play", "--table", str(table), "--learn", "--seat", "second"))
    assert f"{table} belongs to the run in {run.resolve()}" in line and "--save-table" in line
    inside = run / "mine.json"
    learn = ["play", "--table", str(table), "--learn", "--seat", "second"]
    line = one_line_error(invoke(*learn, "--save-table", str(inside)))
    assert "inside the run folder" in line
    assert "add --learn" in one_line_error(invoke("play", "--save-table", str(tmp_path / "t")))
    mine = tmp_path / "mine.json"
    r = invoke("play", "--table", str(table), "--learn", "--seat", "second",
               "--save-table", str(mine), input=EVERY_SQUARE)  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "learned from the game" in r.output
    assert json.loads(mine.read_text())["games"] == 41
    assert files(run) == before
    r = resume(run)
    assert r.exit_code == 0, r.output


# --- finding 8: menace boxes, replay ----------------------------------------------------------


def test_menace_boxes_past_the_last_stage_is_one_line(run: Path) -> None:
    for table in ([], ["--table", str(run / "table.json")]):
        line = one_line_error(invoke("menace", "boxes", *table, "--stage", "99"))
        assert "--stage 99" in line and "stages 1 to 4" in line
    r = invoke("menace", "boxes", "--stage", "4", "--limit", "1")
    assert r.exit_code == 0 and "MENACE's move 4" in r.output


def test_replay_refuses_an_overlong_line_naming_it(run: Path, tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    first = (run / "games.jsonl").read_text().splitlines(keepends=True)[0]
    log.write_text(first + "x" * (2 << 20) + "\n" + first)
    line = one_line_error(invoke("replay", str(log), "--index", "0", "--json"))
    assert f"{log}, line 2: longer than 1,048,576 bytes" in line
    log.write_text(first * 3)
    assert "holds games 0..2" in one_line_error(invoke("replay", str(log), "--index", "3"))
    r = invoke("replay", str(log), "--index", "2", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["moves"] == json.loads(first)["moves"]


def _limit_memory() -> None:
    limit = 1 << 30  # 1 GiB of address space: far more than replay needs, far less than /dev/zero
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_replay_of_an_endless_file_is_one_line_in_bounded_memory() -> None:
    cmd = [sys.executable, "-m", "purestate", "replay", "/dev/zero"]
    done = subprocess.run(
        cmd, capture_output=True, text=True, timeout=120, preexec_fn=_limit_memory
    )
    assert done.returncode == 2, done.stderr
    # a device is not read at all (it was read up to its first overlong line before)
    assert "/dev/zero is not a regular file" in done.stderr and "Traceback" not in done.stderr


# --- review of issue 20: nesting, sizes, pipes and links outside run folders, summaries --------


def _nest(folder: Path, levels: int) -> list[Path]:
    made = [folder / "a"]
    for _ in range(levels - 1):
        made.append(made[-1] / "a")
    for p in made:  # one at a time: mkdir(parents=True) recurses as deep as the folders go
        p.mkdir()
    return made


def _unnest(made: list[Path]) -> None:
    for p in reversed(made):  # rmtree would recurse as deep as the folders go
        p.rmdir()


def test_a_deeply_nested_folder_is_refused_in_one_line(
    run: Path, sweep_run: tuple[Path, Path]
) -> None:
    sweep, _ = sweep_run
    for folder, command in ((run, resume), (sweep, lambda f: invoke(*SWEEP, "--resume", str(f)))):
        made = _nest(folder, 1100)
        try:
            line = one_line_error(command(folder))
            assert f"{made[8]} is nested 9 folders deep in {folder}" in line
            assert "at most 8 levels" in line
        finally:
            _unnest(made)
    made = _nest(run, 8)  # as deep as allowed: looked at, not refused
    try:
        assert "holds files purestate did not write (a)" in one_line_error(
            invoke(*SELFPLAY, "--out", str(run), "--force")
        )
    finally:
        _unnest(made)


def _memory_capped() -> None:
    limit = 1 << 30  # far more than a run needs, far less than the files below would take
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.parametrize("name", ["run.json", "checkpoint.json"])
def test_a_huge_file_in_a_run_folder_is_refused_before_it_is_read(run: Path, name: str) -> None:
    path = run / name
    os.truncate(path, 3 << 30)  # sparse: 3 GiB that take no room on the disk
    cmd = [sys.executable, "-m", "purestate", "selfplay", "--resume", str(run), "--more", "5"]
    done = subprocess.run(
        cmd, capture_output=True, text=True, timeout=120, preexec_fn=_memory_capped
    )
    assert done.returncode == 2, done.stderr
    assert f"{path}: 3,221,225,472 bytes, larger than the" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_huge_table_or_summary_is_refused_in_one_line(
    run: Path, sweep_run: tuple[Path, Path]
) -> None:
    table = run / "table.json"
    os.truncate(table, (1 << 30) + 1)
    line = one_line_error(invoke("evaluate", "--table", str(table), "--games", "1"))
    assert f"{table}: 1,073,741,825 bytes, larger than the 1,073,741,824" in line
    sweep, inner = sweep_run
    shutil.copy(inner / "checkpoint.json", inner / "summary.json")  # any JSON: it is not read
    os.truncate(inner / "summary.json", (64 << 20) + 1)
    line = one_line_error(invoke(*SWEEP, "--resume", str(sweep)))
    assert f"{inner / 'summary.json'}: 67,108,865 bytes, larger than the 67,108,864" in line


def _table_commands(table: Path) -> list[list[str]]:
    return [
        ["evaluate", "--table", str(table), "--games", "1"],
        ["play", "--table", str(table)],
        ["analyze", "--game", "tictactoe", "--table", str(table)],
        ["menace", "boxes", "--table", str(table)],
    ]


def test_a_pipe_named_as_a_table_or_a_log_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "ff" / "table.json"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    os.mkfifo(tmp_path / "games.jsonl")
    link = tmp_path / "link.json"
    link.symlink_to(fifo)
    commands = [
        *_table_commands(fifo),
        ["evaluate", "--table", str(link), "--games", "1"],
        ["replay", str(tmp_path)],
        ["replay", str(tmp_path / "games.jsonl")],
    ]
    for args in commands:
        cmd = [sys.executable, "-m", "purestate", *args]
        done = subprocess.run(
            cmd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
        )
        assert done.returncode == 2, (args, done.stderr)
        assert "is not a regular file" in done.stderr and "Traceback" not in done.stderr, args


def test_a_link_in_a_folder_is_never_followed_a_link_the_user_names_is(
    run: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "lnk"
    folder.mkdir()
    (folder / "games.jsonl").symlink_to(run / "games.jsonl")
    line = one_line_error(invoke("replay", str(folder), "--json"))
    assert f"{folder / 'games.jsonl'} is a symbolic link" in line
    named = tmp_path / "mine.jsonl"
    named.symlink_to(run / "games.jsonl")
    r = invoke("replay", str(named), "--index", "0", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["moves"] == log_lines(run)[0]["moves"]
    table = tmp_path / "my-table.json"
    table.symlink_to(run / "table.json")
    r = invoke("evaluate", "--table", str(table), "--games", "2", "--json")
    assert r.exit_code == 0, r.output


def _forge(summary: dict[str, object], games: int) -> dict[str, object]:
    """A summary whose counts add up, overall and per block, to ``games`` wins."""
    blocks = summary["blocks"]
    assert isinstance(blocks, list)
    won = [min(10, games - 10 * i) for i in range(-(-games // 10))]
    forged_blocks = [{**blocks[0], "wins": w, "draws": 0, "losses": 0} for w in won]
    return {**summary, "games": games, "wins": games, "draws": 0, "losses": 0,
            "blocks": forged_blocks}  # fmt: skip


@pytest.mark.parametrize("games", [1, 30])
def test_a_forged_summary_is_not_kept_as_a_complete_run(
    saved_sweep: Path, tmp_path: Path, games: int
) -> None:
    sweep = tmp_path / "sweep"
    shutil.copytree(saved_sweep, sweep)
    path = next((sweep / "runs").glob("*/seed-0")) / "summary.json"
    path.write_text(json.dumps(_forge(json.loads(path.read_text()), games)))
    line = one_line_error(invoke(*SWEEP, "--resume", str(sweep), "--json"))
    assert f"{path} is not" in line and "summary" in line
    path.unlink()  # as the message says: the summary is written again from the checkpoint
    r = invoke(*SWEEP, "--resume", str(sweep), "--json")
    assert r.exit_code == 0, r.output
    assert (saved_sweep / path.relative_to(sweep)).read_bytes() == path.read_bytes()
    r = invoke(*SWEEP, "--resume", str(sweep), "--json")  # the genuine summary is kept
    assert r.exit_code == 0 and json.loads(r.output)["resumed_complete"] == 1, r.output


def test_the_log_is_appended_to_only_when_it_is_the_folders_own(
    run: Path, tmp_path: Path, outside: Path
) -> None:
    records = read_records(run)
    folder = tmp_path / "new"
    folder.mkdir()
    append_records(folder, records[:2])
    append_records(folder, records[2:3])
    assert read_records(folder) == records[:3]
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "games.jsonl").symlink_to(outside)
    with pytest.raises(FileFormatError, match="is a symbolic link"):
        append_records(linked, records[:1])
    assert outside.read_bytes() == PRECIOUS
    piped = tmp_path / "piped"
    piped.mkdir()
    os.mkfifo(piped / "games.jsonl")
    with pytest.raises(OSError):  # no reader: opening a pipe to write fails at once
        append_records(piped, records[:1])
