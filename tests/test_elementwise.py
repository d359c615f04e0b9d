"""Elementwise functions against NumPy, driven by the op table (``darray.ops._table``).

Every row of the table is tested with a sample of the dtypes it supports (each dtype
category for every op, every integer dtype for the ops with integer edge cases), special
values (NaN, +-inf, -0.0, integer extremes, zero divisors, shift counts past the bit width),
random values (hypothesis), and layouts (0-d, empty, broadcast pairs, strided, transposed
and negative-step views). The reference is the row's NumPy function ``op.ref``: the result
dtype must be NumPy's exactly, the values equal within ``helpers.tolerance``.

Compile budget: every distinct (op, dtypes, rank pattern) builds an OpenCL kernel (0.3-0.4 s
of CPU on PoCL, then cached on disk), so each (op, dtype) pair gets one structure (1-D
contiguous operands) shared by its special-value and random-value tests, each op one layout
structure (rank, views and broadcasting rotating over the table, sizes from hypothesis) and
one 0-d structure, and a few ops get random structures.

Deliberate differences from NumPy, encoded here:
- float16 results (e.g. ``sqrt`` of int8) are float32 on devices without cl_khr_fp16
  (``ops._dispatch.device_dtype``); the reference is then computed from float32 inputs.
- ``pow`` of integers with a negative exponent inside an array gives 0 (+-1 for bases +-1)
  instead of raising (the row's docstring).
Complex transcendental functions, complex ordering, maximum/minimum and sign are tested in
tests/test_complex.py; here complex goes through the non-transcendental ops.
"""
from __future__ import annotations

import importlib
import itertools

import numpy as np
import pytest
from helpers import tolerance
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import darray as da
from darray.ops import elementwise
from darray.ops._table import ALIASES, OPS, TABLE, Op
from darray.place import CLPlace, runtime

D = np.dtype
BOOL = D("bool")
SIGNED = [D("int8"), D("int16"), D("int32"), D("int64")]
UNSIGNED = [D("uint8"), D("uint16"), D("uint32"), D("uint64")]
FLOATS = [D("float32"), D("float64")]
COMPLEX = [D("complex64"), D("complex128")]
ALL = [BOOL, *SIGNED, *UNSIGNED, *FLOATS, *COMPLEX]

# Complex through these ops only; the rest (transcendentals, ordering, sign) is test_complex.py's.
COMPLEX_HERE = {"add", "subtract", "multiply", "divide", "negative", "positive", "abs", "square", "reciprocal",
                "conj", "real", "imag", "equal", "not_equal", "isfinite", "isinf", "isnan", "round", "where",
                "logical_and", "logical_or", "logical_xor", "logical_not", "clip"}
# Ops with integer helpers per width in elementwise.h (signs, zero divisors, shift counts,
# wrap-around): every integer dtype. The other ops get one signed and one unsigned width each,
# rotating over the table.
INT_OPS = {"floor_divide", "remainder", "pow", "reciprocal", "bitwise_left_shift", "bitwise_right_shift"}

# A fraction of the profile's examples: the (op x dtype) value tests are many (their kernel is
# compiled once, by test_special_values); each layout example may compile a kernel.
FEW = settings(max_examples=max(3, settings.default.max_examples // 10))
SOME = settings(max_examples=max(3, settings.default.max_examples // 10))


# conftest runs this module lazily and eagerly. One op over materialised arrays launches the
# same kernel in both modes, so those tests are marked lazy_only (run once); chains and
# wrappers that build several ops run in both.
LAZY_ONLY = pytest.mark.lazy_only


# -- values ----------------------------------------------------------------------------------

def specials(dtype: np.dtype) -> np.ndarray:
    """Edge values of ``dtype``: zero divisors, extremes, shift counts around the bit width,
    NaN, +-inf, -0.0, halves (rounding) and the smallest normal."""
    if dtype.kind == "b":
        return np.array([False, True])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        vals = [0, 1, 2, 3, 7, info.bits - 1, info.bits, info.bits + 1, info.max, info.max - 1]
        if dtype.kind == "i":
            vals += [-1, -2, -3, -7, info.min, info.min + 1]
        return np.array(vals, dtype)
    if dtype.kind == "f":
        fi = np.finfo(dtype)
        return np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.7, -3.7, 0.3, 1e-3, 100.0,
                         np.inf, -np.inf, np.nan, fi.tiny, fi.max, -fi.max], dtype)
    parts = specials(np.finfo(dtype).dtype)[[0, 1, 2, 3, 4, 7, 9, 14, 15, 16]]
    return np.array([complex(a, b) for a in parts for b in parts], dtype)


def special_args(op: Op, dtype: np.dtype) -> list[np.ndarray]:
    """1-D contiguous operands holding every combination of special values."""
    v = specials(dtype)
    if op.name == "where":
        if dtype.kind == "c":
            v = v[::3]
        x, y = np.repeat(v, v.size), np.tile(v, v.size)
        return [np.resize(np.array([True, False, False]), x.size), x, y]
    if op.arity == 1:
        return [v]
    if op.arity == 2:
        return [np.repeat(v, v.size), np.tile(v, v.size)]
    v = v[::7] if dtype.kind == "c" else v[::2] if dtype.kind == "f" else v
    grid = np.array(list(itertools.product(v, v, v)), dtype).T
    return [np.ascontiguousarray(g) for g in grid]


def arg_dtypes(op: Op, dtype: np.dtype) -> list[np.dtype]:
    return [BOOL, dtype, dtype] if op.name == "where" else [dtype] * op.arity


# -- dtype sampling --------------------------------------------------------------------------

def numpy_supports(op: Op, dtypes: list[np.dtype]) -> bool:
    try:
        with np.errstate(all="ignore"):
            op.ref(*[np.ones(1, d) for d in dtypes])
    except TypeError:
        return False
    return True


def supported(op: Op, dtypes: list[np.dtype]) -> bool:
    """Whether darray computes ``op`` over ``dtypes`` (else it raises TypeError naming the op)."""
    return all(d.kind in op.kinds for d in dtypes) and numpy_supports(op, dtypes)


def sampled(k: int, op: Op) -> list[np.dtype]:
    """The dtypes op ``k`` of the table is tested with: every category, the integer widths
    rotating over the table (all of them for INT_OPS), complex where tested here or rejected."""
    picks = {BOOL, SIGNED[k % 4], UNSIGNED[(k + 2) % 4], *FLOATS, COMPLEX[k % 2]}
    if op.name in INT_OPS:
        picks.update(SIGNED + UNSIGNED)
    out = []
    for d in ALL:
        if d in picks and (d.kind != "c" or op.name in COMPLEX_HERE or not supported(op, arg_dtypes(op, d))):
            out.append(d)
    return out


CASES = [pytest.param(op, d, id=f"{op.name}-{d}") for k, op in enumerate(OPS) for d in sampled(k, op)]
GOOD = [c for c in CASES if supported(c.values[0], arg_dtypes(*c.values))]
BAD = [c for c in CASES if not supported(c.values[0], arg_dtypes(*c.values))]


# -- reference and comparison ----------------------------------------------------------------

def fp16(place) -> bool:
    return not isinstance(place, CLPlace) or runtime(place).info.fp16


def _unfused_zero_signs(args: list[np.ndarray], want: np.ndarray) -> np.ndarray:
    """NumPy's complex product with the sign of each zero part taken from the unfused formula
    (ar br - ai bi, ar bi + ai br), which darray's kernels compute (FP_CONTRACT OFF). NumPy's loops
    may fuse a multiply-add (FMA), and where a product underflows the zero's sign then differs:
    (-1.2e-38+0j) * (0+3.3e-17j) has imaginary part -0 fused, +0 unfused."""
    a, b = (np.asarray(x).astype(want.dtype) for x in np.broadcast_arrays(*args))
    parts = {"real": a.real * b.real - a.imag * b.imag, "imag": a.real * b.imag + a.imag * b.real}
    out = want.copy()
    for name, unfused in parts.items():
        part = getattr(out, name)
        part[...] = np.where(part == 0, unfused * (unfused == 0), part)  # zeros keep the unfused sign
    return out


def reference(op: Op, args: list[np.ndarray], place) -> tuple[np.ndarray, np.ndarray | None]:
    """NumPy's result (with darray's documented differences) and a mask of elements to skip."""
    skip = None
    with np.errstate(all="ignore"):
        if op.name == "pow" and args[1].dtype.kind == "i" and (args[1] < 0).any():
            # darray: x ** negative integer gives 0, or +-1 for bases +-1 (NumPy raises)
            base, exp = np.broadcast_arrays(*args)
            want = op.ref(base, np.where(exp < 0, 0, exp).astype(exp.dtype))
            neg = np.where(base == 1, 1, np.where(base == -1, np.where(exp % 2 == 0, 1, -1), 0))
            want = np.where(exp < 0, neg.astype(want.dtype), want).astype(want.dtype)
        elif op.name == "multiply" and np.result_type(*args).kind == "c":
            want = _unfused_zero_signs(args, np.asarray(op.ref(*args)))
        else:
            want = np.asarray(op.ref(*args))
        if want.dtype == np.float16 and not fp16(place):
            want = np.asarray(op.ref(*[a.astype(np.float32) if a.dtype.itemsize <= 2 and a.dtype.kind in "biu"
                                       else a for a in args]))
    if op.name == "reciprocal" and args[0].dtype.kind in "biu":
        skip = np.broadcast_to(args[0] == 0, want.shape)  # NumPy: 1.0 / 0 cast to int, undefined in C
    if op.name in ("fmax", "fmin") and want.dtype.kind == "f":
        # NumPy's float32 and float64 loops pick different zeros on ties (fmax(-0.0, 0.0)); darray takes
        # C's rule of its row (the second for fmax, the first for fmin), as NumPy's float64 loop
        x, y = np.broadcast_arrays(*args)
        skip = (want == 0) & (x == y)
    if op.name == "clip" and want.dtype.kind == "f":
        # the sign of a zero result on ties (clip(-0.0, 0.0, 1.0)) depends on NumPy's loop: it keeps
        # x with scalar bounds and takes the bound with array bounds; darray keeps x
        x, lo, hi = np.broadcast_arrays(*args)
        skip = (want == 0) & ((x == lo) | (x == hi) | (lo == hi))
    return want, skip


def assert_close(got: np.ndarray, want: np.ndarray, skip: np.ndarray | None = None, what: str = "",
                 zero_signs: bool = True) -> None:
    """Same shape and dtype; NaN, +-inf and (unless ``zero_signs`` is False) the sign of zeros
    at the same places (per complex part); finite values within ``tolerance``, relative to
    |want| (the modulus for complex)."""
    assert got.shape == want.shape, f"{what}: shape {got.shape}, NumPy {want.shape}"
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, NumPy {want.dtype}"
    if skip is not None:
        got, want = got[~skip], want[~skip]
    if want.dtype.kind not in "fc":
        bad = got != want
        assert not bad.any(), f"{what}: {bad.sum()} differ, e.g. at {np.argwhere(bad)[:6].ravel()}: " \
                              f"got {got[bad][:6]}, NumPy {want[bad][:6]}"
        return
    tol = tolerance(want.dtype)["rtol"]
    with np.errstate(all="ignore"):
        scale = np.abs(want)
    scale = np.where(np.isfinite(scale), scale, 0)
    parts = [(got.real, want.real, "real"), (got.imag, want.imag, "imag")] if want.dtype.kind == "c" else \
        [(got, want, "")]
    for g, w, part in parts:
        with np.errstate(all="ignore"):
            bad = (np.isnan(g) != np.isnan(w)) | (np.isinf(w) & (g != w)) | (np.isinf(g) & (g != w))
            fin = np.isfinite(g) & np.isfinite(w)
            bad |= fin & (np.abs(g - w) > tol * (1 + scale))
            if zero_signs:
                bad |= (g == 0) & (w == 0) & (np.signbit(g) != np.signbit(w))
        assert not bad.any(), f"{what} {part}: {bad.sum()} of {bad.size} differ: got {got[bad][:6]}, " \
                              f"NumPy {want[bad][:6]}"


def compute(op: Op, args: list, place):
    return getattr(da, op.name)(*[da.asarray(a, device=place) if isinstance(a, np.ndarray) else a for a in args])


def check_op(op: Op, args: list[np.ndarray], place, views=None, what: str = "") -> None:
    """``op`` over ``args`` (moved to ``place``, then each viewed by ``views``) against NumPy."""
    dargs = [da.asarray(a, device=place) for a in args]
    if views:
        dargs = [v(a) for v, a in zip(views, dargs)]
        args = [v(a) for v, a in zip(views, args)]
    want, skip = reference(op, args, place)
    got = getattr(da, op.name)(*dargs)
    assert isinstance(got, da.DArray) and got.place == place
    assert_close(got.get(), want, skip, what or f"{op.name}{tuple(str(a.dtype) for a in args)}")


# -- every op x dtype category ---------------------------------------------------------------

@LAZY_ONLY
@pytest.mark.parametrize("op, dtype", GOOD)
def test_special_values(any_place, op, dtype):
    check_op(op, special_args(op, dtype), any_place)


@LAZY_ONLY
@pytest.mark.parametrize("op, dtype", GOOD)
@FEW
@given(data=st.data())
def test_random_values(cl_place, op, dtype, data):
    n = data.draw(st.integers(2, 40), label="n")  # n = 1 and 0 are other structures (test_zero_d_and_empty)
    args = [data.draw(hnp.arrays(d, n), label=f"x{i}") for i, d in enumerate(arg_dtypes(op, dtype))]
    check_op(op, args, cl_place)


@LAZY_ONLY
@pytest.mark.parametrize("op, dtype", BAD)
def test_unsupported_dtypes(any_place, op, dtype):
    """NumPy has no loop (bitwise on float, subtract of bools, floor_divide of complex ...) or the
    row's ``kinds`` leaves the dtype out: TypeError naming the op; the next call works."""
    args = [da.asarray(a, device=any_place) for a in special_args(op, dtype)]
    with pytest.raises(TypeError, match=op.name):
        getattr(da, op.name)(*args)
    assert da.add(da.ones(2, device=any_place), 1).get().tolist() == [2.0, 2.0]


# -- layouts ---------------------------------------------------------------------------------

def _every_axis(step: int):
    return lambda a: a[tuple(slice(None, None, step) for _ in a.shape)] if a.ndim else a


VIEWS = {  # name: (base shape for a view of shape s, the view)
    "contiguous": (lambda s: s, lambda a: a),
    "strided": (lambda s: tuple(2 * n for n in s), _every_axis(2)),
    "transposed": (lambda s: s[::-1], lambda a: a.T),
    "reversed": (lambda s: s, _every_axis(-1)),
}


def layout_dtype(k: int, op: Op) -> np.dtype:
    good = [d for d in sampled(k, op) if supported(op, arg_dtypes(op, d))]
    return good[k % len(good)]


VIEW_NAMES = sorted(VIEWS)


def layout_plan(k: int, op: Op) -> tuple[int, list[str], list[tuple[int | None, ...]]]:
    """The structure op ``k`` of the table is tested with, rotating over the table: rank 1..3,
    a view kind per operand, and for operands after the first a broadcast axis (size 1) or
    fewer leading axes. Hypothesis then varies sizes and values within that one kernel."""
    rank = 1 + k % 3
    kinds = [VIEW_NAMES[(k + i) % len(VIEW_NAMES)] for i in range(op.arity)]
    masks = [tuple([None] * rank)]  # None: the drawn size; 1: broadcast along it
    for i in range(1, op.arity):
        mask: list = [None] * rank
        if (k + i) % 3 == 1:
            mask[(k + i) % rank] = 1
        elif (k + i) % 3 == 2 and rank > 1:
            mask = mask[1:]
        masks.append(tuple(mask))
    return rank, kinds, masks


@LAZY_ONLY
@pytest.mark.parametrize("op", [pytest.param(op, id=op.name) for op in OPS])
@SOME
@given(data=st.data())
def test_layouts(any_place, op, data):
    """Broadcast pairs and strided, transposed and negative-step views, read in place: one
    structure per op (``layout_plan``), sizes and values from hypothesis."""
    k = OPS.index(op)
    dtype = layout_dtype(k, op)
    rank, kinds, masks = layout_plan(k, op)
    sizes = data.draw(st.tuples(*[st.integers(2, 5)] * rank), label="sizes")
    shapes = [tuple(n if m is None else m for n, m in zip(sizes[rank - len(mask):], mask)) for mask in masks]
    bases = [data.draw(hnp.arrays(d, VIEWS[v][0](s)), label=f"base{i}")
             for i, (d, v, s) in enumerate(zip(arg_dtypes(op, dtype), kinds, shapes))]
    check_op(op, bases, any_place, views=[VIEWS[v][1] for v in kinds], what=f"{op.name} {kinds} {shapes}")


@LAZY_ONLY
@pytest.mark.parametrize("op", [pytest.param(op, id=op.name) for op in OPS])
def test_zero_d_and_empty(any_place, op):
    """A 0-d first operand (alone, or broadcast against 1-D others) and empty operands."""
    dtype = layout_dtype(OPS.index(op), op)
    dts = arg_dtypes(op, dtype)
    v = [specials(d) for d in dts]
    zero_d = [v[0][1 % v[0].size].reshape(())] + [np.resize(x, 7) for x in v[1:]]
    check_op(op, zero_d, any_place, what=f"{op.name} 0-d")
    for shape in ((0,), (2, 0, 3)):
        check_op(op, [np.zeros(shape, d) for d in dts], any_place, what=f"{op.name} empty {shape}")
    if op.arity > 1:
        check_op(op, [np.zeros((3, 1), dts[0])] + [np.zeros((0,), d) for d in dts[1:]], any_place,
                 what=f"{op.name} (3, 1) with (0,)")


@LAZY_ONLY
@pytest.mark.parametrize("name, dtype", [("add", D("float32")), ("where", D("int16")), ("clip", D("float64")),
                                         ("less", D("uint8"))])
@settings(max_examples=max(6, settings.default.max_examples // 3))
@given(data=st.data())
def test_random_layouts(any_place, name, dtype, data):
    """Random structures for a few ops: shapes with 0-d, empty and size-1 dimensions, broadcast
    and viewed operands (the index code is the same for every op)."""
    op = TABLE[name]
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=op.arity, min_dims=0, max_dims=3, max_side=4),
                       label="shapes").input_shapes
    kinds = [data.draw(st.sampled_from(VIEW_NAMES), label=f"view{i}") for i in range(op.arity)]
    bases = [data.draw(hnp.arrays(d, VIEWS[v][0](s)), label=f"base{i}")
             for i, (d, v, s) in enumerate(zip(arg_dtypes(op, dtype), kinds, shapes))]
    check_op(op, bases, any_place, views=[VIEWS[v][1] for v in kinds], what=f"{name} {kinds} {shapes}")


def test_views_are_read_in_place(cl_place, lazy_mode):
    x = da.asarray(np.arange(24, dtype=np.float32).reshape(4, 6), device=cl_place)
    for view in (x[::2, ::-3], x.T, x[1:, None, ::-1]):
        y = da.sin(view)
        assert view._alloc is x._alloc
        if lazy_mode == "lazy":
            assert [r is x._alloc for r in y._node.reads] == [True]  # no copy in between
        assert_close(y.get(), np.sin(view.get()), what="sin(view)")


def test_one_kernel_serves_every_shape(cl_place):
    """Shapes and strides are kernel arguments: a new shape of the same rank pattern reuses the kernel."""
    from darray.lazy import execute

    def run(n):
        a = np.arange(3 * n, dtype=np.float32).reshape(3, n)
        x = da.asarray(a, device=cl_place)
        assert_close(da.hypot(x[:, ::2], 2.5).get(), np.hypot(a[:, ::2], np.float32(2.5)), what="hypot")

    run(8)
    before = len(execute._kernels)
    for n in (4, 10, 30):
        run(n)
    assert len(execute._kernels) == before


# -- mixed dtypes and promotion ----------------------------------------------------------------

PAIRS = [(D("int64"), D("uint64")), (D("uint64"), D("int64")), (D("int8"), D("uint64")), (D("uint32"), D("int32")),
         (D("uint8"), D("int8")), (D("int16"), D("uint32")), (BOOL, D("int8")), (D("int8"), D("float32")),
         (D("uint64"), D("float32")), (D("int64"), D("float64")), (D("float32"), D("float64")),
         (D("uint16"), D("bool")), (D("float32"), D("complex128")), (D("complex64"), D("float64")),
         (D("int32"), D("complex64"))]
COMPARE = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]


def pair_cases():
    binary = [op for op in OPS if op.arity == 2]
    cases = []
    for k, op in enumerate(binary):
        pairs = [PAIRS[(3 * k + j) % len(PAIRS)] for j in range(3)]
        if op.name in COMPARE:
            pairs += PAIRS[:6]  # the signed/unsigned loops (int64 with uint64 has no common integer type)
        for a, b in dict.fromkeys(pairs):
            complex_ok = op.name in COMPLEX_HERE or "c" not in (a.kind + b.kind)
            if complex_ok and supported(op, [a, b]):
                cases.append(pytest.param(op, a, b, id=f"{op.name}-{a}-{b}"))
    return cases


@LAZY_ONLY
@pytest.mark.parametrize("op, a, b", pair_cases())
def test_mixed_dtypes(any_place, op, a, b):
    """Promotion through NumPy's loop resolution (int64 with uint64 -> float64 arithmetic, exact
    comparisons), casts of each operand inside the kernel, values at the extremes of both."""
    x, y = specials(a), specials(b)
    check_op(op, [np.repeat(x, y.size), np.tile(y, x.size)], any_place)


# -- integer semantics spelled out -------------------------------------------------------------

@pytest.mark.parametrize("dtype", [D("int8"), D("int64")])
def test_integer_semantics(any_place, dtype):
    """NumPy's rules, written out: floor division and remainder take the divisor's sign,
    division by zero gives 0, INT_MIN // -1 wraps, shifts past the width give 0 (or -1 for a
    negative value shifted right), overflow wraps, abs(INT_MIN) is INT_MIN."""
    lo, hi = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
    bits = np.iinfo(dtype).bits
    cases = {
        "floor_divide": ([7, -7, 7, -7, 5, 0, lo, lo], [2, 2, -2, -2, 0, 0, -1, 1], [3, -4, -4, 3, 0, 0, lo, lo]),
        "remainder": ([7, -7, 7, -7, 5, lo, lo], [2, 2, -2, -2, 0, -1, 3], [1, 1, -1, -1, 0, 0, (lo % 3)]),
        "bitwise_left_shift": ([1, 1, 1, -1, 3], [bits - 1, bits, bits + 5, 1, -1], [lo, 0, 0, -2, 0]),
        "bitwise_right_shift": ([-8, -8, 8, 8, -1], [1, bits, bits, 100, -1], [-4, -1, 0, 0, -1]),
        "add": ([hi, lo, hi], [1, -1, hi], [lo, hi, -2]),
        "subtract": ([lo, hi], [1, -1], [hi, lo]),
        "multiply": ([hi, lo, lo], [2, -1, 2], [-2, lo, 0]),
        "abs": ([lo, -1, hi], None, [lo, 1, hi]),
        "negative": ([lo, 1, hi], None, [lo, -1, -hi]),
        "pow": ([2, 2, -2, 3, 0], [bits - 1, bits, 3, 0, 0], [lo, 0, -8, 1, 1]),
    }
    for name, (x, y, expect) in cases.items():
        args = [np.array(x, dtype)] + ([np.array(y, dtype)] if y is not None else [])
        got = getattr(da, name)(*[da.asarray(a, device=any_place) for a in args]).get()
        with np.errstate(all="ignore"):
            want = TABLE[name].ref(*args)
        np.testing.assert_array_equal(want, np.array(expect, dtype), err_msg=f"NumPy {name}")  # the rule
        assert_close(got, want, what=name)


def test_integer_pow_negative_exponent(any_place):
    """Documented difference: NumPy raises for any negative integer exponent in an array; darray
    gives 0, or +-1 for bases +-1. A negative Python int exponent raises ValueError as NumPy."""
    x = da.asarray(np.array([2, 1, -1, -1, 0, 5], np.int32), device=any_place)
    e = da.asarray(np.array([-1, -5, -3, -2, 2, 1], np.int32), device=any_place)
    assert da.pow(x, e).get().tolist() == [0, 1, -1, 1, 0, 5]
    with pytest.raises(ValueError, match="negative"):
        da.pow(x, -1)
    assert da.pow(x, 2).get().tolist() == [4, 1, 1, 1, 0, 25]


def test_complex_division_by_infinity(cl_place):
    a = np.array([0, 1 + 1j, -2 + 0.5j, 3, -0.0 - 1j, 1e-300, 4j], np.complex128)
    b = np.array([complex(np.inf, 1), complex(1, -np.inf), complex(-np.inf, 0), complex(np.inf, np.inf), 2 + 1j,
                  complex(1, 1e300), 2.2250738585072014e-308j])
    got = da.divide(da.asarray(a, device=cl_place), da.asarray(b, device=cl_place)).get()
    with np.errstate(all="ignore"):
        want = a / b
    assert_close(got, want, what="complex division")


# -- Python scalars and NumPy operands ---------------------------------------------------------

SCALAR_CASES = [  # (op, array dtype, scalar): NumPy 2 weak scalars (the array's dtype wins within a kind)
    ("add", "int8", 1), ("add", "int8", 1.5), ("add", "float32", 1j), ("add", "uint8", True),
    ("add", "bool", 2), ("add", "float32", 2 ** 40), ("multiply", "complex64", 2.5),
    ("divide", "int16", 3), ("floor_divide", "int32", -3), ("remainder", "float32", -2.5),
    ("pow", "float32", 2), ("pow", "int8", 3), ("maximum", "uint16", 7), ("minimum", "float64", -np.inf),
    ("atan2", "float32", 1), ("hypot", "int8", 3.0), ("copysign", "float32", -1.0),
    ("nextafter", "float64", 0.0), ("logaddexp", "float32", 0.5), ("bitwise_and", "uint32", 6),
    ("bitwise_left_shift", "int16", 3), ("bitwise_right_shift", "uint64", 70), ("logical_or", "float32", 0),
    ("logical_xor", "int8", True), ("less", "int8", 300), ("greater_equal", "uint8", -1),
    ("equal", "int64", 2 ** 64), ("not_equal", "uint64", -5), ("less_equal", "float32", 0.5),
]


@LAZY_ONLY
@pytest.mark.parametrize("name, dtype, scalar", SCALAR_CASES, ids=[f"{n}-{d}-{s!r}" for n, d, s in SCALAR_CASES])
def test_python_scalars(any_place, name, dtype, scalar):
    """A Python scalar on either side: NumPy 2's weak promotion and result (out-of-range Python
    ints compare exactly, as NumPy 2)."""
    op = TABLE[name]
    a = specials(D(dtype))
    if name == "pow" and D(dtype).kind == "i":
        a = a[a >= 0]  # NumPy raises for negative exponents (scalar on the left)
    x = da.asarray(a, device=any_place)
    for args, dargs in (((a, scalar), (x, scalar)), ((scalar, a), (scalar, x))):
        with np.errstate(all="ignore"):
            try:
                want = np.asarray(op.ref(*args))
            except (OverflowError, ValueError) as err:
                with pytest.raises(type(err)):
                    getattr(da, name)(*dargs)
                continue
        got = getattr(da, name)(*dargs)
        if want.dtype == np.float16 and not fp16(any_place):
            want = np.asarray(op.ref(*[v.astype(np.float32) if isinstance(v, np.ndarray) else v for v in args]))
        assert_close(got.get(), want, what=f"{name}{args}")


def test_python_scalar_overflow(any_place):
    """int8 + 300 raises OverflowError like NumPy 2; the next call works."""
    x = da.asarray(np.array([1, 2], np.int8), device=any_place)
    for call in (lambda: da.add(x, 300), lambda: da.multiply(-129, x),
                 lambda: da.add(da.asarray(np.ones(2, np.uint8), device=any_place), -1)):
        with pytest.raises(OverflowError):
            call()
    assert da.add(x, 100).get().tolist() == [101, 102]


def test_only_python_scalars(any_place):
    """No array at all: NumPy's default dtypes, on the current place."""
    with da.place.use(any_place):
        for name, args in (("add", (1, 2)), ("multiply", (1.5, 2)), ("less", (1, 2.5)), ("sqrt", (4.0,)),
                           ("negative", (3,)), ("add", (1j, True))):
            got = getattr(da, name)(*args)
            want = np.asarray(TABLE[name].ref(*args))
            assert got.place == any_place
            assert_close(got.get(), want, what=name)


def test_numpy_operands(any_place):
    """NumPy arrays and NumPy scalars (strongly typed) are moved to the DArray's place."""
    a = np.array([[1.5, -2.0, 3.0]], np.float32)
    x = da.asarray(a, device=any_place)
    b = np.array([[1], [2]], np.int16)
    for name, args in (("add", (x, b)), ("subtract", (b, x)), ("multiply", (x, np.float64(2.0))),
                       ("maximum", (np.int8(2), x)), ("where", (np.array([True, False, True]), x, b)),
                       ("less", (x, [[0.0], [2.0]]))):
        got = getattr(da, name)(*args)
        want = TABLE[name].ref(*[a if v is x else v for v in args])
        assert got.place == any_place
        assert_close(got.get(), np.asarray(want), what=name)


_SCALAR_DTYPES = ["bool", "int8", "uint8", "int32", "int64", "uint64", "float32", "float64", "complex64"]


@settings(max_examples=30, deadline=None)
@given(adt=st.sampled_from(_SCALAR_DTYPES), sdt=st.sampled_from(_SCALAR_DTYPES),
       name=st.sampled_from(["add", "multiply", "less", "maximum", "where"]), first=st.booleans(),
       value=st.sampled_from([0, 1, 7, -0.0, 2.5, float("nan"), float("inf")]),
       n=st.sampled_from([1, 7, 8, 9, 255, 256, 257, 4097]), view=st.sampled_from(["plain", "reversed", "strided"]))
def test_numpy_scalars_are_typed_like_0d_arrays(cl_place, adt, sdt, name, first, value, n, view):
    """A NumPy scalar is strongly typed (as a 0-d array, NumPy 2) and passed as a kernel argument:
    nothing is uploaded. Over views and lengths around the chunk and lane boundaries."""
    cut = {"plain": slice(None), "reversed": slice(None, None, -1), "strided": slice(None, None, -2)}[view]
    base = ((np.arange(2 * n) - n) * 3).astype(adt)
    a = base[cut][:n]
    s = np.array(value).astype(sdt, casting="unsafe")[()]
    x = da.asarray(base, device=cl_place)[cut][:n]
    hcond = np.arange(a.shape[0]) % 3 == 0
    dcond = da.asarray(hcond, device=cl_place)

    def call(xp, arr):
        if name == "where":
            cond = hcond if xp is np else dcond
            return xp.where(cond, s, arr) if first else xp.where(cond, arr, s)
        return getattr(xp, name)(s, arr) if first else getattr(xp, name)(arr, s)
    with np.errstate(all="ignore"):
        try:
            want = np.asarray(call(np, a))
        except TypeError:
            with pytest.raises(TypeError):
                call(da, x)
            return
    with da.profile() as p:
        got = call(da, x).get()
    assert "host_to_device" not in [r.name for r in p.launches]
    assert got.dtype == want.dtype
    assert_close(got, want, what=f"{name}({adt}, {sdt} scalar)")


def test_numpy_operands_only_go_to_the_current_place(any_place):
    with da.place.use(any_place):
        got = da.add(np.arange(3, dtype=np.int16), np.int16(2))
    assert got.place == any_place and got.dtype == np.int16 and got.get().tolist() == [2, 3, 4]


# -- the Python-level wrappers: clip, round, where -----------------------------------------------

def test_clip_bounds(any_place):
    a = np.array([-3.0, -0.0, 0.5, 2.0, np.nan, np.inf], np.float32)
    x = da.asarray(a, device=any_place)
    for lo, hi in ((None, 1.0), (-1.0, None), (None, None), (1.0, -1.0), (0.0, 0.0)):
        want = np.clip(a, lo, hi) if (lo, hi) != (None, None) else a
        assert_close(da.clip(x, lo, hi).get(), want, what=f"clip {lo} {hi}")
        assert_close(da.clip(x, min=lo, max=hi).get(), want, what=f"clip {lo} {hi}")
    lo = da.asarray(np.array([0.0, 1.0], np.float64), device=any_place)[:, None]
    assert_close(da.clip(x, lo, 2).get(), np.clip(a, np.array([[0.0], [1.0]]), 2), what="clip broadcast")


@pytest.mark.parametrize("decimals", [0, 1, 2, -1, -2])
def test_round_decimals(any_place, decimals):
    """NumPy's scaling: x * 10**d rounded, then divided (d < 0: divided, rounded, multiplied);
    integers keep their dtype; bool only with decimals=0."""
    for a in (np.array([1.25, -2.35, 125.5, 0.5, -0.5, 1.5, 250.0, np.nan, -np.inf, -0.0], np.float64),
              np.array([1.25, -2.35, 125.5, 0.5, -0.5, 1.5], np.float32),
              np.array([1.25 - 2.35j, 125.5 + 0.5j], np.complex64),
              np.array([15, -25, 7, 125, -150, 0], np.int32),  # values whose rounding fits the dtype:
              np.array([15, 25, 7, 125, 250, 0], np.uint8)):    # NumPy's float -> int cast is undefined past it
        if a.dtype == np.uint8 and decimals < -1:
            continue
        got = da.round(da.asarray(a, device=any_place), decimals=decimals).get()
        want = np.round(a, decimals)
        if a.dtype.kind == "c" and decimals:  # documented: the sign of a zero part may differ
            got, want = got + 0, want + 0
        assert_close(got, want, what=f"round {a.dtype} {decimals}")
    b = np.array([True, False])
    if decimals:
        with pytest.raises(TypeError, match="round"):
            da.round(da.asarray(b, device=any_place), decimals=decimals)


def test_where_python_scalars(any_place):
    c = np.array([True, False, True])
    cond = da.asarray(c, device=any_place)
    x = da.asarray(np.array([1, 2, 3], np.int8), device=any_place)
    for args in ((c, 1, 2.5), (c, np.array([1, 2, 3], np.int8), 7), (c, 0.5, np.array([1, 2, 3], np.float32))):
        dargs = [cond if v is c else da.asarray(v, device=any_place) if isinstance(v, np.ndarray) else v
                 for v in args]
        assert_close(da.where(*dargs).get(), np.where(*args), what=f"where {args}")
    assert da.where(cond, x, -1).dtype == np.int8
    f = da.asarray(np.array([0.0, 1.0, np.nan], np.float32), device=any_place)
    assert_close(da.where(f, 1, 0).get(), np.where(np.array([0.0, 1.0, np.nan], np.float32), 1, 0), what="where f")


# -- lazy chains and eager mode give the same answers ------------------------------------------------

@pytest.mark.parametrize("dtype", [D("float32"), D("int32")])
def test_fused_chain_matches_numpy(cl_place, dtype):
    """A chain of ops (one fused kernel when lazy, one kernel per op when eager)."""
    a = np.array([[3, -1, 4], [1, -5, 9]], dtype)
    b = np.array([2, 7, -1], dtype)

    def body(xp, x, y):
        z = xp.add(xp.multiply(x, y), 1)
        return xp.where(xp.greater(z, 0), xp.floor_divide(z, 2), xp.negative(z))

    want = body(np, a, b)
    got = body(da, da.asarray(a, device=cl_place), da.asarray(b, device=cl_place))
    assert_close(got.get(), want, what="chain")
    assert_close(body(da, da.asarray(a, device=cl_place)[::-1], b).get(), body(np, a[::-1], b), what="chain view")


# -- bad input -------------------------------------------------------------------------------------

def test_not_broadcastable(any_place):
    x = da.ones((2, 3), device=any_place)
    y = da.ones((4,), device=any_place)
    for call in (lambda: da.add(x, y), lambda: da.where(da.ones((5,), dtype=da.bool, device=any_place), x, 1),
                 lambda: da.clip(x, y, 3)):
        with pytest.raises(ValueError) as err:
            call()
        msg = str(err.value).replace(" ", "")
        assert "(2,3)" in msg and ("(4,)" in msg or "(5,)" in msg), msg
        assert da.add(x, 1).get().tolist() == [[2.0] * 3] * 2


def test_bitwise_on_float(any_place):
    x = da.ones(3, device=any_place)
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"):
        with pytest.raises(TypeError, match=name):
            getattr(da, name)(x, x)
    with pytest.raises(TypeError, match="bitwise_invert"):
        da.bitwise_invert(x)
    i = da.asarray(np.array([6, 3], np.int32), device=any_place)
    assert da.bitwise_and(i, 5).get().tolist() == [4, 1]


def test_mismatched_places(cl_place):
    x = da.ones(3, device=cl_place)
    y = da.ones(3, device="cpu")
    for call in (lambda: da.add(x, y), lambda: da.add(y, x), lambda: da.where(y > 0, x, 1), lambda: da.clip(x, 0, y)):
        with pytest.raises(ValueError) as err:
            call()
        msg = str(err.value)
        assert "cpu" in msg and "cl:" in msg, msg
    assert da.add(x, x).get().tolist() == [2.0] * 3
    assert da.add(y, y).get().tolist() == [2.0] * 3
    same = da.ones(3, device=type(cl_place)(cl_place.index))  # an equal place, another object
    assert same.place is not x.place and da.add(x, same).get().tolist() == [2.0] * 3
    assert x[same > 0].get().tolist() == [1.0] * 3


def test_wrong_arity_and_operands(any_place):
    x = da.ones(3, device=any_place)
    with pytest.raises(TypeError, match="add"):
        da.add(x)
    with pytest.raises(TypeError, match="sin"):
        da.sin(x, x, x)
    with pytest.raises(TypeError, match="add"):
        da.add(x, None)
    with pytest.raises(TypeError, match="add"):
        da.add(x, "a")
    assert da.sin(x).shape == (3,)


# -- the table is the public namespace ---------------------------------------------------------------

def test_table_names_are_exported():
    """Every name of the op table is public, once: a row NumPy has a ufunc for as ``ops.ufunc``'s
    object only, ``where`` as ``ops.selection``'s, the others as this family's functions."""
    names = {op.name for op in OPS} | set(ALIASES)
    assert names <= set(da.__all__)
    for name in names:
        fn = getattr(da, name)
        target = TABLE[ALIASES.get(name, name)]
        if isinstance(target.ref, np.ufunc):  # a darray ufunc object of the row's function (ops/ufunc.py)
            assert isinstance(fn, da.ufunc) and fn.__name__ == name and name not in elementwise.__all__
        elif name == "where":  # NumPy's one-argument form too (ops/selection.py)
            assert fn(True, 1, 2) == 1 and len(fn(da.asarray([0, 3]))) == 1
        else:
            assert callable(fn) and fn is getattr(elementwise, name)
        in_numpy = getattr(np, getattr(target.ref, "__name__", ""), None) is target.ref  # relu, sigmoid, silu: no
        assert fn.__doc__ and ("See also: numpy." if in_numpy else "NumPy has no such function") in fn.__doc__, name
        if name not in ("clip", "round") and not isinstance(fn, da.ufunc):
            assert fn.__name__ == target.name
    assert len(set(da.__all__)) == len(da.__all__)
    for name in da.__all__:
        assert hasattr(da, name), name
    # the rest of the namespace comes from the other modules and never shadows a table name
    others = set()
    for module in ("reduction", "linalg", "creation", "scan"):
        others |= set(getattr(importlib.import_module(f"darray.ops.{module}"), "__all__", ()))
    assert not others & names, others & names
    assert {n for n in da.__all__ if n in names} == names


def test_table_rows_are_complete():
    """Each row: a unique name, arity 1..3, a NumPy reference, C templates for its kinds."""
    assert len(TABLE) == len(OPS)
    assert not set(ALIASES) & set(TABLE)
    for op in OPS:
        assert 1 <= op.arity <= 3 and callable(op.ref) and op.c, op.name
        assert op.doc, op.name
    array_api = {"abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
                 "bitwise_invert", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift", "bitwise_xor",
                 "ceil", "clip", "conj", "copysign", "cos", "cosh", "divide", "equal", "exp", "expm1", "floor",
                 "floor_divide", "greater", "greater_equal", "hypot", "imag", "isfinite", "isinf", "isnan", "less",
                 "less_equal", "log", "log1p", "log2", "log10", "logaddexp", "logical_and", "logical_not",
                 "logical_or", "logical_xor", "maximum", "minimum", "multiply", "negative", "nextafter",
                 "not_equal", "positive", "pow", "real", "reciprocal", "remainder", "round", "sign", "signbit",
                 "sin", "sinh", "square", "sqrt", "subtract", "tan", "tanh", "trunc", "where", "relu", "silu",
                 "sigmoid"}
    assert array_api <= set(TABLE), array_api - set(TABLE)


# -- float32 sin/cos/tan: darray's own code (elementwise.h), accuracy in ulp -----------------------

TRIG_BOUND = 6433.0  # elementwise.h's DARRAY_TRIG_BOUND: beyond it (and inf/NaN) the built-ins


def trig_values() -> np.ndarray:
    """float32 values for sin/cos/tan: zeros, tiny, denormals, neighbours of k*pi/2 (the hardest
    reductions, e.g. 252.89821 within 2^-28 of 161*pi/2), the worst cases measured, the bound,
    huge values, inf, NaN, and random values of every magnitude; both signs."""
    fi = np.finfo(np.float32)
    k = np.concatenate([np.arange(1, 64), [161, 322, 644, 1288, 1425, 2850, 4095, 4096, 5000, 33433, 66866],
                        np.random.default_rng(3).integers(64, 4096, 200)])
    near = (k * (np.pi / 2)).astype(np.float32)
    near = np.concatenate([np.nextafter(near, np.float32(np.inf)), near, np.nextafter(near, np.float32(0))])
    rng = np.random.default_rng(11)
    mags = np.exp2(rng.uniform(-30, 128, 2000)).astype(np.float32)
    fixed = np.array([0.0, 1e-45, 1e-40, fi.tiny, 1e-30, 1e-10, 2.0 ** -12, 2.0 ** -7, 1e-3, 0.5, np.pi / 4, 0.7853982,
                      1.0, 252.89821, 4.712389, 4988.0249, 3120.352, 2.3564763, TRIG_BOUND,
                      np.nextafter(np.float32(TRIG_BOUND), np.float32(np.inf)), 1e4, 52516.434, 1e7, 1e30, fi.max,
                      np.inf, np.nan], np.float32)
    # tiny lanes beside lanes that need the large-argument reduction (PoCL's float8 built-ins
    # got the tiny ones wrong)
    mixed = np.array([1e-3, 1e30, 1e-8, 1e7, -1e-5, fi.max, 0.007, -1e20] * 2, np.float32)
    x = np.concatenate([mixed, fixed, near, rng.uniform(-10, 10, 3000).astype(np.float32),
                        rng.uniform(0, TRIG_BOUND, 3000).astype(np.float32), mags])
    return np.concatenate([x, -x]).astype(np.float32)


def ulp_error(got: np.ndarray, x: np.ndarray, ref) -> np.ndarray:
    """|got - ref(x)| in float32 ulps of the correctly rounded result (ref in float64); NaN
    where exactly one of them is NaN, 0 where both are."""
    with np.errstate(all="ignore"):
        want = ref(x.astype(np.float64))
        ulp = np.spacing(np.abs(want.astype(np.float32))).astype(np.float64)
        err = np.abs(got.astype(np.float64) - want) / ulp
    both = np.isnan(got) & np.isnan(want)
    err[both] = 0
    err[np.isnan(got) != np.isnan(want)] = np.nan
    return err


def check_trig(name: str, x: np.ndarray, got: np.ndarray) -> None:
    """Within 1.5 ulp where elementwise.h's code runs (measured on PoCL: 1.02 for sin and cos,
    0.99 for tan, exhaustively over |x| <= 6433), within 4 ulp (OpenCL's bound for the built-ins)
    beyond; NaN where NaN is due; sin and tan keep the sign of zero."""
    err = ulp_error(got, x, getattr(np, name))
    own = np.abs(x) <= TRIG_BOUND
    assert not np.isnan(err).any(), f"{name}: NaN mismatch at {x[np.isnan(err)][:6]}"
    for part, limit in ((own, 1.5), (~own, 4.0)):
        if part.any():
            worst = np.argmax(np.where(part, err, 0))
            assert err[worst] <= limit, f"{name}({x[worst]!r}): {err[worst]:.2f} ulp"
    if name != "cos":
        zero = x == 0
        assert np.array_equal(np.signbit(got[zero]), np.signbit(x[zero])), f"{name}: sign of zero"


@LAZY_ONLY
@pytest.mark.parametrize("name", ["sin", "cos", "tan"])
def test_trig_float32_ulp(cl_place, name):
    """float32 sin/cos/tan against float64 NumPy: contiguous (float8 blocks and scalar tails:
    the length is not a multiple of 8), shifted by one element (other block boundaries) and
    strided (scalar code only); the three agree bit for bit where darray's own code runs."""
    fn = getattr(da, name)
    x = trig_values()
    assert len(x) % 8 != 0
    d = da.asarray(x, device=cl_place)
    got = fn(d).get()
    check_trig(name, x, got)
    shifted = fn(d[1:]).get()
    strided = fn(d[::3]).get()
    check_trig(name, x[1:], shifted)
    check_trig(name, x[::3], strided)
    own = np.abs(x) <= TRIG_BOUND
    assert np.array_equal(shifted[own[1:]], got[1:][own[1:]])
    assert np.array_equal(strided[own[::3]], got[::3][own[::3]])
    for n in (1, 7, 9):  # shorter than a block, and one block plus a tail
        check_trig(name, x[:n], fn(da.asarray(x[:n], device=cl_place)).get())


@LAZY_ONLY
@FEW
@given(x=hnp.arrays(np.float32, st.integers(1, 40), elements=st.floats(width=32)))
def test_trig_float32_random(cl_place, x):
    for name in ("sin", "cos", "tan"):
        check_trig(name, x, getattr(da, name)(da.asarray(x, device=cl_place)).get())


def test_trig_float32_in_a_fused_chain(cl_place):
    """sin/cos/tan inside a fused float32 kernel give the same bits as alone."""
    x = np.random.default_rng(5).uniform(-20, 20, 1001).astype(np.float32)
    d = da.asarray(x, device=cl_place)
    got = (da.sin(d) * 2 + da.cos(d) - da.tan(d * 0.5)).get()
    alone = [f(a).get() for f, a in ((da.sin, d), (da.cos, d), (da.tan, d * 0.5))]
    np.testing.assert_array_equal(got, alone[0] * np.float32(2) + alone[1] - alone[2])


# -- float floor_divide, remainder, divmod and fmod: NumPy's bits (npy_divmod), issue 38 ----------

def _divmod_grid(dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of {+-0, +-1, +-3, +-inf, NaN, +-tiny, +-huge, +-0.5, +-7.5} of ``dtype``."""
    info = np.finfo(dtype)
    v = np.array([0.0, 1.0, 3.0, np.inf, info.smallest_subnormal, info.max, 0.5, 7.5], dtype)
    v = np.concatenate([v, -v, np.array([np.nan], dtype)])
    a, b = np.meshgrid(v, v, indexing="ij")
    return a.ravel(), b.ravel()


def _same_bits(got: np.ndarray, want: np.ndarray, what: str) -> None:
    """Equal bit for bit, the sign of zeros and infinities included (any NaN matches any NaN)."""
    assert got.dtype == want.dtype and got.shape == want.shape, (what, got.dtype, want.dtype, got.shape, want.shape)
    nan = np.isnan(want)
    bad = (np.isnan(got) != nan) | (~nan & (got.view(f"u{got.itemsize}") != want.view(f"u{want.itemsize}")))
    assert not bad.any(), f"{what}: {bad.sum()} differ: got {got[bad][:8]}, NumPy {want[bad][:8]}"


_DIVMOD_DTYPES = [np.dtype(np.float16), *FLOATS]


def _divmod_check(place, a: np.ndarray, b: np.ndarray, what: str) -> None:
    dtype = a.dtype
    if dtype == np.float16 and not fp16(place):
        pytest.skip("no cl_khr_fp16")
    x, y = da.asarray(a, device=place), da.asarray(b, device=place)
    with np.errstate(all="ignore"):
        want = {"floor_divide": np.floor_divide(a, b), "remainder": np.remainder(a, b), "fmod": np.fmod(a, b)}
        q, r = np.divmod(a, b)
    for name, w in want.items():
        _same_bits(getattr(da, name)(x, y).get(), w, f"{name} {what}")
    dq, dr = da.divmod(x, y)
    _same_bits(dq.get(), q, f"divmod quotient {what}")
    _same_bits(dr.get(), r, f"divmod remainder {what}")
    _same_bits((x // y).get(), want["floor_divide"], f"// {what}")
    _same_bits((x % y).get(), want["remainder"], f"% {what}")
    # fused into one kernel with what reads them: the identity's terms are NumPy's
    with np.errstate(all="ignore"):
        ident = b * (a // b) + a % b
    _same_bits((y * (x // y) + x % y).get(), ident, f"y * (x // y) + x % y {what}")


@pytest.mark.parametrize("dtype", _DIVMOD_DTYPES, ids=str)
def test_float_divmod_special_grid_is_numpys(any_place, dtype):
    """floor_divide, remainder, divmod and fmod over every pair of special values (signed zeros,
    +-1, +-3, infinities, NaN, the smallest subnormal, the largest float) are NumPy's bits: e.g.
    -3 // inf is -1 and -3 % inf is inf, inf // 2 is NaN; and with a Python float operand."""
    a, b = _divmod_grid(np.dtype(dtype))
    _divmod_check(any_place, a, b, str(dtype))
    if dtype == np.float16 and not fp16(any_place):
        return
    x = da.asarray(a, device=any_place)
    for s in (np.inf, -np.inf, 3.0, -0.0, 0.5):
        with np.errstate(all="ignore"):
            want_q, want_r = np.floor_divide(a, s), np.remainder(a, s)
        _same_bits((x // s).get(), want_q, f"x // {s}")
        _same_bits((x % s).get(), want_r, f"x % {s}")


@settings(max_examples=max(10, settings.default.max_examples // 2))
@given(dtype=st.sampled_from(_DIVMOD_DTYPES), data=st.data())
def test_float_divmod_random_is_numpys(cl_place, dtype, data):
    """Random floats (hypothesis's, with specials mixed in; and magnitudes far apart) bit for bit."""
    n = data.draw(st.integers(1, 30), label="n")
    a = data.draw(hnp.arrays(dtype, n), label="a")
    b = data.draw(hnp.arrays(dtype, n), label="b")
    _divmod_check(cl_place, a, b, str(dtype))


def test_integer_divmod_by_zero_is_numpys(any_place):
    """Integer floor division and remainder by zero give 0 (NumPy warns), INT_MIN // -1 wraps, as NumPy."""
    for dtype in (np.int8, np.int64, np.uint16):
        info = np.iinfo(dtype)
        a = np.array([7, 0, info.min, info.max, info.min], dtype)
        b = np.array([0, 0, 0, 0, -1 if info.min else 1], dtype)
        with np.errstate(all="ignore"):
            want = (np.floor_divide(a, b), np.remainder(a, b), np.fmod(a, b))
        x, y = da.asarray(a, device=any_place), da.asarray(b, device=any_place)
        for got, w in zip((x // y, x % y, da.fmod(x, y)), want):
            np.testing.assert_array_equal(got.get(), w)
