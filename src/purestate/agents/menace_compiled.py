"""MENACE's ``train_games`` through the compiled loop (``agents/kernels/menace.py``).

The game is walked once into arrays (``game_graph``: every position reachable from the start,
numbered breadth first, with its legal moves' successors); MENACE's positions become rows of a
box's bead colours (read from ``_TrainingLoop.position``, the pure loop's own reading, so both
draw from the same colours in the same order); the opponent's draws are its ``list_draw``
(``core.agent.TabledDraws``) in every position it may face. The kernel then plays and learns
the games, and the episodes are rebuilt from the legal indices it played.

``compiled_train_games`` answers None where the compiled loop does not apply (no numba, a game
MENACE sees through a view, an opponent without ``list_draw``, a table whose boxes the
configuration does not describe); ``Menace.train_games`` then runs the pure loop, the reference.
Either way the episodes and tables are the same, bit for bit.
"""

from __future__ import annotations

from typing import Any, Literal

from attrs import frozen
from pyrsistent import pmap

from purestate.agents.menace import BEAD_LIMIT, Menace, MenaceTable, _TrainingLoop
from purestate.core import compiled
from purestate.core.agent import Agent
from purestate.core.episode import Episode, resign_returns
from purestate.core.game import Game
from purestate.core.hooks import list_draw_of, observation_of
from purestate.core.keys import Key, fold_bits, fold_in
from purestate.core.memo import memo

_KINDS = {"coin": 0, "choice": 1}  # the kernel's COIN and CHOICE

Loop = Literal["auto", "compiled", "python"]


@frozen(eq=False)
class GameGraph:
    """Every position of an enumerable game reachable from the start, as arrays.

    Attributes:
        states: The positions, breadth first from the start (``states[0]``).
        index: Position -> its number.
        legal: Each position's legal moves (empty where the game is over).
        child_start: Position ``s``'s successors are ``children[child_start[s] ..
            child_start[s + 1]]``, in the order of ``legal[s]``.
        children: The successors' numbers.
        mover: The player to move (-1 where the game is over).
        returns: Each finished position's returns (None elsewhere).
    """

    states: tuple[Any, ...]
    index: dict[Any, int]
    legal: tuple[tuple[Any, ...], ...]
    child_start: tuple[int, ...]
    children: tuple[int, ...]
    mover: tuple[int, ...]
    returns: tuple[tuple[float, float] | None, ...]


@memo(size=8, why="one walk per enumerable game a process trains MENACE on: few, and large")
def game_graph(game: Game[Any, Any]) -> GameGraph:
    """``game`` walked breadth first from its start (MENACE's games are enumerable)."""
    start = game.initial()
    states: list[Any] = [start]
    index = {start: 0}
    legal: list[tuple[Any, ...]] = []
    child_start = [0]
    children: list[int] = []
    mover: list[int] = []
    returns: list[tuple[float, float] | None] = []
    step, is_over = game.step, game.is_over
    for s in states:  # grows as it goes: breadth first
        if is_over(s):
            legal.append(())
            mover.append(-1)
            returns.append(game.returns(s))
        else:
            moves = tuple(game.legal(s))
            legal.append(moves)
            mover.append(game.to_move(s))
            returns.append(None)
            for m in moves:
                c = step(s, m)
                i = index.get(c)
                if i is None:
                    i = index[c] = len(states)
                    states.append(c)
                children.append(i)
        child_start.append(len(children))
    return GameGraph(
        tuple(states),
        index,
        tuple(legal),
        tuple(child_start),
        tuple(children),
        tuple(mover),
        tuple(returns),
    )


@frozen(eq=False)
class _Rows:
    """MENACE's positions as the kernel reads them (``kernels.menace.train``'s arguments)."""

    boxes: tuple[tuple[str, tuple[Any, ...]], ...]  # box key and its moves, in box number order
    refill: tuple[int, ...]
    position: tuple[int, ...]
    pos_box: tuple[int, ...]
    pos_start: tuple[int, ...]
    pos_moves: tuple[int, ...]
    pos_colour: tuple[int, ...]
    box_start: tuple[int, ...]
    outcome: tuple[int, ...]


@memo(size=32, why="one entry per (game, MENACE, seat, table layout) a process trains: few")
def _rows(
    game: Game[Any, Any],
    menace: Menace,
    seat: int,
    table_seat: int,
    layout: tuple[tuple[str, tuple[Any, ...]], ...],
) -> _Rows | None:
    """The rows of every position MENACE faces at ``seat`` with a table of ``layout`` (box key
    and moves, in the table's order); None where the pure loop would stop with an error on
    some position (it raises only if it meets it) or refill a box of unknown stage."""
    graph = game_graph(game)
    table = MenaceTable(table_seat, {k: dict.fromkeys(moves, 0) for k, moves in layout})
    loop = _TrainingLoop(menace, game, table, seat)
    numbers: dict[str, int] = {}
    boxes: list[tuple[str, tuple[Any, ...]]] = []
    refill: list[int] = []
    position = [-1] * len(graph.states)
    pos_box: list[int] = []
    pos_start = [0]
    pos_moves: list[int] = []
    pos_colour: list[int] = []
    outcome = [0] * len(graph.states)
    for s, state in enumerate(graph.states):
        done = graph.returns[s]
        if done is not None:
            r = done[seat]
            outcome[s] = (r > 0) - (r < 0)
            continue
        if graph.mover[s] != seat:
            continue
        try:
            here = loop.position(state)
        except ValueError:  # no box for a position with a choice: the pure loop says so
            return None
        legal = graph.legal[s]
        if here.counts is None:  # a forced move: row -1 plays legal index 0
            if legal[0] != here.moves[0]:
                return None
            continue
        b = numbers.get(here.key)
        if b is None:
            b = numbers[here.key] = len(boxes)
            boxes.append((here.key, tuple(table.boxes[here.key])))
            if here.stage is None and menace.empty == "refill":
                return None  # the pure loop would look its stage up and fail
            refill.append(-1 if here.stage is None else menace.stage_beads(here.stage))
        position[s] = len(pos_box)
        pos_box.append(b)
        where = {m: i for i, m in enumerate(legal)}
        pos_moves.extend(where[m] for m in here.moves)
        pos_colour.extend(-1 if c is None else c for c in here.rewards)
        pos_start.append(len(pos_moves))
    box_start = [0]
    for _, moves in boxes:
        box_start.append(box_start[-1] + len(moves))
    return _Rows(
        tuple(boxes),
        tuple(refill),
        tuple(position),
        tuple(pos_box),
        tuple(pos_start),
        tuple(pos_moves),
        tuple(pos_colour),
        tuple(box_start),
        tuple(outcome),
    )


@frozen(eq=False)
class _Draws:
    """The opponent's ``ListDraw`` in every position it faces, as legal indices."""

    kind: int
    p: float
    first_start: tuple[int, ...]
    first: tuple[int, ...]
    second_start: tuple[int, ...]
    second: tuple[int, ...]


@memo(size=32, why="one entry per (game, opponent, seat) a process trains against: few")
def _draws(game: Game[Any, Any], opponent: Agent, seat: int) -> _Draws | None:
    """What ``opponent`` draws from in each position where it moves (the other seat than
    ``seat``), or None without ``list_draw`` or with draws that change kind or coin."""
    list_draw = list_draw_of(opponent)
    if list_draw is None:
        return None
    graph = game_graph(game)
    kinds: set[tuple[str, float]] = set()
    first_start, second_start = [0], [0]
    first: list[int] = []
    second: list[int] = []
    for s, state in enumerate(graph.states):
        if graph.mover[s] == 1 - seat:
            drawn = list_draw(game, state)
            kinds.add((drawn.kind, drawn.p))
            where = {m: i for i, m in enumerate(graph.legal[s])}
            first.extend(where[m] for m in drawn.first)
            second.extend(where[m] for m in drawn.second)
        first_start.append(len(first))
        second_start.append(len(second))
    if len(kinds) > 1:
        return None
    kind, p = kinds.pop() if kinds else ("choice", 1.0)
    return _Draws(_KINDS[kind], p, tuple(first_start), tuple(first), tuple(second_start),
                  tuple(second))  # fmt: skip


def array_train_games(
    menace: Menace,
    game: Game[Any, Any],
    table: MenaceTable,
    seat: int,
    opponent: Agent,
    key: Key,
    games: int,
    start: int,
    loop: Loop = "auto",
    run_games: int = 0,
) -> tuple[MenaceTable, tuple[Episode, ...]] | None:
    """``Menace.train_games`` on the game's arrays, or None where they do not apply.

    Args:
        loop: ``"compiled"`` (the kernel; None without numba), ``"python"`` (its twin) or
            ``"auto"``: the kernel where numba runs and the run (``run_games``, this call's
            games if more) has ``COMPILED_FROM`` games or more, or the kernel already ran in this
            process; its twin otherwise.
        run_games: The games of the run this call is a stretch of.
    """
    if observation_of(game) is not None or list_draw_of(opponent) is None:
        return None
    kernel = None
    if loop == "compiled" or (
        loop == "auto" and (max(games, run_games) >= COMPILED_FROM or _warm())
    ):
        kernel = compiled.kernels("menace", compiled.AGENT_KERNELS)
        if kernel is None and loop == "compiled":
            return None
    layout = tuple((k, tuple(box)) for k, box in table.boxes.items())
    rows = _rows(game, menace, seat, table.seat, layout)
    draws = _draws(game, opponent, seat)
    if rows is None or draws is None:
        return None
    graph = game_graph(game)
    beads = [table.boxes[k][m] for k, moves in rows.boxes for m in moves]
    win, draw, loss = menace.incentives
    learning = (win, draw, loss, 1 if menace.empty == "floor" else 0, BEAD_LIMIT,
                1 if menace.empty == "refill" else 0)  # fmt: skip
    arrays = _Arrays(graph, rows, draws, seat, learning)
    if kernel is None:
        after = list(beads)
        episodes = _train_python(arrays, key, start, games, after)
    else:
        after, plies, lengths, resigned = _train_compiled(kernel, arrays, key, start, games, beads)
        episodes = _episodes(graph, plies, lengths, resigned)
    return _table(table, rows, beads, after), tuple(episodes)


COMPILED_FROM = 40_000
"""The run's games from which ``"auto"`` runs the kernel in a process that has not yet: numba's
start (its import and the first call's loading of the cached machine code, about 0.6 s of CPU)
costs about as much as the kernel saves on 30,000 games against the Python twin."""


def _warm() -> bool:
    """Whether numba runs here and the kernel already ran in this process (numba's start is
    paid): numba's dispatcher knows the signatures it loaded."""
    kernel = compiled.kernels("menace", compiled.AGENT_KERNELS) if compiled.loaded() else None
    return kernel is not None and bool(kernel.train.signatures)


@frozen(eq=False)
class _Arrays:
    """What both loops play on: the game, MENACE's rows, the opponent's draws, MENACE's seat and
    its learning (``win, draw, loss, floor, limit, refill``, as the kernel takes it)."""

    graph: GameGraph
    rows: _Rows
    draws: _Draws
    seat: int
    learning: tuple[int, int, int, int, int, int]


def _train_compiled(
    kernel: Any, arrays: _Arrays, key: Key, start: int, games: int, beads: list[int]
) -> tuple[list[int], list[int], list[int], list[int]]:
    """The kernel's games: the beads after them, the legal indices played, each game's length
    and who resigned in it (-1: nobody), as ``_train_python`` gives them."""
    import numpy as np

    graph, rows, draws, seat = arrays.graph, arrays.rows, arrays.draws, arrays.seat
    fixed = _numbered(graph, rows).arrays
    opponent = _numbered_draws(draws).arrays
    counts = np.array(beads, np.int64)
    rules = np.array(arrays.learning, np.int64)
    lengths = np.zeros(games, np.int64)
    resigned = np.zeros(games, np.int64)
    plies: list[int] = []
    done = 0
    room = 16  # plies per game kept for the games left: more after a game that did not fit
    while done < games:
        buffer = np.zeros(room * (games - done), np.int64)
        n = kernel.train(compiled.as_int64(key), start + done, games - done, seat, 0, *fixed,
                         counts, rules, draws.kind, draws.p, *opponent, buffer, lengths[done:],
                         resigned[done:])  # fmt: skip
        played = abs(n)
        plies += buffer[: int(lengths[done : done + played].sum())].tolist()
        done += played
        room = room if played else 2 * room
        if n < 0:
            break  # refused: every later game is refused too
    return counts.tolist(), plies, lengths[:done].tolist(), resigned[:done].tolist()


@frozen(eq=False)
class _Numbered:
    """Int64 arrays for the kernel (it only reads them), in its order of arguments."""

    arrays: tuple[Any, ...]


@memo(size=32, why="one entry per (graph, rows) pair, themselves memoised: few")
def _numbered(graph: GameGraph, rows: _Rows) -> _Numbered:
    """The kernel's arrays of the game and of MENACE's rows."""
    import numpy as np

    columns = (graph.child_start, graph.children, graph.mover, rows.outcome, rows.position,
               rows.pos_box, rows.pos_start, rows.pos_moves, rows.pos_colour, rows.box_start,
               rows.refill)  # fmt: skip
    return _Numbered(tuple(np.array(x, np.int64) for x in columns))


@memo(size=32, why="one entry per opponent's draws, themselves memoised: few")
def _numbered_draws(draws: _Draws) -> _Numbered:
    """The kernel's arrays of the opponent's draws."""
    import numpy as np

    columns = (draws.first_start, draws.first, draws.second_start, draws.second)
    return _Numbered(tuple(np.array(x, np.int64) for x in columns))


def _episodes(
    graph: GameGraph, plies: list[int], lengths: list[int], resigned: list[int]
) -> list[Episode]:
    """The episodes of the games played (the legal index of every move on ``plies``, the games
    one after another)."""
    states_of, legal_of, returns_of = graph.states, graph.legal, graph.returns
    children, child_start, mover = graph.children, graph.child_start, graph.mover
    out: list[Episode] = []
    at = 0
    for length, gave_up in zip(lengths, resigned, strict=True):
        s = 0
        ids = [0]
        moves = []
        for li in plies[at : at + length]:
            moves.append(legal_of[s][li])
            s = children[child_start[s] + li]
            ids.append(s)
        at += length
        states = tuple(states_of[i] for i in ids)
        movers = tuple(mover[i] for i in ids[:-1])
        if gave_up >= 0:
            out.append(Episode(states, tuple(moves), movers, resign_returns(gave_up), gave_up))
        else:
            returns = returns_of[s]
            assert returns is not None  # the games are played to the end
            out.append(Episode(states, tuple(moves), movers, returns))
    return out


def _table(table: MenaceTable, rows: _Rows, before: list[int], after: list[int]) -> MenaceTable:
    """``table`` with the beads of every box the games changed written back."""
    ev = table.boxes.evolver()
    ends = rows.box_start
    for (k, moves), a, e in zip(rows.boxes, ends, ends[1:], strict=False):
        if before[a:e] != after[a:e]:
            ev[k] = pmap(dict(zip(moves, after[a:e], strict=True)))
    return MenaceTable(table.seat, ev.persistent())


@frozen(eq=False)
class _Plan:
    """The arrays as tuples per position, for the Python twin: for each position, its successors
    by legal index and what the player to move draws from there (``_plan``)."""

    children: tuple[tuple[int, ...], ...]
    mine: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]] | None, ...]
    theirs: tuple[tuple[tuple[int, ...], tuple[int, ...]] | None, ...]


@memo(size=32, why="one entry per (rows, draws) pair, themselves memoised: few")
def _plan(graph: GameGraph, rows: _Rows, draws: _Draws, seat: int) -> _Plan:
    """``_Plan`` of the arrays: MENACE's rows as (box, first bead, legal indices, colours), or
    None for a forced move; the opponent's draws as (first, second) legal indices."""
    cs, kids, mover = graph.child_start, graph.children, graph.mover
    position, pos_box, pos_start = rows.position, rows.pos_box, rows.pos_start
    pos_moves, pos_colour, box_start = rows.pos_moves, rows.pos_colour, rows.box_start
    fs, first, ss, second = draws.first_start, draws.first, draws.second_start, draws.second
    mine: list[tuple[int, int, tuple[int, ...], tuple[int, ...]] | None] = []
    theirs: list[tuple[tuple[int, ...], tuple[int, ...]] | None] = []
    for s in range(len(graph.states)):
        row = position[s]
        if mover[s] == seat and row >= 0:
            a, e, b = pos_start[row], pos_start[row + 1], pos_box[row]
            mine.append((b, box_start[b], tuple(pos_moves[a:e]), tuple(pos_colour[a:e])))
        else:
            mine.append(None)
        theirs.append((tuple(first[fs[s] : fs[s + 1]]), tuple(second[ss[s] : ss[s + 1]])))
    children = tuple(tuple(kids[cs[s] : cs[s + 1]]) for s in range(len(graph.states)))
    return _Plan(children, tuple(mine), tuple(theirs))


def _train_python(
    arrays: _Arrays, key: Key, start: int, games: int, beads: list[int]
) -> list[Episode]:
    """The kernel's loop in Python (``kernels.menace.train``, draw for draw) on ``_plan``'s
    tuples, building the episodes as it goes; ``beads`` changes in place."""
    graph, rows, draws, seat = arrays.graph, arrays.rows, arrays.draws, arrays.seat
    plan = _plan(graph, rows, draws, seat)
    children_of, mine, theirs = plan.children, plan.mine, plan.theirs
    states_of, legal_of, returns_of, mover = (graph.states, graph.legal, graph.returns,
                                              graph.mover)  # fmt: skip
    box_start, box_refill = rows.box_start, rows.refill
    choice, p = draws.kind == _KINDS["choice"], draws.p
    coin = 1 << 64 if p >= 1.0 else p * 4294967296.0
    win, draw, loss, floor, limit, refill = arrays.learning
    unit = 1.0 / (1 << 53)
    out: list[Episode] = []
    for g in range(start, start + games):
        gk = fold_in(key, g)
        s = ply = 0
        ids = [0]
        moves: list[Any] = []
        drawn: list[tuple[int, int]] = []
        gave_up = -1
        moved = False
        while kids := children_of[s]:
            if mover[s] == seat:
                here = mine[s]
                if here is None:
                    li = 0
                else:
                    b, off, options, colours = here
                    n = len(options)
                    counts = beads[off : off + n]
                    total = sum(counts)
                    if total == 0:
                        if not refill:
                            gave_up = seat
                            break
                        counts = [box_refill[b]] * n
                        total = box_refill[b] * n
                    target = (fold_bits(gk, ply) >> 11) * unit * total
                    acc = 0.0
                    j = n - 1
                    for i, c in enumerate(counts):
                        acc += c
                        if target < acc:
                            j = i
                            break
                    li = options[j]
                    if colours[j] >= 0:
                        drawn.append((b, colours[j]))
                moved = True
            else:
                r = fold_bits(gk, ply)
                first, second = theirs[s]  # type: ignore[misc]
                if choice:
                    li = first[(r * len(first)) >> 64]
                elif (r >> 32) < coin:
                    li = first[((r & 0xFFFFFFFF) * len(first)) >> 32]
                else:
                    li = second[((r & 0xFFFFFFFF) * len(second)) >> 32]
            moves.append(legal_of[s][li])
            s = kids[li]
            ids.append(s)
            ply += 1
        result = (-1 if gave_up == seat else 1) if gave_up >= 0 else _sign(returns_of[s], seat)
        delta = win if result > 0 else loss if result < 0 else draw
        for b, colour in drawn:
            off, end = box_start[b], box_start[b + 1]
            if refill and box_refill[b] >= 0 and not any(beads[off:end]):
                beads[off:end] = [box_refill[b]] * (end - off)
            beads[off + colour] = min(limit, max(floor, beads[off + colour] + delta))
        states = tuple([states_of[i] for i in ids])
        movers = tuple([mover[i] for i in ids[:-1]])
        if gave_up >= 0:
            out.append(Episode(states, tuple(moves), movers, resign_returns(gave_up), gave_up))
            if gave_up == seat and not moved:
                break  # refused: every later game is refused too
        else:
            out.append(Episode(states, tuple(moves), movers, returns_of[s]))  # type: ignore[arg-type]
    return out


def _sign(returns: tuple[float, float] | None, seat: int) -> int:
    """``Episode.outcome`` of a finished position's returns."""
    assert returns is not None  # the games are played to the end
    r = returns[seat]
    return (r > 0) - (r < 0)
