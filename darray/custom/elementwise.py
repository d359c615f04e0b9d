"""``da.ElementwiseKernel``: a user's C body that fuses with the ops around it.

Each output of a call is a pending node of the lazy graph whose op is a user op
(``lazy.user``): a C helper ``static inline OUT f(IN x, IN y)`` holding the body, inlined into
the fused kernel of the surrounding elementwise chain and of a following reduction. With
several outputs each output is a node of its own (the body runs once per output and element).

Ordered bodies (the element index ``i``, ``_ind.size()`` or a ``raw`` parameter) run at the call
as one kernel of their own over the output's shape (the pending chains of their other inputs
fuse into it); outputs given with ``out=`` are read by the body (their old values are helper
arguments).
"""
from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._array import DArray
from .._registry import implementation, register
from ..dim import Dim, broadcast_shapes
from ..dtypes import ctype
from ..lazy import evaluate, graph, record, user
from ..ops import _dispatch as D
from ..ops.creation import ascontiguousarray
from ..place import Place, current
from ..transfer.convert import asarray, check_dtype, from_numpy, write
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


_INDEX = re.compile(r"\bi\b|\b_ind_size\b")
_SIZE = re.compile(r"\b_ind\s*\.\s*size\s*\(\s*\)")
_FLOAT32 = np.dtype(np.float32)


def prepare(kernel: str, ins: Sequence[Param], args: Sequence[Any], outs: Sequence[Param] = (),
            out: Sequence[Any] = (), size: int | None = None) -> Call:
    """Check and convert the arguments of a call: NumPy arrays and lists become DArrays on the
    place of the DArray arguments (else the current one), scalars stay scalars, placeholders bind
    (from ``out`` arrays too) and the arrays broadcast (``raw`` ones excepted: they become
    C-contiguous, computed now). Without arrays to broadcast, ``size`` gives a 1-d shape.
    Errors name the kernel and parameter."""
    arity(kernel, ins, args)
    place: Place | None = next((a.place for a in (*args, *out) if isinstance(a, DArray)), None)
    place = current() if place is None else place
    conv: list[Any] = []
    for p, a in zip(ins, args):
        if not isinstance(a, DArray) and (p.raw or not scalar(a)):
            try:
                a = asarray(a, device=place)
            except (TypeError, ValueError) as err:
                raise TypeError(f"darray {kernel}: parameter {p.name!r} takes an array or a scalar, got "
                                f"{type(a).__name__} ({err})") from None
        if isinstance(a, DArray) and a.place != place:
            raise ValueError(f"darray {kernel}: parameter {p.name!r} is on {a.place}, other arguments on {place}")
        if p.raw and a.size == 0:
            raise ValueError(f"darray {kernel}: raw parameter {p.name!r} is empty")
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
        shape = broadcast_shapes(*[a.shape for p, a in zip(ins, conv) if isinstance(a, DArray) and not p.raw])
    except ValueError as err:
        raise ValueError(f"darray {kernel}: {err}") from None
    if size is not None:
        if not isinstance(size, (int, np.integer)) or size < 0 or shape != () or out:
            raise ValueError(f"darray {kernel}: size= takes an int >= 0 and only when no array argument but raw "
                             f"ones and no output gives the shape, got size={size!r}")
        shape = (int(size),)
    for k, p in enumerate(ins):
        if p.raw and isinstance(conv[k], DArray):  # whole arrays in C order, computed before the kernel
            a = conv[k] if conv[k].flags.c_contiguous else ascontiguousarray(conv[k])
            a._data()
            conv[k] = a
    for p, o in zip(outs, out):
        if o.shape != shape and broadcast_shapes(shape, o.shape) == o.shape:
            shape = o.shape  # the inputs broadcast to the outputs' shape, as CuPy
        if o.shape != shape:
            raise ValueError(f"darray {kernel}: output {p.name!r} has shape {o.shape}, the arguments broadcast "
                             f"to {shape}")
    return Call(tuple(conv), place, shape, tuple(dts), types)


def terms(kernel: str, call: Call, ins: Sequence[Param]) -> tuple[graph.Term, ...]:
    """The lazy-graph terms of the input arguments (arrays as their pending node or an Input;
    a raw array as its first element, whose address the helper gets; scalars as kernel arguments
    of their parameter's dtype)."""
    out: list[graph.Term] = []
    for p, a, dt in zip(ins, call.args, call.dtypes):
        if isinstance(a, DArray) and p.raw:
            out.append(graph.Input(a._data(), Dim.contiguous((), a._dim.offset), a._dtype))
        elif isinstance(a, DArray):
            out.append(a._node if a._node is not None else graph.Input(a._data(), a._dim, a._dtype))
        else:
            out.append(graph.Scalar(D.scalar_value(f"{kernel} ({p.name})", a, dt), dt))
    return tuple(out)


def helper(kind: str, kernel: str, result: np.dtype, params: Sequence[tuple[str, np.dtype]], body: str,
           ret: str, preamble: str, locals_: Sequence[tuple[str, np.dtype, str]] = (), *, cast: bool = False,
           raw: tuple[int, ...] = (), index: bool = False, vector: bool = True) -> tuple[str, user.UserOp]:
    """Register a user op: ``static inline RESULT f(params) { locals = init or 0; body; return ret; }``
    (``ret`` cast to RESULT if ``cast``; ``raw`` positions as ``__global const T*``; with
    ``index``, ``long i, long _ind_size`` last). All-float32 ops (not ``vector``: never) also get
    float4/float8 overloads (``lazy.user``). Its op name carries a digest of everything in its source."""
    text = f"{kind}|{result}|{params}|{locals_}|{body}|{ret}|{cast}|{raw}|{index}|{preamble}"
    op = f"{kernel}_{kind}_{hashlib.sha1(text.encode()).hexdigest()[:12]}"
    fn = f"darray_user_{op}"

    def source(w: str, attr: str) -> str:
        def t(dt: np.dtype) -> str:
            return ctype(dt) + w
        sig = [f"__global const {ctype(dt)}* {n}" if k in raw else f"{t(dt)} {n}" for k, (n, dt) in enumerate(params)]
        sig += ["long i", "long _ind_size"] if index else []
        decl = "".join(f" {t(dt)} {n} = {init or f'({t(dt)})0'};" for n, dt, init in locals_)
        value = f"({t(result)})({ret})" if cast else ret
        head = f"static inline{attr} {t(result)} {fn}({', '.join(sig) or 'void'})"
        return f"{head} {{{decl}\n{body}\n;\nreturn {value}; }}"

    dts = {result, *(dt for _, dt in params), *(dt for _, dt, _ in locals_)}
    overloads = ""
    if vector and not raw and not index and dts == {_FLOAT32}:
        overloads = "\n".join(source(w, " __attribute__((overloadable))") for w in ("", "4", "8"))
    uop = user.UserOp(fn, source("", ""), preamble, vector=overloads, raw=raw, index=index)
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
    (helper functions, macros). Outputs given (``out=``) start with their current values (the
    body may read them: ``z += x``); other outputs start at zero.

    ``i`` in the body is the element's index in the output (C order), ``_ind.size()`` the output's
    size; a ``raw T x`` parameter is the whole array (``x[j]``, C order over its shape; a view
    that is not C-contiguous is copied first) and ``size=`` gives the shape when only raw
    arrays are passed. Such a body runs at the call as a kernel of its own (docs/kernels.md).
    Complex parameters are float2/double2 values in the body (``cmul_float(a, b)`` and the other
    helpers of ``kernels/include/complex.h`` for complex arithmetic).

    On the ``cpu`` place the body runs through NumPy when it is ``out = expression`` (or
    ``out += expression``...) statements NumPy can evaluate (see ``darray.custom._numpy``), else
    a ValueError says it cannot run there. See also: cupy.ElementwiseKernel.
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
        if any(p.raw for p in self.out_params):
            raise ValueError(f"darray {label}: outputs cannot be raw (an element writes its own output)")
        if any(p.name in ("i", "_ind_size") for p in (*self.in_params, *self.out_params)):
            raise ValueError(f"darray {label}: 'i' and '_ind_size' are the element index and the size, not "
                             "parameter names")
        operation = _SIZE.sub("_ind_size", operation)
        self.index = bool(_INDEX.search(operation))
        self.ordered = self.index or any(p.raw for p in self.in_params)
        self.operation, self.preamble, self._label = operation, preamble, label
        self._host: list[tuple[str, Any]] | None = None

    def __repr__(self) -> str:
        return f"ElementwiseKernel({self.name!r})"

    def __call__(self, *args: Any, out: DArray | Sequence[DArray] | None = None, size: int | None = None) -> Any:
        nin, nout = len(self.in_params), len(self.out_params)
        outs: tuple[Any, ...] = () if out is None else (out,) if isinstance(out, DArray) else tuple(out)
        if len(args) > nin:
            if outs:
                raise TypeError(f"darray {self._label}: outputs given both positionally and as out=")
            args, outs = args[:nin], args[nin:]
        if outs:
            arity(self._label, self.out_params, outs, "outputs")
        call = prepare(self._label, self.in_params, args, self.out_params, outs, size)
        results = implementation("custom.elementwise", call.place)(self, call, outs)
        final = tuple(outs) if outs else tuple(results)
        return final[0] if nout == 1 else final

    def op(self, call: Call, k: int, read: bool) -> str:
        """The user op computing output ``k`` for ``call``'s dtypes (registered on first use);
        ``read``: the outputs' old values are arguments after the inputs (``_old_<name>``)."""
        nin = len(self.in_params)
        params = [(p.name, dt) for p, dt in zip(self.in_params, call.dtypes)]
        outs = list(zip(self.out_params, call.dtypes[nin:]))
        params += [(f"_old_{p.name}", dt) for p, dt in outs] if read else []
        locals_ = [(p.name, dt, f"_old_{p.name}" if read else "") for p, dt in outs]
        raw = tuple(j for j, p in enumerate(self.in_params) if p.raw)
        name, _ = helper(f"o{k}", self.name, call.dtypes[nin + k], params, self.operation,
                         self.out_params[k].name, self.preamble, locals_, raw=raw, index=self.index)
        return name

    def _numpy(self, call: Call, outs: Sequence[DArray]) -> list[np.ndarray]:
        """The outputs through NumPy (the ``cpu`` place): ``i`` as the indices of the output, a raw
        array flattened, outputs from ``outs`` (else zero)."""
        nin = len(self.in_params)
        if any(dt.kind == "c" for dt in call.dtypes):
            raise ValueError(f"darray {self._label}: complex parameters run on OpenCL places only (NumPy's "
                             "complex product is not the body's float2 product)")
        if self._host is None:
            self._host = _numpy.compile_body(self._label, self.operation, frozenset(p.name for p in self.in_params)
                                             | {"i", "_ind_size"}, frozenset(p.name for p in self.out_params))
        values: dict[str, Any] = {"i": np.arange(math.prod(call.shape)).reshape(call.shape),
                                  "_ind_size": math.prod(call.shape)}
        for p, a, dt in zip(self.in_params, call.args, call.dtypes):
            values[p.name] = (a._host_view().reshape(-1) if p.raw else a._host_view()) if isinstance(a, DArray) \
                else dt.type(a)
        for j, (p, dt) in enumerate(zip(self.out_params, call.dtypes[nin:])):
            values[p.name] = outs[j]._host_view().copy() if j < len(outs) else dt.type(0)
        _numpy.run_body(self._host, values)
        return [np.broadcast_to(np.asarray(values[p.name]).astype(dt, copy=False), call.shape)
                for p, dt in zip(self.out_params, call.dtypes[nin:])]


@register("custom.elementwise", "cl")
def _elementwise_cl(k: ElementwiseKernel, call: Call, outs: Sequence[DArray]) -> list[DArray]:
    """One pending node per output (written into ``outs`` where given, else new pending arrays)."""
    nin = len(k.in_params)
    ins = terms(k._label, call, k.in_params)
    if outs:  # the body reads the outputs' current values
        ins += tuple(o._node if o._node is not None else graph.Input(o._data(), o._dim, o._dtype) for o in outs)
    nodes = [graph.node(k.op(call, j, bool(outs)), ins, call.dtypes[nin + j], call.shape)
             for j in range(len(k.out_params))]
    if len(outs) == 1:
        write(outs[0], nodes[0])  # now, into the output's view (ordered: its C order)
        return []
    results = [record(n, call.place) for n in nodes]
    if k.ordered or outs:  # one kernel of its own (outputs read: every output from the old values)
        evaluate(*results)
    for o, r in zip(outs, results):
        write(o, graph.Input(r._data(), r._dim, r._dtype))
    return [] if outs else results


@register("custom.elementwise", "cpu")
def _elementwise_cpu(k: ElementwiseKernel, call: Call, outs: Sequence[DArray]) -> list[DArray]:
    """The outputs through NumPy (written into ``outs`` where given, else new arrays)."""
    host = k._numpy(call, outs)
    for o, h in zip(outs, host):
        write(o, h)
    return [from_numpy(np.array(h, order="C"), call.place) for h in host[len(outs):]]
