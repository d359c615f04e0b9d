"""``da.lazy.explain(x)``: the pending graph as a numbered script (with the cost rule's decisions:
which values live arrays hold are stored, which recomputed), then the kernel it would run."""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..dim import Dim
from ..place import CLPlace, runtime
from . import fuse
from .evaluate import decisions
from .graph import Input, Node, Scalar, leaf, walk
from .render import render

if TYPE_CHECKING:
    from .._array import DArray


def script(x: DArray) -> str:
    """``$1 = input(float32, [128, 784])`` ... one line per distinct term of ``x``'s pending graph; a
    node a live array holds says whether the kernel computing ``x`` stores it, and why
    (``evaluate.decisions``)."""
    if x._node is None:
        return f"$1 = input({x.dtype}, {list(x.shape)})  # materialised"
    why = {id(a._node): ("stored" if store else "recomputed") + f" ({reason})"
           for a, store, reason in decisions([x._node], x._place, x.shape, every=True)}
    names: dict[int, str] = {}
    inputs: dict[tuple, str] = {}  # one line per array view read, as the kernel reads it once
    lines: list[str] = []
    for t in walk([x._node]):
        if isinstance(t, Input) and (id(t.alloc), t.dim, t.dtype) in inputs:
            names[id(t)] = inputs[(id(t.alloc), t.dim, t.dtype)]
            continue
        name = f"${len(lines) + 1}"
        names[id(t)] = name
        if isinstance(t, Input):
            inputs[(id(t.alloc), t.dim, t.dtype)] = name
            lines.append(f"{name} = input({t.dtype}, {list(t.shape)})")
        elif isinstance(t, Scalar):
            value = t.value.item() if hasattr(t.value, "item") else t.value
            lines.append(f"{name} = scalar({t.dtype}, {value!r})")
        else:
            assert isinstance(t, Node)
            args = ", ".join(names[id(leaf(a))] for a in t.args)
            note = f"; {why[id(t)]}" if id(t) in why else ""
            lines.append(f"{name} = {t.op}({args})  # {t.dtype}, {list(t.shape)}{note}")
    return "\n".join(lines)


def explain(x: DArray) -> str:
    """The pending graph of ``x`` as a numbered script followed by the OpenCL source of its kernel."""
    text = script(x)
    if x._node is None:
        return text
    target = Input(None, Dim.contiguous(x.shape), x.dtype)
    plan = fuse.fuse([x._node], [target])
    source = render(plan.spec, runtime(cast(CLPlace, x._place)).info.chunked)  # pending: an OpenCL array
    return f"{text}\n\n{source[source.index('__kernel'):]}"
