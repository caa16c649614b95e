"""The network of ``alphazero``: observation planes in, move logits and a value out (JAX).

Parameters are a plain pytree, a dict of name to array, so a table holds them as a value and a
file holds them as named arrays. Two shapes of network, chosen by ``Shape.of``:

- a **residual conv net** for planes that are a board (rows × columns × planes, both sides at
  least 4): a 3×3 stem to ``width`` channels, ``depth`` residual blocks of two 3×3 convs, a policy
  head (1×1 conv to 2 channels, then a dense layer to the move ids) and a value head (1×1 conv to
  1 channel, a dense layer of ``width``, then one unit through tanh);
- an **MLP** for everything else (tic-tac-toe's 3×3 board is too small for convolutions to pay):
  the planes flattened, ``depth`` residual dense blocks of ``width`` units, the same two heads.

No normalisation layers: batch statistics would make a state's output depend on the rest of its
batch. Every evaluation runs in batches of fixed sizes (``BUCKETS``, padded with zeros), each
computed in chunks of ``CHUNK`` rows, so a state's output is bit for bit the same whatever else
is evaluated beside it (a test checks it with trained-looking weights).

jax is imported inside the functions that need it, so importing this module needs no jax.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from attrs import frozen

from purestate.core.memo import memo

if TYPE_CHECKING:
    import numpy as np

Params = Mapping[str, Any]
"""Name to array (numpy or JAX): the network's weights (a dict inside JAX's functions, which
take dicts as pytrees; a table holds a persistent map)."""

CHUNK = 8
"""The rows the network computes at once. XLA's CPU code for a batch depends on its size (its
matrix and convolution kernels block the work by shape), and so do the last bits of a row's
output: batches of 1, 2, 4 and 64 each differed from a batch of 8 for some of the shapes the
games give (ultimate's 9x9x4 planes at every width, tic-tac-toe's MLP at 32). A batch is
therefore computed as a loop over chunks of 8 rows (``jax.lax.map``), each chunk the same
computation, so a row's output never depends on the batch's size or on the other rows. For the
conv nets it costs nothing (connect four's 32x2: 27,793 rows/s in chunks against 26,839 as one
batch of 64; ultimate's 12,813 against 10,648), for the small MLP half its speed at 64 rows,
which is never what a run waits for."""

BUCKETS = (8, 16, 32, 64)
"""The batch sizes a network is evaluated at, each a whole number of ``CHUNK``: chunks of 64,
and what is left padded to the smallest size that holds it. The middle ones keep a worker that
plays half an iteration's games from paying for a whole batch of 64 (with only 8 and 64, two
workers each evaluated as many padded rows as one, and ran 1.05x one worker)."""

ILLEGAL = -1e9
"""The logit of an illegal move: its softmax weight is exactly 0 in float32."""

Gradients = Literal["autodiff", "nhwc"]
"""How training differentiates the conv net's convolutions (the ``gradients`` option):
``autodiff`` lets JAX transpose them, ``nhwc`` writes each gradient as a convolution in the
forward pass's NHWC/HWIO layout (``nhwc_convolution``). The same numbers up to rounding."""

NHWC = ("NHWC", "HWIO", "NHWC")
"""The conv net's layout: batch, rows, columns, channels; kernels rows, columns, in, out."""


@memo(size=1, why="the setting is made once; later calls return the module")
def jax_module() -> Any:
    """JAX, set to run its CPU computations on the calling thread; every JAX use here goes
    through it, so the setting is made before JAX's first computation in the process.

    A timed agent's clock is the CPU time of the thread that moves (the shell attaches
    ``time.thread_time``). With JAX's asynchronous CPU dispatch the network ran on XLA's own
    threads, which that clock does not see: ``alphazero:seconds=0.1`` spent 0.2 CPU s a move.
    The outputs are read at once anyway, so nothing overlapped that is lost.
    """
    import jax

    config: Any = jax.config  # its update() is untyped
    config.update("jax_cpu_enable_async_dispatch", False)
    return jax


@frozen
class Shape:
    """What the network looks like: the layout is a function of the game and the options.

    Attributes:
        planes: The game's plane shape.
        moves: The number of move ids (the policy head's size).
        width: Units (MLP) or channels (conv) per layer.
        depth: Residual blocks.
        conv: Whether it is the conv net (planes rows × columns × planes, both sides ≥ 4).
    """

    planes: tuple[int, ...]
    moves: int
    width: int
    depth: int
    conv: bool

    @classmethod
    def of(cls, planes: tuple[int, ...], moves: int, width: int, depth: int) -> Shape:
        """The network for planes of shape ``planes`` and ``moves`` move ids."""
        conv = len(planes) == 3 and planes[0] >= 4 and planes[1] >= 4
        return cls(tuple(planes), moves, width, depth, conv)

    @property
    def inputs(self) -> int:
        """Numbers per observation."""
        n = 1
        for d in self.planes:
            n *= d
        return n


def init(shape: Shape, seed: tuple[int, int]) -> dict[str, np.ndarray]:
    """Fresh weights (He-normal, zero biases), drawn from the JAX key of ``seed``'s two words.

    The last layer of each residual block and of each head starts at zero, so every block starts
    as the identity, the priors uniform over the legal moves and the value at 0.
    """
    jax = jax_module()
    import numpy as np

    raw = jax.numpy.asarray(np.array(seed, dtype=np.uint32))
    k = jax.random.wrap_key_data(raw, impl="threefry2x32")
    specs = layers(shape)
    params: dict[str, np.ndarray] = {}
    for i, (name, dims, fan_in) in enumerate(specs):
        last = (name.endswith("2.w") and name.startswith("block")) or name.endswith("out.w")
        if name.endswith(".b") or last:
            params[name] = np.zeros(dims, np.float32)
        else:
            draw = jax.random.normal(jax.random.fold_in(k, i), dims, dtype=np.float32)
            params[name] = np.asarray(draw * np.float32((2.0 / fan_in) ** 0.5))
    return params


def layers(shape: Shape) -> list[tuple[str, tuple[int, ...], int]]:
    """The weights in order: (name, dimensions, fan-in)."""
    w, a = shape.width, shape.moves
    out: list[tuple[str, tuple[int, ...], int]] = []

    def dense(name: str, n_in: int, n_out: int) -> None:
        out.append((f"{name}.w", (n_in, n_out), n_in))
        out.append((f"{name}.b", (n_out,), n_in))

    def conv(name: str, k: int, c_in: int, c_out: int) -> None:
        out.append((f"{name}.w", (k, k, c_in, c_out), k * k * c_in))
        out.append((f"{name}.b", (c_out,), k * k * c_in))

    if shape.conv:
        rows, cols, c = shape.planes
        cells = rows * cols
        conv("stem", 3, c, w)
        for i in range(shape.depth):
            conv(f"block{i}.1", 3, w, w)
            conv(f"block{i}.2", 3, w, w)
        conv("policy.conv", 1, w, 2)
        dense("policy.out", 2 * cells, a)
        conv("value.conv", 1, w, 1)
        dense("value.hidden", cells, w)
        dense("value.out", w, 1)
    else:
        dense("stem", shape.inputs, w)
        for i in range(shape.depth):
            dense(f"block{i}.1", w, w)
            dense(f"block{i}.2", w, w)
        dense("policy.out", w, a)
        dense("value.hidden", w, w)
        dense("value.out", w, 1)
    return out


def forward(
    shape: Shape, params: Params, x: Any, mask: Any, gradients: Gradients = "autodiff"
) -> tuple[Any, Any]:
    """Masked logits (illegal moves at ``ILLEGAL``) and values in (-1, 1), for a batch.

    Args:
        shape: The network.
        params: Its weights.
        x: Observations, ``(batch, *shape.planes)``, any number type.
        mask: ``(batch, shape.moves)``, true where a move is legal.
        gradients: How a training step differentiates the convolutions (``Gradients``); the
            outputs are the same either way.
    """
    jax = jax_module()
    import jax.numpy as jnp

    relu = jax.nn.relu
    x = jnp.asarray(x, jnp.float32)
    n = x.shape[0]
    convolve = nhwc_convolution() if gradients == "nhwc" else _convolution

    def dense(name: str, h: Any) -> Any:
        return h @ params[f"{name}.w"] + params[f"{name}.b"]

    def conv(name: str, h: Any) -> Any:
        return convolve(h, params[f"{name}.w"]) + params[f"{name}.b"]

    layer = conv if shape.conv else dense
    h = relu(layer("stem", x if shape.conv else x.reshape(n, -1)))
    for i in range(shape.depth):
        h = relu(h + layer(f"block{i}.2", relu(layer(f"block{i}.1", h))))
    if shape.conv:
        p = relu(conv("policy.conv", h)).reshape(n, -1)
        v = relu(conv("value.conv", h)).reshape(n, -1)
    else:
        p = v = h
    logits = dense("policy.out", p)
    value = jnp.tanh(dense("value.out", relu(dense("value.hidden", v))))[:, 0]
    return jnp.where(mask, logits, ILLEGAL), value


def _convolution(h: Any, w: Any) -> Any:
    """The conv net's convolution: stride 1, "SAME" padding, in the ``NHWC`` layout."""
    jax = jax_module()

    return jax.lax.conv_general_dilated(h, w, (1, 1), "SAME", dimension_numbers=NHWC)


@memo(size=1, why="one function, made once a process has JAX")
def nhwc_convolution() -> Callable[[Any, Any], Any]:
    """``_convolution`` (odd kernel sizes) with its gradients written as convolutions in the same
    NHWC/HWIO layout, for training.

    Why: JAX transposes a convolution into convolutions of other layouts (the kernel's gradient
    has the batch as its feature dimension). XLA's CPU compiler rewrites those into the layout
    its fast (Eigen) convolution takes only in a program's entry computation, and a training
    loop's steps run inside ``lax.scan``'s loop: there the transposed convolutions fall to a
    generic scalar loop, about 25 times slower for the whole step on a 32-channel connect-four
    net. Written here in the forward layout, they stay fast inside the loop. The numbers are the
    same sums in another order, so they differ from ``autodiff``'s in the last bits.
    """
    jax = jax_module()
    import jax.numpy as jnp

    # not a decorator: without JAX's types (tox's types env) mypy would call it untyped
    convolution: Any = jax.custom_vjp(_convolution)

    def ahead(h: Any, w: Any) -> tuple[Any, tuple[Any, Any]]:
        return _convolution(h, w), (h, w)

    def back(saved: tuple[Any, Any], g: Any) -> tuple[Any, Any]:
        h, w = saved
        # the input's gradient: g through the kernel turned half a turn, its in and out swapped
        dh = _convolution(g, jnp.transpose(w[::-1, ::-1], (0, 1, 3, 2)))
        # the kernel's: sums over the batch and the board, so the channels in are the batch,
        # the batch the feature, and g the kernel, spread over the board (padded as the input)
        pad = w.shape[0] // 2
        dw = jax.lax.conv_general_dilated(
            jnp.transpose(h, (3, 1, 2, 0)),
            jnp.transpose(g, (1, 2, 0, 3)),
            (1, 1),
            [(pad, pad), (w.shape[1] // 2, w.shape[1] // 2)],
            dimension_numbers=NHWC,
        )
        return dh, jnp.transpose(dw, (1, 2, 0, 3))

    convolution.defvjp(ahead, back)
    made: Callable[[Any, Any], Any] = convolution
    return made


ALONE = 1
"""Chunks of one row: what a single search evaluates (``AlphaZero.act`` and ``greedy`` walk one
tree, a leaf at a time). Computed alone rather than padded to a chunk of 8, a leaf costs connect
four's 32x2 conv net 2.4 times less CPU (236 us against 563) and ultimate's 3.3 times (237
against 786), so a move of a given time searches that many more leaves. Each row is still
computed the same way in any batch; its last bits may differ from the same state's in chunks
of 8, which self-play uses, so each of the two ways is the same every time."""


def buckets(rows: int) -> tuple[int, ...]:
    """The padded batch sizes for chunks of ``rows``: ``rows`` itself, then the ``BUCKETS``
    above it."""
    return (rows, *(b for b in BUCKETS if b > rows))


@memo(size=64, why="one compiled function per network layout and chunk; a process meets a few")
def compiled(shape: Shape, rows: int = CHUNK) -> Callable[[Params, Any, Any], tuple[Any, Any]]:
    """``forward`` for ``shape``, jitted, returning priors (softmax over legal moves) and values;
    over a whole number of chunks of ``rows`` rows, computed a chunk at a time."""
    jax = jax_module()

    def chunk(params: Params, x: Any, mask: Any) -> tuple[Any, Any]:
        logits, value = forward(shape, params, x, mask)
        return jax.nn.softmax(logits, axis=-1), value

    def run(params: Params, x: Any, mask: Any) -> tuple[Any, Any]:
        n = x.shape[0]
        xs = x.reshape(n // rows, rows, *x.shape[1:])
        ms = mask.reshape(n // rows, rows, mask.shape[1])
        p, v = jax.lax.map(lambda xm: chunk(params, *xm), (xs, ms))
        return p.reshape(n, -1), v.reshape(n)

    # annotated, so the type is the same whether mypy sees JAX's types or (without the extra) Any
    jitted: Callable[[Params, Any, Any], tuple[Any, Any]] = jax.jit(run)
    return jitted


def placed(params: Params) -> dict[str, Any]:
    """The weights as JAX arrays, for many ``evaluate`` calls: the same values, so the same
    outputs, but a call no longer copies each numpy array into JAX (about a third of a lone
    leaf's CPU time on connect four's 32-wide net: 123 µs a call against 184)."""
    jax = jax_module()
    placed_weights: dict[str, Any] = jax.device_put(dict(params))
    return placed_weights


def evaluate(
    shape: Shape, params: Params, x: np.ndarray, mask: np.ndarray, rows: int = CHUNK
) -> tuple[np.ndarray, np.ndarray]:
    """Priors over the move ids (0 where ``mask`` is false) and values, as numpy arrays.

    The batch is cut into pieces of a size in ``buckets(rows)``, padded, and each computed in
    chunks of ``rows`` (``CHUNK``, or ``ALONE`` for one search's leaves), so each row's output
    depends on that row alone. ``params`` may be numpy arrays or ``placed`` ones (faster for
    many calls; the same outputs).
    """
    import numpy as np

    run = compiled(shape, rows)
    sizes = buckets(rows)
    weights = dict(params)
    n = len(x)
    priors = np.empty((n, shape.moves), np.float32)
    values = np.empty(n, np.float32)
    done = 0
    while done < n:
        size = next((b for b in sizes if n - done <= b), sizes[-1])
        take = min(size, n - done)
        xs = np.zeros((size, *shape.planes), np.float32)
        ms = np.ones((size, shape.moves), bool)
        xs[:take] = x[done : done + take]
        ms[:take] = mask[done : done + take]
        p, v = run(weights, xs, ms)
        priors[done : done + take] = np.asarray(p)[:take]
        values[done : done + take] = np.asarray(v)[:take]
        done += take
    return priors, values


def loss(
    shape: Shape,
    params: Params,
    x: Any,
    mask: Any,
    pi: Any,
    z: Any,
    l2: float,
    gradients: Gradients = "autodiff",
) -> tuple[Any, tuple[Any, Any]]:
    """AlphaZero's loss on a minibatch: cross-entropy of the priors against the search's visit
    shares ``pi``, squared error of the value against the result ``z``, and ``l2`` times the sum
    of squared weights. Returns the total and (policy loss, value loss); ``gradients`` as in
    ``forward``."""
    jax = jax_module()
    import jax.numpy as jnp

    logits, value = forward(shape, params, x, mask, gradients)
    logp = jax.nn.log_softmax(logits, axis=-1)
    policy = -jnp.mean(jnp.sum(jnp.where(mask, pi * logp, 0.0), axis=-1))
    squared = jnp.mean((value - z) ** 2)
    decay = sum(jnp.sum(w * w) for name, w in params.items() if name.endswith(".w"))
    return policy + squared + l2 * decay, (policy, squared)
