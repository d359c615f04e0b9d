"""darray.testing's dtype parametrizers and device dtype checks (darray/testing/_dtypes.py)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import darray as da
import darray.testing as dt
from darray.testing import _dtypes


def _params(mark):
    """(dtype names, {name: skip reason}) of a parametrizer's mark."""
    (name, params), = [mark.args]
    names = [p.values[0].name for p in params]
    skips = {p.values[0].name: p.marks[0].kwargs["reason"] for p in params if p.marks}
    return name, names, skips


def test_parametrizers_list_darrays_dtypes():
    every = [d.name for d in da.dtypes.ALL_DTYPES]
    assert _params(dt.for_all_dtypes())[1] == every
    assert _params(dt.for_all_dtypes(no_bool=True, no_float16=True, no_float64=True, no_complex=True))[1] == [
        "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32"]
    assert _params(dt.for_float_dtypes())[1] == ["float16", "float32", "float64"]
    assert _params(dt.for_float_dtypes(no_float16=True, no_float64=True))[1] == ["float32"]
    assert _params(dt.for_signed_dtypes())[1] == ["int8", "int16", "int32", "int64"]
    assert _params(dt.for_unsigned_dtypes())[1] == ["uint8", "uint16", "uint32", "uint64"]
    assert _params(dt.for_int_dtypes())[1] == ["bool", *_params(dt.for_signed_dtypes())[1],
                                               *_params(dt.for_unsigned_dtypes())[1]]
    assert "bool" not in _params(dt.for_int_dtypes(no_bool=True))[1]
    assert _params(dt.for_complex_dtypes(name="ctype"))[:2] == ("ctype", ["complex64", "complex128"])
    assert _params(dt.for_dtypes([np.int8, "f4"], name="t"))[:2] == ("t", ["int8", "float32"])


@pytest.fixture
def no_fp64_or_fp16(monkeypatch, cl_place):
    """The current place is an OpenCL device without cl_khr_fp64 and cl_khr_fp16."""
    infos = [dataclasses.replace(d, fp64=False, fp16=False) for d in da.place.devices()]
    monkeypatch.setattr(_dtypes, "devices", lambda: infos)
    _dtypes._reason.cache_clear()
    with da.place.use(cl_place):
        yield cl_place
    _dtypes._reason.cache_clear()


def test_unsupported_dtypes_are_skipped_saying_why(no_fp64_or_fp16):
    _, names, skips = _params(dt.for_all_dtypes())
    assert len(names) == 14 and set(skips) == {"float16", "float64", "complex128"}
    assert skips["float64"].endswith(f"({no_fp64_or_fp16})' cannot do float64 (no cl_khr_fp64)")
    assert "cannot do float16 (no cl_khr_fp16)" in skips["float16"]
    assert dt.unsupported("complex128") == skips["complex128"]
    assert dt.unsupported("float64", "cpu") is None
    assert np.dtype("float64") not in dt.supported_dtypes()
    assert len(dt.supported_dtypes("cpu")) == 14
    assert _dtypes.select("real floating") == [np.dtype("float32")]
    with pytest.raises(ValueError, match="can do no dtype of 'float64' .*no cl_khr_fp64"):
        _dtypes.select("float64")


def test_select_kinds():
    f32, f64, c64, c128 = map(np.dtype, ("float32", "float64", "complex64", "complex128"))
    assert _dtypes.select("real floating", "cpu") == [f32, f64]  # as the Array API: no float16
    assert _dtypes.select("complex floating", "cpu") == [c64, c128]
    assert _dtypes.select("bool", "cpu") == [np.dtype(bool)]
    assert _dtypes.select(["integral", "float16"], "cpu")[-1] == np.dtype("float16")
    assert len(_dtypes.select("integral", "cpu")) == 8
    assert len(_dtypes.select("numeric", "cpu")) == 12
    assert _dtypes.select([np.float64, "int8"], "cpu") == [np.dtype("int8"), f64]
    with pytest.raises(TypeError):
        _dtypes.select("real", "cpu")


@dt.for_all_dtypes()
def test_each_dtype_round_trips(dtype, cl_place):
    want = np.arange(5).astype(dtype)
    dt.assert_array_equal(da.asarray(want, device=cl_place)[::-2], want[::-2], strict=True)
