"""Elementwise functions, generated from the op table (``_table.OPS``).

On OpenCL places results are lazy graphs that fuse into one kernel (``darray.lazy``); on
the CPU place they run through NumPy. dtypes follow NumPy 2's ufunc loop resolution.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .. import dtypes as _dt
from .. import lazy
from .._array import DArray, read_only
from .._typing import ArrayLike
from ..lazy import at_once, graph, host, record
from ..place import CLPlace, Place
from ..transfer.convert import assign, from_numpy, write
from . import _dispatch as D
from ._table import ALIASES, OPS, TABLE, Op

_WEAK = {int: 0, float: 0.0, complex: 0j}  # Python scalar types -> values result_type treats as weak


@lru_cache(maxsize=4096)
def _resolve(name: str, keys: tuple[Any, ...]) -> tuple[tuple[np.dtype, ...], np.dtype, bool, bool]:
    """Loop input dtypes and result dtype of op ``name`` for argument dtypes/Python types ``keys``,
    whether float16 is among them and whether NumPy computes it (casts included) with the
    kernel's bits (``lazy.host.exact``)."""
    op = TABLE[name]
    for k in keys:
        if isinstance(k, np.dtype) and k.kind not in op.kinds:
            raise TypeError(f"darray {name}: not supported for dtype {k}")
    dts = [k if isinstance(k, np.dtype) else (_dt.bool_ if k is bool else k) for k in keys]
    if op.types == "ufunc" or op.types.startswith("like:"):
        ufunc = cast(np.ufunc, getattr(np, op.types[5:]) if op.types.startswith("like:") else op.ref)
        try:
            loop = _numpy_loop(ufunc, tuple(dts) + (None,) * ufunc.nout)
        except TypeError as err:
            raise TypeError(f"darray {name}: not supported for dtypes {_names(keys)}: {err}") from None
        ins, out = tuple(loop[:op.arity]), loop[op.arity]
    elif op.types == "where":
        dt = _dt.result_type(*[_WEAK.get(k, k) for k in keys[1:]])
        ins, out = (_dt.bool_, dt, dt), dt
    else:
        dt = _dt.result_type(*[_WEAK.get(k, k) for k in keys])
        if op.types == "round" and dt == _dt.bool_:
            dt = _dt.float16  # numpy.round of bool
        ins, out = (dt,) * op.arity, (_dt.real_dtype(dt) if op.types == "real" else dt)
    exact = host.exact(op, tuple([k if isinstance(k, np.dtype) else d for k, d in zip(keys, ins)]), ins, out)
    return ins, out, _dt.float16 in ins or out == _dt.float16, exact


_DEFAULT: dict[Any, np.dtype] = {int: _dt.int64, float: _dt.float64, complex: _dt.complex128}  # Python types, strong


def _numpy_loop(ufunc: np.ufunc, dts: tuple[Any, ...], **kw: Any) -> tuple[np.dtype, ...]:
    """``ufunc.resolve_dtypes(dts, **kw)``, where NumPy picks its object loop for Python ints (two of
    them compared: they may be of any size) the loop of their default dtypes."""
    found = ufunc.resolve_dtypes(dts, **kw)
    if any(d.kind == "O" for d in found):
        found = ufunc.resolve_dtypes(tuple(_DEFAULT.get(k, k) for k in dts), **kw)
    return found


@lru_cache(maxsize=1024)
def loop(ufunc: np.ufunc, name: str, keys: tuple[Any, ...], dtype: np.dtype | None,
         casting: str) -> tuple[np.dtype, ...]:
    """NumPy 2's loop dtypes (inputs, then outputs) of ``ufunc`` called with ``dtype=`` and
    ``casting=`` over arguments of dtypes/Python types ``keys`` (weak Python scalars, NEP 50), the
    rule every darray ufunc call with those keywords follows. TypeError (NumPy's message) when no
    loop fits or an input does not cast under ``casting``."""
    kw: dict[str, Any] = {"casting": "no" if casting == "equiv" else casting}  # (the same for native byte
    # orders; NumPy 2.4's resolve_dtypes crashes on 'equiv' with a Python scalar)
    if dtype is not None:
        kw["signature"] = (None,) * ufunc.nin + (dtype,) * ufunc.nout
    dts: tuple[Any, ...] = tuple(_dt.bool_ if k is bool else _DEFAULT.get(k, k) if ufunc.nin == 1 else k for k in keys)
    dts += (None,) * ufunc.nout  # (NumPy: the Python scalar of a one-input ufunc is not weak)
    try:
        found = _numpy_loop(ufunc, dts, **kw)
    except TypeError as err:
        raise TypeError(f"darray {name}: {err}") from None
    for k, d in zip(dts, found):  # NumPy converts a weak scalar under 'equiv' only to its own default dtype
        if casting == "equiv" and k in _DEFAULT and _DEFAULT[k] != d and d.kind != "b":
            raise TypeError(f"darray {name}: cannot cast Python {k.__name__} to {d} under the casting rule 'equiv'")
    return found


@lru_cache(maxsize=1024)
def reduce_loop(ufunc: np.ufunc, name: str, x: np.dtype, dtype: np.dtype | None,
                method: str = "reduce") -> tuple[np.dtype, np.dtype, np.dtype]:
    """NumPy 2's loop dtypes (accumulator, element, result) of ``ufunc``'s ``method`` (reduce, accumulate,
    reduceat) over an array of dtype ``x`` with ``dtype=`` (or the out array's dtype; None: neither), the
    rule every darray ufunc method follows: the array is cast to the loop (any cast), add and multiply of
    bool and small integers accumulate in int64/uint64 (as ``sum``). TypeError (NumPy's words) where no loop
    fits or the loop's result cannot feed its accumulator (accumulate, reduceat: nor its elements)."""
    try:
        found = ufunc.resolve_dtypes((None, x, None), signature=(dtype, None, None), casting="unsafe",
                                     reduction=True)
    except TypeError as err:
        raise TypeError(f"darray {name}: {err}") from None
    if found[0] != found[2] or method != "reduce" and found[1] != found[0]:
        raise TypeError(f"darray {name}: the resolved dtypes are not compatible with {name}. Resolved (dtypes: "
                        f"{', '.join(map(str, found))})")
    return found[0], found[1], found[2]


def _names(keys: tuple[Any, ...]) -> str:
    return ", ".join(str(k) if isinstance(k, np.dtype) else f"python {k.__name__}" for k in keys)


def resolve(op: Op, args: tuple[Any, ...], place: Place) -> tuple[tuple[np.dtype, ...], np.dtype, bool]:
    """Loop input dtypes and the result dtype of ``op`` over ``args`` (cached per dtype signature),
    and whether NumPy computes it with the kernel's bits."""
    ins, out, half, exact = _resolve(op.name, tuple([_key(a) for a in args]))
    if half and isinstance(place, CLPlace):
        ins, out = tuple(D.device_dtype(d, place) for d in ins), D.device_dtype(out, place)
    return ins, out, exact


def build(name: str, *args: Any) -> tuple[Any, np.dtype, tuple[int, ...], Place]:
    """Dispatch ``name(*args)`` up to the point of computing: (term or NumPy result, dtype, shape, place)."""
    return _call("elementwise", name, args)


def _key(a: Any) -> Any:
    """What dtype resolution knows of argument ``a``: the dtype of an array or a NumPy scalar (strong,
    as in NumPy 2), the type of a Python scalar (weak)."""
    return a._dtype if type(a) is DArray else a.dtype if isinstance(a, np.generic) else type(a)


Plan = tuple[tuple[np.dtype, ...], np.dtype, bool, Callable[..., Any], bool]
_plans: dict[tuple[Any, ...], Plan] = {}  # (impl, op, place type, argument dtypes/Python types) -> Plan


def _plan(impl: str, op: Op, args: tuple[Any, ...], place: Place) -> Plan:
    """What dispatching ``op`` over ``args`` on ``place`` to ``impl`` needs, cached per signature:
    (loop dtypes, result dtype, exact on the host, implementation, whether the values need the
    checks of ``_checked``). float16 on a device without it is resolved per call (not cached)."""
    sig: list[Any] = [impl, op.name, type(place)]  # a loop, not a comprehension (a call in Python 3.11): once per op
    for a in args:
        sig.append(a._dtype if type(a) is DArray else _key(a))
    key = tuple(sig)
    plan = _plans.get(key)
    if plan is None:
        ins, out, half, exact = _resolve(op.name, key[3:])
        checks = (op.name == "pow" and ins[1].kind in "iu") or (op.name in _MIRROR and ins[0].kind in "iu")
        plan = (ins, out, exact, D.implementation(impl, place), checks)
        if half:
            return (*resolve(op, args, place), plan[3], checks)
        if len(_plans) >= 4096:
            _plans.clear()
        _plans[key] = plan
    return plan


def _call(impl: str, name: str, args: tuple[Any, ...]) -> tuple[Any, np.dtype, tuple[int, ...], Place]:
    """(what implementation ``impl`` gives for ``name(*args)`` on their place, dtype, shape, place):
    ``"elementwise"`` gives the term or NumPy result, ``"elementwise_array"`` a DArray."""
    op = TABLE[name]
    if len(args) != op.arity:
        raise TypeError(f"darray {name}: takes {op.arity} array arguments, got {len(args)}")
    place: Any = None
    shape: Any = None
    for a in args:  # the common case in one pass: DArrays of one place and shape, and Python scalars
        if type(a) is DArray:
            if place is None:
                place, shape = a._place, a._dim.shape
            elif a._place is not place or a._dim.shape != shape:
                place = None
                break
        elif type(a) not in D.PY_SCALARS:
            place = None
            break
    fast = place is not None
    if not fast:
        args, place = D.operands(name, args)
    ins, out, exact, fn, checks = _plan(impl, op, args, place)
    if not fast:
        shape = D.shape_of(name, args)
    if checks:
        op, args = _checked(op, args, ins)
    return fn(op, args, ins, out, shape, exact, place), out, shape, place


def _checked(op: Op, args: tuple[Any, ...], ins: tuple[np.dtype, ...]) -> tuple[Op, tuple[Any, ...]]:
    """NumPy's rules on the values of integer ``pow`` (no negative powers) and of comparisons with
    out-of-range Python ints (``_compare_out_of_range``): the op and arguments to compute."""
    name = op.name
    if name == "pow":
        if not isinstance(args[1], DArray) and args[1] < 0:
            D.scalar_value(name, args[1], ins[1])  # as NumPy: OverflowError first when it does not fit
            raise ValueError("darray pow: integers to negative integer powers are not allowed")
        return op, args
    name, args = _compare_out_of_range(name, args, ins)
    return TABLE[name], args


_MIRROR = {"equal": "equal", "not_equal": "not_equal", "less": "greater", "less_equal": "greater_equal",
           "greater": "less", "greater_equal": "less_equal"}
_TRUE_ABOVE = {"less", "less_equal", "not_equal"}       # x OP v for v above every element
_TRUE_BELOW = {"greater", "greater_equal", "not_equal"}  # x OP v for v below every element


def _compare_out_of_range(name: str, args: tuple[Any, ...], ins: tuple[np.dtype, ...]) -> tuple[str, tuple[Any, ...]]:
    """A comparison of an integer array with a Python int outside its dtype's range has a constant
    result (NumPy 2 compares the values exactly, e.g. ``int8_array < 300`` is all True): rewritten
    as a comparison with the dtype's bound that always gives that constant. Else unchanged."""
    k = next((i for i, a in enumerate(args) if type(a) is int), None)
    if k is None:
        return name, args
    info = np.iinfo(ins[k])
    v = args[k]
    if info.min <= v <= info.max:
        return name, args
    if k == 0:  # v OP x  ==  x MIRROR(OP) v
        name, args = _MIRROR[name], (args[1], args[0])
    if v > info.max:  # x <= max is always true, x > max never
        return ("less_equal" if name in _TRUE_ABOVE else "greater"), (args[0], int(info.max))
    return ("greater_equal" if name in _TRUE_BELOW else "less"), (args[0], int(info.min))


@D.register("elementwise", "cl")
def _cl(op: Op, args: tuple[Any, ...], ins: tuple[np.dtype, ...], out: np.dtype, shape: tuple[int, ...],
        exact: bool, place: Place) -> Any:
    """The op's graph node: arrays as their pending node or an Input, cast to the loop dtype;
    Python scalars as kernel arguments of the loop dtype. ``exact``: see ``graph.Node.host``."""
    terms = []
    for a, dtype in zip(args, ins):
        if isinstance(a, DArray):
            t = a._node if a._node is not None else graph.Input(a._alloc, a._dim, a._dtype)
            if a._dtype is not dtype and a._dtype != dtype:
                t = graph.node("cast", (t,), dtype, a._dim.shape, exact)
        else:
            t = graph.Scalar(D.scalar_value(op.name, a, dtype), dtype)
        terms.append(t)
    return graph.node(op.name, tuple(terms), out, shape, exact)


@D.register("elementwise", "cpu")
def _cpu(op: Op, args: tuple[Any, ...], ins: tuple[np.dtype, ...], out: np.dtype, shape: tuple[int, ...],
         exact: bool, place: Place) -> Any:
    host = [a._host_view() if isinstance(a, DArray) else D.scalar_value(op.name, a, d) for a, d in zip(args, ins)]
    with np.errstate(all="ignore"):
        return np.asarray(op.compute(*[np.asarray(h, d) for h, d in zip(host, ins)])).astype(
            out, copy=False)


@D.register("elementwise_array", "cl")
def _cl_array(op: Op, args: tuple[Any, ...], ins: tuple[np.dtype, ...], out: np.dtype, shape: tuple[int, ...],
              exact: bool, place: Place) -> DArray:
    """The op as a new DArray: computed at once on the host where ``at_once.compute`` can, else pending."""
    if exact:
        assert isinstance(place, CLPlace)  # (registered for OpenCL places; cheaper than typing.cast per op)
        done = at_once.compute(op.name, args, ins, out, shape, place)
        if done is not None:
            return done
    return record(_cl(op, args, ins, out, shape, exact, place), place)


@D.register("elementwise_array", "cpu")
def _cpu_array(op: Op, args: tuple[Any, ...], ins: tuple[np.dtype, ...], out: np.dtype, shape: tuple[int, ...],
               exact: bool, place: Place) -> DArray:
    """The op computed through NumPy into a new DArray."""
    return from_numpy(np.broadcast_to(_cpu(op, args, ins, out, shape, exact, place), shape), place)


def apply(name: str, *args: Any) -> DArray:
    """``name(*args)`` as a new DArray (lazy on OpenCL places)."""
    return _call("elementwise_array", name, args)[0]


def check_out(name: str, out: DArray, dtype: np.dtype, shape: tuple[int, ...], place: Place,
              casting: str = "same_kind") -> None:
    """NumPy's rules for writing a result of ``dtype`` and ``shape`` into ``out`` (an in-place
    operator's target or an ``out=`` array): writeable, same shape, a cast by ``casting``, and here the
    same place."""
    if not isinstance(out, DArray):
        raise TypeError(f"darray {name}: out must be a DArray, got {type(out).__name__}")
    if out._readonly:
        read_only(name, "output array")
    if dtype is not out._dtype and not _dt.can_cast(dtype, out._dtype, casting=casting):
        raise TypeError(f"darray {name}: Cannot cast ufunc '{name}' output from {dtype!r} to {out.dtype!r} with "
                        f"casting rule {casting!r}")  # (NumPy's words)
    if shape != out._dim.shape and not _into_shape(shape, out._dim.shape):
        raise ValueError(f"darray {name}: non-broadcastable output operand with shape {out.shape} doesn't match "
                         f"the broadcast shape {shape}")
    if out._place is not place and out._place != place:
        raise ValueError(f"darray {name}: the output is on {out.place}, the arguments on {place}")


def _into_shape(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    """Whether a result of ``shape`` broadcasts to an output of shape ``target`` (NumPy's ``out=``)."""
    try:
        return np.broadcast_shapes(shape, target) == target
    except ValueError:
        return False


def into(out: DArray, name: str, *args: Any) -> DArray:
    """``name(*args)`` computed into ``out`` (one fused kernel on OpenCL places); returns ``out``.
    Pending graphs reading ``out`` see its old values."""
    if _into_now(out, name, args):
        return out
    value, dtype, shape, place = build(name, *args)
    check_out(name, out, dtype, shape, place)
    if shape == out._dim.shape:
        write(out, value)
    else:  # a result that broadcasts to ``out``
        assign(out, out._dim, apply(name, *args))
    return out


def _into_now(out: Any, name: str, args: tuple[Any, ...]) -> bool:
    """:func:`into` by the host engine as it is called (``at_once.compute``): arrays of ``out``'s place and
    Python scalars, an op and casts NumPy computes with the kernels' bits. True when done."""
    if type(out) is not DArray or (out._node is not None and graph.known_value(out._node) is None):
        return False  # (a 0-d value the engine holds is updated in place: ``at_once.compute``)
    place = out._place
    for a in args:
        if type(a) is DArray:
            if a._place is not place:
                return False
        elif type(a) not in D.PY_SCALARS:
            return False
    if not isinstance(place, CLPlace):
        return False
    op = TABLE[name]
    if len(args) != op.arity:
        return False
    ins, res, exact, _, checks = _plan("elementwise", op, args, place)
    if not exact or checks or not host.exact_copy(res, out._dtype):
        return False
    shape = D.shape_of(name, args)
    check_out(name, out, res, shape, place)
    if shape != out._dim.shape:
        return False
    if out._node is None:
        lazy.before_write(out._alloc)  # pending graphs reading the old values run first
    return at_once.compute(name, args, ins, res, shape, place, into=out) is not None


def function(op: Op) -> Callable[..., DArray]:
    """``op`` as a function with the Array API's positional-only parameters: the call of its ufunc
    (``ops.ufunc``), or the public function itself of an op NumPy has no ufunc for."""
    name = op.name
    fn: Callable[..., DArray]
    if op.arity == 1:
        def fn(x: ArrayLike, /) -> DArray:
            return apply(name, x)
    elif op.arity == 2:
        def fn(x1: ArrayLike, x2: ArrayLike, /) -> DArray:
            return apply(name, x1, x2)
    else:
        def fn(condition: ArrayLike, x1: ArrayLike, x2: ArrayLike, /) -> DArray:
            return apply(name, condition, x1, x2)
    fn.__name__ = fn.__qualname__ = name
    ref = getattr(op.ref, "__name__", "")
    see = f"See also: numpy.{ref}" if getattr(np, ref, None) is op.ref else "NumPy has no such function."
    fn.__doc__ = f"{op.doc if op.doc.startswith('x') else op.doc[:1].upper() + op.doc[1:]}, elementwise.\n\n{see}"
    return fn


def _part(fn: Callable[..., DArray]) -> Callable[..., Any]:
    """NumPy's ``real``/``imag`` (``val.real``): a Python scalar's own part (``real(True)`` is 1), else ``fn``."""
    name = fn.__name__

    def part(val: ArrayLike, /) -> Any:
        return getattr(val, name) if type(val) in D.PY_SCALARS else fn(val)

    part.__name__ = part.__qualname__ = name
    part.__doc__ = fn.__doc__
    return part


# the public functions of the ops NumPy has no ufunc for (the others are ``ops.ufunc``'s objects)
_FUNCS = {op.name: function(op) if op.types != "real" else _part(function(op)) for op in OPS
          if not isinstance(op.ref, np.ufunc) and op.name not in ("clip", "round")}
globals().update(_FUNCS)
globals().update({alias: _FUNCS[name] for alias, name in ALIASES.items() if name in _FUNCS})

if TYPE_CHECKING:  # the functions made above, for type checkers (test_typing keeps this equal to the table)
    def _unary(x: ArrayLike, /) -> DArray: ...
    def where(condition: ArrayLike, x1: ArrayLike, x2: ArrayLike, /) -> DArray: ...
    imag = real = relu = sigmoid = silu = _unary


def _stored(name: str, result: DArray, out: Any) -> DArray:
    """``result``, or ``result`` written into ``out`` (NumPy's ``out=`` rules) when one is given."""
    if out is None:
        return result
    out = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    check_out(name, out, result.dtype, result.shape, result.place)
    assign(out, out._dim, result)
    return out


def clip(a: ArrayLike, a_min: ArrayLike | None = None, a_max: ArrayLike | None = None, out: Any = None, *,
         min: ArrayLike | None = None, max: ArrayLike | None = None) -> DArray:
    """``a`` limited to [min, max]; either bound may be None. The bounds by position or as NumPy's
    ``a_min``/``a_max`` or the Array API's ``min``/``max`` keywords. See also: numpy.clip."""
    if a_min is not None and min is not None or a_max is not None and max is not None:
        raise ValueError("darray clip: give each bound once: a_min or min, a_max or max")
    low, high = min if a_min is None else a_min, max if a_max is None else a_max
    if type(a) in D.PY_SCALARS:  # NumPy's clip takes ``a`` as an array (strong), the bounds as given (weak)
        a = np.asarray(a)[()]
    if low is None and high is None:
        return _stored("clip", apply("positive", a), out)
    if low is None:
        return _stored("clip", apply("minimum", a, high), out)
    if high is None:
        return _stored("clip", apply("maximum", a, low), out)
    return _stored("clip", apply("clip", a, low, high), out)


def round(a: ArrayLike, decimals: int = 0, out: Any = None) -> DArray:  # noqa: A001
    """Round half to even; ``decimals`` as NumPy (scaled by 10**decimals); written into ``out`` when
    given. See also: numpy.round.

    Integers keep their dtype (unchanged for ``decimals >= 0``); bool rounds only with
    ``decimals=0`` (to float16, float32 without cl_khr_fp16), as NumPy. Differs from NumPy for
    complex with ``decimals != 0``: the scaling is a complex multiplication, so an infinite part
    makes the other part NaN and a zero part may lose its sign (NumPy rounds the parts separately).
    """
    return _stored("round", _round(a, decimals), out)


def _round(x: ArrayLike, decimals: int) -> DArray:
    if decimals == 0:
        return apply("round", x)
    kind = x.dtype.kind if isinstance(x, DArray) else np.asarray(x).dtype.kind
    if kind == "b":
        raise TypeError(f"darray round: decimals={decimals} is not supported for bool (as numpy.round)")
    if kind in "iu":
        if decimals > 0:
            return apply("round", x)
        scale = 10 ** -decimals  # NumPy: rint(x / 10**k) * 10**k computed in float64, cast back
        y = apply("multiply", apply("round", apply("divide", x, scale)), scale)
        dtype = x.dtype if isinstance(x, DArray) else np.asarray(x).dtype
        return y.astype(dtype)
    if decimals < 0:  # as NumPy: divide by 10**k rather than multiply by the inexact 10**-k
        scale = 10.0 ** -decimals
        return apply("multiply", apply("round", apply("divide", x, scale)), scale)
    scale = 10.0 ** decimals
    return apply("divide", apply("round", apply("multiply", x, scale)), scale)


if not TYPE_CHECKING:  # type checkers star-import the public names, declared above
    __all__ = sorted([*[n for n in _FUNCS if n != "where"], *[a for a, n in ALIASES.items() if n in _FUNCS], "clip",
                      "round"])  # (``where``'s public form, with one argument, is ``ops.selection``'s)
