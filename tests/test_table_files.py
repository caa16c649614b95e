"""Table files checked at load: every bad box, bead, value or count is refused on one line naming
the file and what is wrong, before a game is played, and the file is left byte for byte as it was.
Learning stays within the same limits, so every table it makes loads again."""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import purestate
from purestate.agents.menace import BEAD_LIMIT, Menace, matchboxes
from purestate.agents.td import COUNT_LIMIT, Q_LIMIT, QLearning, QTable, Sarsa
from purestate.cli import app
from purestate.core import history
from purestate.core.episode import replay
from purestate.core.game import Game
from purestate.core.keys import key
from purestate.core.spec import SpecError
from purestate.io.files import FileFormatError
from purestate.io.tables import load_table, save_table, table_player

TTT = purestate.make("tictactoe")
DOTS = purestate.make("dots_and_boxes")
GAMES = {"tictactoe": TTT, "dots_and_boxes": DOTS}
INF = "__inf__"  # a JSON string swapped for the bare number 1e400 (which Python reads as inf)

Mutation = Callable[[dict[str, Any]], Any]


@functools.cache
def _trained(game_name: str, spec: str, seat: int = 0) -> tuple[Any, int]:
    """A table after 40 games (against random for MENACE, self-play for the TD learners)."""
    game, agent = GAMES[game_name], purestate.agent(spec)
    if isinstance(agent, Menace):
        agents: tuple[Any, Any] = (agent, purestate.agent("random"))
        if seat:
            agents = agents[::-1]
        tables = tuple(agent.initial_table(game, seat) if s == seat else None for s in (0, 1))
        steps = purestate.train(game, agents, tables, key(5), learning=(seat == 0, seat == 1))
        return list(itertools.islice(steps, 40))[-1].tables[seat], seat
    t0 = agent.initial_table(game, 0)
    steps = purestate.train(
        game, (agent, agent), (t0, t0), key(5), learning=(True, True), shared=True
    )
    return list(itertools.islice(steps, 40))[-1].tables[0], 0


def _saved(path: Path, game_name: str, spec: str, seat: int = 0) -> dict[str, Any]:
    table, seat = _trained(game_name, spec, seat)
    save_table(path, GAMES[game_name], purestate.agent(spec), table, seat, 40)
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _text(data: Any) -> str:
    return json.dumps(data, indent=1).replace(f'"{INF}"', "1e400")


def _refused(path: Path, game: Game[Any, Any], spec: str, text: str, message: str) -> None:
    """``load_table`` refuses the file with one line that starts with ``message`` after the path,
    and leaves the file as it was."""
    path.write_text(text)
    before = path.read_bytes()
    with pytest.raises(FileFormatError) as e:
        load_table(path, game, purestate.agent(spec))
    assert str(e.value).startswith(f"{path}: {message}"), str(e.value)
    assert "\n" not in str(e.value)
    assert path.read_bytes() == before


def _boxes(game_name: str, seat: int = 0) -> list[str]:
    """MENACE's box keys in breadth-first order (the order ``load_table`` looks for them in)."""
    return [b.key for b in matchboxes(GAMES[game_name], seat, False, False)]


def _first_move(data: dict[str, Any], box: str) -> str:
    moves: dict[str, int] = data["boxes"][box]["beads"]
    return min(moves, key=int)


def _set_beads(n: Any, box_no: int = 0) -> tuple[Mutation, str]:
    def mutate(data: dict[str, Any]) -> Any:
        box = _boxes(data["game"])[box_no]
        data["boxes"][box]["beads"][_first_move(data, box)] = n
        return data

    shown = "inf" if n == INF else repr(n)
    return mutate, f"bead count {shown} is not a whole number from 0 to {BEAD_LIMIT}"


# -- MENACE ------------------------------------------------------------------------------------

BEAD_CASES = {
    "overflowing to inf": INF,
    "huge": 10**30,
    "just over the limit": BEAD_LIMIT + 1,
    "negative": -1,
    "fractional": 2.5,
    "a string": "3",
    "a bool": True,
}


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("case", BEAD_CASES)
def test_a_bad_bead_count_names_its_box(tmp_path: Path, game_name: str, case: str) -> None:
    path = tmp_path / "table.json"
    data = _saved(path, game_name, "menace")
    mutate, message = _set_beads(BEAD_CASES[case], box_no=5)
    box = _boxes(game_name)[5]
    _refused(path, GAMES[game_name], "menace", _text(mutate(data)), f"box {box}: {message}")


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("which", [0, 7, -1])
def test_a_missing_box_is_named_at_load(tmp_path: Path, game_name: str, which: int) -> None:
    # the first missing box in breadth-first order, whatever the order of the file
    path = tmp_path / "table.json"
    data = _saved(path, game_name, "menace")
    keys = _boxes(game_name)
    del data["boxes"][keys[which]]
    del data["boxes"][keys[-2]]
    first = keys[which] if which != -1 else keys[-2]
    n = len(keys)
    _refused(
        path,
        GAMES[game_name],
        "menace",
        _text(data),
        f"box {first} is missing: MENACE playing first needs all {n} boxes, the table has {n - 2}",
    )


def _extra_box(box: str, beads: dict[str, int]) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        data["boxes"][box] = {"stage": None, "beads": beads}
        return data

    return mutate


def _noncanonical() -> tuple[str, str]:
    """A position MENACE meets, written in a frame other than its box's, and its box."""
    box = _boxes("tictactoe")[1]
    state = TTT.decode(box)
    for g in TTT.symmetries:
        other = TTT.encode(TTT.transform(state, g))
        if other != box:
            return other, box
    raise AssertionError("every image equals the box")


def _forced() -> str:
    return next(b.key for b in matchboxes(TTT, 0, True, False) if len(b.moves) == 1)


def _replace_moves(box_no: int, beads: dict[str, Any]) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        data["boxes"][_boxes(data["game"])[box_no]]["beads"] = beads
        return data

    return mutate


def _drop_move(data: dict[str, Any]) -> Any:
    box = _boxes("tictactoe")[1]
    del data["boxes"][box]["beads"]["4"]
    return data


BOX1 = _boxes("tictactoe")[1]  # .......OX: squares 7 and 8 are taken
NONCANONICAL, ITS_BOX = _noncanonical()
STRUCTURE_CASES: dict[str, tuple[Mutation, str]] = {
    "a box of the wrong size": (
        _extra_box("X.O.....", {"1": 1}),
        "box X.O.....: 'X.O.....' is not a board: expected 9 of X, O or '.'",
    ),
    "an unreachable box": (
        _extra_box("XXX......", {"3": 1}),
        "box XXX......: 'XXX......' is not a reachable position",
    ),
    "a box of the other player": (
        _extra_box("X........", {"1": 1}),
        "the boxes mix positions of both players (box X........ is for player 1",
    ),
    "a box not in canonical form": (
        _extra_box(NONCANONICAL, {"0": 1}),
        f"box {NONCANONICAL}: not a canonical position (MENACE keeps it in box {ITS_BOX})",
    ),
    "a box for a forced move": (
        _extra_box(_forced(), {str(_forced().index(".")): 1}),
        f"box {_forced()}: a forced move, and this MENACE makes no boxes for them",
    ),
    "beads on a taken square": (
        _replace_moves(1, {"8": 1}),
        f"box {BOX1}: move 8: square 8 is taken",
    ),
    "beads on no square at all": (
        _replace_moves(1, {"99": 1}),
        f"box {BOX1}: move 99: 99 is not a square",
    ),
    "a move given twice": (
        _replace_moves(1, {"4": 1, "04": 2}),
        f"box {BOX1}: move 04 is given twice",
    ),
    "a move without a count": (_drop_move, f"box {BOX1}: no bead count for move 4 (0 for none)"),
}


@pytest.mark.parametrize("case", STRUCTURE_CASES)
def test_a_bad_box_is_named_at_load(tmp_path: Path, case: str) -> None:
    path = tmp_path / "table.json"
    data = _saved(path, "tictactoe", "menace")
    mutate, message = STRUCTURE_CASES[case]
    _refused(path, TTT, "menace", _text(mutate(data)), message)


def test_a_table_of_other_options_says_which(tmp_path: Path) -> None:
    # Scroggs' MENACE gives one colour per symmetry-distinct move; Michie's a colour per move
    path = tmp_path / "table.json"
    _saved(path, "tictactoe", "menace:preset=scroggs")
    text = path.read_text()
    hint = "(the table was made by menace:preset=scroggs, not menace:preset=michie)"
    # the empty board: 0, 1 and 4 stand for the corners, the edges and the centre
    _refused(path, TTT, "menace", text, "box .........: no bead count for move 2 (0 for none)")
    assert _load_error(path, TTT, "menace").endswith(hint)
    _saved(path, "tictactoe", "menace")
    _refused(
        path,
        TTT,
        "menace:preset=scroggs",
        path.read_text(),
        "box .........: move 2 has no beads of its own in this MENACE (it shares move 0's colour)",
    )
    # and boxes for forced moves belong to include_forced=true (which one the file shows first
    # depends on its order)
    _saved(path, "tictactoe", "menace:include_forced=true")
    error = _load_error(path, TTT, "menace")
    made = "menace:preset=michie,include_forced=true"
    assert re.search(r": box [.XO]{9}: a forced move, .* \(include_forced=false\) ", error), error
    assert error.endswith(f"(the table was made by {made}, not menace:preset=michie)"), error


def _load_error(path: Path, game: Game[Any, Any], spec: str) -> str:
    with pytest.raises(FileFormatError) as e:
        load_table(path, game, purestate.agent(spec))
    return str(e.value)


def test_a_seat_field_that_contradicts_the_boxes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    _saved(path, "tictactoe", "menace", seat=1)
    loaded = load_table(path, TTT, purestate.agent("menace"))
    assert loaded.table == _trained("tictactoe", "menace", 1)[0] and loaded.seat == 1
    data = _saved(path, "tictactoe", "menace")
    data["seat"] = 1
    _refused(path, TTT, "menace", _text(data), "its 'seat' is 1 but its table plays the other seat")


def test_menace_learning_stops_at_the_bead_limit(tmp_path: Path) -> None:
    m = purestate.agent("menace:incentives=2000000000/1/-1")
    assert isinstance(m, Menace)
    t = m.learn(TTT, m.initial_table(TTT, 0), replay(TTT, [0, 3, 1, 4, 2]), 0)
    t = m.learn(TTT, t, replay(TTT, [0, 3, 1, 4, 2]), 0)
    assert t.boxes["........."][0] == BEAD_LIMIT
    path = tmp_path / "table.json"
    save_table(path, TTT, m, t, 0, 2)
    assert load_table(path, TTT, m).table == t
    with pytest.raises(SpecError, match="at most"):
        purestate.agent(f"menace:beads={BEAD_LIMIT + 1}")


# -- Q-learning and SARSA ----------------------------------------------------------------------

TD_SPECS = ["qlearning", "sarsa"]
VALUE_CASES: dict[str, Any] = {
    "NaN": float("nan"),
    "Infinity": float("inf"),
    "-Infinity": float("-inf"),
    "overflowing to inf": INF,
    "huge": 1e308,
    "a huge int": 10**400,
    "just over the limit": Q_LIMIT * 1.5,
}


def _first_row(data: dict[str, Any]) -> tuple[str, str]:
    """The first position (in sorted order) with a move, and its first move."""
    position = min(k for k, row in data["q"].items() if row)
    return position, min(data["q"][position], key=int)


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("spec", TD_SPECS)
@pytest.mark.parametrize("case", VALUE_CASES)
def test_a_bad_value_names_its_position(
    tmp_path: Path, game_name: str, spec: str, case: str
) -> None:
    path = tmp_path / "table.json"
    data = _saved(path, game_name, spec)
    position, move = _first_row(data)
    v = VALUE_CASES[case]
    data["q"][position][move] = v
    shown = "inf" if v == INF else repr(v)
    message = (
        f"position {position!r}, move {move!r}: value {shown} is not a finite number within ±1e+09"
    )
    _refused(path, GAMES[game_name], spec, _text(data), message)


def _row_case(value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        position, _ = _first_row(data)
        data["q"][position] = value
        return data

    return mutate


def _set(field: str, value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        data[field] = value
        return data

    return mutate


def _visit(value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        data["visits"][min(data["visits"])] = value
        return data

    return mutate


def _finished(data: dict[str, Any]) -> Any:
    data["q"]["XXXOO...."] = {}
    return data


def _twice(data: dict[str, Any]) -> Any:
    position, move = _first_row(data)
    data["q"][position]["0" + move] = 0.5
    return data


def _bool_value(data: dict[str, Any]) -> Any:
    position, move = _first_row(data)
    data["q"][position][move] = True
    return data


COUNT = f"is not a whole number from 0 to {COUNT_LIMIT}"
PER_SEAT = f"'per_seat_games' must be two whole numbers from 0 to {COUNT_LIMIT}"
VISITS = "'visits' must be an object of position -> count"
SEED_CASES: dict[str, tuple[Mutation, str]] = {
    "visits a list": (_set("visits", [1, 2]), VISITS),
    "visits a string": (_set("visits", "abc"), VISITS),
    "visits null": (_set("visits", None), VISITS),
    "a negative visit count": (_visit(-1), f"visit count -1 of '<v>' {COUNT}"),
    "a bool visit count": (_visit(True), f"visit count True of '<v>' {COUNT}"),
    "a fractional visit count": (_visit(1.5), f"visit count 1.5 of '<v>' {COUNT}"),
    "a huge visit count": (_visit(10**30), f"visit count {10**30} of '<v>' {COUNT}"),
    "a nested visit count": (_visit({"a": 1}), f"visit count {{'a': 1}} of '<v>' {COUNT}"),
    "negative games per seat": (_set("per_seat_games", [-5, 0]), f"{PER_SEAT}; got [-5, 0]"),
    "bool games per seat": (_set("per_seat_games", [True, 0]), f"{PER_SEAT}; got [True, 0]"),
    "huge games per seat": (_set("per_seat_games", [10**400, 0]), PER_SEAT),
    "one count per seat missing": (_set("per_seat_games", [3]), f"{PER_SEAT}; got [3]"),
    "a finished position": (_finished, "position 'XXXOO....': the game is already over there"),
    "a move given twice": (_twice, "position '<p>': move '0<m>' is given twice"),
    "a bool value": (_bool_value, "position '<p>', move '<m>': value True is not a number"),
}


def _seed_case(data: dict[str, Any], case: str) -> tuple[str, str]:
    """The text of a seed-preset table broken as ``case`` says, and the refusal expected."""
    position, move = _first_row(data)
    visited = min(data["visits"])
    mutate, message = SEED_CASES[case]
    text = _text(mutate(data))
    return text, message.replace("<v>", visited).replace("<p>", position).replace("<m>", move)


@pytest.mark.parametrize("case", SEED_CASES)
def test_a_bad_count_or_row_is_named(tmp_path: Path, case: str) -> None:
    # the notebook's learner (here by its old name) is the one that keeps visit counts
    spec = "qlearning:preset=seed"
    path = tmp_path / "table.json"
    text, message = _seed_case(_saved(path, "tictactoe", spec), case)
    _refused(path, TTT, spec, text, message)


def _saturated(game: Game[Any, Any], spec: str, value: float) -> QTable:
    """A trained table with every value set to ``value``."""
    table, _ = _trained("dots_and_boxes" if game is DOTS else "tictactoe", spec)
    assert isinstance(table, QTable)
    q = table.q.evolver()
    for k, row in table.q.items():
        q[k] = (value,) * len(row)
    return QTable(q.persistent(), table.visits, table.games)


@pytest.mark.parametrize("spec", ["qlearning", "sarsa:lam=0"])
def test_learning_stays_within_the_value_limit(tmp_path: Path, spec: str) -> None:
    # on dots and boxes a box pays +1 and keeps the turn, so a target is 1 + Q(next): a table
    # at the limit learns values past it without the clamp (one-step targets show it at once)
    agent = purestate.agent(spec)
    start = _saturated(DOTS, spec, Q_LIMIT)
    t = start
    steps = purestate.train(
        DOTS, (agent, agent), (t, t), key(9), learning=(True, True), shared=True
    )
    generic = list(itertools.islice(steps, 60))[-1].tables[0]
    values = [v for row in generic.q.values() for v in row]
    assert all(-Q_LIMIT <= v <= Q_LIMIT for v in values)
    # the fused self-play loop clamps the same way, to the very same table
    assert isinstance(agent, QLearning | Sarsa)
    assert agent.selfplay(DOTS, start, key(9), 60) == generic
    path = tmp_path / "table.json"
    save_table(path, DOTS, agent, generic, 0, 60)
    assert load_table(path, DOTS, agent).table == generic


def test_learning_keeps_counts_within_the_limit(tmp_path: Path) -> None:
    agent = purestate.agent("qlearning:preset=seed")
    table, _ = _trained("tictactoe", "qlearning:preset=seed")
    full = QTable(
        table.q, table.visits.update({k: COUNT_LIMIT for k in table.visits}), (COUNT_LIMIT, 0)
    )
    t = agent.learn(TTT, full, replay(TTT, [0, 3, 1, 4, 2]), 0)
    assert t.games == (COUNT_LIMIT, 0) and max(t.visits.values()) == COUNT_LIMIT
    for fused in ("qlearning", "sarsa"):
        a = purestate.agent(fused)
        assert isinstance(a, QLearning | Sarsa)
        assert a.selfplay(TTT, QTable(games=(COUNT_LIMIT, COUNT_LIMIT)), key(1), 3).games == (
            COUNT_LIMIT,
            COUNT_LIMIT,
        )
    path = tmp_path / "table.json"
    save_table(path, TTT, agent, t, 0, 1)
    assert load_table(path, TTT, agent).table == t


# -- the command line --------------------------------------------------------------------------

runner = CliRunner()


def _cli_refuses(args: list[str], path: Path, message: str) -> None:
    """The command exits 2 with one line on stderr naming the file, and leaves the file alone.

    A run folder that keeps a digest of its tables refuses an edited table before reading it
    (``selfplay --resume``); that refusal stands in for ``message`` where it comes first.
    """
    before = path.read_bytes()
    result = runner.invoke(app, args, input="")
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, result.stderr
    named = lines[0].startswith(f"error: {path}: ") and message in lines[0]
    checkpoint = f"error: {path} does not match the checkpoint in {path.parent / 'checkpoint.json'}"
    assert named or (args[0] == "selfplay" and lines[0].startswith(checkpoint)), lines[0]
    assert "Traceback" not in result.output
    assert path.read_bytes() == before


def _commands(path: Path, game: str, spec: str, seat: str = "first") -> dict[str, list[str]]:
    p = str(path)
    return {
        "evaluate": ["evaluate", "--game", game, "--agent", spec, "--table", p, "--games", "2"],
        "selfplay": ["selfplay", "--game", game, "--agent", spec, "--opponent", "random",
                     "--seat", seat, "--games", "50", "--resume", p, "--no-plot"],
        "play": ["play", game, "--opponent", spec, "--table", p, "--seed", "1",
                 "--seat", "second" if seat == "first" else "first"],
        "analyze": ["analyze", "--game", game, "--agent", spec, "--table", p],
        "menace boxes": ["menace", "boxes", "--game", game, "--agent", spec, "--table", p],
    }  # fmt: skip


def _run_folder(tmp_path: Path, game: str, spec: str) -> Path:
    """A real run folder written by ``purestate selfplay``; its table.json is the one to edit."""
    out = tmp_path / "run"
    args = ["selfplay", "--game", game, "--agent", spec, "--opponent", "random"]
    result = runner.invoke(app, [*args, "--games", "40", "--out", str(out), "--no-plot"])
    assert result.exit_code == 0, result.output
    return out / "table.json"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("command", ["evaluate", "selfplay", "play", "analyze", "menace boxes"])
def test_every_command_refuses_a_menace_table_missing_a_box(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, command: str
) -> None:
    # before, evaluate and selfplay died mid-run with a traceback on the first missing box
    monkeypatch.chdir(tmp_path)
    path = _run_folder(tmp_path, game, "menace")
    data = json.loads(path.read_text())
    first = _boxes(game)[0]
    del data["boxes"][first]
    path.write_text(_text(data))
    _cli_refuses(_commands(path, game, "menace")[command], path, f"box {first} is missing")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("spec", TD_SPECS)
@pytest.mark.parametrize("command", ["evaluate", "selfplay", "play", "analyze"])
def test_every_command_refuses_a_nan_q_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, spec: str, command: str
) -> None:
    monkeypatch.chdir(tmp_path)
    path = _run_folder(tmp_path, game, spec)
    data = json.loads(path.read_text())
    position, move = _first_row(data)
    data["q"][position][move] = float("nan")
    path.write_text(_text(data))
    message = f"position {position!r}, move {move!r}: value nan is not a finite number"
    _cli_refuses(_commands(path, game, spec)[command], path, message)


CLI_MENACE_CASES = {
    **{f"bead count {name}": _set_beads(n) for name, n in BEAD_CASES.items()},
    **STRUCTURE_CASES,
}


@pytest.mark.parametrize("case", CLI_MENACE_CASES)
def test_evaluate_refuses_each_bad_menace_table(tmp_path: Path, case: str) -> None:
    path = tmp_path / "table.json"
    data = _saved(path, "tictactoe", "menace")
    mutate, message = CLI_MENACE_CASES[case]
    path.write_text(_text(mutate(data)))
    _cli_refuses(_commands(path, "tictactoe", "menace")["evaluate"], path, message)


@pytest.mark.parametrize("case", [*VALUE_CASES, *SEED_CASES])
def test_evaluate_refuses_each_bad_q_table(tmp_path: Path, case: str) -> None:
    spec = "qlearning:preset=seed"
    path = tmp_path / "table.json"
    data = _saved(path, "tictactoe", spec)
    position, move = _first_row(data)
    if case in VALUE_CASES:
        data["q"][position][move] = VALUE_CASES[case]
        text, message = _text(data), f"position {position!r}, move {move!r}: value "
    else:
        text, message = _seed_case(data, case)
    path.write_text(text)
    _cli_refuses(_commands(path, "tictactoe", spec)["evaluate"], path, message)


def test_a_number_too_long_to_read_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    data = _saved(path, "tictactoe", "menace")
    mutate, _ = _set_beads("__long__")
    path.write_text(_text(mutate(data)).replace('"__long__"', "7" * 5000))
    _cli_refuses(
        _commands(path, "tictactoe", "menace")["evaluate"], path, "a number in it has more than"
    )
    path.write_text("[" * 100_000)
    _cli_refuses(_commands(path, "tictactoe", "menace")["evaluate"], path, "nested too deeply")


def test_play_suggests_the_seat_the_table_can_play(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    _saved(path, "tictactoe", "menace")  # MENACE plays first: the person must play second
    result = runner.invoke(app, ["play", "--opponent", "menace", "--table", str(path)], input="")
    assert result.exit_code == 2
    assert "this table plays your seat, first (X); try --seat second" in result.stderr


# -- a table names its game with its options (issue 21) ------------------------------------------


def _trained_dots(tmp_path: Path) -> Path:
    out = tmp_path / "dots"
    result = CliRunner().invoke(
        app,
        [
            "selfplay", "--game", "dots_and_boxes:rows=1,cols=2", "--agent", "qlearning",
            "--opponent", "self", "--games", "40", "--no-plot", "--out", str(out),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out / "table.json"


def test_evaluate_and_analyze_read_the_game_from_the_table(tmp_path: Path) -> None:
    table = _trained_dots(tmp_path)
    written = json.loads(table.read_text())["game_spec"]
    assert purestate.make_spec(written) == purestate.make("dots_and_boxes", rows=1, cols=2)
    runner = CliRunner()
    for args in (["evaluate", "--games", "3"], ["analyze"]):
        result = runner.invoke(app, [*args, "--table", str(table), "--json"])
        assert result.exit_code == 0, result.output
    figures = json.loads(runner.invoke(app, ["analyze", "--table", str(table), "--json"]).output)
    assert figures["game"] == "dots_and_boxes"
    # the same game given by hand gives the same figures
    again = runner.invoke(
        app, ["analyze", "--table", str(table), "--json", "--game", "dots_and_boxes:rows=1,cols=2"]
    )
    assert json.loads(again.output) == figures


def test_a_table_from_before_game_specs_loads_and_names_its_game_by_name(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    _saved(path, "tictactoe", "menace")
    data = json.loads(path.read_text())
    del data["game_spec"]
    path.write_text(json.dumps(data))
    assert load_table(path, TTT, purestate.agent("menace")).seat == 0
    result = CliRunner().invoke(app, ["evaluate", "--table", str(path), "--games", "2", "--json"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("bad", [0, 99, True, "5", 4.0, None])
def test_a_defaults_field_that_is_no_known_version_is_refused(tmp_path: Path, bad: Any) -> None:
    # the field says which defaults the file's agent spec was written under (core.history);
    # a version from a newer purestate, or anything else, is refused, not guessed at
    path = tmp_path / "table.json"
    data = _saved(path, "tictactoe", "menace")
    assert data["defaults"] == history.VERSION
    data["defaults"] = bad
    if bad is None:  # JSON null: the field absent in all but name, as in files from before it
        path.write_text(_text(data))
        assert load_table(path, TTT, purestate.agent("menace")).seat == 0
        return
    message = "its 'defaults' field is "
    _refused(path, TTT, "menace", _text(data), message)
    _cli_refuses(_commands(path, "tictactoe", "menace")["evaluate"], path, message)


def test_a_table_player_is_its_path_and_the_spec_after_the_last_question_mark() -> None:
    # one spelling for the tournament's entrants and the browser's opponents
    assert table_player("table:runs/a/table.npz") == ("runs/a/table.npz", None)
    assert table_player("table:runs/a?b/table.npz?alphazero:leaves=8") == (
        "runs/a?b/table.npz",
        "alphazero:leaves=8",
    )
    assert table_player("table:t.json?") == ("t.json", "")
    with pytest.raises(ValueError, match="table:PATH"):
        table_player("menace:preset=michie")
