"""Spec strings: ``NAME[:key=value,...]`` for agents and games.

The same string means the same thing on a command line and in a script:
``purestate.agent("menace:preset=scroggs")``, ``purestate.make_spec("dots_and_boxes:rows=3")``.
Values are converted with the attrs field types of the class they configure, so a typo or a bad
value is refused with a message that lists what would be right.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, get_args, get_origin

import attrs


class SpecError(ValueError):
    """A spec string that names nothing known or carries a bad option (the message says which)."""


def parse_spec(text: str) -> tuple[str, dict[str, str]]:
    """Split ``NAME:key=value,key=value`` into the name and the raw options.

    Raises:
        SpecError: on an empty name, an option without ``=``, or a repeated key.
    """
    text = text.strip()
    name, _, rest = text.partition(":")
    name = name.strip()
    if not name:
        raise SpecError(f"empty name in spec {text!r} (expected NAME[:key=value,...])")
    params: dict[str, str] = {}
    if rest.strip():
        for item in rest.split(","):
            k, eq, v = item.partition("=")
            k = k.strip()
            if not eq or not k:
                raise SpecError(f"option {item.strip()!r} in {text!r} is not key=value")
            if k in params:
                raise SpecError(f"option {k!r} given twice in {text!r}")
            params[k] = v.strip()
    return name, params


def merge_spec(base: str, override: str) -> str:
    """``override``'s options laid over ``base``'s when both name the same thing, else
    ``override`` as it is.

    ``merge_spec("alphazero:width=32,replay=60000", "alphazero:seconds=0.1,simulations=0")`` is
    ``alphazero:width=32,replay=60000,seconds=0.1,simulations=0``: a saved table's learner with
    other play-time options, without spelling out the options its table was made with.

    Raises:
        SpecError: if either is not a spec string.
    """
    name, params = parse_spec(base)
    other, changes = parse_spec(override)
    if other != name:
        return override.strip()
    merged = {**params, **changes}
    return name + (":" + ",".join(f"{k}={v}" for k, v in merged.items()) if merged else "")


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def convert(text: str, tp: Any, what: str) -> Any:
    """Convert option text to the type ``tp`` (int, float, bool, str, Literal, tuple, optional).

    Raises:
        SpecError: naming ``what`` and what would be accepted.
    """
    origin = get_origin(tp)
    if origin is Literal:
        choices = get_args(tp)
        if text in choices:
            return text
        raise SpecError(f"{what} must be one of {', '.join(map(str, choices))}; got {text!r}")
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if text.lower() in ("none", "") and len(args) < len(get_args(tp)):
            return None
        errors = []
        for a in args:
            try:
                return convert(text, a, what)
            except SpecError as e:
                errors.append(str(e))
        raise SpecError(errors[0] if errors else f"bad value {text!r} for {what}")
    if origin is tuple:
        targs = get_args(tp)
        elem = targs[0]
        parts = [p for p in text.replace("/", " ").replace(";", " ").split() if p]
        if len(targs) == 2 and targs[1] is Ellipsis:
            return tuple(convert(p, elem, what) for p in parts)
        if len(parts) != len(targs):
            raise SpecError(f"{what} needs {len(targs)} values separated by '/'; got {text!r}")
        return tuple(convert(p, a, what) for p, a in zip(parts, targs, strict=True))
    if tp is bool:
        low = text.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise SpecError(f"{what} must be true or false; got {text!r}")
    if tp is int:
        try:
            return int(text)
        except ValueError:
            raise SpecError(f"{what} must be a whole number; got {text!r}") from None
    if tp is float:
        try:
            return float(text)
        except ValueError:
            raise SpecError(f"{what} must be a number; got {text!r}") from None
    if tp is str:
        return text
    raise SpecError(f"{what} cannot be set from a spec string")


def option_fields(cls: type) -> dict[str, Any]:
    """The configurable attrs fields of ``cls`` (public, init=True) and their resolved types."""
    attrs.resolve_types(cls)
    return {
        f.name: f.type
        for f in attrs.fields(cls)
        if f.init and not f.name.startswith("_") and f.type is not None
    }


def build(cls: type, name: str, params: dict[str, str]) -> Any:
    """Instantiate the attrs class ``cls`` from raw string options.

    Raises:
        SpecError: on an unknown option or a value of the wrong kind.
    """
    fields = option_fields(cls)
    kwargs = {}
    for k, v in params.items():
        if k not in fields:
            known = ", ".join(sorted(fields)) or "none"
            raise SpecError(f"{name} has no option {k!r} (options: {known})")
        kwargs[k] = convert(v, fields[k], f"{name} option {k!r}")
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as e:
        raise SpecError(f"{name}: {e}") from None


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        return "/".join(_fmt(x) for x in v)
    return str(v)


def format_spec(name: str, obj: Any, always: tuple[str, ...] = ()) -> str:
    """The spec string of an attrs instance: its name and the options that differ from defaults."""
    parts = []
    for f in attrs.fields(type(obj)):
        if not f.init or f.name.startswith("_"):
            continue
        v = getattr(obj, f.name)
        default = f.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory()
        if f.name in always or v != default:
            parts.append(f"{f.name}={_fmt(v)}")
    return name + (":" + ",".join(parts) if parts else "")


def attribute_docs(doc: str | None) -> dict[str, str]:
    """The entries of a Google-style docstring's ``Attributes:`` section, each on one line.

    Args:
        doc: A class docstring (or None).

    Returns:
        Attribute name to its description, continuation lines joined with single spaces.
    """
    found: dict[str, str] = {}
    lines = (doc or "").expandtabs().splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == "Attributes:"]
    if not starts:
        return found
    entry_indent: int | None = None
    name = ""
    for line in lines[starts[0] + 1 :]:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if entry_indent is None:
            entry_indent = indent
        if indent < entry_indent:
            break  # the section ended (a dedented heading or text)
        head, sep, rest = line.strip().partition(":")
        if indent == entry_indent:
            # a remark at entry level that names no attribute ends the entry before it
            name = head if sep and head.isidentifier() else ""
            if name:
                found[name] = rest.strip()
        elif name:
            found[name] = f"{found[name]} {line.strip()}"
    return found


def option_docs(cls: type) -> list[dict[str, str]]:
    """Every option of ``cls`` with its default (as typed in a spec) and its documented meaning.

    The descriptions are the ``Attributes:`` entries of the class docstring (or of a base class's
    for an inherited option), the same text the API docs show; an option without one gets an
    empty description.
    """
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):  # a subclass's own entries win over inherited ones
        docs |= attribute_docs(klass.__doc__)
    fields = option_fields(cls)
    rows = []
    for f in attrs.fields(cls):
        if f.name not in fields:
            continue
        default = f.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = None if default.takes_self else default.factory()
        text = "(required)" if default is attrs.NOTHING else _fmt(default) or '""'  # "" visible
        # a terminal shows ``literal`` markup as noise: the quotes go, the words stay
        meaning = docs.get(f.name, "").replace("``", "")
        rows.append({"name": f.name, "default": text, "help": meaning})
    return rows
