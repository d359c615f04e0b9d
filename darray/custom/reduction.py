"""``da.ReductionKernel``: a user's map, fold, identity and post-map, planned like ``sum``.

The map is a user op node over the inputs (so an elementwise chain on the inputs fuses into
it); the fold is a user reduction op (``lazy.user``) that the existing reduction plans render
in place of ``sum``'s add: one launch where ``sum`` is one launch, in every kernel form.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any, cast

import numpy as np

from .._array import DArray
from .._registry import implementation, register
from ..dim import Dim, normalize_axes
from ..dtypes import ctype
from ..lazy import graph, record, user
from ..lazy.reduce import reduce as device_reduce
from ..ops.creation import empty, full
from ..place import CLPlace
from ..transfer.convert import from_numpy
from . import _numpy
from ._params import identifier, parse, parse_type
from .elementwise import Call, helper, prepare, terms

_FOLDS: dict[str, Any] = {"a+b": np.add, "b+a": np.add, "a*b": np.multiply, "b*a": np.multiply,
                          "max(a,b)": np.maximum, "max(b,a)": np.maximum, "min(a,b)": np.minimum,
                          "min(b,a)": np.minimum, "fmax(a,b)": np.fmax, "fmin(a,b)": np.fmin,
                          "a|b": np.bitwise_or, "a&b": np.bitwise_and, "a^b": np.bitwise_xor}


class ReductionKernel:
    """A user reduction: ``da.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0",
    "sumsq")``; ``k(x, axis=None, keepdims=False)`` maps each element with ``map_expr`` (over
    the input parameters), folds the mapped values with ``reduce_expr`` (over ``a`` and ``b``)
    starting from ``identity`` (a C expression), and writes each folded ``a`` through
    ``post_map_expr`` (which assigns the one output parameter).

    The fold runs in ``reduce_type`` (default: the output's dtype) in the plans of ``sum``
    (partial results folded in any order: ``reduce_expr`` must be associative and commutative).
    On the ``cpu`` place NumPy runs it where the map and post-map are NumPy expressions and
    the fold is ``a + b``, ``a * b``, ``max``/``min``/``fmax``/``fmin(a, b)`` or ``a | b``,
    ``a & b``, ``a ^ b``; else a ValueError says it cannot run there. Differs from CuPy: an empty
    reduced axis gives ``post_map_expr`` of ``identity``; no ``out=``. See also: cupy.ReductionKernel.
    """

    def __init__(self, in_params: str, out_params: str, map_expr: str, reduce_expr: str, post_map_expr: str,
                 identity: str, name: str = "reduce_kernel", reduce_type: str | None = None,
                 preamble: str = "") -> None:
        self.name = identifier("ReductionKernel", "name", name)
        label = self._label = f"ReductionKernel {name!r}"
        for what, text in (("map_expr", map_expr), ("reduce_expr", reduce_expr), ("post_map_expr", post_map_expr),
                           ("identity", identity), ("preamble", preamble)):
            if not isinstance(text, str):
                raise TypeError(f"darray {label}: {what} must be a string, got {type(text).__name__}")
        self.in_params = parse(label, in_params)
        self.out_params = parse(label, out_params, what="output")
        if len(self.out_params) != 1:
            raise ValueError(f"darray {label}: takes exactly one output parameter, got {len(self.out_params)}")
        if any(p.raw for p in (*self.in_params, *self.out_params)):
            raise ValueError(f"darray {label}: raw parameters are not supported")
        if any(p.name in ("a", "b") for p in self.in_params):
            raise ValueError(f"darray {label}: 'a' and 'b' are the fold's names, not parameter names")
        self.reduce_type = reduce_type
        self._reduce_dtype = None if reduce_type is None else parse_type(label, "reduce_type", reduce_type)
        self.map_expr, self.reduce_expr, self.post_map_expr = map_expr, reduce_expr, post_map_expr
        self.identity, self.preamble = identity, preamble

    def __repr__(self) -> str:
        return f"ReductionKernel({self.name!r})"

    def __call__(self, *args: Any, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> DArray:
        call = prepare(self._label, self.in_params, args, self.out_params)
        axes = normalize_axes(axis, len(call.shape), f"{self._label}")
        kept = [n for d, n in enumerate(call.shape) if d not in axes]
        shape = tuple(1 if d in axes else n for d, n in enumerate(call.shape)) if keepdims else tuple(kept)
        impl = implementation("custom.reduction", call.place)
        return impl(self, call, axes, shape, keepdims)

    def _device(self, call: Call, axes: tuple[int, ...], shape: tuple[int, ...]) -> DArray:
        """The reduction as one launch of the built-in plans (an OpenCL place)."""
        red, out = self._acc(call), call.dtypes[-1]
        if 0 in [n for d, n in enumerate(call.shape) if d not in axes]:
            return empty(shape, dtype=out, device=call.place)
        nin = len(self.in_params)
        params = [(p.name, dt) for p, dt in zip(self.in_params, call.dtypes[:nin])]
        post, _ = helper("post", self.name, out, [("a", red)], self.post_map_expr, self.out_params[0].name,
                         self.preamble, [(self.out_params[0].name, out, "")], vector=False)
        if 0 in call.shape:  # an empty reduced axis: the post-map of the identity
            seed = full(shape, 0, dtype=red, device=call.place)
            body = f"a = ({ctype(red)})({self.identity});\n{self.post_map_expr}"
            op, _ = helper("empty", self.name, out, [("a", red)], body, self.out_params[0].name, self.preamble,
                           [(self.out_params[0].name, out, "")], vector=False)
            return record(graph.node(op, (graph.Input(seed._data(), seed._dim, seed._dtype),), out, shape), call.place)
        mapped, _ = helper("map", self.name, red, params, "", self.map_expr, self.preamble, cast=True)
        fold, uop = helper("fold", self.name, red, [("a", red), ("b", red)], "", self.reduce_expr, self.preamble,
                           cast=True)
        post_op = user.get(post)
        assert post_op is not None
        user.register(fold, dataclasses.replace(
            uop, source=f"{post_op.source}\n{uop.source}", identity=self.identity, post=post_op.function,
            vector=f"{post_op.source}\n{uop.vector}" if uop.vector else ""))
        node = graph.node(mapped, terms(self._label, call, self.in_params), red, call.shape)
        alloc = device_reduce([node], call.shape, axes, fold, red, out, cast(CLPlace, call.place))
        return DArray(alloc, Dim.trusted(shape), out, call.place)

    def _acc(self, call: Call) -> np.dtype:
        """The fold's dtype: ``reduce_type`` (a placeholder the arguments bind), else the output's."""
        if self._reduce_dtype is not None:
            return self._reduce_dtype
        if self.reduce_type is not None and self.reduce_type in call.types:
            return call.types[self.reduce_type]
        return call.dtypes[-1]

    def _numpy(self, call: Call, axes: tuple[int, ...], keepdims: bool, red: np.dtype, out: np.dtype) -> np.ndarray:
        """The reduction through NumPy (the ``cpu`` place)."""
        fold = _FOLDS.get(re.sub(r"\s+", "", self.reduce_expr))
        if fold is None:
            raise ValueError(f"darray {self._label}: reduce_expr {self.reduce_expr!r} cannot run on the cpu place "
                             "(there: a + b, a * b, max/min/fmax/fmin(a, b), a | b, a & b, a ^ b)")
        names = frozenset(p.name for p in self.in_params)
        code = _numpy.compile_expr(self._label, self.map_expr, names)
        start = _numpy.run(_numpy.compile_expr(self._label, self.identity, frozenset()), {})
        post = _numpy.compile_body(self._label, self.post_map_expr, frozenset("a"),
                                   frozenset([self.out_params[0].name]))
        values = {p.name: a._host_view() if isinstance(a, DArray) else dt.type(a)
                  for p, a, dt in zip(self.in_params, call.args, call.dtypes)}
        mapped = np.broadcast_to(np.asarray(_numpy.run(code, values)).astype(red, copy=False), call.shape)
        with np.errstate(all="ignore"):
            folded = fold.reduce(mapped, axis=axes, keepdims=keepdims, initial=red.type(start))
        result = _numpy.run_body(post, {"a": np.asarray(folded, red)})[self.out_params[0].name]
        shape = np.shape(folded)
        return np.broadcast_to(np.asarray(result).astype(out, copy=False), shape)


@register("custom.reduction", "cl")
def _reduction_cl(k: ReductionKernel, call: Call, axes: tuple[int, ...], shape: tuple[int, ...],
                  keepdims: bool) -> DArray:
    return k._device(call, axes, shape)


@register("custom.reduction", "cpu")
def _reduction_cpu(k: ReductionKernel, call: Call, axes: tuple[int, ...], shape: tuple[int, ...],
                   keepdims: bool) -> DArray:
    return from_numpy(np.array(k._numpy(call, axes, keepdims, k._acc(call), call.dtypes[-1]), order="C"), call.place)
