"""Game records: one self-describing value for every game any command writes.

A ``Record`` names everything needed to play a game again move by move: the game's spec string
with its options, both players' specs in seat order, the seed and the game's index (the key
used), the moves as move ids, the returns, who resigned and the result. ``to_json`` and
``from_json`` turn it into one compact JSON object and back, checking every field; ``replay``
rebuilds the episode and checks it ends as recorded. ``to_text`` and ``from_text`` are the short
notation a person reads and shares.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import frozen

from purestate.core.episode import Episode, resign_returns
from purestate.core.episode import replay as replay_moves
from purestate.core.game import Game, IllegalMove, ParseError
from purestate.core.registry import make_spec
from purestate.core.spec import SpecError, format_spec

FORMAT = "purestate.game/1"
"""The format version every record carries (bumped when a field changes meaning)."""

RESULTS = ("win", "draw", "loss")


class RecordError(ValueError):
    """A record that is malformed or does not replay to its recorded result (the message says
    why)."""


def game_spec(game: Game[Any, Any]) -> str:
    """The spec string ``make_spec`` builds ``game`` from, with every option that is not a default.

    Raises:
        SpecError: if the game holds a value a spec string cannot name (a Tron map read from a
            file rather than shipped).
    """
    spec = format_spec(game.spec.name, game)
    try:
        same = make_spec(spec) == game
    except SpecError:
        same = False
    if not same:
        raise SpecError(f"{game.spec.name}: this game cannot be named by a spec string ({spec})")
    return spec


def result_of(returns: tuple[float, float], seat: int = 0) -> str:
    """``"win"``, ``"draw"`` or ``"loss"`` from ``seat``'s side."""
    r = returns[seat]
    return "win" if r > 0 else "loss" if r < 0 else "draw"


@frozen
class Record:
    """One recorded game.

    Attributes:
        game: The game's spec string, e.g. ``"dots_and_boxes:rows=3,cols=3"``.
        players: Both players' agent specs in seat order (``"human"`` for a person).
        seed: The seed of the command that played the game.
        index: The game's number in that command's series.
        moves: The moves as move ids: the ints ``Game.step`` takes (OpenSpiel's action numbers for
            tictactoe and dots_and_boxes; see each game's page).
        returns: The result per seat.
        resigned: The seat that resigned, or ``None``.
        result: ``"win"``, ``"draw"`` or ``"loss"`` from the side of seat ``seat``.
        seat: The seat the result is told from (a learner's seat in selfplay; else 0).
    """

    game: str
    players: tuple[str, str]
    seed: int
    index: int
    moves: tuple[int, ...]
    returns: tuple[float, float]
    resigned: int | None
    result: str
    seat: int = 0

    @classmethod
    def of(
        cls,
        game: str,
        players: tuple[str, str],
        seed: int,
        index: int,
        episode: Episode,
        seat: int = 0,
    ) -> Record:
        """The record of a played episode."""
        return cls.from_game(game, players, seed, index, episode.moves, episode.returns,
                             episode.resigned, seat)  # fmt: skip

    @classmethod
    def from_game(
        cls,
        game: str,
        players: tuple[str, str],
        seed: int,
        index: int,
        moves: tuple[int, ...],
        returns: tuple[float, float],
        resigned: int | None,
        seat: int = 0,
    ) -> Record:
        """A record from its parts; the result is read from ``returns`` at ``seat``."""
        return cls(game, players, seed, index, tuple(int(m) for m in moves),
                   (float(returns[0]), float(returns[1])), resigned,
                   result_of(returns, seat), seat)  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The record as JSON-ready data (one line of games.jsonl once dumped)."""
        return {
            "format": FORMAT,
            "game": self.game,
            "players": list(self.players),
            "seed": self.seed,
            "index": self.index,
            "seat": self.seat,
            "result": self.result,
            "resigned": self.resigned,
            "returns": [_number(r) for r in self.returns],
            "moves": list(self.moves),
        }

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """A record from JSON data, every field checked.

        Raises:
            RecordError: naming the first field that is missing or wrong.
        """
        if not isinstance(data, dict):
            raise RecordError(f"a record is a JSON object, got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise RecordError(f"format {data.get('format')!r} is not {FORMAT!r}")
        game = _field(data, "game", str)
        players = _field(data, "players", list)
        if len(players) != 2 or not all(isinstance(p, str) for p in players):
            raise RecordError("players: expected two agent spec strings")
        seed = _int(data, "seed")
        index = _int(data, "index")
        seat = _int(data, "seat")
        if seat not in (0, 1):
            raise RecordError(f"seat: expected 0 or 1, got {seat}")
        moves = _field(data, "moves", list)
        if not all(type(m) is int for m in moves):
            raise RecordError("moves: expected a list of move ids (integers)")
        returns = _field(data, "returns", list)
        if len(returns) != 2 or not all(
            isinstance(r, int | float) and not isinstance(r, bool) for r in returns
        ):
            raise RecordError("returns: expected two numbers")
        resigned = data.get("resigned", "missing")
        if resigned not in (None, 0, 1) or isinstance(resigned, bool):
            raise RecordError(f"resigned: expected null, 0 or 1, got {resigned!r}")
        result = _field(data, "result", str)
        if result not in RESULTS:
            raise RecordError(f"result: expected one of {', '.join(RESULTS)}, got {result!r}")
        rets = (float(returns[0]), float(returns[1]))
        if result_of(rets, seat) != result:
            raise RecordError(f"result {result!r} does not match returns {returns} at seat {seat}")
        return cls(game, (players[0], players[1]), seed, index, tuple(moves), rets, resigned,
                   result, seat)  # fmt: skip


def _number(x: float) -> float | int:
    """Integral returns as ints, to keep lines short (``1`` rather than ``1.0``)."""
    return int(x) if x == int(x) else x


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    if name not in data:
        raise RecordError(f"missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind):
        raise RecordError(f"{name}: expected {kind.__name__}, got {type(value).__name__}")
    return value


def _int(data: dict[str, Any], name: str) -> int:
    value = _field(data, name, int)
    if isinstance(value, bool):
        raise RecordError(f"{name}: expected int, got bool")
    return int(value)


def replay(
    record: Record | dict[str, Any] | Game[Any, Any],
    moves: Sequence[Any] | None = None,
    resigned: int | None = None,
) -> Episode:
    """The episode of a recorded game: ``replay(record)`` for a record (a ``Record`` or a line of
    games.jsonl as loaded by ``json.loads``), or ``replay(game, moves, resigned)`` for bare moves.

    A record's episode is checked against its recorded ending (``replay_record``); bare moves
    must finish the game unless someone resigned (``purestate.core.episode.replay``).

    Raises:
        RecordError: if a record is malformed or does not replay to its recorded result.
    """
    if isinstance(record, Record):
        return replay_record(record)
    if isinstance(record, dict):
        return replay_record(Record.from_json(record))
    if moves is None:
        raise TypeError("replay(game, moves): the moves are missing")
    return replay_moves(record, moves, resigned)


def replay_record(record: Record) -> Episode:
    """The episode of a recorded game: every state, checked against the recorded ending.

    Raises:
        SpecError: if the record's game spec names no game.
        RecordError: if a move is illegal, the moves stop before the end without a resignation,
            or the game ends with other returns than recorded.
    """
    game = make_spec(record.game)
    state = game.initial()
    states = [state]
    movers: list[int] = []
    for ply, m in enumerate(record.moves):
        if game.is_over(state):
            raise RecordError(f"game {record.index}: the game is over before move {ply + 1}")
        movers.append(game.to_move(state))
        try:
            state = game.step(state, m)
        except IllegalMove as e:
            raise RecordError(
                f"game {record.index}: move {ply + 1} ({m}) is illegal: {e}"
            ) from None
        states.append(state)
    if record.resigned is not None:
        returns = resign_returns(record.resigned)
    elif game.is_over(state):
        returns = game.returns(state)
    else:
        raise RecordError(
            f"game {record.index}: the moves stop before the end of the game and nobody resigned"
        )
    if returns != record.returns:
        raise RecordError(
            f"game {record.index}: replayed returns {list(returns)} differ from the recorded "
            f"{list(record.returns)}"
        )
    return Episode(tuple(states), record.moves, tuple(movers), returns, record.resigned)


# ---- text notation ---------------------------------------------------------------------------

_ENDINGS = {"1-0": (1.0, -1.0), "0-1": (-1.0, 1.0), "1/2": (0.0, 0.0)}


def to_text(game: Game[Any, Any], record: Record) -> str:
    """A record as one line a person reads: the game, the moves as typed, and the ending.

    ``tictactoe: 4 0 8 2 1 7 6 3 5 1/2`` reads: the game spec, a colon, each move in the game's
    own move text (``format_move``; moves containing a space are joined by ``_``), then the
    ending: ``1-0`` (the first seat won), ``0-1``, ``1/2`` (a draw), or a margin such as
    ``+3``/``-2`` for games scored by margin, with ``resigns`` and the seat (``R0``/``R1``) before
    it when someone resigned.
    """
    moves = [game.format_move(m).replace(" ", "_") for m in record.moves]
    ending = _ending(record.returns)
    if record.resigned is not None:
        ending = f"R{record.resigned} {ending}"
    return " ".join([f"{record.game}:", *moves, ending])


def _ending(returns: tuple[float, float]) -> str:
    for text, rets in _ENDINGS.items():
        if rets == returns:
            return text
    return f"{_number(returns[0]):+}"


def from_text(text: str) -> tuple[str, tuple[int, ...], tuple[float, float], int | None]:
    """The game spec, move ids, returns and resigned seat of a line written by ``to_text``.

    The moves are read back with the game's ``parse_move`` from the positions they were played
    in, so a line that does not describe a legal game is refused.

    Raises:
        ParseError: naming what is wrong (no game, an unknown ending, an illegal move).
    """
    head, sep, rest = text.strip().partition(": ")
    if not sep:
        raise ParseError(f"expected 'GAME: MOVE ... ENDING', got {text.strip()!r}")
    words = rest.split()
    if not words:
        raise ParseError("no ending (1-0, 0-1, 1/2 or a margin)")
    returns = _returns_of(words[-1])
    words = words[:-1]
    resigned: int | None = None
    if words and words[-1] in ("R0", "R1"):
        resigned = int(words[-1][1])
        words = words[:-1]
    try:
        game = make_spec(head)
    except SpecError as e:
        raise ParseError(str(e)) from None
    state = game.initial()
    moves: list[int] = []
    for ply, word in enumerate(words):
        try:
            m = game.parse_move(state, word.replace("_", " "))
            state = game.step(state, m)
        except (ParseError, IllegalMove) as e:
            raise ParseError(f"move {ply + 1} {word!r}: {e}") from None
        moves.append(int(m))
    return head, tuple(moves), returns, resigned


def _returns_of(word: str) -> tuple[float, float]:
    if word in _ENDINGS:
        return _ENDINGS[word]
    try:
        margin = float(word)
    except ValueError:
        raise ParseError(f"unknown ending {word!r} (expected 1-0, 0-1, 1/2 or a margin)") from None
    return (margin, -margin)
