"""Games a person plays in the browser against an agent: the server's sessions.

A session holds the core's ``Match`` (``core/match.py``: the game, the bot and its table, the
positions and moves so far, what the person has been shown). Every rule comes from the game
(``parse_move``, ``step``, ``legal``) and every bot move from the agent's ``act``. The bot's key
for ply ``i`` is ``fold_in(fold_in(key(seed), 0), i)``, the key schedule of
``purestate play --seed SEED`` (its first game) and of the core's ``plies``, so a game started
with a seed replays the same bot moves for the same clicks (as long as the bot's search ends
within the server's move budget, ``web.budget``: every bot gets the server's clock).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import attrs

from purestate.core.agent import check_game, greedy_agent
from purestate.core.game import Game, IllegalMove, ParseError
from purestate.core.hooks import seat_name, supports_seat, without_tree_of
from purestate.core.keys import fold_in, key
from purestate.core.match import Match
from purestate.core.registry import agent, make_spec
from purestate.core.spec import SpecError
from purestate.drawing import svg
from purestate.io.files import FileFormatError
from purestate.io.solutions import cache_path, load_or_solve
from purestate.io.tables import TABLE_PLAYER, load_table, load_table_agent, table_player
from purestate.solve import memoised
from purestate.web.budget import Budget, require_quick_solve, solving_note
from purestate.web.errors import NotFound, WebError
from purestate.web.runs import inside

MAX_SESSIONS = 64
"""Games kept in memory at once (``web.owners``: a browser's least recently used goes first)."""
MAX_GAMES_EACH = 8
"""Games one browser keeps at once; starting one more forgets its least recently used."""
MAX_SPEC = 300
"""The longest game or agent spec a request may give."""


def game_of(spec: str) -> Game[Any, Any]:
    """The game a spec names.

    Raises:
        WebError: the library's message for a bad spec.
    """
    if len(spec) > MAX_SPEC:
        raise WebError(f"the game spec is longer than {MAX_SPEC} characters")
    try:
        return make_spec(spec)
    except (SpecError, ValueError) as e:
        raise WebError(str(e)) from None


def opponent_of(
    spec: str, game: Game[Any, Any], seat: int, runs: Path, budget: Budget
) -> tuple[Any, Any]:
    """The bot and its table: an agent spec, or ``table:NAME`` for a table file in ``runs``.

    A learner plays its table's best moves (``greedy_agent``), as ``purestate play`` does. The
    bot's search options are capped and it reads the server's clock (``budget``), which limits
    every move it makes.

    Raises:
        WebError: a bad spec or table file (the library's message).
    """
    spec = spec.strip()
    clock = budget.clock()

    def clocked(text: str) -> Any:
        bot = budget.bot(agent(text), clock)
        require_quick_solve(bot, game, once=True)
        if solving_note(bot, game, lambda: solved(game)) or solved_on_disk(game):
            # solved once for every later game: read from (or written to) the disk cache
            load_or_solve(game)
        return bot

    if len(spec) > MAX_SPEC:
        raise WebError(f"the opponent spec is longer than {MAX_SPEC} characters")
    try:
        if spec.startswith(TABLE_PLAYER):
            name, laid, replaced = _table_opponent(spec)
            path = inside(runs, name.strip())
            if not path.is_file():
                raise NotFound(f"no table file {name.strip()!r} in the runs folder")
            if replaced:
                bot = clocked(replaced)
                loaded = load_table(path, game, bot)
            else:
                bot, loaded = load_table_agent(path, game, clocked, laid or None)
            if not supports_seat(bot, loaded.table, seat):
                raise WebError(f"{name.strip()}: this table plays the other seat")
            return greedy_agent(bot), loaded.table
        bot = clocked(spec or game.spec.default_opponent)
        check_game(bot, game)
        return greedy_agent(bot), bot.initial_table(game, seat)
    except FileFormatError as e:
        raise WebError(str(e).replace(str(runs.resolve()), "<runs>")) from None
    except (SpecError, ValueError) as e:
        raise WebError(str(e)) from None


def _table_opponent(spec: str) -> tuple[str, str, str]:
    """The table's name in the runs folder, the spec laid over its agent and the spec that
    replaces it ("" for none): ``table:NAME?SPEC`` lays options over the file's agent, as a
    tournament's entrants and ``--agent`` beside ``--table`` do; ``table:NAME as SPEC``, the
    browser's first spelling, plays the table with the agent ``SPEC`` instead."""
    name, laid = table_player(spec)
    if laid is not None:
        return name, laid.strip(), ""
    name, _, replaced = name.partition(" as ")
    return name, "", replaced.strip()


def solved_on_disk(game: Game[Any, Any]) -> bool:
    """Whether the disk cache holds ``game``'s solution (reading it takes well under a second)."""
    try:
        path = cache_path(game)
    except (ValueError, ImportError):
        return False
    return path is not None and path.is_file()


def solved(game: Game[Any, Any]) -> bool:
    """Whether ``game``'s solution is at hand: in the server's memory or on the disk."""
    return memoised(game) is not None or solved_on_disk(game)


def solving(game_spec: str, opponent: str) -> str:
    """What the page says while the game ``game_spec`` against ``opponent`` starts: "solving G
    once, about N s" when the bot first solves the game (``web.budget.solving_note``), else ""
    (also for a spec the start will refuse with its reason)."""
    try:
        game = game_of(game_spec)
        spec = opponent.strip() or game.spec.default_opponent
        if spec.startswith(TABLE_PLAYER) or len(spec) > MAX_SPEC:
            return ""
        bot = agent(spec)
    except (WebError, SpecError, ValueError):
        return ""
    return solving_note(bot, game, lambda: solved(game))


class Session:
    """One game in the browser: the person in seat ``person``, the bot in the other.

    The game is the core's ``Match`` (``core/match.py``), replaced by a new value at each move:
    the person is shown its ``view`` of their seat, and a bot that cannot answer leaves the
    match as it was. ``index`` is the game's number in the seed's key schedule (the MENACE lab's
    game ``i`` is ``i``; a play page's game is 0).
    """

    def __init__(self, game: Game[Any, Any], game_spec: str, bot: Any, table: Any, person: int,
                 seed: int, index: int = 0) -> None:  # fmt: skip
        self.game = game
        self.game_spec = game_spec
        self.bot = bot
        self.person = person
        self.seed = seed
        seats: tuple[Any, Any] = (None, bot) if person == 0 else (bot, None)
        tables: tuple[Any, Any] = (None, table) if person == 0 else (table, None)
        self.match = Match.start(game, seats, tables, fold_in(key(seed), index))
        self.last_bot: list[str] = []
        # the match at each of the person's turns so far: undo goes back to the last (the match
        # is a value, so keeping it is all undo needs); the earlier ones without the bot's
        # search tree (``person_moves``)
        self.turns: list[Match] = []
        self.lock = threading.Lock()

    @property
    def state(self) -> Any:
        """The position now."""
        return self.match.state

    @property
    def states(self) -> list[Any]:
        """The positions so far, from the start."""
        return list(self.match.states)

    @property
    def moves(self) -> list[Any]:
        """The moves so far."""
        return list(self.match.moves)

    @property
    def movers(self) -> list[int]:
        """Who played each move."""
        return list(self.match.movers)

    @property
    def resigned(self) -> int | None:
        """The seat that resigned, or None."""
        return self.match.resigned

    def over(self) -> bool:
        """Whether the game has ended (by the rules or by the bot resigning)."""
        return self.match.over

    def bot_moves(self) -> None:
        """Let the bot move until it is the person's turn or the game is over."""
        self._answer(self.match)

    def _answer(self, announced: Match) -> None:
        """The bot's moves from the match now; the page's news is what the person may see of
        the moves since ``announced`` (in a game with hidden moves, the bot's committed move
        waits until the round resolves). If the bot fails, nothing changes."""
        try:
            after = self.match.bots_move()
        except WebError:
            raise
        except SpecError as e:
            # registered evaluations and scores are refused at setup (check_game); a function
            # injected in code for another game says so with a one-line SpecError when first used
            raise WebError(f"{self.bot.spec} cannot play {self.game.spec.name}: {e}") from None
        except Exception as e:
            # a bot that breaks (an error inside a library's search) is its game's trouble, not
            # the server's: one line for the page
            why = " ".join(str(e).split()) or type(e).__name__
            raise WebError(f"{self.bot.spec} could not move: {why}") from e
        fmt = self.game.format_move
        self.last_bot = [fmt(m) for p, m in after.news(announced, self.person) if p != self.person]
        self.match = after

    def person_moves(self, text: str) -> None:
        """The person's move, typed or clicked as the game's move text; then the bot answers.

        Raises:
            WebError: the game's own message for a move it cannot parse or that is illegal, or
                the bot could not answer (the person's move is then taken back).
        """
        if self.over():
            raise WebError("the game is over: start a new game")
        if not self.match.persons_turn():
            raise WebError("it is not your turn")
        if len(text) > MAX_SPEC:
            raise WebError("that is not a move")
        before = self.match
        try:
            move = self.game.parse_move(before.view(self.person), text)
            self.match = before.person_moves(move)
        except (IllegalMove, ParseError) as e:
            raise WebError(f"illegal move: {e}") from None
        try:
            self._answer(before)
        except BaseException:
            # the bot could not answer (or was stopped): take the move back, so the game is as
            # it was
            self.match = before
            raise
        forget = without_tree_of(self.bot)
        if self.turns and forget is not None:
            # A search's table carries its tree to the next move (mcts, alphazero): about 130 MB
            # after a CPU second of mcts on ultimate. A game keeps a turn a move, so the turns
            # before the last drop it: an undo past the last turn searches afresh, and a game
            # holds two trees, not one a move. Any other table (tron_wall's side) is kept.
            last = self.turns[-1]
            tables = tuple(forget(t) if p != self.person else t for p, t in enumerate(last.tables))
            self.turns[-1] = attrs.evolve(last, tables=tables)
        self.turns.append(before)

    def undo(self) -> None:
        """Take back the person's last move and the bot's answer to it: the game is as it was
        at the person's last turn (also after the game ended).

        Raises:
            WebError: the person has not moved yet.
        """
        if not self.turns:
            raise WebError("nothing to undo: you have not moved yet")
        self.match = self.turns.pop()
        self.last_bot = []

    def result(self) -> str:
        """The result in words for the person, or "" while the game runs."""
        if not self.over():
            return ""
        if self.resigned is not None:
            return "the bot resigns: you win!" if self.resigned != self.person else "you resign"
        mine, theirs = self.match.returns[self.person], self.match.returns[1 - self.person]
        return "you win!" if mine > theirs else "you lose." if mine < theirs else "a draw."

    def view(self, session_id: str) -> dict[str, Any]:
        """What the page shows: the board (SVG), whose turn, the bot's last moves, the result:
        only what the match's ``view`` and ``shown`` give the person's seat."""
        m = self.match
        shown, k = m.view(self.person), m.shown[self.person]
        last = m.moves[k - 1] if k else None
        names = ["you", self.bot.spec] if self.person == 0 else [self.bot.spec, "you"]
        seats = [seat_name(self.game, p) for p in (0, 1)]
        title = f"{seats[0]}: {names[0]} · {seats[1]}: {names[1]}"
        return {
            "id": session_id,
            "game": self.game_spec,
            "opponent": self.bot.spec,
            "seat": self.person,
            "seat_names": seats,
            "you_are": seats[self.person],
            "can_undo": bool(self.turns),
            "seed": self.seed,
            # the title goes above the board in the page, not into the picture: a title wider
            # than the board would widen the picture, and it scales with the board
            "title": title,
            "svg": str(svg(self.game, shown, "", last, m.states[:k])),
            "moves": [self.game.format_move(x) for x in m.moves[:k]],
            "movers": list(m.movers[:k]),
            "bot_moves": list(self.last_bot),
            "your_turn": m.persons_turn(),
            "over": m.over,
            "returns": list(self.game.returns(m.state)),
            "result": self.result(),
        }


def new_session(
    game_spec: str, opponent: str, seat: int, seed: int, runs: Path, budget: Budget
) -> Session:
    """A session with the bot's opening moves played (when the person is second).

    Raises:
        WebError: a bad game, opponent, seat or seed.
    """
    if seat not in (0, 1):
        raise WebError("seat must be 0 (you move first) or 1 (second)")
    if not 0 <= seed < 2**63:
        raise WebError("seed must be a whole number from 0 to 2**63 - 1")
    game = game_of(game_spec)
    bot, table = opponent_of(opponent, game, 1 - seat, runs, budget)
    session = Session(game, game_spec, bot, table, seat, seed)
    session.bot_moves()
    return session
