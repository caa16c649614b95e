"""Training ``alphazero``'s network: examples, the replay buffer and optax steps, all values.

An ``Examples`` value holds what self-play teaches (observations, legal-move masks, the search's
visit shares and the results) as numpy arrays that are never written after they are made (they
are marked read-only), so a table that holds them can be shared and compared like any value.
``train`` runs a fixed number of Adam steps on minibatches drawn from a key and returns new
parameters and optimizer state; its inputs are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from attrs import frozen

from purestate.agents.alphazero.network import Gradients, Params, Shape, jax_module, loss
from purestate.core.keys import Key
from purestate.core.memo import memo

if TYPE_CHECKING:
    import numpy as np

WEIGHT_DECAY = 1e-4
"""The L2 penalty on the weights (AlphaZero's c), fixed: it has not needed tuning."""


def frozen_array(a: np.ndarray) -> np.ndarray:
    """``a`` marked read-only (a copy if it does not own its data), so no holder can change it."""
    import numpy as np

    out = np.array(a, copy=True) if not a.flags.owndata or a.flags.writeable else a
    out.flags.writeable = False
    return out


@frozen(eq=False)
class Examples:
    """Training examples as read-only arrays, one row per position.

    Attributes:
        planes: The position seen by its player to move, ``(n, *plane_shape)`` int8.
        mask: ``(n, moves)`` bool, the legal moves.
        pi: ``(n, moves)`` float32, the search's visit shares (the policy target).
        z: ``(n,)`` float32, the game's result for the player to move (the value target).
    """

    planes: np.ndarray
    mask: np.ndarray
    pi: np.ndarray
    z: np.ndarray

    def __len__(self) -> int:
        return len(self.z)

    @classmethod
    def empty(cls, shape: Shape) -> Examples:
        """No examples, for a network of ``shape``."""
        import numpy as np

        return cls.of(
            np.zeros((0, *shape.planes), np.int8),
            np.zeros((0, shape.moves), bool),
            np.zeros((0, shape.moves), np.float32),
            np.zeros(0, np.float32),
        )

    @classmethod
    def of(cls, planes: Any, mask: Any, pi: Any, z: Any) -> Examples:
        """Examples from arrays (copied, typed and marked read-only)."""
        import numpy as np

        return cls(
            frozen_array(np.asarray(planes, np.int8)),
            frozen_array(np.asarray(mask, bool)),
            frozen_array(np.asarray(pi, np.float32)),
            frozen_array(np.asarray(z, np.float32)),
        )

    def then(self, more: Sequence[Examples], keep: int) -> Examples:
        """These examples followed by ``more``, keeping the last ``keep`` (a new value).

        Keeping the last ``keep`` of a concatenation is associative, so adding games one call at
        a time or all at once gives the same buffer.
        """
        import numpy as np

        parts = [self, *more]

        def cat(name: str) -> np.ndarray:
            joined = np.concatenate([getattr(p, name) for p in parts])
            return joined[max(0, len(joined) - keep) :]

        return Examples.of(cat("planes"), cat("mask"), cat("pi"), cat("z"))

    def same(self, other: Examples) -> bool:
        """Whether both hold the same numbers (the arrays' bytes)."""
        import numpy as np

        return all(
            np.array_equal(getattr(self, n), getattr(other, n))
            for n in ("planes", "mask", "pi", "z")
        )


def optimizer(lr: float) -> Any:
    """Adam at learning rate ``lr`` (optax)."""
    import optax

    return optax.adam(lr)


def initial_state(lr: float, params: Params) -> Any:
    """The optimizer's state for ``params``, with numpy leaves."""
    jax = jax_module()
    import numpy as np

    return jax.tree_util.tree_map(np.asarray, optimizer(lr).init(params))


@memo(size=64, why="one compiled training loop per network layout, learning rate and gradients")
def _steps(shape: Shape, lr: float, gradients: Gradients) -> Callable[..., Any]:
    jax = jax_module()

    opt = optimizer(lr)

    def one(carry: Any, batch: Any) -> Any:
        params, state = carry
        x, mask, pi, z = batch
        (total, (policy, value)), grads = jax.value_and_grad(
            lambda p: loss(shape, p, x, mask, pi, z, WEIGHT_DECAY, gradients), has_aux=True
        )(params)
        updates, state = opt.update(grads, state, params)
        params = jax.tree_util.tree_map(lambda p, u: p + u, params, updates)
        return (params, state), (total, policy, value)

    def run(params: Params, state: Any, x: Any, mask: Any, pi: Any, z: Any) -> Any:
        return jax.lax.scan(one, (params, state), (x, mask, pi, z))

    jitted: Callable[..., Any] = jax.jit(run)  # typed alike with or without JAX installed
    return jitted


@frozen
class Losses:
    """The mean losses over a training run's steps (0 when no step ran).

    Attributes:
        total: Policy + value + weight decay.
        policy: Cross-entropy of the priors against the visit shares.
        value: Squared error of the value against the result.
    """

    total: float = 0.0
    policy: float = 0.0
    value: float = 0.0


def batches(n: int, steps: int, size: int, key: Key) -> np.ndarray:
    """Row indices of ``steps`` minibatches of ``size`` rows drawn uniformly from ``n`` rows,
    with replacement, by a generator seeded from ``key`` (numpy's PCG64)."""
    import numpy as np

    rng = np.random.Generator(np.random.PCG64(int(key)))
    return rng.integers(0, n, size=(steps, size), dtype=np.int64)


def train(
    shape: Shape,
    lr: float,
    params: Params,
    state: Any,
    examples: Examples,
    key: Key,
    steps: int,
    size: int,
    gradients: Gradients = "autodiff",
) -> tuple[dict[str, np.ndarray], Any, Losses]:
    """``steps`` Adam steps on minibatches of ``size`` examples drawn from ``key``, the conv
    net's gradients taken as ``gradients`` says (``network.Gradients``).

    Returns:
        The new parameters and optimizer state (numpy leaves; the inputs are unchanged) and the
        mean losses.
    """
    jax = jax_module()
    import numpy as np

    if steps <= 0 or len(examples) == 0:
        return dict(params), state, Losses()
    rows = batches(len(examples), steps, size, key)
    (new_params, new_state), (total, policy, value) = _steps(shape, lr, gradients)(
        dict(params),
        state,
        examples.planes[rows].astype(np.float32),
        examples.mask[rows],
        examples.pi[rows],
        examples.z[rows],
    )
    out = {name: frozen_array(np.asarray(w)) for name, w in new_params.items()}
    new_state = jax.tree_util.tree_map(lambda a: frozen_array(np.asarray(a)), new_state)
    return out, new_state, Losses(float(total.mean()), float(policy.mean()), float(value.mean()))
