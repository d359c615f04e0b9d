"""What of NumPy's namespace darray does not have, and why: one table, which feeds the
``AttributeError`` of ``darray.<name>`` (``darray.__getattr__``), the docs (``docs/api.md``) and
the coverage test (``tests/test_coverage.py``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

_DATETIME = ("darray arrays hold numbers and bools; there are no datetime or timedelta arrays",
             "keep dates in NumPy, or store them as int64 counts")
_TEXT = ("darray has no string, bytes, object or structured (record) arrays",
         "keep such data in NumPy (or pandas) and move numeric columns to darray")
_LONG = ("OpenCL C has no long double, so there are no extended-precision types",
         "use float64 / complex128")
_MATRIX = ("the matrix class is deprecated in NumPy itself", "use 2-D arrays and the @ operator")
_HOST = ("it describes NumPy's own build, C headers or test runner", "call it on numpy itself")

# name (``"ma"``, ``"linalg.test"``, ``"ndarray.ctypes"``) -> (why darray lacks it, what to use instead)
EXCLUDED: dict[str, tuple[str, str]] = {
    **dict.fromkeys(["datetime64", "timedelta64", "busday_count", "busday_offset", "busdaycalendar", "is_busday",
                     "datetime_as_string", "datetime_data", "isnat"], _DATETIME),
    **dict.fromkeys(["str_", "bytes_", "character", "flexible", "void", "object_", "recarray", "record", "char",
                     "strings", "rec"], _TEXT),
    **dict.fromkeys(["longdouble", "clongdouble", "float128", "complex256"], _LONG),
    **dict.fromkeys(["matrix", "asmatrix", "bmat"], _MATRIX),
    **dict.fromkeys(["show_config", "show_runtime", "test", "get_include", "f2py", "core", "linalg.test",
                     "fft.test"], _HOST),
    "memmap": ("darray memory is pooled device memory, not a mapped file",
               "read the file with numpy.memmap and move slices with darray.asarray"),
    "nditer": ("element-by-element iteration runs in Python on the host", "use whole-array operations, or "
               "numpy.nditer on numpy.asarray(x)"),
    "nested_iters": ("element-by-element iteration runs in Python on the host", "use whole-array operations"),
    "frompyfunc": ("it makes ufuncs over Python objects (object arrays)", "use darray.vectorize (host) or "
                   "write the function with darray's ops"),
    "fromregex": ("it parses text into structured arrays", "use numpy.fromregex, then darray.asarray on its "
                  "numeric fields"),
    "ma": ("darray has no masked arrays", "carry a boolean mask array and use where= or darray.where"),
    "ctypeslib": ("darray memory is not host memory a ctypes pointer can address",
                  "use numpy.asarray(x) (a host copy) or DLPack on the cpu place"),
    "typing": ("darray's type hints are darray._typing (ArrayLike, DTypeLike)", "numpy.typing for NumPy arrays"),
    "ndarray.ctypes": ("darray memory is not host memory a ctypes pointer can address", "numpy.asarray(x).ctypes"),
    "ndarray.data": ("darray memory is not a host buffer", "x.tobytes() or numpy.asarray(x).data"),
    **dict.fromkeys(["random.MT19937", "random.PCG64", "random.PCG64DXSM", "random.SFC64"],
                    ("darray's streams are Philox4x32-10 only",
                     "darray.random.Philox (the same seed gives other numbers)")),
    "random.bit_generator": ("darray's bit generators are classes of darray.random",
                             "darray.random.BitGenerator and darray.random.Philox"),
    "random.mtrand": ("darray's legacy API is not a module",
                      "darray.random.RandomState and the module-level functions"),
    "random.test": _HOST,
}

# name (``"sum"``, ``"ndarray.take"``, ``"random.Generator.normal"``) -> why darray's signature differs from
# NumPy's (``tests/test_signatures.py`` fails on any other difference, and on an entry that no longer differs)
_GUFUNC = ("a function, not a generalized ufunc: no axes=, axis= (vecdot: the Array API's keyword-only axis), "
           "keepdims= or ufunc keywords (casting=, order=, dtype=, subok=, signature=)")
_PLACE_FLOAT = "dtype=None is the place's default float (float32 on devices without float64), not always float64"
_RANDOM_DTYPE = ("adds dtype= after size (float32 or float64 draws, as Generator.standard_normal has); None is the "
                 "place's default float")
SIGNATURE_DIFFERENCES: dict[str, str] = {
    "arange": "NumPy's C arange takes dtype by position as well, though its text signature says keyword-only",
    **dict.fromkeys(["clip", "ndarray.clip"], "NumPy's **kwargs (the ufunc keywords where=, casting=, dtype=...) "
                    "are not taken"),
    "einsum": "NumPy's **kwargs are named: dtype=, order=, casting= (keyword-only)",
    "expand_dims": "the Array API's default axis=0 (NumPy requires axis)",
    "eye": _PLACE_FLOAT,
    **dict.fromkeys(["real", "imag"], "an op-table function with the Array API's positional-only x "
                    "(NumPy's val)"),
    **dict.fromkeys(["matmul", "matvec", "vecmat", "vecdot"], _GUFUNC),
    **dict.fromkeys(["linalg.matmul", "linalg.vecdot"], "the same function as darray's matmul/vecdot: takes their "
                    "out= too"),
    **dict.fromkeys(["percentile", "quantile", "nanpercentile", "nanquantile"],
                    "keeps NumPy < 2.4's deprecated interpolation= keyword (method= is the name)"),
    "reshape": "keeps NumPy < 2.4's deprecated newshape= keyword, so shape defaults to None",
    **dict.fromkeys(["fft.fftfreq", "fft.rfftfreq"], "adds the Array API's keyword-only dtype="),
    **dict.fromkeys(["random.ranf", "random.sample"], "NumPy's aliases take (*args, **kwargs); darray's name "
                    "random_sample's size="),
    "ndarray.view": "NumPy's C signature is generic (*args, **kwargs); darray names its dtype= and type=",
    **dict.fromkeys(["random.normal", "random.standard_exponential", "random.standard_gamma",
                     "random.standard_normal", "random.Generator.normal", "random.Generator.uniform",
                     "random.RandomState.normal", "random.RandomState.standard_exponential",
                     "random.RandomState.standard_gamma", "random.RandomState.standard_normal"], _RANDOM_DTYPE),
    **dict.fromkeys(["random.Generator.random", "random.Generator.standard_exponential",
                     "random.Generator.standard_gamma", "random.Generator.standard_normal"], _PLACE_FLOAT),
    "random.Generator.integers": "the default dtype is numpy.dtype('int64'), the same type as NumPy's numpy.int64",
}


def missing(name: str, space: str = "") -> AttributeError:
    """The AttributeError for ``darray.<space>.<name>`` (``space``: "" or "random"): why darray lacks an
    excluded name and what to use, or that a NumPy name is not implemented."""
    module, full = f"darray.{space}".rstrip("."), f"{space}.{name}".lstrip(".")
    theirs = getattr(np, space) if space else np
    if full in EXCLUDED:
        why, instead = EXCLUDED[full]
        return AttributeError(f"module {module!r} has no attribute {name!r}: {why}; {instead}")
    if hasattr(theirs, name):
        return AttributeError(f"module {module!r} has no attribute {name!r}: darray does not implement "
                              f"numpy.{full} (convert with numpy.asarray(x) to compute it with NumPy)")
    return AttributeError(f"module {module!r} has no attribute {name!r}")


def lookup(space: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``darray.<space>`` raising :func:`missing` (each namespace module sets its own)."""
    def __getattr__(name: str) -> Any:
        raise missing(name, space)
    return __getattr__


__all__ = ["EXCLUDED", "SIGNATURE_DIFFERENCES", "lookup", "missing"]
