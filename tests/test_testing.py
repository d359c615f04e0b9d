"""darray.testing's assertions (darray/testing/_asserts.py) and the package's import rules."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import darray as da
import darray.testing as dt

# every assertion comparing two arrays elementwise: (function, whether a 0-d side broadcasts as in NumPy,
# its arguments' names as failure messages give them)
AD, XY = ("actual", "desired"), ("x", "y")
PAIRWISE = [(dt.assert_allclose, True, AD), (dt.assert_array_equal, True, AD), (dt.assert_array_almost_equal, True, AD),
            (dt.assert_array_max_ulp, False, ("a", "b")), (dt.assert_array_almost_equal_nulp, True, XY),
            (dt.assert_equal, True, AD), (dt.assert_almost_equal, True, AD)]
IDS = [f.__name__ for f, _, _ in PAIRWISE]
WANT = np.arange(12.0).reshape(3, 4)


@pytest.fixture
def x(cl_place):
    """WANT as a reversed, strided view at an offset into a larger DArray."""
    base = np.zeros((6, 8))
    base[::-2, 1::2] = WANT
    return da.asarray(base, device=cl_place)[::-2, 1::2]


def test_describe_names_place_and_layout(x, cl_place):
    assert dt.describe(x) == f"DArray on {cl_place}, float64, shape (3, 4), strides (-128, 16), offset 328, " \
                             "non-contiguous"
    assert dt.describe(da.asarray(WANT, device=cl_place)).endswith("strides (32, 8), offset 0, C-contiguous")
    assert dt.describe(da.asarray(WANT, device=cl_place).T).endswith("F-contiguous")
    assert dt.describe(da.broadcast_to(da.asarray(WANT[0], device=cl_place), (3, 4))).endswith("broadcast")


@pytest.mark.parametrize("check", [f for f, _, _ in PAIRWISE], ids=IDS)
def test_equal_inputs_pass(check, x):
    check(x, WANT)
    check(WANT, x)
    check(x, x)
    check(x, WANT, strict=True)


@pytest.mark.parametrize(("check", "names"), [(f, n) for f, _, n in PAIRWISE], ids=IDS)
def test_values_mismatch_fails_naming_the_layout(check, names, x):
    bad = WANT.copy()
    bad[1, 2] += 1
    first, second = names
    with pytest.raises(AssertionError) as err:
        check(x, bad)
    assert f"\n{first}: DArray on cl:" in str(err.value)
    assert "shape (3, 4), strides (-128, 16), offset 328, non-contiguous" in str(err.value)
    with pytest.raises(AssertionError, match=f"\n{second}: DArray on cl:"):
        check(bad, x)


@pytest.mark.parametrize("check", [f for f, _, _ in PAIRWISE], ids=IDS)
def test_strict_checks_dtype(check, x):
    check(x.astype("float32"), WANT)  # NumPy's rule: values compared across dtypes
    with pytest.raises(AssertionError, match=r"strict=True\): dtype mismatch(.|\n)*ACTUAL: float32"):
        check(x.astype("float32"), WANT, strict=True)


@pytest.mark.parametrize(("check", "broadcasts"), [(f, b) for f, b, _ in PAIRWISE], ids=IDS)
def test_strict_checks_shape(check, broadcasts, cl_place):
    scalar, row = da.asarray(2.0, device=cl_place), np.full(3, 2.0)
    if broadcasts:
        check(scalar, row)
    with pytest.raises(AssertionError, match=r"shape mismatch(.|\n)*ACTUAL: \(\)\n DESIRED: \(3,\)"):
        check(scalar, row, strict=True)


@pytest.mark.parametrize("check", [dt.assert_allclose, dt.assert_array_equal, dt.assert_equal])
def test_shape_mismatch_fails_without_strict(check, x):
    with pytest.raises(AssertionError, match="actual: DArray"):
        check(x, WANT[:2])


def test_ulp_and_tolerances(cl_place):
    one = da.asarray(np.float32([1.0, 2.0]), device=cl_place)
    near = np.nextafter(np.float32([1.0, 2.0]), np.float32(3))
    assert np.ravel(dt.assert_array_max_ulp(one, near)).tolist() == [1.0, 1.0]
    with pytest.raises(AssertionError, match="a: DArray"):
        dt.assert_array_max_ulp(one, np.nextafter(near, np.float32(3)))
    dt.assert_allclose(one, near, rtol=1e-6)
    with pytest.raises(AssertionError):
        dt.assert_allclose(one, near, rtol=1e-8)
    dt.assert_array_almost_equal(one, near, decimal=5)


def test_nan_placement(cl_place):
    x = da.asarray([1.0, np.nan], device=cl_place)
    dt.assert_allclose(x, [1.0, np.nan])
    dt.assert_array_equal(x, [1.0, np.nan])
    with pytest.raises(AssertionError):
        dt.assert_allclose(x, [1.0, np.nan], equal_nan=False)
    with pytest.raises(AssertionError, match="actual: DArray"):
        dt.assert_array_equal(x, [np.nan, 1.0])


def test_array_less(x):
    dt.assert_array_less(x, WANT + 1)
    dt.assert_array_less(WANT - 1, x, strict=True)
    with pytest.raises(AssertionError, match="x: DArray on cl:"):
        dt.assert_array_less(x, WANT)
    with pytest.raises(AssertionError, match="dtype mismatch"):
        dt.assert_array_less(x, (WANT + 1).astype("float32"), strict=True)


def test_approx_equal(cl_place):
    third = da.asarray(1 / 3, device=cl_place)
    dt.assert_approx_equal(third, 0.3333333, significant=6)
    with pytest.raises(AssertionError, match="actual: DArray"):
        dt.assert_approx_equal(third, 0.334, significant=6)


def test_nested_structures_name_the_item(x):
    dt.assert_equal((x, 1, {"a": x}), (WANT, 1, {"a": WANT}), strict=True)
    with pytest.raises(AssertionError, match=r"actual\[2\]\['a'\]: DArray on cl:"):
        dt.assert_equal((x, 1, {"a": x}), (WANT, 1, {"a": WANT + 1}))
    with pytest.raises(AssertionError, match="dtype mismatch"):
        dt.assert_equal([x], [WANT.astype("float32")], strict=True)


def test_err_msg_is_kept(x):
    with pytest.raises(AssertionError, match="while porting"):
        dt.assert_allclose(x, WANT + 1, err_msg="while porting")
    with pytest.raises(AssertionError, match="while porting"):
        dt.assert_array_equal(x, WANT.astype("float32"), err_msg="while porting", strict=True)


def test_raises_are_numpys(x):
    dt.assert_raises(ValueError, da.reshape, x, (5,))
    with dt.assert_raises_regex(ValueError, "reshape"):
        da.reshape(x, (5,))


def test_import_rules(tmp_path):
    """``import darray`` does not load darray.testing, whose assertions need neither hypothesis nor pytest;
    the strategies load hypothesis when first used."""
    code = ("import sys, darray; loaded = 'darray.testing' in sys.modules; import darray.testing as dt; "
            "print(loaded, 'hypothesis' in sys.modules, 'pytest' in sys.modules); dt.strategies; "
            "print('hypothesis' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=True,
                         timeout=120).stdout.split()
    assert out == ["False", "False", "False", "True"]


def test_public_names():
    assert set(dt.__all__) <= set(dir(dt)) | {"strategies"}
    for name in dt.__all__:
        assert getattr(dt, name).__doc__, name
