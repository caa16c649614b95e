"""The Newell–Simon rules for tic-tac-toe, and the student projects' "human agent" built
on them.

Each turn the player takes the first rule in this list that offers a move:

1. Win: complete three in a row.
2. Block: stop the opponent's two in a row.
3. Fork: make two open two-in-a-rows at once.
4. Block a fork (the robust wording of reference/menace.md §4): if the opponent has exactly one
   square that would fork, take it. If several, make a two in a row whose forced reply neither
   wins nor forks for the opponent, preferring such moves that also leave the opponent no fork
   square at all; failing that, a move that leaves no fork square; failing that, any fork square.
5. Centre (or a corner on the empty board with ``opening="corner"``).
6. Opposite corner: the corner opposite one of the opponent's.
7. Empty corner.
8. Empty side.

Blocking "a square where the opponent could fork" (the naive rule 4 of older write-ups) loses two
classic traps (X 0,8 / O 4 and O 2 / X 4,6); ``candidates(..., block_fork="naive")`` keeps that
version for the tests that show it.

With ``p`` < 1 the agent follows the rules with probability ``p`` and otherwise plays a uniformly
random legal move: the student projects' imperfect "human". The candidate set of a position is a
pure function of the position, memoised, so ``act`` is a dict look-up and one random draw.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from attrs import field, frozen

from purestate.core.agent import Decision, FixedPolicy, ListDraw
from purestate.core.game import Game, IllegalMove
from purestate.core.keys import Key, bits
from purestate.core.memo import DictMemo, memo
from purestate.core.spec import SpecError, format_spec
from purestate.games.tictactoe import FULL, LINE_MASKS, State, TicTacToe

CENTRE = 4
CORNERS = (0, 2, 6, 8)
SIDES = (1, 3, 5, 7)

Opening = Literal["centre", "corner"]
BlockFork = Literal["robust", "naive"]


def _squares(board: int) -> tuple[int, ...]:
    return tuple(i for i in range(9) if board >> i & 1)


def winning_squares(mine: int, theirs: int) -> int:
    """Bitboard of the empty squares that would complete a line of ``mine``."""
    empty = FULL & ~(mine | theirs)
    out = 0
    for line in LINE_MASKS:
        rest = line & ~mine
        if rest & (rest - 1) == 0 and rest & empty:
            out |= rest
    return out


def fork_squares(mine: int, theirs: int) -> int:
    """Bitboard of the empty squares where ``mine`` would get two or more winning squares."""
    empty = FULL & ~(mine | theirs)
    out = 0
    for s in _squares(empty):
        w = winning_squares(mine | 1 << s, theirs)
        if w & (w - 1):
            out |= 1 << s
    return out


def _block_fork(mine: int, theirs: int, naive: bool) -> int:
    """Rule 4 as a bitboard of candidate squares (0 when the rule does not apply)."""
    forks = fork_squares(theirs, mine)
    if not forks:
        return 0
    if naive or forks & (forks - 1) == 0:
        return forks
    empty = FULL & ~(mine | theirs)
    forcing = 0  # two in a row whose forced reply neither wins nor forks for the opponent
    forcing_and_blocking = 0
    blocking = 0  # leaves the opponent no fork square (without making a threat)
    for s in _squares(empty):
        after = mine | 1 << s
        threat = winning_squares(after, theirs)
        leaves_no_fork = fork_squares(theirs, after) == 0
        if threat:
            # Rule 3 found no fork, so this is a single threat: the reply is forced.
            reply = theirs | threat
            if not has_line_bits(reply):
                w = winning_squares(reply, after)
                if w & (w - 1) == 0:
                    forcing |= 1 << s
                    if leaves_no_fork:
                        forcing_and_blocking |= 1 << s
        elif leaves_no_fork:
            blocking |= 1 << s
    return forcing_and_blocking or forcing or blocking or forks


def has_line_bits(board: int) -> bool:
    """Whether a bitboard holds three in a row."""
    return any(board & m == m for m in LINE_MASKS)


def candidates(
    state: State, opening: Opening = "centre", block_fork: BlockFork = "robust"
) -> tuple[int, ...]:
    """The squares the first applicable rule offers, in increasing order.

    Args:
        state: A tic-tac-toe position that is not over.
        opening: What rule 5 plays on the empty board: the centre or any corner.
        block_fork: ``"robust"`` (reference §4, never loses) or ``"naive"`` (any square where the
            opponent could fork; loses the two classic traps).

    Returns:
        The candidate squares (all equally good by the rules); empty only on a finished board.
    """
    mine, theirs = (state.x, state.o) if state.to_move == 0 else (state.o, state.x)
    empty = FULL & ~(mine | theirs)
    if not empty or has_line_bits(mine) or has_line_bits(theirs):
        return ()
    for moves in (
        winning_squares(mine, theirs),  # 1 win
        winning_squares(theirs, mine),  # 2 block
        fork_squares(mine, theirs),  # 3 fork
        _block_fork(mine, theirs, block_fork == "naive"),  # 4 block a fork
    ):
        if moves:
            return _squares(moves)
    if empty == FULL and opening == "corner":
        return CORNERS
    if empty >> CENTRE & 1:  # 5 centre
        return (CENTRE,)
    opposite = tuple(8 - c for c in CORNERS if theirs >> c & 1 and empty >> (8 - c) & 1)
    if opposite:  # 6 opposite corner
        return tuple(sorted(set(opposite)))
    corners = tuple(c for c in CORNERS if empty >> c & 1)
    if corners:  # 7 empty corner
        return corners
    return tuple(s for s in SIDES if empty >> s & 1)  # 8 empty side


# Every memo here is keyed by a tic-tac-toe position (and an opening): 5,478 reachable positions,
# 2 openings. The bound keeps all of them and stops a caller's unreachable States from growing it.
_POSITIONS_BOUND = 1 << 14
_GAME = TicTacToe()
_WHY = "5,478 reachable positions x 2 openings fit; unreachable States cannot pass the bound"


def _opening(opening: Any) -> Opening:
    if opening not in ("centre", "corner"):
        raise ValueError(f"opening must be 'centre' or 'corner'; got {opening!r}")
    return opening  # type: ignore[no-any-return]


def rule_moves(state: State, opening: Opening = "centre") -> tuple[int, ...]:
    """``candidates(state, opening)``, memoised (a pure function of a hashable state).

    Raises:
        IllegalMove: for a state that is not a tic-tac-toe ``State`` (before the memo).
        ValueError: for an unknown opening (before the memo).
    """
    return _rule_moves(_tictactoe_state(state), _opening(opening))


@memo(size=_POSITIONS_BOUND, why=_WHY)
def _rule_moves(state: State, opening: Opening) -> tuple[int, ...]:
    return candidates(state, opening)


def _tictactoe_state(state: Any) -> State:
    if type(state) is not State:
        # the message tic-tac-toe's own rules give
        raise IllegalMove(f"not a tic-tac-toe state: {state!r}")
    return state


def _refuse(game: Game[Any, Any]) -> SpecError:
    return SpecError(f"the rules agent plays tic-tac-toe only, not {game.spec.name}")


# The candidates and the legal moves as ready-made decisions (shared immutable values: act
# allocates nothing). ``act`` is a few hundred ns, so these are the memo policy's fast path: read
# as plain dicts, filled through ``_rule_decisions`` and ``_legal_decisions`` (which check the
# state first). A hit needs no check of the state: only a ``State`` equals a ``State`` key.
_RULE_MEMOS = {
    o: DictMemo[State, tuple[Decision[int], ...]](_POSITIONS_BOUND, why=_WHY)
    for o in ("centre", "corner")
}
_RULE_DECISIONS = {o: m.entries for o, m in _RULE_MEMOS.items()}
_LEGAL_MEMO: DictMemo[State, tuple[Decision[int], ...]] = DictMemo(_POSITIONS_BOUND, why=_WHY)
_LEGAL_DECISIONS = _LEGAL_MEMO.entries


def _rule_decisions(state: Any, opening: Opening) -> tuple[Decision[int], ...]:
    s = _tictactoe_state(state)
    return _RULE_MEMOS[opening].put(s, tuple(Decision(m) for m in _rule_moves(s, opening)))


def _legal_decisions(state: Any) -> tuple[Decision[int], ...]:
    s = _tictactoe_state(state)
    return _LEGAL_MEMO.put(s, tuple(Decision(m) for m in _GAME.legal(s)))


def _check_p(instance: Any, attribute: Any, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"p must be between 0 and 1; got {value}")


@frozen
class Rules(FixedPolicy):
    """The Newell–Simon rules for tic-tac-toe, followed with probability ``p``.

    Attributes:
        p: Probability of following the rules on each move; otherwise a uniformly random legal
            move (0.7 is the student projects' "human agent", 1
            never loses).
        tiebreak: Among a rule's equally good squares, a random one or the lowest-numbered one.
        opening: On the empty board, the centre (rule 5) or a random/first corner.
    """

    p: float = field(default=0.7, validator=_check_p)
    tiebreak: Literal["random", "first"] = "random"
    opening: Opening = "centre"

    @property
    def spec(self) -> str:
        """The spec string, e.g. ``rules:p=1.0``."""
        return format_spec("rules", self)

    def check_game(self, game: Game[Any, Any]) -> None:
        """Refuse (``SpecError``) any game but tic-tac-toe."""
        if type(game) is not TicTacToe:  # the rules are tic-tac-toe's, as ``act`` checks
            raise _refuse(game)

    def initial_table(self, game: Game[Any, Any], seat: int) -> Any:
        """No table; refuses any game but tic-tac-toe."""
        self.check_game(game)
        return None

    def act(self, game: Game[Any, Any], table: Any, state: Any, key: Key) -> Decision[Any]:
        """The rules' move with probability ``p``, a uniformly random legal move otherwise."""
        # the game before the memos: a remembered position says nothing about the game
        if type(game) is not TicTacToe:
            raise _refuse(game)
        r = bits(key)
        # Two independent 32-bit halves of one draw: the coin and the choice.
        if self.p >= 1.0 or (r >> 32) < self.p * 4294967296.0:
            options = _RULE_DECISIONS[self.opening].get(state) or _rule_decisions(
                state, self.opening
            )
            if self.tiebreak == "first":
                return options[0]
        else:
            options = _LEGAL_DECISIONS.get(state) or _legal_decisions(state)
        return options[((r & 0xFFFFFFFF) * len(options)) >> 32]

    def list_draw(self, game: Game[Any, Any], state: Any) -> ListDraw:
        """What ``act`` draws from in ``state``: the coin ``p`` between the rules' squares (the
        first only with ``tiebreak=first``) and the legal moves (``TabledDraws``)."""
        if type(game) is not TicTacToe:
            raise _refuse(game)
        rules = rule_moves(state, self.opening)
        return ListDraw("coin", self.p, rules[:1] if self.tiebreak == "first" else rules,
                        game.legal(state))  # fmt: skip

    def policy(self, game: Game[Any, Any], state: Any) -> dict[int, Fraction]:
        """The exact probability of each move ``act`` plays in ``state`` (up to the 2**-32
        resolution of the coin), for exact outcome rates by enumeration."""
        rules = rule_moves(state, self.opening)
        if self.tiebreak == "first":
            rules = rules[:1]
        legal = game.legal(state)
        p = Fraction(repr(self.p))
        out = {m: (1 - p) / len(legal) for m in legal}
        for m in rules:
            out[m] += p / len(rules)
        return {m: w for m, w in out.items() if w > 0}
