"""MENACE's training loop compiled: ``Menace.train_games`` against a fixed opponent whose draws
are tabulated (``core.agent.ListDraw``), game after game, on a game walked into arrays.

The twin of ``agents.menace._TrainingLoop``, which stays the reference and the fallback: the same
keys (``fold_in(key, game)``, then ``fold_in(.., ply)``), the same draws (``weighted_index`` on the
beads, the opponent's ``bits`` split as its ``act`` splits them) and the same learning, on 64-bit
words with wrapping arithmetic, so the games and the beads are the pure loop's bit for bit
(``properties/test_menace_compiled_props.py``). Positions are numbered (``menace_compiled``'s
``GameGraph``); a move is its index in the position's legal moves.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from purestate.core.compiled import jit
from purestate.games.kernels.stream import mix

_FOLD = np.uint64(0xF01D)
_BITS = np.uint64(0xB175)
_LOW = np.uint64(0xFFFFFFFF)
_S11, _S32 = np.uint64(11), np.uint64(32)
_UNIT53 = 1.0 / (1 << 53)
_COIN = 4294967296.0

COIN, CHOICE = 0, 1
"""The opponent's draw (``ListDraw.kind``): the rules' coin and half-word choice, or
``keys.choice``'s multiply-shift on all 64 bits."""


@jit
def fold_in(k: np.uint64, data: int) -> np.uint64:
    """``keys.fold_in`` (its table of small data is the same mix)."""
    return mix(k ^ mix(np.uint64(data) ^ _FOLD))


@jit
def bits(k: np.uint64) -> np.uint64:
    """``keys.bits``."""
    return mix(k ^ _BITS)


@jit
def below(r: np.uint64, n: int) -> int:
    """``(r * n) >> 64`` (``keys.below`` of the bits ``r``) without 128-bit words: the high
    half's product plus the carry of the low half's."""
    m = np.uint64(n)
    return int(((r >> _S32) * m + (((r & _LOW) * m) >> _S32)) >> _S32)


@jit
def train(
    key: int,
    start: int,
    games: int,
    seat: int,
    root: int,
    child_start: npt.NDArray[np.int64],
    children: npt.NDArray[np.int64],
    mover: npt.NDArray[np.int64],
    outcome: npt.NDArray[np.int64],
    position: npt.NDArray[np.int64],
    pos_box: npt.NDArray[np.int64],
    pos_start: npt.NDArray[np.int64],
    pos_moves: npt.NDArray[np.int64],
    pos_colour: npt.NDArray[np.int64],
    box_start: npt.NDArray[np.int64],
    box_refill: npt.NDArray[np.int64],
    beads: npt.NDArray[np.int64],
    learning: npt.NDArray[np.int64],
    opp_kind: int,
    opp_p: float,
    first_start: npt.NDArray[np.int64],
    first: npt.NDArray[np.int64],
    second_start: npt.NDArray[np.int64],
    second: npt.NDArray[np.int64],
    plies: npt.NDArray[np.int64],
    lengths: npt.NDArray[np.int64],
    resigned: npt.NDArray[np.int64],
) -> int:
    """Play and learn games ``start`` .. ``start + games - 1``; the number played (negative
    when the last was refused).

    ``beads`` (box ``b``'s counts at ``box_start[b]`` ..) change in place. Game ``g`` writes the
    legal index of each move on ``plies`` (its plies follow the previous game's), its length on
    ``lengths[g]`` and who resigned (-1: nobody) on ``resigned[g]``. Stops after a game MENACE
    refused (its first box empty), or before a game that might not fit ``plies``.

    ``position[s]`` is the row of a position MENACE faces (-1 for a forced move: its only legal
    move); row ``i`` draws from box ``pos_box[i]``, its bead colour ``j`` plays the legal index
    ``pos_moves[pos_start[i] + j]`` and learning rewards colour ``pos_colour[pos_start[i] + j]``
    for it (-1: none). ``learning`` is ``win, draw, loss, floor, limit,
    refill`` (refill 1 for ``empty=refill``); ``box_refill[b]`` the beads per move that refill box
    ``b`` (-1: its stage is unknown, never refilled by learning).
    """
    k = np.uint64(key)
    win, draw, loss, floor, limit, refill = (
        learning[0],
        learning[1],
        learning[2],
        learning[3],
        learning[4],
        learning[5],
    )
    drawn_box = np.empty(64, np.int64)
    drawn_colour = np.empty(64, np.int64)
    used = 0
    capacity = plies.shape[0]
    longest = 0
    g = 0
    while g < games:
        if used + longest + 1 > capacity and g > 0:
            return g
        gk = fold_in(k, start + g)
        s = root
        ply = 0
        n_drawn = 0
        gave_up = -1
        moved = False
        while child_start[s + 1] > child_start[s]:
            if used + ply >= capacity:
                return g  # the game does not fit: played again by the next call
            p = mover[s]
            if p == seat:
                row = position[s]
                if row < 0:
                    li = 0
                else:
                    a = pos_start[row]
                    n = pos_start[row + 1] - a
                    b = pos_box[row]
                    off = box_start[b]
                    total = 0
                    for j in range(n):
                        total += beads[off + j]
                    fill = -1
                    if total == 0:
                        if refill == 0:
                            gave_up = p
                            break
                        fill = box_refill[b]
                        total = fill * n
                    target = float(bits(fold_in(gk, ply)) >> _S11) * _UNIT53 * float(total)
                    acc = 0.0
                    j = n - 1
                    for i in range(n):
                        acc += float(beads[off + i] if fill < 0 else fill)
                        if target < acc:
                            j = i
                            break
                    li = pos_moves[a + j]
                    colour = pos_colour[a + j]
                    if colour >= 0:
                        if n_drawn == drawn_box.shape[0]:
                            drawn_box = np.concatenate((drawn_box, np.empty(64, np.int64)))
                            drawn_colour = np.concatenate((drawn_colour, np.empty(64, np.int64)))
                        drawn_box[n_drawn] = b
                        drawn_colour[n_drawn] = colour
                        n_drawn += 1
                moved = True
            else:
                r = bits(fold_in(gk, ply))
                if opp_kind == CHOICE:
                    a = first_start[s]
                    li = first[a + below(r, first_start[s + 1] - a)]
                else:
                    if opp_p >= 1.0 or float(r >> _S32) < opp_p * _COIN:
                        a, e, chosen = first_start[s], first_start[s + 1], first
                    else:
                        a, e, chosen = second_start[s], second_start[s + 1], second
                    li = chosen[a + int(((r & _LOW) * np.uint64(e - a)) >> _S32)]
            plies[used + ply] = li
            s = children[child_start[s] + li]
            ply += 1
        result = (-1 if gave_up == seat else 1) if gave_up >= 0 else outcome[s]
        delta = win if result > 0 else (loss if result < 0 else draw)
        for i in range(n_drawn):
            b = drawn_box[i]
            off = box_start[b]
            if refill != 0 and box_refill[b] >= 0:
                total = 0
                for j in range(off, box_start[b + 1]):
                    total += beads[j]
                if total == 0:
                    for j in range(off, box_start[b + 1]):
                        beads[j] = box_refill[b]
            beads[off + drawn_colour[i]] = min(
                limit, max(floor, beads[off + drawn_colour[i]] + delta)
            )
        lengths[g] = ply
        resigned[g] = gave_up
        used += ply
        longest = max(longest, ply)
        g += 1
        if gave_up == seat and not moved:
            return -g  # refused: every later game is refused too
    return g
