"""darray.testing: test code on DArrays against NumPy (imported explicitly; ``import darray`` does not load it).

- assertions: NumPy's ``numpy.testing`` functions taking DArrays and NumPy arrays alike, with
  ``strict=`` (shape and dtype too) and failure messages naming each DArray's place and layout;
- ``numpy_darray_allclose`` / ``numpy_darray_array_equal``: run a test with ``xp=numpy`` and
  ``xp=darray`` and compare the results (CuPy's ``numpy_cupy_*`` style);
- ``for_all_dtypes``, ``for_float_dtypes``... : pytest parametrizers that skip the dtypes the current
  place cannot do, saying why;
- ``darray.testing.strategies``: hypothesis strategies pairing NumPy arrays with DArrays in drawn
  layouts (needs hypothesis; loaded on first use);
- ``darray.testing.plugin``: an opt-in pytest plugin (``xp`` and ``place`` fixtures, the "darray"
  hypothesis profile).

See docs/testing.md.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._asserts import (
    assert_allclose,
    assert_almost_equal,
    assert_approx_equal,
    assert_array_almost_equal,
    assert_array_almost_equal_nulp,
    assert_array_equal,
    assert_array_less,
    assert_array_max_ulp,
    assert_equal,
    assert_raises,
    assert_raises_regex,
    describe,
)
from ._decorators import numpy_darray_allclose, numpy_darray_array_equal
from ._dtypes import (
    for_all_dtypes,
    for_complex_dtypes,
    for_dtypes,
    for_float_dtypes,
    for_int_dtypes,
    for_signed_dtypes,
    for_unsigned_dtypes,
    supported_dtypes,
    unsupported,
)

if TYPE_CHECKING:
    from . import strategies as strategies

__all__ = [
    "assert_allclose", "assert_almost_equal", "assert_approx_equal", "assert_array_almost_equal",
    "assert_array_almost_equal_nulp", "assert_array_equal", "assert_array_less", "assert_array_max_ulp",
    "assert_equal", "assert_raises", "assert_raises_regex", "describe",
    "numpy_darray_allclose", "numpy_darray_array_equal",
    "for_all_dtypes", "for_complex_dtypes", "for_dtypes", "for_float_dtypes", "for_int_dtypes", "for_signed_dtypes",
    "for_unsigned_dtypes", "supported_dtypes", "unsupported", "strategies",
]


def __getattr__(name: str) -> Any:
    """``darray.testing.strategies`` imports hypothesis: loaded on first use."""
    if name == "strategies":
        return importlib.import_module(f"{__name__}.strategies")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
