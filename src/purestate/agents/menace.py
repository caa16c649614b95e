"""MENACE, Michie's Matchbox Educable Noughts And Crosses Engine, for any small game.

One matchbox per position MENACE can face, keyed by the canonical form of the position (so
positions equal up to a symmetry share a box). A box holds beads for legal moves; MENACE draws a
bead at random and plays its move. After the game every box used gets ``incentives`` beads of the
colour drawn: by default +3 for a win, +1 for a draw, -1 for a loss.

Michie's configuration (the default, ``preset=michie``) gives exactly 304 boxes on tic-tac-toe
when MENACE plays first: boxes for the positions it faces on its 1st/3rd/5th/7th move, the
forced last move played automatically, finished games skipped (1 + 12 + 108 + 183). Initial
beads are 4/3/2/1 by MENACE's move number. ``preset=scroggs`` is Matthew Scroggs' online MENACE:
8/4/2/1 beads and one bead colour per symmetry-distinct move. ``preset=tuned`` is still Michie's
machine with other numbers, found by a sweep: 4/2/1 beads, incentives +8/+6/-6, one colour per
symmetry-distinct move, empty boxes refilled; it learns to hold ``perfect`` to draws far sooner.

MENACE needs a box for every position it can face, so on a game with more positions than
``purestate.solve.bounds.POSITION_LIMIT`` (ultimate tic-tac-toe, Tron, dots and boxes beyond six
boxes) it refuses at once, with one line, instead of enumerating for ever.

When a box is empty MENACE follows ``empty``: ``resign`` (Scroggs; the game is a loss, the earlier
moves are punished, and an empty *first* box means MENACE refuses to play), ``refill`` (the box
is refilled with its initial beads, as skeeto's menace-lua does) or ``floor`` (a bead count never
drops below 1, so a box never empties).

The table is a ``MenaceTable``: a pyrsistent map from box key to a map from move to bead count.
``learn`` returns a new table and leaves its input untouched. A bead count is a whole number from 0
to ``BEAD_LIMIT``: learning stops adding beads there, and a table file beyond it is refused.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from itertools import islice
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from attrs import evolve, field, fields, frozen
from pyrsistent import PMap, pmap

from purestate.core.agent import Agent, Decision, check_seat
from purestate.core.episode import Episode, agent_moves, resign_returns
from purestate.core.game import Game, require_game
from purestate.core.hooks import observation_of
from purestate.core.keys import Key, fold_in, weighted_index
from purestate.core.learning import train
from purestate.core.memo import memo
from purestate.core.spec import SpecError, build, format_spec
from purestate.solve.bounds import require_whole_game

BEAD_LIMIT = 10**9
"""The most beads one colour may hold. Bead draws add counts up as floats; below this limit a
box's total stays an exact float (and an exact number for any JSON reader), whatever the game."""

Preset = Literal["michie", "scroggs", "tuned"]
SymmetricMoves = Literal["dedupe", "all"]
EmptyPolicy = Literal["resign", "refill", "floor"]

_PRESETS: dict[str, dict[str, Any]] = {
    "michie": {"beads": (4, 3, 2, 1), "symmetric_moves": "all"},
    "scroggs": {"beads": (8, 4, 2, 1), "symmetric_moves": "dedupe"},
    # chosen by the sweep in docs/experiments/menace-presets.md: few starting beads and large
    # incentives make one game move the odds a lot, and a refilled box never ends a run
    "tuned": {
        "beads": (4, 2, 1),
        "incentives": (8, 6, -6),
        "symmetric_moves": "dedupe",
        "empty": "refill",
    },
}


@frozen
class Box:
    """A matchbox as generated: where it stands and the moves that get beads.

    Attributes:
        key: The encoded canonical position.
        stage: MENACE's move number in this position (1 for its first move).
        moves: The moves (in the canonical frame) that hold beads.
        orbit: For every legal move of the canonical position, the move of ``moves`` whose
            bead stands for it (itself unless ``symmetric_moves=dedupe`` merged it).
    """

    key: str
    stage: int
    moves: tuple[Any, ...]
    orbit: PMap[Any, Any]


def _as_pmap(boxes: Any) -> PMap[str, PMap[Any, int]]:
    return boxes if isinstance(boxes, PMap) else pmap({k: pmap(v) for k, v in boxes.items()})


def require_enumerable(game: Game[Any, Any]) -> None:
    """Refuse at once (``TooLarge``) a game with too many positions for a matchbox each."""
    require_whole_game(
        game,
        "menace",
        "a matchbox for every position it can face",
        "qlearning (which keeps only the positions it meets) or mcts",
    )


# keyed by (game, position): MENACE plays enumerable games (up to 10**7 positions), so bounded
@memo(size=1 << 16, why="up to 10**7 positions per game; tic-tac-toe's 5,478 fit many times")
def box_key(game: Game[Any, Any], state: Any) -> tuple[str, int]:
    """The key of the box for ``state`` and the symmetry that maps ``state`` to it (memoised)."""
    rep, g = game.canonical(state)
    return game.encode(rep), g


@frozen
class MenaceTable:
    """MENACE's matchboxes.

    Attributes:
        seat: The player MENACE plays (0 moves first).
        boxes: Box key -> (move -> bead count); moves are in the canonical frame.
    """

    seat: int
    boxes: PMap[str, PMap[Any, int]] = field(converter=_as_pmap)

    @property
    def beads(self) -> int:
        """The number of beads in all boxes."""
        return sum(sum(b.values()) for b in self.boxes.values())


@memo(size=32, why="one entry per (game, seat, options) a process plays: few, and large")
def matchboxes(
    game: Game[Any, Any], seat: int, include_forced: bool, dedupe: bool
) -> tuple[Box, ...]:
    """Every box a MENACE playing ``seat`` needs, in breadth-first order.

    A box is made for each canonical, non-terminal position reachable from the start where
    ``seat`` is to move and more than one move is legal (any number with ``include_forced``).
    Pure and memoised: the result depends only on its arguments.

    Raises:
        TooLarge: at once, before the walk, if the game is too large to enumerate.
    """
    require_enumerable(game)
    start = game.initial()
    # the stage of a position is 1 + the number of moves ``seat`` made to reach it
    stage_of: dict[Any, int] = {start: 1}
    queue = deque([start])
    boxes: dict[str, Box] = {}
    while queue:
        s = queue.popleft()
        if game.is_over(s):
            continue
        legal = game.legal(s)
        mover = game.to_move(s)
        stage = stage_of[s]
        if mover == seat and (include_forced or len(legal) > 1):
            # through the memo: the training loops look the same positions up again
            k, _ = box_key(game, s)
            if k not in boxes:
                boxes[k] = _box(game, game.canonical(s)[0], k, stage, dedupe)
        nxt_stage = stage + 1 if mover == seat else stage
        for m in legal:
            c = game.step(s, m)
            if c not in stage_of:
                stage_of[c] = nxt_stage
                queue.append(c)
    return tuple(boxes.values())


def _box(game: Game[Any, Any], rep: Any, key: str, stage: int, dedupe: bool) -> Box:
    legal = game.legal(rep)
    if not dedupe:
        return Box(key, stage, legal, pmap({m: m for m in legal}))
    stabiliser = [g for g in game.symmetries if game.transform(rep, g) == rep]
    orbit: dict[Any, Any] = {}
    reps: list[Any] = []
    for m in legal:
        if m in orbit:
            continue
        images = {game.transform_move(m, g) for g in stabiliser}
        reps.append(m)
        for i in images:
            orbit[i] = m
    return Box(key, stage, tuple(reps), pmap(orbit))


@memo(size=32, why="one entry per (game, seat, options) a process plays: few, and large")
def box_index(
    game: Game[Any, Any], seat: int, include_forced: bool, dedupe: bool
) -> Mapping[str, Box]:
    """MENACE's boxes for ``seat`` by box key (the options as ``Menace``'s), read-only: every
    caller shares this one index (``learn`` looks boxes up in it per move)."""
    return MappingProxyType({b.key: b for b in matchboxes(game, seat, include_forced, dedupe)})


def _forced(game: Game[Any, Any], state: Any, legal: Any, k: str) -> Any:
    """The only legal move of a position MENACE has no box for (a forced move), or an error."""
    if len(legal) == 1:
        return legal[0]
    raise ValueError(
        f"MENACE has no matchbox for position {k} (is this table for player {game.to_move(state)}?)"
    )


@frozen
class Menace:
    """MENACE's configuration (its options as spec-string fields).

    Attributes:
        preset: ``michie`` (4/3/2/1 beads on every legal move), ``scroggs`` (8/4/2/1 beads, one
            colour per symmetry-distinct move) or ``tuned`` (4/2/1 beads, incentives 8/6/-6, one
            colour per symmetry-distinct move, empty boxes refilled). Options given explicitly
            override the preset.
        beads: Initial beads per move, by MENACE's move number (the last value repeats).
        incentives: Beads added for a win, a draw and a loss (the loss is usually negative).
        symmetric_moves: ``dedupe`` merges moves equal under the position's symmetries into one
            bead colour; ``all`` gives every legal move its own beads.
        include_forced: Also make boxes for positions with a single legal move (338 boxes on
            tic-tac-toe instead of 304).
        empty: What an empty box means: ``resign``, ``refill`` or ``floor``.
    """

    preset: Preset = "michie"
    beads: tuple[int, ...] = (4, 3, 2, 1)
    incentives: tuple[int, int, int] = (3, 1, -1)
    symmetric_moves: SymmetricMoves = "all"
    include_forced: bool = False
    empty: EmptyPolicy = "resign"

    learns: ClassVar[bool] = True
    # a MENACE for the second player needs boxes of its own (289 on tic-tac-toe), so self-play
    # pits two MENACEs with separate tables, as Scroggs' MENACE2
    selfplay_tables: ClassVar[str] = "separate"
    table_format: ClassVar[str] = "purestate.menace/1"

    def __attrs_post_init__(self) -> None:
        if not self.beads or any(b < 0 for b in self.beads) or self.beads[0] == 0:
            raise ValueError(
                f"beads must be non-negative with a positive first stage: {self.beads}"
            )
        if max(self.beads) > BEAD_LIMIT:
            raise ValueError(f"beads must be at most {BEAD_LIMIT}: {self.beads}")

    @classmethod
    def from_params(cls, params: dict[str, str]) -> Menace:
        """Build from spec options; ``preset`` sets the defaults the other options override."""
        preset = params.get("preset", "michie")
        if preset not in _PRESETS:
            raise SpecError(
                f"menace option 'preset' must be one of {', '.join(_PRESETS)}; got {preset!r}"
            )
        base: Menace = build(cls, "menace", params)
        overrides = {k: v for k, v in _PRESETS[preset].items() if k not in params}
        return evolve(base, **overrides)

    @property
    def spec(self) -> str:
        """``menace:preset=...`` plus the options that differ from the preset."""
        preset_default = evolve(Menace(), preset=self.preset, **_PRESETS[self.preset])
        differing = {
            f.name: getattr(self, f.name)
            for f in fields(Menace)
            if f.name != "preset" and getattr(self, f.name) != getattr(preset_default, f.name)
        }
        rest = format_spec("menace", evolve(Menace(), **differing), always=tuple(differing))
        parts = [f"preset={self.preset}", *filter(None, rest.partition(":")[2].split(","))]
        return "menace:" + ",".join(parts)

    @property
    def dedupe(self) -> bool:
        """Whether symmetric moves share a bead colour."""
        return self.symmetric_moves == "dedupe"

    def check_game(self, game: Game[Any, Any]) -> None:
        """Refuse at once (``TooLarge``) a game with too many positions for a box each."""
        require_enumerable(game)

    def boxes_for(self, game: Game[Any, Any], seat: int) -> tuple[Box, ...]:
        """The matchboxes this configuration needs to play ``seat``."""
        return matchboxes(game, seat, self.include_forced, self.dedupe)

    def stage_beads(self, stage: int) -> int:
        """Initial beads per move in a box of MENACE's move number ``stage``."""
        return self.beads[min(stage, len(self.beads)) - 1]

    def initial_table(self, game: Game[Any, Any], seat: int) -> MenaceTable:
        """Fresh boxes: ``stage_beads`` beads for each move, by stage.

        Raises:
            ValueError: for a seat other than 0 or 1.
        """
        check_seat(seat)
        boxes = {
            b.key: pmap({m: self.stage_beads(b.stage) for m in b.moves})
            for b in self.boxes_for(game, seat)
        }
        return MenaceTable(seat, pmap(boxes))

    def act(self, game: Game[Any, Any], table: MenaceTable, state: Any, key: Key) -> Decision[Any]:
        """Draw a bead from the position's box (or play a forced move, or resign)."""
        legal = game.legal(state)
        k, g = box_key(game, state)
        box = table.boxes.get(k)
        if box is None:
            return Decision(_forced(game, state, legal, k))
        moves = tuple(box)
        counts = [box[m] for m in moves]
        if sum(counts) == 0:
            index = box_index(game, table.seat, self.include_forced, self.dedupe)
            refilled = self._refill(len(moves), index, k)
            if refilled is None:
                return Decision(None)
            counts = refilled
        chosen = moves[weighted_index(key, counts)]
        return Decision(game.transform_move(chosen, game.inverse(g)))

    def greedy(self, game: Game[Any, Any], table: MenaceTable, state: Any) -> Any:
        """The move with the most beads, MENACE's policy without the draw.

        Ties go to the smallest move in the box's (canonical) frame, the first the table file
        lists, so the greedy policy is deterministic and ``analyze`` scores the very moves
        ``evaluate`` plays. An empty box resigns (None) as ``act`` does, unless ``empty=refill``:
        refilled beads are equal, so its smallest move. A forced move without a box is played; a
        missing box is an error, as in ``act``.
        """
        legal = game.legal(state)
        k, g = box_key(game, state)
        box = table.boxes.get(k)
        if box is None:
            return _forced(game, state, legal, k)
        top = max(box.values(), default=0)
        if top == 0 and (self.empty != "refill" or not box):
            return None
        best = min(m for m, n in box.items() if n == top)
        return game.transform_move(best, game.inverse(g))

    def learn(
        self, game: Game[Any, Any], table: MenaceTable, episode: Episode, seat: int
    ) -> MenaceTable:
        """Add the outcome's incentive to the drawn bead's colour in every box used."""
        outcome = episode.outcome(seat)
        ev = table.boxes.evolver()
        for k, canon, info in self._beads_used(game, table, episode, seat):
            box = ev[k]
            if self.empty == "refill" and sum(box.values()) == 0 and info is not None:
                box = pmap({m: self.stage_beads(info.stage) for m in box})
            ev[k] = box.set(canon, self._rewarded(box[canon], outcome))
        return MenaceTable(table.seat, ev.persistent())

    def _refill(self, moves: int, index: Mapping[str, Box], k: str) -> list[int] | None:
        """What the empty box ``k`` of ``moves`` moves is drawn from: ``stage_beads`` on each
        with ``empty=refill`` (its stage read in ``index``), None (MENACE resigns) otherwise."""
        if self.empty != "refill":
            return None
        return [self.stage_beads(index[k].stage)] * moves

    def _rewarded(self, count: int, outcome: int) -> int:
        """A drawn colour's bead count after a game of ``outcome`` (+1, 0, -1) for MENACE."""
        win, draw, loss = self.incentives
        delta = win if outcome > 0 else loss if outcome < 0 else draw
        floor = 1 if self.empty == "floor" else 0
        # the limit keeps every table learning makes loadable (large incentives would pass it)
        return min(BEAD_LIMIT, max(floor, count + delta))

    def train_games(
        self,
        game: Game[Any, Any],
        table: MenaceTable,
        seat: int,
        opponent: Agent,
        opponent_table: Any,
        key: Key,
        games: int,
        start: int = 0,
        run_games: int | None = None,
    ) -> tuple[MenaceTable, tuple[Episode, ...]]:
        """Games ``start`` .. ``start + games - 1`` against ``opponent`` (which does not learn):
        the table after the last game and the episodes (the ``FusedTraining`` hook).

        Exactly the games and tables of the fold (``act``, then ``learn`` after each game; a test
        compares them), with the beads kept in local lists for the whole call and one persistent
        table built at the end. Against an opponent whose draws can be tabulated (``rules``,
        ``random``: ``core.agent.TabledDraws``) the games are played on the game's arrays
        (``agents.menace_compiled``: numba's kernel where the run is long, ``run_games`` games
        if given, its Python twin otherwise), else by ``reference_train_games``; the same games
        and tables either way. Stops after a game MENACE refused to play.
        """
        played: list[Episode] = []
        if observation_of(game) is not None:
            # MENACE sees a view there, and learns from the true positions: the fold itself
            tables = (table, opponent_table) if seat == 0 else (opponent_table, table)
            agents = (self, opponent) if seat == 0 else (opponent, self)
            steps = train(game, agents, tables, key, learning=(seat == 0, seat == 1), start=start)
            for step in islice(steps, games):
                table = step.tables[seat]
                played.append(step.episode)
                if _refused(step.episode, seat):
                    break
            return table, tuple(played)
        require_game(game)  # as ``play`` does before a game
        from purestate.agents.menace_compiled import array_train_games

        fast = array_train_games(self, game, table, seat, opponent, key, games, start,
                                 run_games=max(games, run_games or 0))  # fmt: skip
        if fast is not None:
            return fast
        return reference_train_games(self, game, table, seat, opponent, opponent_table, key,
                                     games, start)  # fmt: skip

    def drawn(
        self, game: Game[Any, Any], table: MenaceTable, episode: Episode, seat: int
    ) -> tuple[tuple[str, Any], ...]:
        """The boxes ``seat`` drew from in ``episode`` and the bead colour drawn in each.

        Returns:
            ``(box key, move)`` per box used, in the order of the game; the move is in the box's
            (canonical) frame, as the table keys it: the beads ``learn`` rewards.
        """
        return tuple((k, m) for k, m, _ in self._beads_used(game, table, episode, seat))

    def _beads_used(
        self, game: Game[Any, Any], table: MenaceTable, episode: Episode, seat: int
    ) -> Iterator[tuple[str, Any, Box | None]]:
        """Each box ``seat`` used in the episode, the colour drawn and the box's description."""
        index = None
        boxes = table.boxes
        for state, move, mover in zip(episode.states, episode.moves, episode.movers, strict=False):
            if mover != seat:
                continue
            k, g = box_key(game, state)
            box = boxes.get(k)
            if box is None:
                continue  # a forced move: no box
            if index is None:
                index = box_index(game, table.seat, self.include_forced, self.dedupe)
            info = index.get(k)
            canon = _colour(game, info, move, g)
            if canon not in box:
                continue  # a move this box has no bead colour for (not MENACE's own choice)
            yield k, canon, info

    def supports_seat(self, table: MenaceTable, seat: int) -> bool:
        """A MENACE table holds boxes for one seat only."""
        return table.seat == seat

    def table_to_json(self, game: Game[Any, Any], table: MenaceTable) -> dict[str, Any]:
        """``boxes``: position -> {"stage": n, "beads": {move: count}}, in breadth-first order."""
        index = box_index(game, table.seat, self.include_forced, self.dedupe)
        order = {k: i for i, k in enumerate(index)}
        out: dict[str, Any] = {}
        for k in sorted(table.boxes, key=lambda k: (order.get(k, len(order)), k)):
            box = table.boxes[k]
            stage = index[k].stage if k in index else None
            out[k] = {
                "stage": stage,
                "beads": {game.format_move(m): n for m, n in sorted(box.items())},
            }
        return {"config": self.spec, "boxes": out}

    def table_from_json(self, game: Game[Any, Any], data: dict[str, Any]) -> MenaceTable:
        """Read ``boxes`` back, checking them against the boxes this configuration makes.

        A valid table holds exactly the boxes ``boxes_for`` makes for one seat, each with a bead
        count (a whole number from 0 to ``BEAD_LIMIT``) for exactly the moves of that box. The
        ``stage`` of a box is not read (it is written for people and rewritten on save).

        Raises:
            ValueError: one line naming the first bad box (the first missing one in breadth-first
                order) and what is wrong with it.
        """
        raw = data.get("boxes")
        if not isinstance(raw, dict) or not raw:
            raise ValueError("no 'boxes' object")
        made_by = data.get("config")
        # a table of other options fails the checks below; say so where it would explain them
        hint = ""
        if isinstance(made_by, str) and made_by != self.spec:
            hint = f" (the table was made by {made_by}, not {self.spec})"
        seat: int | None = None
        index: Mapping[str, Box] = {}
        boxes: dict[str, PMap[Any, int]] = {}
        for k, entry in raw.items():
            try:
                state = game.decode(k)
            except ValueError as e:
                raise ValueError(f"box {k}: {e}") from None
            if game.is_over(state):
                raise ValueError(f"box {k}: the game is already over in that position")
            mover = game.to_move(state)
            if seat is None:
                seat = mover
                index = box_index(game, seat, self.include_forced, self.dedupe)
            elif mover != seat:
                raise ValueError(
                    f"the boxes mix positions of both players (box {k} is for player {mover}, "
                    f"the first box for player {seat})"
                )
            info = index.get(k)
            if info is None:
                raise ValueError(f"box {k}: {self._not_a_box(game, state, k)}{hint}")
            beads = entry.get("beads") if isinstance(entry, dict) else None
            if not isinstance(beads, dict):
                raise ValueError(f"box {k}: no 'beads' object")
            boxes[k] = self._read_beads(game, state, info, beads, hint)
        assert seat is not None  # raw is not empty
        for b in index.values():
            if b.key not in boxes:
                raise ValueError(
                    f"box {b.key} is missing: MENACE playing {('first', 'second')[seat]} needs "
                    f"all {len(index)} boxes, the table has {len(boxes)}{hint}"
                )
        return MenaceTable(seat, pmap(boxes))

    def _not_a_box(self, game: Game[Any, Any], state: Any, k: str) -> str:
        """Why a position of MENACE's seat has no box in this configuration."""
        canon = box_key(game, state)[0]
        if canon != k:
            return f"not a canonical position (MENACE keeps it in box {canon})"
        if len(game.legal(state)) == 1 and not self.include_forced:
            return "a forced move, and this MENACE makes no boxes for them (include_forced=false)"
        return "not a position MENACE can meet"

    def _read_beads(
        self, game: Game[Any, Any], state: Any, info: Box, beads: dict[str, Any], hint: str
    ) -> PMap[Any, int]:
        """One box's bead counts, checked move by move and then for completeness."""
        k = info.key
        legal = set(game.legal(state))
        box: dict[Any, int] = {}
        for mt, n in beads.items():
            try:
                m = game.parse_move(state, mt)
            except ValueError as e:
                raise ValueError(f"box {k}: move {mt}: {e}") from None
            if m not in legal:
                raise ValueError(f"box {k}: move {mt} is not legal there")
            if m not in info.moves:
                raise ValueError(
                    f"box {k}: move {mt} has no beads of its own in this MENACE (it shares "
                    f"move {game.format_move(info.orbit[m])}'s colour){hint}"
                )
            if m in box:
                raise ValueError(f"box {k}: move {mt} is given twice")
            if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= BEAD_LIMIT:
                raise ValueError(
                    f"box {k}: bead count {n!r} is not a whole number from 0 to {BEAD_LIMIT}"
                )
            box[m] = n
        for m in info.moves:
            if m not in box:
                raise ValueError(
                    f"box {k}: no bead count for move {game.format_move(m)} (0 for none){hint}"
                )
        return pmap(box)


def reference_train_games(
    menace: Menace,
    game: Game[Any, Any],
    table: MenaceTable,
    seat: int,
    opponent: Agent,
    opponent_table: Any,
    key: Key,
    games: int,
    start: int = 0,
) -> tuple[MenaceTable, tuple[Episode, ...]]:
    """``Menace.train_games`` on a game that hides nothing, through ``_TrainingLoop``: the
    reference the loops on arrays (``agents.menace_compiled``) are held to, and the loop against
    an opponent whose draws they cannot replay (a search, the perfect player)."""
    loop = _TrainingLoop(menace, game, table, seat)
    played: list[Episode] = []
    for i in range(start, start + games):
        ep, drawn = loop.play(opponent, opponent_table, fold_in(key, i))
        loop.learn(ep, drawn)
        played.append(ep)
        if _refused(ep, seat):
            break  # every later game is refused too
    return loop.table(), tuple(played)


class _TrainingLoop:
    """MENACE learning game after game inside one ``train_games`` call, on a game that hides
    nothing (the position MENACE sees is the one ``learn`` reads).

    The boxes met so far are mutable bead lists (moves in the table's order, so every draw is
    ``act``'s), read from the table once and written back once. What ``act`` and ``learn`` work
    out from a position (its box, its moves in the position's own frame, the colour each one
    rewards) is a pure function of the position, worked out once per call; a game remembers the
    beads it drew and learning adds the incentive to them, in ``learn``'s order.
    """

    def __init__(self, menace: Menace, game: Game[Any, Any], table: MenaceTable, seat: int):
        require_game(game)  # as ``play`` does before a game
        self.menace, self.game, self.seat, self.start = menace, game, seat, table
        self.index = box_index(game, table.seat, menace.include_forced, menace.dedupe)
        self.beads: dict[str, list[int]] = {}  # box key -> bead counts, in the box's order
        self.positions: dict[Any, _Position] = {}

    def position(self, state: Any) -> _Position:
        """What MENACE's box says about ``state`` (remembered for the call)."""
        found = self.positions.get(state)
        if found is not None:
            return found
        game = self.game
        k, g = box_key(game, state)
        box = self.start.boxes.get(k)
        if box is None:  # a forced move (or an error, raised as ``act`` raises it)
            found = _Position(k, None, (_forced(game, state, game.legal(state), k),), (), None)
        else:
            moves = tuple(box)
            counts = self.beads.get(k)
            if counts is None:
                counts = self.beads[k] = [box[m] for m in moves]
            info = self.index.get(k)
            back = game.inverse(g)
            here = tuple(game.transform_move(m, back) for m in moves)
            colours = {m: i for i, m in enumerate(moves)}
            # the colour ``learn`` rewards for each move MENACE may draw here (None: none)
            rewards = tuple(colours.get(_colour(game, info, m, g)) for m in here)
            stage = None if info is None else info.stage
            found = _Position(k, counts, here, rewards, stage)
        self.positions[state] = found
        return found

    def play(self, opponent: Agent, opponent_table: Any, key: Key) -> tuple[Episode, list[Any]]:
        """One game, as ``core.episode.plies`` plays it with ``fold_in(key, ply)`` per ply, and
        the beads MENACE drew (``(counts, colour, stage)``, in the order of its moves)."""
        game, seat, menace = self.game, self.seat, self.menace
        is_over, to_move, step = game.is_over, game.to_move, game.step
        positions, position = self.positions, self.position
        state = game.initial()
        states = [state]
        moves: list[Any] = []
        movers: list[int] = []
        drawn: list[Any] = []
        theirs = opponent_table  # a search may replace its table within one game
        ply = 0
        while not is_over(state):
            p = to_move(state)
            if p == seat:
                here = positions.get(state) or position(state)
                counts = here.counts
                if counts is None:
                    move = here.moves[0]
                else:
                    weights: list[int] | None = counts
                    if sum(counts) == 0:
                        weights = menace._refill(len(counts), self.index, here.key)
                    if weights is None:
                        return Episode(tuple(states), tuple(moves), tuple(movers),
                                       resign_returns(p), p), drawn  # fmt: skip
                    j = weighted_index(fold_in(key, ply), weights)
                    move = here.moves[j]
                    if here.rewards[j] is not None:
                        drawn.append((counts, here.rewards[j], here.stage))
                after = step(state, move)
            else:
                decision, after = agent_moves(game, opponent, theirs, state, p, fold_in(key, ply),
                                              None)  # fmt: skip
                if decision.table is not None:
                    theirs = decision.table
                move = decision.move
                if after is None:
                    return Episode(tuple(states), tuple(moves), tuple(movers), resign_returns(p),
                                   p), drawn  # fmt: skip
            state = after
            states.append(state)
            moves.append(move)
            movers.append(p)
            ply += 1
        return Episode(tuple(states), tuple(moves), tuple(movers), game.returns(state)), drawn

    def learn(self, episode: Episode, drawn: list[Any]) -> None:
        """``Menace.learn`` on the beads kept here: the beads drawn, in the order drawn."""
        menace, outcome = self.menace, episode.outcome(self.seat)
        refill = menace.empty == "refill"
        for counts, i, stage in drawn:
            if refill and stage is not None and sum(counts) == 0:
                counts[:] = [menace.stage_beads(stage)] * len(counts)
            counts[i] = menace._rewarded(counts[i], outcome)

    def table(self) -> MenaceTable:
        """The table with every box met written back."""
        ev = self.start.boxes.evolver()
        for k, counts in self.beads.items():
            ev[k] = pmap(dict(zip(ev[k], counts, strict=True)))
        return MenaceTable(self.start.seat, ev.persistent())


@frozen
class _Position:
    """What ``_TrainingLoop`` needs of a position MENACE faces.

    Attributes:
        key: The box key.
        counts: The box's bead counts (shared by every position of the box), None without a box.
        moves: The box's moves in this position's frame (without a box: the forced move).
        rewards: For each of ``moves``, the index in ``counts`` that ``learn`` rewards, or None.
        stage: MENACE's move number for the box, None for a box the configuration does not make.
    """

    key: str
    counts: list[int] | None = field(eq=False)
    moves: tuple[Any, ...]
    rewards: tuple[int | None, ...]
    stage: int | None


def _refused(episode: Episode, seat: int) -> bool:
    """Whether MENACE, at ``seat``, resigned before its first move (its first box is empty)."""
    return episode.resigned == seat and seat not in episode.movers


def _colour(game: Game[Any, Any], info: Box | None, move: Any, g: int) -> Any:
    """The bead colour (a move in the box's frame) that ``move`` played in a position mapped to
    its box by symmetry ``g`` draws from: the box's own move for it, merged by ``dedupe``."""
    canon = game.transform_move(move, g)
    return canon if info is None else info.orbit.get(canon, canon)
