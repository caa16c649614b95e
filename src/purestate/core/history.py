"""What names and defaults meant before: the one place purestate keeps its past.

Spec strings and files outlive the code that wrote them, so every old name and every changed
default is kept here, as data, with the pure functions that read it:

* **Old names**: of agents (``seedbot`` is ``xtreme2019``), of presets (``qlearning:preset=seed``
  is ``preset=notebook``) and of dots and boxes' numberings (``numbering=seed`` is
  ``numbering=notebook``). The registry, the agents and the game look their old names up here.
* **The defaults each file format had.** A spec string leaves defaults out, so
  ``mcts:simulations=300`` in a file means the defaults of the version that wrote it. The run
  (``run.json``) and sweep (``sweep.json``) formats carry a version; ``DEFAULTS_BEFORE`` holds,
  for each version before today's, the options whose defaults changed after it, at the values
  they had (agent name -> option -> value as typed). A sweep.json without a format is version 1.
* **Manifest upgrades**: ``upgrade(manifest, kind, spell)`` turns an old ``run.json`` or
  ``sweep.json`` into today's, its specs spelled out (by ``core.registry.spec_then``, which reads
  ``defaults_then``) so that they mean today what they meant then.

**Changing an agent's defaults** is one new entry: append to ``DEFAULTS_BEFORE`` the options
whose defaults change, at their old values (``{"mcts": {"c": "0.3"}}``). The formats' version goes
up by one (``RUN_FORMAT`` and ``SWEEP_FORMAT`` are derived from it), files written from then on
say so, and older files keep meaning what they meant: a file of version ``v`` reads every entry
from ``v`` on, the oldest value of an option winning. A format change that changes no default
appends ``{}``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Literal

from purestate.core.spec import SpecError

# -- old names -----------------------------------------------------------------------------------

AGENT_ALIASES: Mapping[str, str] = MappingProxyType({"seedbot": "xtreme2019"})
"""Old agent name -> its name today: specs, run folders and records written under the old name
still build the agent (whose spec then carries the new name)."""

PRESET_ALIASES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {"qlearning": MappingProxyType({"seed": "notebook"})}
)
"""Agent name -> old preset name -> its name today."""

NUMBERING_ALIASES: Mapping[str, str] = MappingProxyType({"seed": "notebook"})
"""Dots and boxes' old ``numbering`` names -> their names today."""


def agent_name(name: str) -> str:
    """The agent's name today (``seedbot`` -> ``xtreme2019``); any other name as it is."""
    return AGENT_ALIASES.get(name, name)


def preset(agent: str, name: str | None) -> str | None:
    """The name today of ``agent``'s preset ``name`` (``seed`` -> ``notebook`` for ``qlearning``);
    any other name (or None) as it is."""
    if name is None:
        return None
    return PRESET_ALIASES.get(agent, {}).get(name, name)


def numbering(name: str) -> str:
    """The name today of a dots and boxes numbering (``seed`` -> ``notebook``)."""
    return NUMBERING_ALIASES.get(name, name)


# -- the defaults each format had ----------------------------------------------------------------

DEFAULTS_BEFORE: tuple[Mapping[str, Mapping[str, str]], ...] = (
    # version 1 -> 2: mcts's defaults chosen by measurement (c 1 -> 0.3, playout random -> auto,
    # decisive moves on); docs/agents/mcts.md has the figures
    MappingProxyType(
        {"mcts": MappingProxyType({"c": "1.0", "playout": "random", "decisive": "false"})}
    ),
    # version 2 -> 3: the games' playout kernels draw from the counter stream (keys.stream),
    # which the compiled kernels share, instead of a random.Random seeded per playout
    MappingProxyType({"mcts": MappingProxyType({"draws": "mersenne"})}),
    # version 3 -> 4: the MCTS tree shuffles new nodes' moves on the counter stream too (what
    # the compiled tree draws), and proves a new node only once its other moves are listed
    # (format 3's searches shuffled from keys.generator and proved it before); alphazero's conv
    # nets train with their gradients written in the forward layout (network.nhwc_convolution),
    # equal up to rounding and about 20 times faster
    MappingProxyType(
        {
            "mcts": MappingProxyType({"draws": "playouts"}),
            "alphazero": MappingProxyType({"gradients": "autodiff"}),
        }
    ),
    # version 4 -> 5: a generic decisive or heavy playout (a game without a decisive kernel of
    # its own: tic-tac-toe's, dots and boxes' and Tron's default) draws from the counter stream
    # of its simulation's key, in the search and in rollout_evaluator alike, instead of the
    # search's one generator and the evaluator's per-key generator: what the compiled tree
    # plays over the rows; alphazero's threshold and mix playouts with them
    MappingProxyType(
        {
            "mcts": MappingProxyType({"draws": "shared"}),
            "alphazero": MappingProxyType({"draws": "shared"}),
        }
    ),
    # version 5 -> 6: alphazero's play (act, greedy_decision) keeps the subtree of the position
    # from its previous move's search, as mcts does (self-play always did); before, each move
    # searched a fresh tree
    MappingProxyType({"alphazero": MappingProxyType({"reuse": "false"})}),
)
"""Entry ``v - 1``: the options whose defaults changed after version ``v`` of the run and sweep
formats, at the values they had in version ``v`` (agent name -> option -> value as typed)."""

VERSION = len(DEFAULTS_BEFORE) + 1
"""The version of the run and sweep formats written today."""

RUN_FORMAT = f"purestate.run/{VERSION}"
"""The format of a ``run.json`` written today."""

SWEEP_FORMAT = f"purestate.sweep/{VERSION}"
"""The format of a ``sweep.json`` written today."""

RUN_FORMATS = tuple(f"purestate.run/{v}" for v in range(1, VERSION + 1))
"""Every ``run.json`` format this version reads, oldest first."""

Kind = Literal["run", "sweep"]


def version_of(manifest: Mapping[str, Any], kind: Kind) -> int | None:
    """The format version of a ``run.json`` (``kind="run"``) or ``sweep.json`` manifest, or None
    for a format this version does not know (a newer one's, or a forgery). A sweep.json without
    a format is version 1 (sweeps said their format from version 2 on)."""
    fmt = manifest.get("format")
    if kind == "sweep" and "format" not in manifest:
        return 1
    prefix = f"purestate.{kind}/"
    if not isinstance(fmt, str) or not fmt.startswith(prefix):
        return None
    number = fmt[len(prefix) :]
    if not number.isdigit() or not 1 <= int(number) <= VERSION or number != str(int(number)):
        return None
    return int(number)


def defaults_then(
    agent: str,
    version: int,
    changes: tuple[Mapping[str, Mapping[str, str]], ...] = DEFAULTS_BEFORE,
) -> dict[str, str]:
    """The options of ``agent`` whose defaults changed since files of ``version`` were written,
    at the values they had then (option -> value as typed); empty when none changed.

    ``changes`` is ``DEFAULTS_BEFORE`` (a test may pass a longer history).
    """
    then: dict[str, str] = {}
    for changed in reversed(changes[version - 1 :]):  # the oldest value wins
        then.update(changed.get(agent_name(agent), {}))
    return then


Spell = Callable[[str, int], str]
"""How a spec saved in a file of a version is spelled out today (``core.registry.spec_then``)."""


def _spec_field(text: Any, version: int, spell: Spell) -> Any:
    """A manifest's spec field as it means today (anything that is not a spec, as it is)."""
    if not isinstance(text, str):
        return text
    try:
        return spell(text, version)
    except SpecError:
        return text


_SPEC_FIELDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"run": ("agent", "opponent"), "sweep": ("opponent",)}
)
"""The fields of each manifest that hold agent specs (a run's ``as_typed`` holds them too)."""


def upgrade(manifest: Mapping[str, Any], kind: Kind, spell: Spell) -> dict[str, Any]:
    """An old ``run.json`` (``kind="run"``) or ``sweep.json`` as today's format writes it.

    Its agent specs are spelled out by ``spell`` (``core.registry.spec_then``: the spec with the
    options whose defaults changed since at the values they had, ``mcts:simulations=300`` in a
    version-1 file being ``mcts:simulations=300,c=1.0,playout=random,decisive=false``) and its
    format is today's; a spec that does not parse stays as it is. A manifest of today's format,
    or of a format this version does not know, comes back unchanged (the caller refuses an
    unknown one).
    """
    version = version_of(manifest, kind)
    if version is None or version == VERSION:
        return dict(manifest)
    fields = _SPEC_FIELDS[kind]
    out = {k: _spec_field(v, version, spell) if k in fields else v for k, v in manifest.items()}
    typed = out.get("as_typed")
    if isinstance(typed, Mapping):
        out["as_typed"] = {
            k: _spec_field(v, version, spell) if k in fields else v for k, v in typed.items()
        }
    out["format"] = RUN_FORMAT if kind == "run" else SWEEP_FORMAT
    return out
