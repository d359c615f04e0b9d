"""Tests for darray.dtypes: promotion table, weak scalars, casting, type info."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import darray as da
from darray import dtypes as d

NP2 = int(np.__version__.split(".")[0]) >= 2
CODES = {"b": "bool", "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64",
         "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64",
         "f2": "float16", "f4": "float32", "f8": "float64", "c8": "complex64", "c16": "complex128"}

# The promotion table, written out. Entries without '*' are the Array API standard's table;
# '*' marks pairs the standard leaves undefined (bool with numbers, uint64 with signed ints,
# integer with floating, float16), where darray follows NumPy 2's np.promote_types.
TABLE = """
     b    i1   i2   i4   i8   u1   u2   u4   u8   f2   f4   f8   c8   c16
b    b    i1*  i2*  i4*  i8*  u1*  u2*  u4*  u8*  f2*  f4*  f8*  c8*  c16*
i1   i1*  i1   i2   i4   i8   i2   i4   i8   f8*  f2*  f4*  f8*  c8*  c16*
i2   i2*  i2   i2   i4   i8   i2   i4   i8   f8*  f4*  f4*  f8*  c8*  c16*
i4   i4*  i4   i4   i4   i8   i4   i4   i8   f8*  f8*  f8*  f8*  c16* c16*
i8   i8*  i8   i8   i8   i8   i8   i8   i8   f8*  f8*  f8*  f8*  c16* c16*
u1   u1*  i2   i2   i4   i8   u1   u2   u4   u8   f2*  f4*  f8*  c8*  c16*
u2   u2*  i4   i4   i4   i8   u2   u2   u4   u8   f4*  f4*  f8*  c8*  c16*
u4   u4*  i8   i8   i8   i8   u4   u4   u4   u8   f8*  f8*  f8*  c16* c16*
u8   u8*  f8*  f8*  f8*  f8*  u8   u8   u8   u8   f8*  f8*  f8*  c16* c16*
f2   f2*  f2*  f4*  f8*  f8*  f2*  f4*  f8*  f8*  f2*  f4*  f8*  c8*  c16*
f4   f4*  f4*  f4*  f8*  f8*  f4*  f4*  f8*  f8*  f4*  f4   f8   c8   c16
f8   f8*  f8*  f8*  f8*  f8*  f8*  f8*  f8*  f8*  f8*  f8   f8   c16  c16
c8   c8*  c8*  c8*  c16* c16* c8*  c8*  c16* c16* c8*  c8   c16  c8   c16
c16  c16* c16* c16* c16* c16* c16* c16* c16* c16* c16* c16  c16  c16  c16
"""


def _parse_table() -> dict[tuple[np.dtype, np.dtype], tuple[np.dtype, bool]]:
    lines = TABLE.strip().splitlines()
    cols = [np.dtype(CODES[c]) for c in lines[0].split()]
    out = {}
    for line in lines[1:]:
        row, *cells = line.split()
        for col, cell in zip(cols, cells):
            out[np.dtype(CODES[row]), col] = (np.dtype(CODES[cell.rstrip("*")]), cell.endswith("*"))
    return out


PROMO = _parse_table()
PAIRS = list(itertools.product(d.ALL_DTYPES, repeat=2))
dtype_st = st.sampled_from(d.ALL_DTYPES)
scalar_st = st.sampled_from([True, False, 0, 1, 7, -3, 0.0, 1.5, -2.25, 1j, 2 + 0.5j])


def test_constants_and_order():
    names = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float16", "float32", "float64", "complex64", "complex128"]
    assert [dt.name for dt in d.ALL_DTYPES] == names
    assert all(isinstance(dt, np.dtype) for dt in d.ALL_DTYPES)
    assert d.float32 == np.float32 and d.bool_ == np.bool_ and d.complex128 == np.dtype("c16")
    assert d.default_float() == np.float64 and d.default_int() == np.int64


def test_table_complete_and_symmetric():
    assert len(PROMO) == 196
    for a, b in PAIRS:
        assert PROMO[a, b] == PROMO[b, a], (a, b)


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_promotion_table(a, b):
    expected, undefined = PROMO[a, b]
    assert d.promote_types(a, b) == expected
    assert d.result_type(a, b) == expected
    assert d.result_type(np.ones(1, a), np.zeros(2, b)) == expected
    if undefined:
        assert expected == np.promote_types(a, b)


def test_table_matches_numpy_everywhere():
    # Sanity: NumPy agrees with the standard on every defined pair as well.
    for a, b in PAIRS:
        assert PROMO[a, b][0] == np.promote_types(a, b), (a, b)


@pytest.mark.parametrize("dt", d.ALL_DTYPES, ids=str)
@pytest.mark.parametrize("s", [True, 1, 1.5, 1j], ids=["bool", "int", "float", "complex"])
def test_weak_scalar_vs_ufunc(dt, s):
    if not NP2:
        pytest.skip("weak-scalar reference needs NumPy 2 (NEP 50)")
    x = np.ones(1, dt)
    expected = (x + s).dtype
    assert (s + x).dtype == expected
    assert d.result_type(dt, s) == expected
    assert d.result_type(s, x) == expected


def test_weak_scalar_examples():
    assert d.result_type(d.float32, 1) == d.float32
    assert d.result_type(d.int8, 1.0) == d.float64
    assert d.result_type(d.float32, 1j) == d.complex64
    assert d.result_type(d.float16, 1j) == d.complex64
    assert d.result_type(d.float64, 1j) == d.complex128
    assert d.result_type(d.uint8, 1) == d.uint8
    assert d.result_type(d.int16, True) == d.int16
    assert d.result_type(d.bool_, 1) == d.int64
    assert d.result_type(d.int32, 1j) == d.complex128
    assert d.result_type(True) == d.bool_
    assert d.result_type(1, True) == d.int64
    assert d.result_type(1, 2.0) == d.float64
    assert d.result_type(1.0, 1j) == d.complex128
    # NumPy scalars are strongly typed (np.float64 subclasses float).
    assert d.result_type(d.float32, np.float64(1.0)) == d.float64
    assert d.result_type(d.int8, np.int64(1)) == d.int64
    # Python types are dtype-likes (strong), not scalars.
    assert d.result_type(d.float32, float) == d.float64


@settings(max_examples=300, deadline=None)
@given(st.lists(dtype_st, max_size=4), st.lists(scalar_st, max_size=3))
def test_result_type_vs_numpy(dts, scalars):
    if not NP2:
        pytest.skip("needs NumPy 2")
    args = [np.ones(1, dt) for dt in dts] + scalars
    if not args:
        with pytest.raises(ValueError):
            d.result_type()
        return
    expected = np.result_type(*args)
    assert d.result_type(*args) == expected
    assert d.result_type(*reversed(args)) == expected


def test_result_type_errors():
    with pytest.raises(ValueError):
        d.result_type()
    with pytest.raises(TypeError):
        d.result_type(d.float32, None)
    with pytest.raises(TypeError):
        d.result_type(d.float32, "hello")
    with pytest.raises(TypeError):
        d.result_type(np.ones(2, dtype=object))
    with pytest.raises(TypeError):
        d.result_type(d.float32, [1, 2])


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_can_cast_all_pairs(casting):
    for a, b in PAIRS:
        exp = bool(np.can_cast(a, b, casting=casting))
        assert d.can_cast(a, b, casting=casting) is exp, (a, b, casting)
        assert d.can_cast(np.ones(1, a), b, casting=casting) is exp


def test_can_cast_errors():
    with pytest.raises(ValueError):
        d.can_cast(d.int8, d.int16, casting="bogus")
    with pytest.raises(TypeError):
        d.can_cast(1, d.int16)
    with pytest.raises(TypeError):
        d.can_cast(d.int8, "U5")


@pytest.mark.parametrize("dt", [d.float16, d.float32, d.float64, d.complex64, d.complex128], ids=str)
def test_finfo(dt):
    fi, ref = d.finfo(dt), np.finfo(dt)
    assert fi.bits == ref.bits and fi.eps == float(ref.eps)
    assert fi.max == float(ref.max) and fi.min == float(ref.min)
    assert fi.smallest_normal == float(ref.smallest_normal)
    assert fi.dtype == d.real_dtype(dt) and isinstance(fi.dtype, np.dtype)
    assert d.finfo(np.ones(1, dt)) == fi
    assert isinstance(fi.eps, float)


@pytest.mark.parametrize("dt", [d.int8, d.int16, d.int32, d.int64, d.uint8, d.uint16, d.uint32, d.uint64], ids=str)
def test_iinfo(dt):
    ii, ref = d.iinfo(dt), np.iinfo(dt)
    assert (ii.bits, ii.max, ii.min) == (ref.bits, ref.max, ref.min)
    assert ii.dtype == dt and isinstance(ii.max, int)
    assert d.iinfo(np.ones(1, dt)) == ii


def test_info_type_errors():
    for dt in [d.bool_, d.int32, d.uint8]:
        with pytest.raises(TypeError):
            d.finfo(dt)
    for dt in [d.bool_, d.float32, d.complex64]:
        with pytest.raises(TypeError):
            d.iinfo(dt)


ISDTYPE_CASES = {
    "bool": ["bool"],
    "signed integer": ["int8", "int16", "int32", "int64"],
    "unsigned integer": ["uint8", "uint16", "uint32", "uint64"],
    "integral": ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"],
    "real floating": ["float16", "float32", "float64"],
    "complex floating": ["complex64", "complex128"],
    "numeric": [n for n in CODES.values() if n != "bool"],
}


@pytest.mark.parametrize("kind", list(ISDTYPE_CASES))
def test_isdtype_kinds(kind):
    for dt in d.ALL_DTYPES:
        assert d.isdtype(dt, kind) is (dt.name in ISDTYPE_CASES[kind]), (dt, kind)
        if NP2 and hasattr(np, "isdtype"):
            assert d.isdtype(dt, kind) == np.isdtype(dt, kind)


def test_isdtype_dtype_and_tuple():
    assert d.isdtype(d.float32, d.float32)
    assert not d.isdtype(d.float32, d.float64)
    assert d.isdtype(d.float32, np.float32)
    assert d.isdtype(d.int8, ("real floating", "signed integer"))
    assert d.isdtype(d.uint8, ("bool", d.uint8))
    assert not d.isdtype(d.complex64, ("real floating", "integral"))
    with pytest.raises(ValueError):
        d.isdtype(d.float32, "floating")


def test_isdtype_keywords():
    """The Array API signature ``isdtype(dtype, kind)`` (scikit-learn passes ``kind=``), as NumPy's."""
    for kind in ("real floating", ("integral", "bool"), d.float32):
        assert d.isdtype(d.float32, kind=kind) == d.isdtype(dtype=d.float32, kind=kind) == d.isdtype(d.float32, kind)
        if NP2 and hasattr(np, "isdtype"):
            assert d.isdtype(dtype=d.int8, kind=kind) == np.isdtype(dtype=np.int8, kind=kind)
    with pytest.raises(ValueError):
        d.isdtype(d.float32, kind="floating")
    assert d.isdtype(d.complex64, kind="complex floating")


def test_category_real_complex():
    cats = ["bool"] + ["int"] * 4 + ["uint"] * 4 + ["float"] * 3 + ["complex"] * 2
    assert [d.category(dt) for dt in d.ALL_DTYPES] == cats
    assert d.real_dtype(d.complex64) == d.float32 and d.real_dtype(d.complex128) == d.float64
    for dt in d.ALL_DTYPES[:12]:
        assert d.real_dtype(dt) == dt
    assert d.complex_dtype(d.float16) == d.complex64
    assert d.complex_dtype(d.float32) == d.complex64
    assert d.complex_dtype(d.float64) == d.complex128
    assert d.complex_dtype(d.complex64) == d.complex64
    assert d.complex_dtype(d.complex128) == d.complex128
    for dt in d.ALL_DTYPES:  # complex_dtype(x) is the dtype of x + 1j
        assert d.complex_dtype(dt) == d.result_type(dt, 1j)


def test_ctype_table():
    expected = ["uchar", "char", "short", "int", "long", "uchar", "ushort", "uint", "ulong",
                "half", "float", "double", "float2", "double2"]
    assert [d.ctype(dt) for dt in d.ALL_DTYPES] == expected
    assert d.ctype("f4") == "float" and d.ctype(np.int64) == "long"


@pytest.mark.parametrize("obj,expected", [
    (np.dtype("float32"), "float32"), (np.float32, "float32"), (np.bool_, "bool"),
    (bool, "bool"), (int, "int64"), (float, "float64"), (complex, "complex128"),
    ("float32", "float32"), ("f4", "float32"), ("bool", "bool"), ("u8", "uint64"),
    ("complex64", "complex64"), ("<f8", "float64"), ("e", "float16"),
])
def test_as_dtype_accepts(obj, expected):
    out = d.as_dtype(obj)
    assert isinstance(out, np.dtype) and out == np.dtype(expected)
    assert out in d.ALL_DTYPES


@pytest.mark.parametrize("obj,label", [
    ("U5", "'U5'"), (np.dtype("U5"), "'U5'"), (object, "'object'"), (str, None),
    ("datetime64[s]", "datetime64"), ("float128" if hasattr(np, "float128") else "g", None),
    (np.dtype([("a", "f4"), ("b", "i4")]), None), (np.dtype(">f4"), "'>f4'"), ("S3", "'S3'"),
    (None, None), ("nonsense", "'nonsense'"), (3, None), ([1], None), (np.ones(2), None),
])
def test_as_dtype_rejects(obj, label):
    with pytest.raises(TypeError) as exc:
        d.as_dtype(obj, "zeros")
    msg = str(exc.value)
    assert msg.startswith("darray zeros: ") and "darray supports bool, int8" in msg
    if label is not None:
        assert label in msg
    with pytest.raises(TypeError, match=r"^darray: "):
        d.as_dtype(obj)


def test_check_device_dtype():
    for dt in d.ALL_DTYPES:
        d.check_device_dtype(dt, device_name="full", fp64=True, fp16=True)
    msg = "darray add: device 'Intel UHD' cannot do float64 (no cl_khr_fp64)"
    with pytest.raises(TypeError) as exc:
        d.check_device_dtype(d.float64, device_name="Intel UHD", fp64=False, fp16=True, op="add")
    assert str(exc.value) == msg
    with pytest.raises(TypeError, match=r"complex128 \(no cl_khr_fp64\)"):
        d.check_device_dtype("complex128", device_name="X", fp64=False, fp16=True)
    with pytest.raises(TypeError, match=r"device 'Y' cannot do float16 \(no cl_khr_fp16\)"):
        d.check_device_dtype(d.float16, device_name="Y", fp64=True, fp16=False, op="mul")
    for dt in [d.float32, d.complex64, d.int64, d.bool_]:
        d.check_device_dtype(dt, device_name="min", fp64=False, fp16=False)
    d.check_device_dtype(d.float16, device_name="Z", fp64=False, fp16=True)


def test_numpy_dtype_names() -> None:
    """NumPy's abstract types, C-named aliases and dtype functions, as NumPy code uses them."""
    x = da.zeros(3)
    assert da.issubdtype(x.dtype, da.floating) and da.issubdtype(da.int16, da.signedinteger)
    assert not da.issubdtype(da.uint8, da.signedinteger) and da.issubdtype(da.complex64, da.complexfloating)
    assert x.dtype == da.double and da.zeros(2, dtype=da.intc).dtype == np.intc and da.dtype("f4") == da.single
    for name in ("byte", "short", "intc", "int_", "intp", "long", "longlong", "ubyte", "ushort", "uintc", "uint",
                 "uintp", "ulong", "ulonglong", "half", "single", "double", "csingle", "cdouble"):
        assert getattr(da, name) == np.dtype(getattr(np, name)), name
    assert da.common_type(x, da.zeros(2, da.complex64)) == np.complex128
    assert da.common_type(da.zeros(2, da.float32)) == np.float32 and da.common_type(da.zeros(2, da.int8)) == np.float64
    with pytest.raises(TypeError, match="common_type"):
        da.common_type(da.zeros(2, da.bool))
    assert da.min_scalar_type(300) == np.uint16 and da.min_scalar_type(x) == np.float64
    assert da.mintypecode("fd") == np.mintypecode("fd") and da.typename("d") == np.typename("d")
    fi = da.finfo(da.float32)
    assert fi.tiny == np.finfo(np.float32).tiny and fi.resolution == np.finfo(np.float32).resolution
    assert fi.precision == 6 and da.finfo(x).eps == np.finfo(np.float64).eps
