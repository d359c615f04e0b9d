"""``da.ElementwiseKernel``: a user's C body that fuses with the ops around it.

Each output of a call is a pending node of the lazy graph whose op is a user op
(``lazy.user``): a C helper ``static inline OUT f(IN x, IN y)`` holding the body, inlined into
the fused kernel of the surrounding elementwise chain and of a following reduction. With
several outputs each output is a node of its own (the body runs once per output and element).
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._array import DArray
from .._convert import asarray, check_dtype, from_numpy, write
from ..dim import broadcast_shapes
from ..dtypes import ctype
from ..lazy import graph, record, user
from ..ops import _dispatch as D
from ..ops._registry import implementation, register
from ..place import Place, current
from . import _numpy
from ._params import Param, arity, identifier, parse, resolve, scalar


@dataclass(frozen=True, slots=True)
class Call:
    """One call's arguments: DArrays or scalars, their place, broadcast shape and each
    parameter's dtype (inputs, then outputs); ``types``: the placeholders' bindings."""

    args: tuple[Any, ...]
    place: Place
    shape: tuple[int, ...]
    dtypes: tuple[np.dtype, ...]
    types: dict[str, np.dtype]


def prepare(kernel: str, ins: Sequence[Param], args: Sequence[Any], outs: Sequence[Param] = (),
            out: Sequence[Any] = ()) -> Call:
    """Check and convert the arguments of a call: NumPy arrays and lists become DArrays on the
    place of the DArray arguments (else the current one), scalars stay scalars, placeholders bind
    (from ``out`` arrays too) and the arrays broadcast. Errors name the kernel and parameter."""
    arity(kernel, ins, args)
    place: Place | None = next((a.place for a in (*args, *out) if isinstance(a, DArray)), None)
    place = current() if place is None else place
    conv: list[Any] = []
    for p, a in zip(ins, args):
        if p.raw:
            raise ValueError(f"darray {kernel}: raw parameter {p.name!r} is not supported (a fused body sees "
                             "one element of each argument)")
        if not isinstance(a, DArray) and not scalar(a):
            try:
                a = asarray(a, device=place)
            except (TypeError, ValueError) as err:
                raise TypeError(f"darray {kernel}: parameter {p.name!r} takes an array or a real scalar, got "
                                f"{type(a).__name__} ({err})") from None
        if isinstance(a, DArray) and a.place != place:
            raise ValueError(f"darray {kernel}: parameter {p.name!r} is on {a.place}, other arguments on {place}")
        conv.append(a)
    for p, o in zip(outs, out):
        if not isinstance(o, DArray):
            raise TypeError(f"darray {kernel}: output {p.name!r} must be a DArray, got {type(o).__name__}")
        if o.place != place:
            raise ValueError(f"darray {kernel}: output {p.name!r} is on {o.place}, the arguments on {place}")
    types: dict[str, np.dtype] = {}
    dts = resolve(kernel, (*ins, *outs[:len(out)]), (*conv, *out), types)
    dts += resolve(kernel, outs[len(out):], [None] * (len(outs) - len(out)), types)
    for p, dt in zip((*ins, *outs), dts):
        check_dtype(dt, place, f"{kernel} ({p.name})")
    try:
        shape = broadcast_shapes(*[a.shape for a in conv if isinstance(a, DArray)])
    except ValueError as err:
        raise ValueError(f"darray {kernel}: {err}") from None
    for p, o in zip(outs, out):
        if o.shape != shape and broadcast_shapes(shape, o.shape) == o.shape:
            shape = o.shape  # the inputs broadcast to the outputs' shape, as CuPy
        if o.shape != shape:
            raise ValueError(f"darray {kernel}: output {p.name!r} has shape {o.shape}, the arguments broadcast "
                             f"to {shape}")
    return Call(tuple(conv), place, shape, tuple(dts), types)


def terms(kernel: str, call: Call, ins: Sequence[Param]) -> tuple[graph.Term, ...]:
    """The lazy-graph terms of the input arguments (arrays as their pending node or an Input;
    scalars as kernel arguments of their parameter's dtype)."""
    out: list[graph.Term] = []
    for p, a, dt in zip(ins, call.args, call.dtypes):
        if isinstance(a, DArray):
            out.append(a._node if a._node is not None else graph.Input(a._data(), a._dim, a._dtype))
        else:
            out.append(graph.Scalar(D.scalar_value(f"{kernel} ({p.name})", a, dt), dt))
    return tuple(out)


def helper(kind: str, kernel: str, result: np.dtype, params: Sequence[tuple[str, np.dtype]], body: str,
           ret: str, preamble: str, locals_: Sequence[tuple[str, np.dtype]] = ()) -> tuple[str, user.UserOp]:
    """Register a user op: ``static inline RESULT f(params) { locals = 0; body; return ret; }``;
    its op name carries a digest of everything in its source."""
    sig = ", ".join(f"{ctype(dt)} {n}" for n, dt in params)
    decl = "".join(f" {ctype(dt)} {n} = ({ctype(dt)})0;" for n, dt in locals_)
    text = f"{kind}|{result}|{sig}|{decl}|{body}|{ret}|{preamble}"
    op = f"{kernel}_{kind}_{hashlib.sha1(text.encode()).hexdigest()[:12]}"
    fn = f"darray_user_{op}"
    source = f"static inline {ctype(result)} {fn}({sig or 'void'}) {{{decl}\n{body}\n;\nreturn {ret}; }}"
    uop = user.UserOp(fn, source, preamble)
    user.register(op, uop)
    return op, uop


class ElementwiseKernel:
    """A user elementwise kernel: ``k = da.ElementwiseKernel("float32 x, float32 y", "float32 z",
    "z = x * y + 1", "axpy1")``; ``k(x, y)`` (or ``k(x, y, out)``, ``k(x, y, out=out)``) is a
    pending DArray (a tuple with several outputs) that fuses with the elementwise ops around it
    and into a following reduction.

    Parameters are ``"type name"``: NumPy or C type names, or placeholders such as ``T`` bound
    from the arguments' dtypes. Arrays broadcast (to the ``out`` arrays' shape where given);
    scalars pass by value in their parameter's type; an array's dtype must equal its parameter's
    type. The body is C (OpenCL C 1.2) over one element; ``preamble`` is C placed before it
    (helper functions, macros). Outputs start at zero and are written, never read.

    On the ``cpu`` place the body runs through NumPy when it is ``out = expression`` statements
    NumPy can evaluate (see ``darray.custom._numpy``), else a ValueError says it cannot run there.
    Differs from CuPy: no ``raw`` parameters and no ``i`` (index) in the body: an element sees
    only its own values. See also: cupy.ElementwiseKernel.
    """

    def __init__(self, in_params: str, out_params: str, operation: str, name: str = "kernel",
                 preamble: str = "", **unsupported: Any) -> None:
        self.name = identifier("ElementwiseKernel", "name", name)
        label = f"ElementwiseKernel {name!r}"
        if unsupported:
            raise TypeError(f"darray {label}: unsupported options {sorted(unsupported)}")
        if not isinstance(operation, str) or not isinstance(preamble, str):
            raise TypeError(f"darray {label}: operation and preamble must be strings")
        self.in_params = parse(label, in_params)
        self.out_params = parse(label, out_params, what="output")
        if not self.out_params:
            raise ValueError(f"darray {label}: needs at least one output parameter")
        clash = {p.name for p in self.in_params} & {p.name for p in self.out_params}
        if clash:
            raise ValueError(f"darray {label}: {sorted(clash)} both an input and an output parameter")
        self.operation, self.preamble, self._label = operation, preamble, label
        self._host: list[tuple[str, Any]] | None = None

    def __repr__(self) -> str:
        return f"ElementwiseKernel({self.name!r})"

    def __call__(self, *args: Any, out: DArray | Sequence[DArray] | None = None) -> Any:
        nin, nout = len(self.in_params), len(self.out_params)
        outs: tuple[Any, ...] = () if out is None else (out,) if isinstance(out, DArray) else tuple(out)
        if len(args) > nin:
            if outs:
                raise TypeError(f"darray {self._label}: outputs given both positionally and as out=")
            args, outs = args[:nin], args[nin:]
        if outs:
            arity(self._label, self.out_params, outs, "outputs")
        call = prepare(self._label, self.in_params, args, self.out_params, outs)
        results = implementation("custom.elementwise", call.place)(self, call, outs)
        final = tuple(outs) if outs else tuple(results)
        return final[0] if nout == 1 else final

    def op(self, call: Call, k: int) -> str:
        """The user op computing output ``k`` for ``call``'s dtypes (registered on first use)."""
        nin = len(self.in_params)
        params = [(p.name, dt) for p, dt in zip(self.in_params, call.dtypes)]
        locals_ = [(p.name, dt) for p, dt in zip(self.out_params, call.dtypes[nin:])]
        name, _ = helper(f"o{k}", self.name, call.dtypes[nin + k], params, self.operation,
                         self.out_params[k].name, self.preamble, locals_)
        return name

    def _numpy(self, call: Call) -> list[np.ndarray]:
        """The outputs through NumPy (the ``cpu`` place)."""
        if self._host is None:
            self._host = _numpy.compile_body(self._label, self.operation, frozenset(p.name for p in self.in_params),
                                             frozenset(p.name for p in self.out_params))
        values: dict[str, Any] = {}
        for p, a, dt in zip(self.in_params, call.args, call.dtypes):
            values[p.name] = a._host_view() if isinstance(a, DArray) else dt.type(a)
        _numpy.run_body(self._host, values)
        nin = len(self.in_params)
        return [np.broadcast_to(np.asarray(values[p.name]).astype(dt, copy=False), call.shape)
                for p, dt in zip(self.out_params, call.dtypes[nin:])]


@register("custom.elementwise", "cl")
def _elementwise_cl(k: ElementwiseKernel, call: Call, outs: Sequence[DArray]) -> list[DArray]:
    """One pending node per output (written into ``outs`` where given, else new pending arrays)."""
    nin = len(k.in_params)
    ins = terms(k._label, call, k.in_params)
    nodes = [graph.node(k.op(call, j), ins, call.dtypes[nin + j], call.shape) for j in range(len(k.out_params))]
    for o, n in zip(outs, nodes):
        write(o, n)
    return [record(n, call.place) for n in nodes[len(outs):]]


@register("custom.elementwise", "cpu")
def _elementwise_cpu(k: ElementwiseKernel, call: Call, outs: Sequence[DArray]) -> list[DArray]:
    """The outputs through NumPy (written into ``outs`` where given, else new arrays)."""
    host = k._numpy(call)
    for o, h in zip(outs, host):
        write(o, h)
    return [from_numpy(np.array(h, order="C"), call.place) for h in host[len(outs):]]
