"""Run folders: never replaced silently, one writer at a time, checkpoints that appear whole, and
runs that end the same however often they are killed and resumed."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.kills import Killed, files, finish, invoke, kill_everywhere
from typer.testing import CliRunner, Result

from purestate.core.spec import SpecError
from purestate.experiments.sweep import parse_seeds

runner = CliRunner()

SELFPLAY = ["selfplay", "--opponent", "self", "--games", "60", "--checkpoint", "20", "--seed", "2",
            "--no-plot"]  # fmt: skip
SWEEP = ["sweep", "--grid", "menace", "--seeds", "0-1", "--games", "50",
         "--block", "25", "--checkpoint", "20", "--opponent", "random", "--jobs", "1"]  # fmt: skip


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def without_log_digest(folder_files: dict[str, bytes]) -> dict[str, bytes]:
    """A run folder's files with the digest of its log taken out of its checkpoint."""
    checkpoint = json.loads(folder_files["checkpoint.json"])
    del checkpoint["log_sha256"]
    return {**folder_files, "checkpoint.json": json.dumps(checkpoint).encode()}


def one_line_error(r: Result) -> str:
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), r.output
    return lines[0]


# --- never replaced, never shared -----------------------------------------------------------


def test_a_run_folder_is_not_replaced_without_force(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert invoke("selfplay", "--games", "300", "--out", str(out), "--no-plot").exit_code == 0
    before = files(out)
    line = one_line_error(invoke("selfplay", "--games", "10", "--seed", "5", "--out", str(out)))
    assert "--resume" in line and "--force" in line
    assert files(out) == before
    r = invoke("selfplay", "--games", "10", "--seed", "5", "--out", str(out), "--force")
    assert r.exit_code == 0, r.output
    assert json.loads((out / "summary.json").read_text())["games"] == 10
    assert len((out / "games.jsonl").read_text().splitlines()) == 10


def test_force_replaces_only_a_run_folder(tmp_path: Path) -> None:
    out = tmp_path / "notes"
    out.mkdir()
    (out / "thesis.tex").write_text("precious")
    line = one_line_error(invoke("selfplay", "--games", "5", "--out", str(out), "--force"))
    assert "thesis.tex" in line
    assert (out / "thesis.tex").read_text() == "precious"


def test_a_second_process_is_refused_at_once(tmp_path: Path) -> None:
    out = tmp_path / "busy"
    first = subprocess.Popen(
        [sys.executable, "-m", "purestate", "selfplay", "--agent", "qlearning", "--opponent",
         "self", "--games", "50000000", "--out", str(out), "--no-plot", "--json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not (out / ".lock").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (out / ".lock").read_text().strip() == str(first.pid)
        second = subprocess.run(
            [sys.executable, "-m", "purestate", "selfplay", "--games", "10", "--seed", "5",
             "--out", str(out), "--force"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert second.returncode == 2
        err = second.stderr.strip()
        assert len(err.splitlines()) == 1 and str(out) in err and str(first.pid) in err, err
        assert first.poll() is None
    finally:
        first.kill()
        first.wait()


# --- resume finishes the run that was started ------------------------------------------------


def test_resume_takes_the_folder_or_its_table_and_games_is_the_total(tmp_path: Path) -> None:
    whole, part = tmp_path / "whole", tmp_path / "part"
    base = ["selfplay", "--opponent", "random", "--seed", "7", "--block", "30"]
    assert invoke(*base, "--games", "90", "--out", str(whole)).exit_code == 0
    assert invoke(*base, "--games", "40", "--out", str(part)).exit_code == 0
    assert invoke(*base, "--games", "70", "--resume", str(part / "table.json")).exit_code == 0
    r = invoke(*base, "--games", "90", "--resume", str(part), "--out", str(part))
    assert r.exit_code == 0, r.output
    # the summary and the learning curve cover the whole run: every file is the whole run's
    assert files(part) == files(whole)
    # a finished run resumed again plays nothing and changes nothing
    assert invoke(*base, "--games", "90", "--resume", str(part)).exit_code == 0
    assert files(part) == files(whole)
    line = one_line_error(invoke(*base, "--games", "50", "--resume", str(part)))
    assert "--more" in line


def test_more_trains_a_saved_run_further(tmp_path: Path) -> None:
    whole, part = tmp_path / "whole", tmp_path / "part"
    base = ["selfplay", "--agent", "qlearning", "--opponent", "self", "--seed", "1", "--no-plot"]
    assert invoke(*base, "--games", "300", "--out", str(whole)).exit_code == 0
    assert invoke(*base, "--games", "100", "--out", str(part)).exit_code == 0
    assert invoke(*base, "--more", "120", "--resume", str(part)).exit_code == 0
    assert invoke(*base, "--more", "80", "--resume", str(part)).exit_code == 0
    assert files(part) == files(whole)
    one_line_error(invoke(*base, "--more", "80", "--out", str(tmp_path / "new")))
    assert not (tmp_path / "new").exists()


def test_resume_with_other_settings_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert invoke("selfplay", "--games", "30", "--out", str(out), "--no-plot").exit_code == 0
    before = files(out)
    for change in (
        ["--agent", "menace:preset=scroggs"],
        ["--seed", "9"],
        ["--opponent", "random"],
        ["--seat", "second"],
    ):
        r = invoke("selfplay", "--games", "60", "--resume", str(out), *change)
        assert "resume it with the same settings" in one_line_error(r)
    assert files(out) == before


def test_resume_takes_the_settings_the_run_was_started_with(tmp_path: Path) -> None:
    # started with settings other than the defaults, then resumed naming only the folder:
    # the same files as the run played in one go
    # (written as people write them, not as the library spells them: "menace" is
    # menace:preset=michie, "rules:p=0.7" is rules; run.json keeps them as written)
    settings = ["--agent", "menace", "--opponent", "rules:p=0.7", "--seat", "second",
                "--seed", "7", "--game", "tictactoe", "--no-plot"]  # fmt: skip
    whole, part = tmp_path / "whole", tmp_path / "part"
    assert invoke("selfplay", "--games", "60", "--out", str(whole), *settings).exit_code == 0
    assert invoke("selfplay", "--games", "30", "--out", str(part), *settings).exit_code == 0
    r = invoke("selfplay", "--games", "60", "--resume", str(part), "--no-plot")
    assert r.exit_code == 0, r.output
    assert files(part) == files(whole)
    # repeating a setting that agrees is fine too
    r = invoke("selfplay", "--more", "10", "--resume", str(part), "--seed", "7", "--no-plot")
    assert r.exit_code == 0, r.output


def test_a_table_of_another_preset_is_refused_not_relabelled(tmp_path: Path) -> None:
    # the manifest says menace, but the table in the checkpoint was written by another preset
    out, other = tmp_path / "r", tmp_path / "o"
    assert invoke("selfplay", "--games", "30", "--out", str(out), "--no-plot").exit_code == 0
    assert invoke("selfplay", "--games", "30", "--out", str(other), "--no-plot",
                  "--agent", "menace:preset=scroggs").exit_code == 0  # fmt: skip
    for name in ("table.json", "checkpoint.json"):
        (out / name).write_bytes((other / name).read_bytes())
    before = files(out)
    line = one_line_error(invoke("selfplay", "--games", "60", "--resume", str(out)))
    assert "menace:preset=scroggs" in line
    assert files(out) == before


def test_checkpoint_tables_are_verified_against_each_other_and_the_log(tmp_path: Path) -> None:
    out, old = tmp_path / "r", tmp_path / "old"
    assert invoke(*SELFPLAY, "--out", str(old)).exit_code == 0
    # a table from another moment of the run
    assert invoke(*SELFPLAY, "--out", str(out), "--games", "40").exit_code == 0
    (out / "opponent_table.json").write_bytes((old / "opponent_table.json").read_bytes())
    assert "does not match" in one_line_error(invoke(*SELFPLAY, "--resume", str(out)))
    # a missing table
    (out / "opponent_table.json").unlink()
    assert "is missing" in one_line_error(invoke(*SELFPLAY, "--resume", str(out)))
    # a log shorter than the checkpoint
    assert invoke(*SELFPLAY, "--out", str(out), "--games", "40", "--force").exit_code == 0
    log = out / "games.jsonl"
    log.write_text("".join(log.read_text().splitlines(keepends=True)[:39]))
    before = files(out)
    assert "39 games logged" in one_line_error(invoke(*SELFPLAY, "--resume", str(out)))
    assert files(out) == before


def test_a_kill_at_any_write_resumes_to_the_uninterrupted_files(
    tmp_path: Path, kill_at: list[int]
) -> None:
    # MENACE against MENACE: two tables per checkpoint, which must never disagree
    writes = kill_everywhere(SELFPLAY, tmp_path, kill_at)
    assert writes > 20  # log syncs, pending tables, checkpoints, renames, summary


def _kill_when(cmd: list[str], log: Path, lines: int) -> None:
    """Start ``cmd`` and SIGKILL it once ``log`` has at least ``lines`` lines."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while p.poll() is None and time.monotonic() < deadline:
            if log.exists() and log.read_bytes().count(b"\n") >= lines:
                break
            time.sleep(0.002)
    finally:
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
        p.wait()


@pytest.mark.parametrize("lines", [0, 700, 1500, 2950])
def test_sigkill_then_resume_gives_the_uninterrupted_files(tmp_path: Path, lines: int) -> None:
    cmd = ["selfplay", "--opponent", "self", "--games", "3000", "--checkpoint", "250",
           "--seed", "5", "--no-plot"]  # fmt: skip
    whole, out = tmp_path / "whole", tmp_path / "killed"
    assert invoke(*cmd, "--out", str(whole)).exit_code == 0
    _kill_when([sys.executable, "-m", "purestate", *cmd, "--out", str(out)], out / "games.jsonl",
               lines)  # fmt: skip
    r = finish(*cmd, folder=out)
    assert r.exit_code == 0, r.output
    assert files(out) == files(whole)
    assert not list(out.glob(".*"))  # no temporary or lock files left


# --- sweeps ----------------------------------------------------------------------------------


def test_a_sweep_killed_at_any_write_never_duplicates_games(
    tmp_path: Path, kill_at: list[int]
) -> None:
    # the first writes fall in the first chunk: log written, no table yet
    assert kill_everywhere(SWEEP, tmp_path, kill_at) > 10


@pytest.mark.parametrize("lines", [1, 1200, 2400])
def test_a_sweep_killed_by_sigkill_resumes_to_the_same_files(tmp_path: Path, lines: int) -> None:
    cmd = ["sweep", "--grid", "menace", "--seeds", "0", "--games", "3000", "--checkpoint", "400",
           "--opponent", "random", "--jobs", "1"]  # fmt: skip
    whole, out = tmp_path / "whole", tmp_path / "killed"
    assert invoke(*cmd, "--out", str(whole)).exit_code == 0
    log = out / "runs" / "menace" / "seed-0" / "games.jsonl"
    _kill_when([sys.executable, "-m", "purestate", *cmd, "--out", str(out)], log, lines)
    r = finish(*cmd, folder=out)
    assert r.exit_code == 0, r.output
    assert files(out) == files(whole)
    assert not [p for p in out.rglob(".*")]


def test_a_sweep_folder_is_not_replaced_without_force(tmp_path: Path) -> None:
    out = tmp_path / "s"
    assert invoke(*SWEEP, "--out", str(out)).exit_code == 0
    before = files(out)
    assert "--resume" in one_line_error(invoke(*SWEEP, "--out", str(out), "--seeds", "3"))
    assert files(out) == before


def test_absurd_seed_ranges_are_refused_before_allocating() -> None:
    with pytest.raises(SpecError, match="seeds"):
        parse_seeds("0-100000000000")
    r = invoke("sweep", "--grid", "menace", "--seeds", "0-100000000000")
    assert "seeds" in one_line_error(r)


# --- the files themselves ----------------------------------------------------------------------


def test_files_keep_normal_permissions(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        out = tmp_path / "r"
        assert invoke(*SELFPLAY, "--out", str(out)).exit_code == 0
    finally:
        os.umask(old)
    modes = {p.name: p.stat().st_mode & 0o777 for p in out.iterdir()}
    assert set(modes.values()) == {0o644}, modes


def test_temporary_files_are_cleaned_when_the_folder_is_opened(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert invoke(*SELFPLAY, "--out", str(out), "--games", "40").exit_code == 0
    (out / ".table.json.x1y2.tmp").write_text("half")
    (out / ".summary.json.z3.tmp").write_text("half")
    assert invoke(*SELFPLAY, "--resume", str(out)).exit_code == 0
    assert not list(out.glob(".*"))


# --- one-line errors, no folder left behind ----------------------------------------------------


def test_bad_folders_and_counts_are_one_line_and_leave_nothing(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert "is a file" in one_line_error(invoke("selfplay", "--out", str(a_file)))
    assert "Not a directory" in one_line_error(invoke("selfplay", "--out", str(a_file / "sub")))
    deep = tmp_path / "new" / "deeper" / ("a" * 300)
    assert "too long" in one_line_error(invoke("selfplay", "--out", str(deep)))
    assert not (tmp_path / "new").exists()
    for args in (["--games", str(10**23)], ["--more", "0"], ["--checkpoint", str(10**23)]):
        one_line_error(invoke("selfplay", *args, "--out", str(tmp_path / "n")))
    assert "does not learn" in one_line_error(
        invoke("selfplay", "--agent", "random", "--out", str(tmp_path / "n"))
    )
    assert not (tmp_path / "n").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_an_unwritable_folder_is_refused_before_training() -> None:
    # /sys refuses new folders even to root (a chmod'ed folder would not stop root)
    target = Path("/sys/purestate-run")
    if not target.parent.is_dir():
        pytest.skip("no /sys here")
    try:
        target.mkdir()
    except OSError:
        pass
    else:
        target.rmdir()
        pytest.skip("/sys takes new folders here")
    started = time.monotonic()
    r = invoke("selfplay", "--games", "100000000", "--out", str(target))
    assert "cannot create the folder" in one_line_error(r)
    assert time.monotonic() - started < 30  # refused before 10^8 games, not after


def test_a_run_that_cannot_be_played_is_refused_before_its_folder(tmp_path: Path) -> None:
    out = tmp_path / "big"
    for cmd in (["selfplay"], ["sweep", "--grid", "menace"]):
        r = invoke(*cmd, "--game", "ultimate_tictactoe", "--out", str(out))
        assert "menace needs a matchbox" in one_line_error(r)
        assert not out.exists()


# --- what a review found --------------------------------------------------------------------


def test_resume_refuses_a_folder_that_holds_no_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").write_text("a file of the user's")
    # a table path that does not exist is not read as "its parent folder"
    assert "no such run folder" in one_line_error(invoke("selfplay", "--resume", "nonexist.json"))
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "games.jsonl").write_text("precious line\n")
    before = files(notes)
    line = one_line_error(invoke("selfplay", "--resume", str(notes), "--games", "5"))
    assert "holds no selfplay run" in line
    assert files(notes) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "notes"]


def test_no_run_folder_inside_another(tmp_path: Path) -> None:
    sweep = tmp_path / "s"
    assert invoke(*SWEEP, "--out", str(sweep)).exit_code == 0
    inner = next((sweep / "runs").glob("*/seed-0"))
    before = files(sweep)
    for cmd in (["selfplay", "--out", str(inner), "--force"],
                ["selfplay", "--resume", str(inner), "--more", "5"],
                ["selfplay", "--out", str(sweep / "new")]):  # fmt: skip
        assert "inside the run folder" in one_line_error(invoke(*cmd))
    assert files(sweep) == before


def test_a_run_killed_before_it_saved_its_settings_is_started_again_not_guessed(
    tmp_path: Path,
) -> None:
    whole, out = tmp_path / "whole", tmp_path / "k"
    assert invoke(*SELFPLAY, "--out", str(whole)).exit_code == 0
    out.mkdir()
    (out / ".lock").write_text("999999\n")  # what a SIGKILL at start-up leaves
    # the settings it was started with are unknown: neither the defaults nor the options given
    # again are taken for them (issue 20: it resumed as rules:p=0.7, 1,000 games)
    for given in ([], SELFPLAY[1:]):
        line = one_line_error(invoke("selfplay", *given, "--resume", str(out)))
        assert "start it again with the original command" in line and f"--out {out}" in line
        assert set(files(out)) <= {".lock"}
    r = invoke(*SELFPLAY, "--out", str(out))
    assert r.exit_code == 0, r.output
    assert files(out) == files(whole)


def test_more_after_a_kill_finishes_the_run_that_was_started(
    tmp_path: Path, kill_at: list[int]
) -> None:
    base = ["selfplay", "--opponent", "random", "--seed", "3", "--no-plot", "--checkpoint", "20"]
    whole, out = tmp_path / "whole", tmp_path / "k"
    assert invoke(*base, "--games", "100", "--out", str(whole)).exit_code == 0
    assert invoke(*base, "--games", "40", "--out", str(out)).exit_code == 0
    kill_at[:] = [8, 0]  # after the first checkpoint of the --more part
    assert isinstance(invoke(*base, "--resume", str(out), "--more", "60").exception, Killed)
    kill_at[:] = [0, 0]
    assert "finish it first" in one_line_error(invoke(*base, "--resume", str(out), "--more", "60"))
    assert invoke(*base, "--resume", str(out)).exit_code == 0
    assert files(out) == files(whole)
    assert "give one of them" in one_line_error(
        invoke(*base, "--resume", str(out), "--more", "5", "--games", "200")
    )


def test_checkpoints_fall_on_multiples_of_the_run_after_more() -> None:
    from purestate.experiments.selfplay import Selfplay

    run = Selfplay("tictactoe", "qlearning", "self", 0, 1)
    game = run.make_game()
    starts = [s.start for s in run.stretches(game, run.initial_tables(game), 150, 300, 100)]
    assert starts == [150, 200, 300, 400]


def test_a_name_too_long_under_an_existing_folder_is_one_line(tmp_path: Path) -> None:
    long = tmp_path / ("a" * 300)
    assert "too long" in one_line_error(invoke("selfplay", "--games", "5", "--out", str(long)))
    tournament = ["tournament", "-g", "tictactoe", "-a", "random", "random", "--seed", "1"]
    assert "too long" in one_line_error(invoke(*tournament, "--out", str(long)))


def test_a_greedy_learner_refuses_a_game_too_large_for_it() -> None:
    import purestate
    from purestate.core.agent import check_game, greedy_agent

    with pytest.raises(SpecError, match="matchbox"):
        check_game(greedy_agent(purestate.agent("menace")), purestate.make("ultimate_tictactoe"))
    r = invoke("tournament", "-g", "ultimate_tictactoe", "-a", "menace", "random")
    assert "seed" not in one_line_error(r)  # refused before the seed line


def test_a_run_saved_under_old_names_resumes_and_replays(tmp_path: Path) -> None:
    # a folder written when the notebook learner was ``qlearning:preset=seed`` and its numbering
    # ``numbering=seed``: it resumes under either name to the run that was never interrupted
    whole, part = tmp_path / "whole", tmp_path / "part"
    new = ["selfplay", "--game", "dots_and_boxes:rows=1,cols=2,numbering=notebook",
           "--agent", "qlearning_notebook:episodes=60", "--opponent", "random", "--seed", "3",
           "--checkpoint", "20", "--no-plot"]  # fmt: skip
    renames = (
        ("qlearning_notebook:", "qlearning:preset=seed,"),
        ("qlearning_notebook", "qlearning:preset=seed"),
        ("=notebook", "=seed"),
    )

    def aged(text: str) -> str:
        for today, before in renames:
            text = text.replace(today, before)
        return text

    def today(data: bytes) -> bytes:
        text = data.decode()
        for now, before in renames:
            text = text.replace(before, now)
        return text.encode()

    assert invoke(*new, "--games", "60", "--out", str(whole)).exit_code == 0
    for cmd in (new, [aged(a) for a in new]):
        shutil.rmtree(part, ignore_errors=True)
        assert invoke(*new, "--games", "30", "--out", str(part)).exit_code == 0
        for p in part.iterdir():
            p.write_text(aged(p.read_text()))
        checkpoint = json.loads((part / "checkpoint.json").read_text())
        del checkpoint["log_sha256"]  # kept since issue 20: an older folder has none
        for name in checkpoint["files"]:  # the old folder's checkpoint vouches for its files
            checkpoint["files"][name] = hashlib.sha256((part / name).read_bytes()).hexdigest()
        (part / "checkpoint.json").write_text(json.dumps(checkpoint))
        assert "qlearning:preset=seed" in (part / "run.json").read_text()
        r = invoke(*cmd, "--games", "60", "--resume", str(part))
        assert r.exit_code == 0, r.output
        # the log's first lines keep their old names, so the checkpoint's digest of it is its own
        resumed, log = files(part), (part / "games.jsonl").read_bytes()
        assert json.loads(resumed["checkpoint.json"]).pop("log_sha256") == sha256(log)
        assert {k: today(v) for k, v in without_log_digest(resumed).items()} == (
            without_log_digest(files(whole))
        )
        # the first games were logged under the old names, and still replay
        r = invoke("replay", str(part / "games.jsonl"), "--json")
        assert r.exit_code == 0, r.output
