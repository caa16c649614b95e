"""Game records: every command writes the one format, and every record replays to its result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import purestate
from purestate.cli import app
from purestate.core.record import (
    FORMAT,
    Record,
    RecordError,
    from_text,
    game_spec,
    replay_record,
    to_text,
)
from purestate.core.svg import svg as text_panel
from purestate.io.files import FileFormatError
from purestate.io.records import read_records, record_line

runner = CliRunner()

GAMES = (
    "tictactoe",
    "dots_and_boxes:rows=2,cols=3",
    "ultimate_tictactoe",
    "xtreme_tictactoe",
    "tron:map=center_block,rules=simultaneous",
    "tron:start=mirror,first_player=1,start_seed=7",
)


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.output


def random_game(spec: str, seed: int = 3) -> purestate.Episode:
    game = purestate.make_spec(spec)
    a = purestate.agent("random")
    return purestate.play(game, (a, a), (None, None), purestate.key(seed))


def test_every_command_writes_records_that_replay_to_their_result(tmp_path: Path) -> None:
    commands = {
        "selfplay": ["selfplay", "--opponent", "random", "--games", "30", "--no-plot",
                     "--seat", "second", "--json"],
        "sweep": ["sweep", "--grid", "menace:preset=michie", "--seeds", "0-1", "--games", "20",
                  "--block", "10", "--opponent", "random", "--jobs", "1", "--json"],
        "tournament": ["tournament", "--game", "dots_and_boxes:rows=2,cols=2", "--agents",
                       "random", "alphabeta", "--games", "4", "--seed", "2", "--jobs", "1",
                       "--json"],
        "evaluate": ["evaluate", "--agent", "mcts:simulations=20", "--game", "ultimate_tictactoe",
                     "--games", "2", "--json"],
        "tron": ["tron", "run", "--bots", "wall", "random", "--map", "center_block",
                 "--rules", "simultaneous", "--start", "mirror", "--multi-test", "4",
                 "--no-image", "--seed", "5", "--json"],
    }  # fmt: skip
    for name, args in commands.items():
        out = tmp_path / name
        code, text = run(*args, "--out", str(out))
        assert code == 0, (name, text)
    code, text = run("play", "tictactoe", "--opponent", "random", "--seed", "4", "--save",
                     str(tmp_path / "play"), input="4\n0\n8\n2\n6\n1\n3\n5\n7\nn\n")  # fmt: skip
    assert code == 0, text
    expected = {"selfplay": 30, "sweep": 20, "tournament": 4, "evaluate": 4, "tron": 4, "play": 1}
    for name, count in expected.items():
        files = sorted((tmp_path / name).rglob("games.jsonl"))
        assert files, name
        for file in files:
            lines = file.read_text().splitlines()
            assert len(lines) == count, (name, file)
            for line in lines:
                data = json.loads(line)
                assert data["format"] == FORMAT
                record = Record.from_json(data)
                episode = purestate.replay(data)  # raises unless it ends as recorded
                assert episode.returns == record.returns
                assert episode.resigned == record.resigned
                assert len(episode.states) == len(record.moves) + 1
                assert purestate.make_spec(record.game) == purestate.make_spec(data["game"])
    # the learner's side, the players and the game's options are in the record
    sp = read_records(tmp_path / "selfplay")
    assert {r.seat for r in sp} == {1} and sp[0].players[1].startswith("menace")
    tron = read_records(tmp_path / "tron")
    assert all("rules=simultaneous" in r.game and "start=mirror" in r.game for r in tron)
    assert [r.index for r in tron] == [0, 1, 2, 3]
    played = read_records(tmp_path / "play")
    assert played[0].players == ("person", "random") and played[0].moves[0] == 4


def test_a_record_round_trips_through_json_and_checks_its_fields() -> None:
    ep = random_game("dots_and_boxes:rows=2,cols=3")
    record = Record.of("dots_and_boxes:rows=2,cols=3", ("random", "random"), 3, 7, ep)
    line = record_line(record)
    assert line.endswith("\n") and "\n" not in line[:-1] and " " not in line
    assert Record.from_json(json.loads(line)) == record
    good = record.to_json()
    for field, value, says in (
        ("format", "purestate.game/0", "format"),
        ("moves", ["0"], "moves"),
        ("players", ["a"], "players"),
        ("seed", True, "seed"),
        ("resigned", 2, "resigned"),
        ("result", "won", "result"),
        ("result", "draw" if good["result"] != "draw" else "win", "does not match"),
    ):
        with pytest.raises(RecordError, match=says):
            Record.from_json({**good, field: value})
    with pytest.raises(RecordError, match="missing field 'returns'"):
        Record.from_json({k: v for k, v in good.items() if k != "returns"})


def test_replay_refuses_a_record_that_ends_otherwise() -> None:
    ep = random_game("tictactoe")
    record = Record.of("tictactoe", ("random", "random"), 3, 0, ep)
    assert purestate.replay(record).states == ep.states
    flipped = Record.from_game("tictactoe", record.players, 3, 0, ep.moves,
                               (-ep.returns[0] or 1.0, -ep.returns[1] or -1.0), None)  # fmt: skip
    with pytest.raises(RecordError, match="differ from the recorded"):
        replay_record(flipped)
    short = Record.from_game("tictactoe", record.players, 3, 0, ep.moves[:2], (0.0, 0.0), None)
    with pytest.raises(RecordError, match="stop before the end"):
        replay_record(short)
    illegal = Record.from_game("tictactoe", record.players, 3, 0, (4, 4), (0.0, 0.0), None)
    with pytest.raises(RecordError, match="move 2"):
        replay_record(illegal)
    # the bare form of replay keeps working for its callers
    assert purestate.replay(purestate.make("tictactoe"), list(ep.moves)) == ep


@pytest.mark.parametrize("spec", GAMES)
def test_the_text_notation_round_trips(spec: str) -> None:
    game = purestate.make_spec(spec)
    assert game_spec(game) == spec or purestate.make_spec(game_spec(game)) == game
    for seed in range(3):
        ep = random_game(spec, seed)
        record = Record.of(game_spec(game), ("random", "random"), seed, 0, ep)
        line = to_text(game, record)
        assert "\n" not in line
        assert from_text(line) == (record.game, record.moves, record.returns, None)
    resigned = Record.from_game(game_spec(game), ("a", "b"), 0, 0, (), (1.0, -1.0), 1)
    assert from_text(to_text(game, resigned))[2:] == ((1.0, -1.0), 1)


def test_the_text_notation_refuses_bad_lines() -> None:
    for bad, says in (
        ("tictactoe 4 0 1-0", "expected 'GAME: MOVE"),
        ("tictactoe: 4 0 won", "unknown ending"),
        ("tictactoe: 4 4 1-0", "move 2"),
        ("chess: e4 1-0", "chess"),
    ):
        with pytest.raises(purestate.ParseError, match=says):
            from_text(bad)


@pytest.mark.parametrize("spec", GAMES)
def test_svg_draws_every_game(spec: str) -> None:
    game = purestate.make_spec(spec)
    ep = random_game(spec)
    # the framed text panel, which games without a vector drawing get (purestate.svg draws boards)
    picture = text_panel(game, ep.final, "a & b")
    assert picture.startswith("<svg ") and picture.rstrip().endswith("</svg>")
    assert "a &amp; b" in picture
    assert picture.count("<text ") == len(game.render(ep.final).splitlines()) + 1


def test_a_map_file_cannot_be_named_in_a_record(tmp_path: Path) -> None:
    board = tmp_path / "m.txt"
    board.write_text("#####\n#1 2#\n#####\n")
    code, text = run("tron", "run", "--map", str(board), "--no-image", "--seed", "1",
                     "--out", str(tmp_path / "o"))  # fmt: skip
    assert code == 2 and "cannot be named by a spec string" in text
    assert len(text.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


# -- purestate replay --------------------------------------------------------------------------


@pytest.fixture
def tournament(tmp_path: Path) -> Path:
    out = tmp_path / "t"
    args = ["--games", "2", "--seed", "1", "--jobs", "1", "--out", str(out), "--json"]
    code, text = run("tournament", "--game", "tictactoe", "--agents", "random", "mcts", *args)
    assert code == 0, text
    return out


def test_replay_steps_forward_and_back(tournament: Path) -> None:
    record = read_records(tournament)[1]
    code, text = run("replay", str(tournament), "--index", "1", input="\nn\np\nq\n")
    assert code == 0, text
    plies = [line.split(" · ")[2] for line in text.splitlines() if " · ply " in line]
    n = len(record.moves)  # the seeded game's length (5 or more: tic-tac-toe)
    assert n >= 5
    assert plies == [f"ply 0/{n}", f"ply 1/{n}", f"ply 2/{n}", f"ply 1/{n}"]
    first = purestate.make("tictactoe").format_move(record.moves[0])
    assert f"first (X) played {first}" in text
    # to the end and past it: the replay stops after the last ply and says how the game ended
    code, text = run("replay", str(tournament / "games.jsonl"), "--index", "1", input="\n" * 20)
    ending = f"end: returns {list(record.returns)}"
    assert code == 0 and f"ply {n}/{n}" in text and ending in text
    assert text.count(" · ply ") == n + 1


def test_replay_json_prints_every_state_and_the_returns(tournament: Path) -> None:
    code, text = run("replay", str(tournament), "--json")
    assert code == 0, text
    data = json.loads(text)
    record = read_records(tournament)[0]
    game = purestate.make("tictactoe")
    assert data["states"] == [game.encode(s) for s in purestate.replay(record).states]
    assert data["returns"] == list(record.returns) and data["moves"] == list(record.moves)


def test_replay_text_and_pictures(tournament: Path, tmp_path: Path) -> None:
    code, text = run("replay", str(tournament), "--text")
    assert code == 0, text
    lines = text.strip().splitlines()
    records = read_records(tournament)
    assert len(lines) == len(records)
    for line, record in zip(lines, records, strict=True):
        assert from_text(line) == (record.game, record.moves, record.returns, record.resigned)
    code, text = run("replay", str(tournament), "--index", "1", "--svg", str(tmp_path / "a.svg"),
                     "--gif", str(tmp_path / "a.gif"))  # fmt: skip
    assert code == 0, text
    assert (tmp_path / "a.svg").read_text().startswith("<svg ")
    assert (tmp_path / "a.gif").read_bytes()[:6] in (b"GIF89a", b"GIF87a")


def test_replay_errors_are_one_line(tournament: Path, tmp_path: Path) -> None:
    code, text = run("replay", str(tournament), "--index", "5")
    assert code == 2 and "--index 5" in text and "0..1" in text
    assert len(text.strip().splitlines()) == 1
    bad = tmp_path / "bad.jsonl"
    lines = (tournament / "games.jsonl").read_text().splitlines()
    bad.write_text(lines[0] + "\n" + lines[1][:40] + "\n")
    code, text = run("replay", str(bad))
    assert code == 2 and f"{bad}, line 2: not a JSON record" in text
    assert len(text.strip().splitlines()) == 1
    bad.write_text(lines[0].replace('"seat":0', '"seat":3') + "\n")
    with pytest.raises(FileFormatError, match="line 1: seat: expected 0 or 1"):
        read_records(bad)
    code, text = run("replay", str(tmp_path / "nothing.jsonl"))
    assert code == 2 and "no such file" in text


def test_out_folders_are_refused_unless_forced(tmp_path: Path) -> None:
    commands = (
        ["evaluate", "--agent", "random", "--games", "2", "--json"],
        ["tron", "run", "--bots", "wall", "random", "--no-image", "--seed", "1", "--json"],
    )
    for args in commands:
        out = tmp_path / args[0]
        assert run(*args, "--out", str(out))[0] == 0
        before = (out / "games.jsonl").read_text()
        code, text = run(*args, "--out", str(out))
        assert code == 2 and "--force" in text and len(text.strip().splitlines()) == 1, text
        code, text = run(*args, "--out", str(out), "--force")
        assert code == 0, text
        assert (out / "games.jsonl").read_text() == before  # the same seed, the same games


def test_replay_draws_a_tron_game_as_its_grid(tmp_path: Path) -> None:
    out = tmp_path / "tron"
    args = ["--bots", "wall", "random", "--no-image", "--seed", "1", "--out", str(out)]
    assert run("tron", "run", *args)[0] == 0
    code, text = run("replay", str(out), "--svg", str(tmp_path / "t.svg"))
    assert code == 0, text
    picture = (tmp_path / "t.svg").read_text()
    assert "<svg" in picture and "<image" in picture  # matplotlib's grid, not the text panel
