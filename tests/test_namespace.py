"""darray as an Array API 2024.12 namespace (``darray/_namespace.py`` and the names of every
family): every standard function, constant and array method exists with the standard's
parameter names and kinds (``api_standard.py``, array_api_strict as the reference), and the
inspection API, ``device``/``to_device``, ``device=`` and ``copy=`` behave as specified.
"""
from __future__ import annotations

import inspect
import math

import numpy as np
import pytest
from api_standard import VERSION, gaps, reference

import darray as da


def test_every_standard_name_and_signature() -> None:
    """Fails naming each function, constant or method darray lacks or spells otherwise
    (``fft`` is checked once ``darray.fft`` exists)."""
    assert gaps(da) == []


def test_reference_is_the_2024_standard() -> None:
    ref = reference()
    assert "diff" in ref[""] and "nextafter" in ref[""] and "isin" not in ref[""]  # 2024.12 yes, 2025.12 no
    assert {"inv", "solve", "svd"} <= set(ref["linalg"]) and "eig" not in ref["linalg"]
    assert inspect.signature(da.add).parameters["x1"].kind is inspect.Parameter.POSITIONAL_ONLY


def test_version_and_namespace() -> None:
    x = da.asarray([1.0, 2.0])
    assert da.__array_api_version__ == VERSION
    assert x.__array_namespace__() is da and x.__array_namespace__(api_version="2023.12") is da
    with pytest.raises(ValueError, match="2019.12"):
        x.__array_namespace__(api_version="2019.12")
    assert (da.e, da.pi, da.newaxis) == (math.e, math.pi, None) and math.isinf(da.inf) and math.isnan(da.nan)
    assert x[da.newaxis].shape == (1, 2)


def test_inspection_api() -> None:
    info = da.__array_namespace_info__()
    assert info.capabilities() == {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 9}
    devices = info.devices()
    assert da.CPUPlace() in devices and info.default_device() in devices + [da.CPUPlace()]
    assert info.default_dtypes(device="cpu") == {"real floating": da.float64, "complex floating": da.complex128,
                                                 "integral": da.int64, "indexing": da.int64}
    assert set(info.dtypes(device="cpu")) == {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                             "uint64", "float32", "float64", "complex64", "complex128"}
    assert info.dtypes(kind="signed integer", device="cpu") == {n: np.dtype(n) for n in
                                                                ("int8", "int16", "int32", "int64")}
    assert set(info.dtypes(kind=("bool", "complex floating"), device="cpu")) == {"bool", "complex64", "complex128"}
    for d in devices:
        floats = info.dtypes(device=d, kind="real floating")
        assert info.default_dtypes(device=d)["real floating"] in floats.values()


@pytest.mark.parametrize("make", [
    lambda d: da.zeros((2, 3), device=d), lambda d: da.ones(3, device=d), lambda d: da.empty((1,), device=d),
    lambda d: da.full(2, 7, device=d), lambda d: da.arange(4, device=d), lambda d: da.linspace(0, 1, 3, device=d),
    lambda d: da.eye(2, device=d), lambda d: da.asarray([1, 2], device=d),
    lambda d: da.zeros_like(da.asarray([1.0]), device=d), lambda d: da.from_dlpack(np.ones(2), device=d)],
    ids=["zeros", "ones", "empty", "full", "arange", "linspace", "eye", "asarray", "zeros_like", "from_dlpack"])
def test_creation_device(make, any_place) -> None:
    x = make(any_place)
    assert x.device == any_place and x.to_device("cpu").device == da.CPUPlace()


def test_to_device_and_astype() -> None:
    x = da.asarray(np.arange(4, dtype=np.int32), device="cpu")
    assert x.to_device("cpu") is x
    y = da.astype(x, da.float32)
    assert y.dtype == da.float32 and np.array_equal(y.get(), np.arange(4))
    assert da.astype(x, da.int32, copy=False) is x and da.astype(x, da.int32) is not x
    assert da.astype(x, "float64", device="cpu").device == da.CPUPlace()


def test_asarray_copy_semantics() -> None:
    x = da.asarray([1.0, 2.0])
    assert da.asarray(x) is x and da.asarray(x, copy=False) is x
    assert da.asarray(x, copy=True) is not x
    with pytest.raises(ValueError, match="copy=False"):
        da.asarray(np.ones(2), copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        da.asarray(x, dtype=da.float32, copy=False)


def test_inplace_operators_follow_the_standard() -> None:
    """``x1 op= x2`` keeps x1's dtype and shape: a result dtype that does not cast 'same_kind' and a
    broadcast that grows x1 raise; a Python scalar of the array's kind is fine."""
    x = da.asarray([1, 2, 3], dtype=da.int32)
    x += 2
    x *= da.asarray([2], dtype=da.int8)
    assert x.dtype == da.int32 and x.get().tolist() == [6, 8, 10]
    with pytest.raises(TypeError, match="same_kind"):
        x /= 2
    with pytest.raises(ValueError, match="broadcast"):
        x += da.ones((2, 3), dtype=da.int32)
    m = da.eye(2)
    m @= da.asarray([[1.0, 2.0], [3.0, 4.0]])
    assert m.get().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    with pytest.raises(ValueError, match="shape"):
        m @= da.ones((2, 3))
