"""OpenSpiel games as purestate games.

``load("breakthrough:rows=5,columns=5")`` (what ``purestate.make("openspiel:...")`` calls) gives
an ``OpenSpielGame``: the purestate ``Game`` protocol over a pyspiel game. Its states are
``OpenSpielState`` values: the action history (equality and hash), with the pyspiel state
for that history cached beside it. ``step`` clones the cached state and applies the action to
the clone, so a pyspiel state is never mutated once a purestate value holds it. Move ids are
OpenSpiel's action ids, so records and tables carry the numbers OpenSpiel users know.

Only two-player, sequential, perfect-information, deterministic games fit the protocol; any
other game is refused with one line saying why. The other direction is ``to_openspiel``.
"""

from __future__ import annotations

import math
from typing import Any

from attrs import field, frozen

from purestate.core.game import GameSpec, IllegalMove, NotAGame, ParseError, not_a_game
from purestate.core.spec import SpecError, convert, parse_spec
from purestate.interop.openspiel import pyspiel_errors, pyspiel_module, said

PREFIX = "openspiel"
"""The family name in game specs: ``openspiel:<name>[:key=value,...]``."""

C_INT = (-(2**31), 2**31 - 1)
"""The values of a C ``int``, which every integer option of OpenSpiel is: beyond them pybind11
cannot pass the value at all."""

LIMITS: dict[str, tuple[int, int]] = {
    # the sides of a board or a line on it: below 1 some games crash inside OpenSpiel (a
    # segfault, not an error), and far above it they allocate without bound
    **dict.fromkeys(
        ("board_size", "rows", "columns", "num_rows", "num_cols", "size", "m", "n", "k"), (1, 64)
    ),
    **dict.fromkeys(("x_in_row", "connect", "num_houses_per_player"), (1, 64)),
    "dims": (1, 3),  # gomoku: size ** dims cells
    "insanity": (0, 64),  # crazyhouse: pieces in hand; a huge pocket makes each move take seconds
    # how long a game may last: a random game plays to the limit
    **dict.fromkeys(("max_game_length", "max_moves", "max_cursor_moves"), (0, 100_000)),
}
"""The ranges OpenSpiel's games accept for the integer options they share, by option name
(OpenSpiel declares only the types). Values inside are passed on, and whatever OpenSpiel then
refuses is one line too; other integer options need only fit a C int (``C_INT``)."""

ACTION_LIMIT = 20_000
LENGTH_LIMIT = 100_000
"""The most action ids and plies a game made from options may declare (shogi has 13,689 ids,
cursor_go lasts up to 72,922 plies): a random game costs about their product, so options that
pass ``LIMITS`` but multiply into more (gomoku's ``size ** dims``) are refused as soon as
OpenSpiel has made the game, before any state."""


def _typed_params(name: str, defaults: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    """``raw`` options (text from a spec, or Python values) as the types OpenSpiel expects."""
    out: dict[str, Any] = {}
    for k, v in raw.items():
        if k not in defaults:
            known = ", ".join(sorted(defaults)) or "none"
            raise SpecError(f"openspiel:{name} has no option {k!r} (options: {known})")
        tp = type(defaults[k])
        what = f"openspiel:{name} option {k!r}"
        if isinstance(v, str) and tp is not str:
            out[k] = convert(v, tp, what)
        elif tp is float and type(v) is int:
            out[k] = float(v)
        elif type(v) is not tp:
            raise SpecError(f"{what} must be a {tp.__name__}; got {v!r}")
        else:
            out[k] = v
    return out


def _check_values(name: str, typed: dict[str, Any]) -> None:
    """Refuse values OpenSpiel must never see: an int outside the option's range (``LIMITS``, or
    a C int's), a float that is not finite."""
    for k, v in typed.items():
        if type(v) is int:
            low, high = LIMITS.get(k, C_INT)
            if not low <= v <= high:
                raise SpecError(
                    f"openspiel:{name} option {k!r} must be an int from {low:,} to {high:,}; "
                    f"got {v:,}"
                )
        elif type(v) is float and not math.isfinite(v):
            raise SpecError(f"openspiel:{name} option {k!r} must be a finite number; got {v}")


def _too_large(native: Any) -> str | None:
    """Why the game OpenSpiel made is too large to play, from what it declares, or None."""
    actions, length = native.num_distinct_actions(), native.max_game_length()
    if actions <= ACTION_LIMIT and length <= LENGTH_LIMIT:
        return None
    return (
        f"too large: {actions:,} action ids and games of up to {length:,} plies "
        f"(the limits are {ACTION_LIMIT:,} and {LENGTH_LIMIT:,})"
    )


def _first_use(native: Any) -> None:
    """Make the start, read its moves and play the first, so that options OpenSpiel accepted
    but cannot play fail here, at load, rather than in a game.

    Raises:
        SpecError: when the start, or the position after its first move, is not over but has no
            legal move (1×1 hex never ends).
    """
    state = native.new_initial_state()
    for where in ("the start", "the position after the first move"):
        if state.is_terminal():
            return
        moves = state.legal_actions()
        if not moves:
            raise SpecError(f"{where} has no legal move, yet the game is not over")
        state.apply_action(moves[0])


def _text(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _refusal(name: str, game: Any, pyspiel: Any) -> str | None:
    """Why the purestate protocol cannot hold ``game``, or None if it can."""
    gt = game.get_type()
    why = []
    if game.num_players() != 2:
        why.append(f"it is a {game.num_players()}-player game")
    if gt.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        why.append("its moves are simultaneous")
    if gt.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC:
        why.append("it has chance events")
    if gt.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        why.append("its information is imperfect")
    if not why:
        return None
    return (
        f"openspiel:{name} cannot be a purestate game: {' and '.join(why)} (purestate plays "
        "two-player, sequential, perfect-information games without chance)"
    )


def load(text: str, **params: Any) -> OpenSpielGame:
    """The OpenSpiel game named by ``text``, as a purestate game.

    Args:
        text: ``NAME[:key=value,...]``, e.g. ``"breakthrough:rows=5,columns=5"``; the options are
            the OpenSpiel game's parameters, converted to the types of their defaults.
        **params: More parameters as Python values (``load("hex", board_size=5)``).

    Options are checked before OpenSpiel sees them (some bad ones crash it): each must have
    the type of its default, an int must lie in its range (``LIMITS``, else a C int's) and a
    float be finite. The game is then made and its first move played, so that whatever else
    OpenSpiel refuses is refused here.

    Raises:
        SpecError: one line when OpenSpiel is missing, the game is unknown, an option is wrong,
            OpenSpiel cannot make or start the game, or the game is not two-player, sequential,
            perfect-information and deterministic.
    """
    pyspiel = pyspiel_module()
    name, raw = parse_spec(text)
    for k in params:
        if k in raw:
            raise SpecError(f"option {k!r} given twice for openspiel:{name}")
    names = {gt.short_name: gt for gt in pyspiel.registered_games()}
    if name not in names:
        raise SpecError(
            f"unknown OpenSpiel game {name!r} (see pyspiel.registered_names() for the names)"
        )
    defaults = dict(names[name].parameter_specification)
    typed = _typed_params(name, defaults, {**raw, **params})
    _check_values(name, typed)
    options = ",".join(f"{k}={_text(typed[k])}" for k in sorted(typed))
    spec = f"{PREFIX}:{name}" + (f":{options}" if options else "")
    try:
        native = pyspiel.load_game(name, typed)
        why = _refusal(name, native, pyspiel) or _too_large(native)
        if why is not None:
            raise SpecError(why)
        _first_use(native)
        return OpenSpielGame(spec, native)
    except SpecError as e:
        raise SpecError(str(e) if str(e).startswith(f"{PREFIX}:") else f"{spec}: {e}") from None
    except pyspiel_errors(pyspiel) as e:
        raise SpecError(f"{spec}: OpenSpiel cannot make it: {said(e)}") from None


@frozen(cache_hash=True)
class OpenSpielState:
    """A position of an OpenSpiel game: the actions played so far.

    Equality and hash are the history's. The other fields are read from the pyspiel state when
    the position is made, so the rules are asked once per position.

    Attributes:
        history: The action ids played from the start, in order.
        player: The player to move (0 or 1), or -1 once the game is over.
        moves: The legal action ids in increasing order; () once the game is over.
        result: The returns at the end; zeros before.
        native: The pyspiel state for ``history``. Shared, so never to be mutated: clone it.
    """

    history: tuple[int, ...]
    player: int = field(eq=False)
    moves: tuple[int, ...] = field(eq=False, repr=False)
    result: tuple[float, float] = field(eq=False, repr=False)
    native: Any = field(eq=False, repr=False)


def playable() -> tuple[tuple[str, str], ...]:
    """The OpenSpiel games purestate plays as ``openspiel:NAME``, with their long names.

    Each game whose type allows two players taking turns, with perfect information and no
    chance, and that ``load`` then accepts with its default options (some default to more
    players or exceed the bridge's bounds), sorted by name.

    Raises:
        SpecError: one line naming the extra when OpenSpiel is not installed.
    """
    pyspiel = pyspiel_module()
    kinds = pyspiel.GameType
    found = []
    for gt in pyspiel.registered_games():
        if not (
            gt.min_num_players <= 2 <= gt.max_num_players
            and gt.dynamics == kinds.Dynamics.SEQUENTIAL
            and gt.chance_mode == kinds.ChanceMode.DETERMINISTIC
            and gt.information == kinds.Information.PERFECT_INFORMATION
        ):
            continue
        try:
            load(gt.short_name)
        except SpecError:
            continue
        found.append((gt.short_name, gt.long_name))
    return tuple(sorted(found))


def _wrap(history: tuple[int, ...], native: Any) -> OpenSpielState:
    if native.is_terminal():
        r = native.returns()
        return OpenSpielState(history, -1, (), (float(r[0]), float(r[1])), native)
    moves = tuple(native.legal_actions())
    if not moves:  # the protocol's promise (no moves iff over), broken by some options (hex 11×1)
        raise SpecError("no legal move at a position that is not over")
    return OpenSpielState(history, native.current_player(), moves, (0.0, 0.0), native)


def _not_ours(game: OpenSpielGame, state: Any) -> NotAGame:
    """The error for a ``state`` that is not an ``OpenSpielState`` (a raw pyspiel one, say)."""
    return not_a_game(game, state) or NotAGame(
        f"a {type(state).__qualname__} is not a state of {game.spec_text}"
    )


def position_bound(actions: int, length: int) -> int:
    """An upper bound on the positions of a game with ``actions`` action ids that lasts at most
    ``length`` plies: every position is a history of at most ``length`` actions, and there are
    ``1 + a + ... + a^length`` of them (in closed form: the sum term by term took most of a
    minute on crazyhouse)."""
    if actions < 2:
        return length + 1 if actions == 1 else 1
    whole: int = (actions ** (length + 1) - 1) // (actions - 1)
    return whole


@frozen
class OpenSpielGame:
    """An OpenSpiel game behind the purestate ``Game`` protocol (made by ``load``).

    Two games are equal when their spec strings are: ``spec.name`` is the whole spec, e.g.
    ``"openspiel:breakthrough:columns=5,rows=5"``, which ``purestate.make_spec`` rebuilds.
    Symmetry: the identity only.

    The fields are private so that ``format_spec`` (records, titles) names the game by its
    spec alone; ``spec_text`` and ``native`` read them.
    """

    _spec_text: str
    _native: Any = field(eq=False, repr=False)
    _spec: GameSpec = field(init=False, eq=False, repr=False)
    _initial: OpenSpielState = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        g = self.native
        zero_sum = g.get_type().utility == pyspiel_module().GameType.Utility.ZERO_SUM
        # win/draw/loss when the utilities are exactly those; otherwise returns may be margins
        wdl = zero_sum and (g.min_utility(), g.max_utility()) == (-1.0, 1.0)
        spec = GameSpec(
            name=self.spec_text,
            num_players=2,
            max_length=g.max_game_length(),
            zero_sum=zero_sum,
            outcomes=(-1.0, 0.0, 1.0) if wdl else None,
            positions=position_bound(g.num_distinct_actions(), g.max_game_length()),
            default_opponent="mcts",
        )
        object.__setattr__(self, "_spec", spec)
        object.__setattr__(self, "_initial", _wrap((), g.new_initial_state()))

    @property
    def spec_text(self) -> str:
        """The canonical spec string (options sorted, defaults left out)."""
        return self._spec_text

    @property
    def native(self) -> Any:
        """The pyspiel game (shared: load another rather than change it)."""
        return self._native

    @property
    def spec(self) -> GameSpec:
        """The whole spec string as the name; bounds from OpenSpiel's game info."""
        return self._spec

    @property
    def num_move_ids(self) -> int:
        """OpenSpiel's ``num_distinct_actions``: move ids are ``0 .. num_move_ids - 1``."""
        return int(self.native.num_distinct_actions())

    def initial(self) -> OpenSpielState:
        """The start position."""
        return self._initial

    def to_move(self, state: OpenSpielState) -> int:
        """OpenSpiel's current player (0 once the game is over, where it means nothing)."""
        try:
            return max(state.player, 0)
        except AttributeError:
            raise _not_ours(self, state) from None

    def legal(self, state: OpenSpielState) -> tuple[int, ...]:
        """OpenSpiel's legal actions, in increasing order; () once the game is over."""
        try:
            return state.moves
        except AttributeError:
            raise _not_ours(self, state) from None

    def is_over(self, state: OpenSpielState) -> bool:
        """OpenSpiel's terminal test."""
        try:
            return state.player < 0
        except AttributeError:
            raise _not_ours(self, state) from None

    def returns(self, state: OpenSpielState) -> tuple[float, float]:
        """OpenSpiel's returns at the end; zeros before."""
        try:
            return state.result
        except AttributeError:
            raise _not_ours(self, state) from None

    def step(self, state: OpenSpielState, move: int) -> OpenSpielState:
        """The position after action ``move``: a clone of the cached pyspiel state, moved.

        Raises:
            IllegalMove: unless ``move`` is one of ``legal(state)`` (a plain int).
        """
        moves = self.legal(state)
        if type(move) is not int or move not in moves:
            if not moves:
                raise IllegalMove("the game is over")
            raise IllegalMove(f"{move!r} is not a legal action here (legal: {_short(moves)})")
        child = state.native.clone()
        try:
            child.apply_action(move)
            return _wrap((*state.history, move), child)
        except pyspiel_errors(pyspiel_module()) as e:  # OpenSpiel's own failure, not a bad move
            raise SpecError(
                f"{self.spec_text}: OpenSpiel failed on action {move}: {said(e)}"
            ) from None

    def from_pyspiel(self, native: Any) -> OpenSpielState:
        """The purestate state for a pyspiel state of this game (its history replayed, so the
        caller keeps its pyspiel state to mutate as it likes)."""
        return self.play([int(a) for a in native.history()])

    def play(self, actions: Any) -> OpenSpielState:
        """The position after ``actions`` from the start.

        Raises:
            IllegalMove: at the first action that is not legal.
        """
        s = self._initial
        for a in actions:
            s = self.step(s, a)
        return s

    @property
    def symmetries(self) -> tuple[int, ...]:
        """The identity only: OpenSpiel does not say which symmetries a game has."""
        return (0,)

    def transform(self, state: OpenSpielState, sym: int) -> OpenSpielState:
        """The identity."""
        return state

    def transform_move(self, move: int, sym: int) -> int:
        """The identity."""
        return move

    def inverse(self, sym: int) -> int:
        """The identity is its own inverse."""
        return 0

    def canonical(self, state: OpenSpielState) -> tuple[OpenSpielState, int]:
        """The state itself."""
        return state, 0

    def encode(self, state: OpenSpielState) -> str:
        """The history as comma-separated action ids; ``-`` for the start."""
        return ",".join(map(str, state.history)) or "-"

    def decode(self, text: str) -> OpenSpielState:
        """The position ``encode`` wrote (ids separated by commas or spaces; ``-`` or nothing
        for the start), replayed from the start."""
        parts = text.replace(",", " ").split()
        if parts == ["-"]:
            parts = []
        if not all(p.isdigit() for p in parts):
            raise ParseError(f"{text!r} is not a history: expected action ids separated by commas")
        try:
            return self.play(int(p) for p in parts)
        except IllegalMove as e:
            raise ParseError(f"{text!r} is not a history of {self.spec_text}: {e}") from None

    def render(self, state: OpenSpielState) -> str:
        """OpenSpiel's picture of the state and the legal actions as ``id=name``."""
        board = str(state.native).rstrip("\n")
        if not state.moves:
            return board
        names = " ".join(f"{a}={state.native.action_to_string(state.player, a)}"
                         for a in state.moves)  # fmt: skip
        return f"{board}\nmoves: {names}"

    def parse_move(self, state: OpenSpielState, text: str) -> int:
        """An action id, or OpenSpiel's name of a legal action (as ``render`` lists them)."""
        t = text.strip()
        moves = self.legal(state)
        if not moves:
            raise IllegalMove("the game is over")
        if t.isdigit():
            move = int(t)
            if move not in moves:
                raise IllegalMove(f"{move} is not a legal action here (legal: {_short(moves)})")
            return move
        named = {state.native.action_to_string(state.player, a): a for a in moves}
        if t in named:
            return named[t]
        folded = {k.lower(): a for k, a in named.items()}
        if t.lower() in folded:
            return folded[t.lower()]
        raise ParseError(f"{t!r} is not a legal action: type an id or a name ({_short(moves)})")

    def format_move(self, move: int) -> str:
        """The action id."""
        return str(move)

    # -- observation planes (the optional hook ``Planes``: core/game.py) --------------------

    @property
    def plane_shape(self) -> tuple[int, ...] | None:
        """OpenSpiel's observation tensor shape (planes first, as OpenSpiel lays them out), or
        None for a game without an observation tensor."""
        if not self.native.get_type().provides_observation_tensor:
            return None
        return tuple(int(n) for n in self.native.observation_tensor_shape())

    @property
    def plane_lines(self) -> tuple[str, ...]:
        """One line per plane of OpenSpiel's tensor (its first axis): OpenSpiel names none."""
        shape = self.plane_shape or (0,)
        return tuple(f"plane {i} of OpenSpiel's observation tensor" for i in range(shape[0]))

    def planes(self, state: OpenSpielState, player: int) -> Any:
        """OpenSpiel's observation tensor of ``state`` seen by ``player``, float32, in
        ``plane_shape``.

        Raises:
            SpecError: when OpenSpiel cannot observe the position (one line).
        """
        import numpy as np

        try:
            tensor = state.native.observation_tensor(player)
        except pyspiel_errors(pyspiel_module()) as e:
            raise SpecError(f"{self.spec.name}: OpenSpiel cannot observe it: {said(e)}") from None
        return np.asarray(tensor, dtype=np.float32).reshape(self.plane_shape or (-1,))


def _short(moves: tuple[int, ...], most: int = 12) -> str:
    shown = ", ".join(map(str, moves[:most]))
    return shown + (f", ... ({len(moves)} in all)" if len(moves) > most else "")
