"""darray: NumPy-compatible N-dimensional arrays on OpenCL.

``import darray as da``. Arrays live on a place (``"cpu"`` or an OpenCL device ``"cl:N"``);
elementwise chains fuse into one generated kernel; every kernel is ordered by a stream
scheduler from what it reads and writes.
"""
from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING

import numpy as np

from . import _exclusions, _methods, alloc, dtypes, emath, interop, lazy, lib, place, sched
from . import linalg as linalg
from ._array import DArray
from ._host_api import *  # noqa: F403
from ._host_api import __all__ as _host_api_all
from ._namespace import __array_api_version__, __array_namespace_info__, astype, e, inf, nan, newaxis, pi
from ._ndarray import FlatIter as flatiter
from ._ndarray import ndarray as _ndarray_class
from .dim import MAX_RANK
from .dtypes import (  # NumPy's names (dtypes.NUMPY_NAMES)
    bool_,
    byte,
    can_cast,
    cdouble,
    common_type,
    complex64,
    complex128,
    complexfloating,
    csingle,
    double,
    dtype,
    finfo,
    float16,
    float32,
    float64,
    floating,
    generic,
    half,
    iinfo,
    inexact,
    int8,
    int16,
    int32,
    int64,
    int_,
    intc,
    integer,
    intp,
    isdtype,
    issubdtype,
    long,
    longlong,
    min_scalar_type,
    mintypecode,
    number,
    promote_types,
    result_type,
    short,
    signedinteger,
    single,
    typename,
    ubyte,
    uint,
    uint8,
    uint16,
    uint32,
    uint64,
    uintc,
    uintp,
    ulong,
    ulonglong,
    unsignedinteger,
    ushort,
)
from .errors import DeviceError, TraceError
from .interop import dask_chunks, einops_backend, from_dlpack, from_pyopencl
from .jit import jit
from .npyio import *  # noqa: F403
from .npyio import __all__ as _npyio_all
from .ops.arrange import *  # noqa: F403
from .ops.arrange import __all__ as _arrange_all
from .ops.creation import *  # noqa: F403
from .ops.creation import __all__ as _creation_all
from .ops.einsum import *  # noqa: F403
from .ops.einsum import __all__ as _einsum_all
from .ops.elementwise import *  # noqa: F403
from .ops.elementwise import __all__ as _elementwise_all  # type: ignore[attr-defined]  # built at import from the table
from .ops.histogram import *  # noqa: F403
from .ops.histogram import __all__ as _histogram_all
from .ops.index_tricks import *  # noqa: F403
from .ops.index_tricks import __all__ as _index_tricks_all
from .ops.indexing import *  # noqa: F403
from .ops.indexing import __all__ as _indexing_all
from .ops.joining import *  # noqa: F403
from .ops.joining import __all__ as _joining_all
from .ops.linalg import *  # noqa: F403
from .ops.linalg import __all__ as _linalg_all
from .ops.logic import *  # noqa: F403
from .ops.logic import __all__ as _logic_all
from .ops.manipulation import *  # noqa: F403
from .ops.manipulation import __all__ as _manipulation_all
from .ops.mathfuncs import *  # noqa: F403
from .ops.mathfuncs import __all__ as _mathfuncs_all
from .ops.nanfunctions import *  # noqa: F403
from .ops.nanfunctions import __all__ as _nanfunctions_all
from .ops.packing import packbits, unpackbits
from .ops.padding import pad
from .ops.polynomial import *  # noqa: F403
from .ops.polynomial import __all__ as _polynomial_all
from .ops.reduction import *  # noqa: F403
from .ops.reduction import __all__ as _reduction_all
from .ops.scan import cumprod, cumsum, cumulative_prod, cumulative_sum
from .ops.searching import *  # noqa: F403
from .ops.searching import __all__ as _searching_all
from .ops.selection import *  # noqa: F403
from .ops.selection import __all__ as _selection_all
from .ops.sets import *  # noqa: F403
from .ops.sets import __all__ as _sets_all
from .ops.shaping import *  # noqa: F403
from .ops.shaping import __all__ as _shaping_all
from .ops.sorting import *  # noqa: F403
from .ops.sorting import __all__ as _sorting_all
from .ops.statistics import *  # noqa: F403
from .ops.statistics import __all__ as _statistics_all
from .ops.taking import *  # noqa: F403
from .ops.taking import __all__ as _taking_all
from .ops.ufunc import *  # noqa: F403
from .ops.ufunc import __all__ as _ufunc_all  # type: ignore[attr-defined]  # built at import from the table
from .ops.windows import *  # noqa: F403
from .ops.windows import __all__ as _windows_all
from .place import CLPlace, CPUPlace
from .sched import Stream, profile, stream, synchronize

_methods.install(sys.modules[__name__])  # DArray's operators, methods and properties (darray/_methods.py)
dask_chunks.install()  # DArray as a Dask chunk type once dask.array is imported
einops_backend.install()  # DArrays in einops once einops is imported

bool = bool_  # noqa: A001  (Array API name)
ndarray = _ndarray_class  # NumPy's name: isinstance of every DArray, and NumPy's constructor
exceptions = np.exceptions  # darray raises NumPy's AxisError, ComplexWarning...

_EXTENSIONS = ["linalg", "fft"]  # the Array API extensions
_POLYNOMIAL = [f"polynomial.{m}" for m in ("polynomial", "chebyshev", "legendre", "laguerre", "hermite", "hermite_e",
                                            "polyutils")]
# the namespaces of darray's API table (darray._api)
_SUBMODULES = [*_EXTENSIONS, "emath", "lib.stride_tricks", *_POLYNOMIAL]


def eval(*arrays: DArray) -> DArray | tuple[DArray, ...]:  # noqa: A001
    """Materialise pending arrays now; those of one place and shape run as one fused kernel."""
    lazy.evaluate(*arrays)
    return arrays[0] if len(arrays) == 1 else arrays

# families loaded on first use (``import darray`` does no work a first op does not need): name -> its module
_ON_USE = {"random": "random", "sparse": "sparse", "fft": "fft", "polynomial": "polynomial", "testing": "testing",
           "ElementwiseKernel": "custom", "ReductionKernel": "custom", "RawKernel": "custom", "RawModule": "custom"}
if TYPE_CHECKING:
    from . import fft as fft
    from . import polynomial as polynomial
    from . import random as random
    from . import sparse as sparse
    from .custom import ElementwiseKernel, RawKernel, RawModule, ReductionKernel


def __getattr__(name: str) -> object:
    """``darray.<name>``: a family loaded on first use (``_ON_USE``; ``testing``, the layer above this
    namespace, as NumPy loads ``numpy.testing``), else, for a name darray lacks, an AttributeError
    saying why (``_exclusions``)."""
    home = _ON_USE.get(name)
    if home is None:
        raise _exclusions.missing(name)
    module = importlib.import_module(f".{home}", __name__)
    value = module if home == name else getattr(module, name)
    globals()[name] = value
    return value


__version__ = "0.1.0"

__all__ = [
    "DArray", "DeviceError", "TraceError", "jit", "eval", "ElementwiseKernel", "ReductionKernel", "RawKernel",
    "RawModule", "CPUPlace", "CLPlace", "MAX_RANK", "Stream",
    "alloc", "dtypes", "interop", "lazy", "place", "polynomial", "random", "sched", "sparse", "profile", "stream",
    "synchronize",
    "bool", "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
    "can_cast", "finfo", "iinfo", "isdtype", "result_type",
    *_creation_all, *_elementwise_all, *_reduction_all, "cumulative_sum", "cumulative_prod", "cumsum", "cumprod",
    *_linalg_all, *_EXTENSIONS, *_manipulation_all, *_arrange_all, *_indexing_all, *_taking_all, *_searching_all,
    *_sorting_all, *_sets_all,
    "__array_api_version__", "__array_namespace_info__", "astype", "e", "inf", "nan", "newaxis", "pi",
    "dtype", "generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
    "complexfloating", "byte", "short", "intc", "int_", "intp", "long", "longlong", "ubyte", "ushort", "uintc",
    "uint", "uintp", "ulong", "ulonglong", "half", "single", "double", "cdouble", "csingle", "issubdtype",
    "promote_types", "min_scalar_type", "common_type", "mintypecode", "typename",
    "from_dlpack", "from_pyopencl", "lib", "emath", "packbits", "unpackbits", "pad", "ndarray", "flatiter",
    "exceptions",
    *_host_api_all,
    *_ufunc_all, *_nanfunctions_all, *_statistics_all, *_histogram_all, *_index_tricks_all, *_joining_all,
    *_shaping_all,
    *_mathfuncs_all, *_einsum_all, *_polynomial_all, *_windows_all, *_selection_all, *_logic_all, *_npyio_all,
]
__all__ = list(dict.fromkeys(__all__))  # the ufunc objects (ops/ufunc.py) stand for the table's functions
