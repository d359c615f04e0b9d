"""DArray operators against NumPy's: arithmetic, comparison, bitwise, shifts and unary forms,
reflected and in-place, with DArrays, Python scalars (NumPy 2 weak promotion), NumPy arrays
and NumPy scalars as the other operand. ``@`` is tested with matmul.

Every operator is one line into the op registry (``darray._methods``), so the values
are the elementwise functions' (tests/test_elementwise.py); here the point is the plumbing:
which op, which side, which dtype, in-place casting and broadcasting, errors.
"""
from __future__ import annotations

import operator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from test_elementwise import assert_close, sampled, specials, supported

import darray as da
from darray import _methods
from darray.ops._table import OPS, TABLE
from darray.place import CLPlace, runtime

D = np.dtype

BINARY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
          "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow, "and": operator.and_,
          "or": operator.or_, "xor": operator.xor, "lshift": operator.lshift, "rshift": operator.rshift}
INPLACE = {"add": operator.iadd, "sub": operator.isub, "mul": operator.imul, "truediv": operator.itruediv,
           "floordiv": operator.ifloordiv, "mod": operator.imod, "pow": operator.ipow, "and": operator.iand,
           "or": operator.ior, "xor": operator.ixor, "lshift": operator.ilshift, "rshift": operator.irshift}
COMPARE = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
           "ge": operator.ge}
UNARY = {"neg": operator.neg, "pos": operator.pos, "abs": abs, "invert": operator.invert}
NAMES = {**_methods.BINARY, **_methods.COMPARE, **_methods.UNARY}  # dunder -> table op


def dtypes_of(dunder: str) -> list[np.dtype]:
    """The dtypes test_elementwise samples for the dunder's op (so the kernels are shared)."""
    op = TABLE[NAMES[dunder]]
    return sampled(OPS.index(op), op)


def fp16(place) -> bool:
    return not isinstance(place, CLPlace) or runtime(place).info.fp16


def values(dtype: np.dtype, name: str) -> np.ndarray:
    v = specials(dtype)
    if name in ("pow", "ipow") and dtype.kind in "iu":
        v = v[(v >= 0) & (v < 70)]  # NumPy raises for negative integer exponents
    return v


def operands(dtype: np.dtype, name: str, place) -> tuple[np.ndarray, np.ndarray, da.DArray, da.DArray]:
    """Every pair of special values, as 1-D contiguous NumPy arrays and DArrays on ``place``."""
    v = values(dtype, name)
    a, b = np.repeat(v, v.size), np.tile(v, v.size)
    return a, b, da.asarray(a, device=place), da.asarray(b, device=place)


def error_class(err: Exception) -> type:
    """The builtin class of NumPy's exception (its ufunc errors subclass TypeError)."""
    return next(c for c in (OverflowError, TypeError, ValueError) if isinstance(err, c))


def expect(fn, *args):
    with np.errstate(all="ignore"):
        return np.asarray(fn(*args))


def outcomes(fn, args: tuple, dargs: tuple):
    """(darray's result on ``dargs``, NumPy's on ``args``); None when NumPy raises, after
    checking that darray raises the same builtin class."""
    try:
        want = expect(fn, *args)
    except (TypeError, OverflowError, ValueError) as err:
        with pytest.raises(error_class(err)):
            fn(*dargs)
        return None
    return fn(*dargs), want


def check(got: da.DArray, want: np.ndarray, name: str, args: tuple, place, what: str) -> None:
    """``assert_close``, less complex.h's known division differences (see test_elementwise)."""
    skip, zero_signs = None, True
    if name == "truediv" and want.dtype.kind == "c" and isinstance(place, CLPlace):
        with np.errstate(all="ignore"):
            skip = np.broadcast_to(np.isinf(np.asarray(args[1])), want.shape) | ~np.isfinite(want)
        zero_signs = False
    assert_close(got.get(), want, skip, what, zero_signs)


def complex_pow(name: str, *dtypes) -> bool:
    """Complex pow is complex.h's cpow, tested in tests/test_complex.py."""
    return name == "pow" and any(np.dtype(d).kind == "c" for d in dtypes)


def cases(table: dict) -> list:
    return [pytest.param(name, fn, d, id=f"{name}-{d}") for name, fn in table.items() for d in dtypes_of(name)
            if not complex_pow(name, d)]


# -- every operator, both sides ------------------------------------------------------------------

@pytest.mark.parametrize("name, fn, dtype", cases(BINARY) + cases(COMPARE))
def test_binary_operators(any_place, name, fn, dtype):
    """x OP y for DArrays of one dtype (every pair of special values); TypeError where NumPy has no
    loop (& on floats, - on bools, // on complex)."""
    a, b, x, y = operands(dtype, name, any_place)
    if not supported(TABLE[NAMES[name]], [dtype, dtype]):
        with pytest.raises(TypeError, match=NAMES[name]):
            fn(x, y)
        return
    got = fn(x, y)
    assert isinstance(got, da.DArray) and got.place == any_place
    if name in COMPARE:
        assert got.dtype == np.bool_
    check(got, expect(fn, a, b), name, (a, b), any_place, f"x {name} y")


@pytest.mark.parametrize("name, fn, dtype", cases(UNARY))
def test_unary_operators(any_place, name, fn, dtype):
    a = specials(dtype)
    x = da.asarray(a, device=any_place)
    try:
        want = expect(fn, a)
    except TypeError:  # -bool, ~float, +bool: NumPy has no loop
        with pytest.raises(TypeError):
            fn(x)
        return
    assert_close(fn(x).get(), want, what=f"{name} x")


SCALARS = [1, -1, 0, 3, 1.5, -0.0, float("inf"), float("nan"), 1j, True, False, 2 ** 40, 300, -129]
SCALAR_DTYPES = [D("int8"), D("uint8"), D("float32"), D("complex64"), D("bool")]


def scalar_cases() -> list:
    """Two array dtypes per operator, rotating over SCALAR_DTYPES."""
    out = []
    for k, (name, fn) in enumerate([*BINARY.items(), *COMPARE.items()]):
        for dtype in (SCALAR_DTYPES[k % 5], SCALAR_DTYPES[(k + 2) % 5]):
            out.append(pytest.param(name, fn, dtype, id=f"{name}-{dtype}"))
    return out


@pytest.mark.parametrize("name, fn, dtype", scalar_cases())
def test_python_scalars_both_sides(any_place, name, fn, dtype):
    """x OP s and s OP x (the reflected dunder) for Python scalars of every kind: NumPy 2 weak
    promotion (int8 + 1 -> int8, int8 + 1.5 -> float64, float32 + 1j -> complex64), OverflowError
    for a Python int outside an integer dtype (int8 + 300), exact comparisons (int8 < 300)."""
    a = values(dtype, name)
    x = da.asarray(a, device=any_place)
    for s in SCALARS:
        if complex_pow(name, dtype, np.asarray(s).dtype):
            continue
        for order in ("array first", "scalar first"):
            args = (a, s) if order == "array first" else (s, a)
            dargs = (x, s) if order == "array first" else (s, x)
            pair = outcomes(fn, args, dargs)
            if pair is None:
                continue
            got, want = pair
            if want.dtype == np.float16 and not fp16(any_place):
                want = expect(fn, *[v.astype(np.float32) if isinstance(v, np.ndarray) else v for v in args])
            check(got, want, name, args, any_place, f"{args[0] if order != 'array first' else dtype} {name} "
                                                     f"{args[1] if order == 'array first' else dtype}")


def test_weak_promotion_examples(any_place):
    x = da.asarray(np.array([1, -2, 3], np.int8), device=any_place)
    f = da.asarray(np.array([1.5, 2.0], np.float32), device=any_place)
    assert (x + 1).dtype == np.int8 and (1 + x).dtype == np.int8
    assert (x + 1.5).dtype == np.float64 and (x * 1.5).get().tolist() == [1.5, -3.0, 4.5]
    assert (f + 1j).dtype == np.complex64 and (1j * f).dtype == np.complex64
    assert (f + 2 ** 40).dtype == np.float32 and (x + True).dtype == np.int8
    assert (x < 300).get().tolist() == [True] * 3 and (x == -1000).get().tolist() == [False] * 3
    with pytest.raises(OverflowError):
        x + 300
    with pytest.raises(OverflowError):
        300 - x
    assert (x - 1).get().tolist() == [0, -3, 2]


# -- NumPy operands ---------------------------------------------------------------------------------

@pytest.mark.parametrize("k, name, fn", [(k, n, f) for k, (n, f) in enumerate([*BINARY.items(), *COMPARE.items()])],
                         ids=[*BINARY, *COMPARE])
def test_numpy_operands_both_sides(any_place, k, name, fn):
    """A NumPy array or NumPy scalar on either side gives a DArray on the DArray's place (NumPy
    defers to DArray through ``__array_priority__``); NumPy scalars are strongly typed."""
    a = np.array([[1, 2, 7], [4, 0, 6]], np.int16)
    b = np.array([3, 1, 2], np.uint8)
    x = da.asarray(a, device=any_place)
    for other in (b, [np.int32(2), np.uint8(3), np.array(5, np.int64)][k % 3]):
        for args in ((x, other), (other, x)):
            nargs = [a if v is x else v for v in args]
            want = expect(fn, *nargs)
            got = fn(*args)
            assert isinstance(got, da.DArray), (name, type(other), type(got))
            assert got.place == any_place
            assert_close(got.get(), want, what=f"{name} {[type(v).__name__ for v in args]}")


# -- in-place ---------------------------------------------------------------------------------------

def inplace_cases():
    cases = []
    for name, fn in INPLACE.items():
        for xdt, ydt in ((D("int32"), D("int8")), (D("float32"), D("float64")), (D("int8"), D("int64")),
                         (D("uint8"), D("uint8")), (D("complex64"), D("float32")), (D("float64"), D("int16")),
                         (D("bool"), D("bool"))):
            cases.append(pytest.param(name, fn, xdt, ydt, id=f"{name}-{xdt}-{ydt}"))
    return cases


@pytest.mark.parametrize("name, fn, xdt, ydt", inplace_cases())
def test_inplace_operators(any_place, name, fn, xdt, ydt):
    """``x OP= y`` writes into x itself with NumPy's same_kind casting (int64 into int8 wraps,
    float64 into float32 rounds); a result x cannot hold (float into int, bool arithmetic) is a
    TypeError that leaves x unchanged, like NumPy's."""
    if complex_pow(name, xdt, ydt):
        return
    vx, vy = values(xdt, name), values(ydt, name)
    a, b = np.repeat(vx, vy.size), np.tile(vy, vx.size)
    x = da.asarray(a, device=any_place)
    y = da.asarray(b, device=any_place)
    alias = x
    want = a.copy()
    try:
        with np.errstate(all="ignore"):
            fn(want, b)
    except (TypeError, ValueError) as err:
        with pytest.raises(error_class(err)):
            fn(x, y)
        assert_close(x.get(), a, what=f"x unchanged after failed {name}")
        return
    with np.errstate(all="ignore"):  # CPU place: NumPy's cast warns on overflow, as NumPy itself
        out = fn(x, y)
    assert out is alias and x.dtype == xdt
    check(x, want, name, (a, b), any_place, f"x {name}= y")


def test_inplace_same_kind_rule(any_place):
    x = da.asarray(np.array([1, 2, 3], np.int32), device=any_place)
    for bad in (lambda: x.__imul__(2.5), lambda: x.__iadd__(da.ones(3, device=any_place)),
                lambda: x.__itruediv__(2), lambda: x.__iadd__(1j)):
        with pytest.raises(TypeError, match="same_kind"):
            bad()
        assert x.get().tolist() == [1, 2, 3]
    x *= 2
    x += np.array([1, 1, 1], np.int64)
    assert x.get().tolist() == [3, 5, 7] and x.dtype == np.int32
    f = da.asarray(np.array([1.0, 2.0], np.float32), device=any_place)
    f *= 2.5
    f /= np.float64(2)
    assert f.get().tolist() == [1.25, 2.5] and f.dtype == np.float32
    b = da.asarray(np.array([True, False]), device=any_place)
    b &= True
    b |= np.array([False, True])
    assert b.get().tolist() == [True, True]
    with pytest.raises(OverflowError):
        x += 2 ** 40
    assert x.get().tolist() == [3, 5, 7]


def test_inplace_broadcasting(any_place):
    """The other operand broadcasts into x; x itself never grows (ValueError naming the shapes)."""
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    x = da.asarray(a, device=any_place)
    x += da.asarray(np.array([10.0, 20.0, 30.0]), device=any_place)
    x *= np.array([[1.0], [-1.0]])
    x -= 1
    assert_close(x.get(), ((a + [10, 20, 30]) * [[1], [-1]]) - 1, what="broadcast into x")
    v = da.asarray(np.ones(3), device=any_place)
    with pytest.raises(ValueError) as err:
        v += x
    assert "(3,)" in str(err.value) and "(2,3)" in str(err.value).replace(" ", "")
    assert v.get().tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(ValueError):
        v += da.ones(4, device=any_place)
    v += 1
    assert v.get().tolist() == [2.0, 2.0, 2.0]


def test_inplace_into_views_and_overlap(any_place):
    """In-place into a view writes the base; overlapping operands read the old values (NumPy)."""
    a = np.arange(10, dtype=np.int64)
    x = da.asarray(a, device=any_place)
    view = x[::2]
    view += 100
    a[::2] += 100
    assert x.get().tolist() == a.tolist()
    x[1:] += x[:-1]
    a[1:] += a[:-1].copy()
    assert x.get().tolist() == a.tolist()
    x[::-1] *= x
    a[::-1] *= a.copy()
    assert x.get().tolist() == a.tolist()
    part = x[2:7]
    part -= x[3:8]
    a[2:7] -= a[3:8].copy()
    assert x.get().tolist() == a.tolist()


def test_inplace_keeps_earlier_results(any_place):
    """An expression built before ``x += ...`` still sees the old x (lazy graphs run first)."""
    a = np.array([1.0, 2.0, 3.0], np.float32)
    x = da.asarray(a, device=any_place)
    y = x * 2
    z = x + 0
    x += 10
    w = x * 2
    x *= 0
    assert y.get().tolist() == [2.0, 4.0, 6.0]
    assert z.get().tolist() == [1.0, 2.0, 3.0]
    assert w.get().tolist() == [22.0, 24.0, 26.0]
    assert x.get().tolist() == [0.0, 0.0, 0.0]
    p = x + 1  # x as a pending graph, then updated in place
    p += p
    assert p.get().tolist() == [2.0, 2.0, 2.0]


# -- random mixes --------------------------------------------------------------------------------------

MIX_OPS = [*BINARY.items(), *COMPARE.items()]
MIX_DTYPES = [D("int16"), D("uint32"), D("float32"), D("float64"), D("int64")]


@given(data=st.data())
def test_random_operator_mix(any_place, data):
    """A random operator with a random partner (DArray, broadcast DArray, Python scalar, NumPy
    array) on either side; NumPy's answer or NumPy's exception class."""
    name, fn = data.draw(st.sampled_from(MIX_OPS), label="op")
    dt = data.draw(st.sampled_from(MIX_DTYPES), label="dtype")
    a = data.draw(hnp.arrays(dt, hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=4)), label="a")
    kind = data.draw(st.sampled_from(["darray", "python", "numpy"]), label="partner")
    if kind == "python":
        b = data.draw(st.one_of(st.integers(-300, 300), st.floats(allow_nan=True), st.booleans()), label="b")
    else:
        bdt = data.draw(st.sampled_from(MIX_DTYPES), label="bdtype")
        b = data.draw(hnp.arrays(bdt, a.shape[-1:] if a.ndim else ()), label="b")
    swap = data.draw(st.booleans(), label="swap")
    x = da.asarray(a, device=any_place)
    bb = da.asarray(b, device=any_place) if kind == "darray" else b
    args, dargs = ((b, a), (bb, x)) if swap else ((a, b), (x, bb))
    if name == "pow":
        exps = np.asarray(args[1])
        if exps.dtype.kind in "iu" and np.asarray(args[0]).dtype.kind in "biu" and (exps < 0).any():
            return  # NumPy raises; darray's documented 0 is tested in test_elementwise
    pair = outcomes(fn, args, dargs)
    if pair is None:
        return
    got, want = pair
    assert isinstance(got, da.DArray)
    assert_close(got.get(), want, what=f"{name} {kind} swap={swap}")


POWER_VIEWS = {"contiguous": lambda a: a, "strided": lambda a: a[::2], "reversed": lambda a: a[::-1],
               "transposed": lambda a: a.reshape(2, -1).T if a.size % 2 == 0 else a}


POWERS = [(2, "square"), (-1, "reciprocal"), (0.5, "sqrt"), (3, "multiply"), (2.0, "pow"), (4, "pow"),
          (np.int64(2), "pow")]
POWER_CASES = [pytest.param(p, op, d, id=f"{p!r}-{d}") for p, op in POWERS
               for d in (D("float16"), D("float32"), D("float64"))]


@pytest.mark.parametrize("p, op, dtype", POWER_CASES)
@given(data=st.data())
def test_power_shortcuts(any_place, p, op, dtype, data):
    """``x ** p`` for a Python scalar p on a real float array: NumPy's shortcuts (2, -1, 0.5), and 3
    as x * x * x (darray's difference, within tolerance of pow);
    other exponents (2.0, 4, NumPy scalars) through pow. Values rich in NaN, inf, -0.0; views."""
    if dtype == np.float16 and not fp16(any_place):
        pytest.skip("no fp16 on this device")
    n = data.draw(st.sampled_from([0, 1, 7, 12, 255, 256, 257, 4096, 4097]), label="n")  # lane and chunk edges
    a = data.draw(hnp.arrays(dtype, n, elements=hnp.from_dtype(dtype, allow_subnormal=False)
                             | st.sampled_from([np.nan, np.inf, -np.inf, -0.0, 0.0, 2.0])), label="a")
    view = data.draw(st.sampled_from(sorted(POWER_VIEWS)), label="view")
    x = POWER_VIEWS[view](da.asarray(a, device=any_place))
    with np.errstate(all="ignore"):
        want = POWER_VIEWS[view](a) ** p
    got = x ** p
    if got._node is not None:  # pending: the op recorded
        assert got._node.op == op, f"x ** {p!r} recorded {got._node.op}"
    assert_close(got.get(), want, what=f"x ** {p!r}")
    y = da.asarray(POWER_VIEWS[view](a).copy(), device=any_place)
    y **= p
    assert_close(y.get(), want.astype(dtype), what=f"x **= {p!r}")  # np.int64(2): float64, cast back


def test_power_shortcut_skips_integers_and_darray_exponents(any_place):
    """Integer and complex bases and array exponents keep pow."""
    x = da.asarray(np.arange(-3, 4), device=any_place)
    np.testing.assert_array_equal((x ** 2).get(), np.arange(-3, 4) ** 2)
    np.testing.assert_array_equal((x ** 3).get(), np.arange(-3, 4) ** 3)
    f = da.asarray(np.linspace(0.5, 2, 4), device=any_place)
    e = da.asarray(np.full(4, 3.0), device=any_place)
    np.testing.assert_allclose((f ** e).get(), np.linspace(0.5, 2, 4) ** 3.0, rtol=1e-15)
    z = da.asarray(np.array([1 + 2j, -0.5j]), device=any_place) ** 2
    assert z._node is None or z._node.op == "pow"
    np.testing.assert_allclose(z.get(), np.array([1 + 2j, -0.5j]) ** 2, rtol=1e-12)


# -- bad input and plumbing ---------------------------------------------------------------------------

def test_operator_errors(cl_place):
    x = da.ones((2, 3), device=cl_place)
    with pytest.raises(ValueError) as err:
        x + da.ones(4, device=cl_place)
    assert "(2,3)" in str(err.value).replace(" ", "") and "(4,)" in str(err.value)
    f = da.ones(3, device=cl_place)
    for bad, name in ((lambda: f & f, "bitwise_and"), (lambda: f << 1, "bitwise_left_shift"),
                      (lambda: ~f, "bitwise_invert"), (lambda: 1 | f, "bitwise_or")):
        with pytest.raises(TypeError, match=name):
            bad()
    cpu = da.ones(3, device="cpu")
    for bad in (lambda: f + cpu, lambda: cpu * f, lambda: f < cpu):
        with pytest.raises(ValueError) as err:
            bad()
        assert "cpu" in str(err.value) and "cl:" in str(err.value)
    with pytest.raises(ValueError):
        f += cpu
    with pytest.raises(TypeError):
        f + "a"
    with pytest.raises(TypeError):
        f + None
    assert (f + f).get().tolist() == [2.0] * 3 and (cpu + cpu).get().tolist() == [2.0] * 3


def test_every_dunder_is_installed():
    for dunder in _methods.BINARY:
        for form in (f"__{dunder}__", f"__r{dunder}__", f"__i{dunder}__"):
            assert callable(getattr(da.DArray, form)), form
    for dunder in (*_methods.COMPARE, *_methods.UNARY):
        assert callable(getattr(da.DArray, f"__{dunder}__")), dunder
    assert da.DArray.__hash__ is None
    with pytest.raises(TypeError):
        hash(da.ones(2, device="cpu"))


def test_reflected_operand_order(any_place):
    x = da.asarray(np.array([1, 2, 4], np.int32), device=any_place)
    assert (10 - x).get().tolist() == [9, 8, 6]
    assert (10 // x).get().tolist() == [10, 5, 2]
    assert (10 % x).get().tolist() == [0, 0, 2]
    assert (2 ** x).get().tolist() == [2, 4, 16]
    assert (1 << x).get().tolist() == [2, 4, 16]
    assert (64 >> x).get().tolist() == [32, 16, 4]
    assert (1 / x).get().tolist() == [1.0, 0.5, 0.25]
    assert (3 > x).get().tolist() == [True, True, False]
    assert (np.int32(3) <= x).get().tolist() == [False, False, True]
