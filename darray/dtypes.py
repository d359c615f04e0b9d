"""darray dtypes: the supported set, promotion, casting rules and type info.

darray dtypes *are* ``numpy.dtype`` instances, so ``x.dtype == da.float32`` and
``np.dtype`` interop work unchanged. Promotion between typed operands follows the
Array API table; pairs the standard leaves undefined (bool with numbers, int with
float, int64 with uint64, float16) follow NumPy 2. Python scalars are *weak* (NEP 50):
they adopt the dtype of the typed operand when their kind fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast, get_args

import numpy as np

# NumPy's dtype names beyond the Array API's: ``dtype`` itself, NumPy's abstract scalar types (so
# ``issubdtype(x.dtype, darray.floating)`` works) and the C-named aliases (dtypes, as darray's own names)
NUMPY_NAMES = ["dtype", "generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
               "complexfloating", "byte", "short", "intc", "int_", "intp", "long", "longlong", "ubyte", "ushort",
               "uintc", "uint", "uintp", "ulong", "ulonglong", "half", "single", "double", "cdouble", "csingle",
               "issubdtype", "min_scalar_type", "common_type", "mintypecode", "typename"]

__all__ = [
    "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128", "ALL_DTYPES",
    "as_dtype", "result_type", "promote_types", "can_cast", "finfo", "iinfo",
    "finfo_object", "iinfo_object", "isdtype", "category", "real_dtype",
    "complex_dtype", "default_float", "default_int", "default_complex", "ctype",
    "check_device_dtype", *NUMPY_NAMES,
]


bool_: np.dtype = np.dtype("bool")
int8: np.dtype = np.dtype("int8")
int16: np.dtype = np.dtype("int16")
int32: np.dtype = np.dtype("int32")
int64: np.dtype = np.dtype("int64")
uint8: np.dtype = np.dtype("uint8")
uint16: np.dtype = np.dtype("uint16")
uint32: np.dtype = np.dtype("uint32")
uint64: np.dtype = np.dtype("uint64")
float16: np.dtype = np.dtype("float16")
float32: np.dtype = np.dtype("float32")
float64: np.dtype = np.dtype("float64")
complex64: np.dtype = np.dtype("complex64")
complex128: np.dtype = np.dtype("complex128")

ALL_DTYPES: tuple[np.dtype, ...] = (
    bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
    float16, float32, float64, complex64, complex128,
)
_SUPPORTED: frozenset[np.dtype] = frozenset(ALL_DTYPES)
_SUPPORTED_NAMES = ", ".join(d.name for d in ALL_DTYPES)

# Python types map to the defaults, independent of the platform's C long.
_PY_TYPES: dict[type, np.dtype] = {bool: bool_, int: int64, float: float64, complex: complex128}

_CATEGORY: dict[str, str] = {"b": "bool", "i": "int", "u": "uint", "f": "float", "c": "complex"}
# Kind order used for weak Python scalars: bool < int/uint < float < complex.
_KIND_RANK: dict[str, int] = {"bool": 0, "int": 1, "uint": 1, "float": 2, "complex": 3}
_RANK_DEFAULT: dict[int, np.dtype] = {0: bool_, 1: int64, 2: float64, 3: complex128}

_CTYPES: dict[np.dtype, str] = {
    bool_: "uchar", int8: "char", uint8: "uchar", int16: "short", uint16: "ushort",
    int32: "int", uint32: "uint", int64: "long", uint64: "ulong", float16: "half",
    float32: "float", float64: "double", complex64: "float2", complex128: "double2",
}

_Casting = Literal["no", "equiv", "safe", "same_kind", "unsafe"]
_CASTINGS = get_args(_Casting)

_KINDS: dict[str, frozenset[str]] = {
    "bool": frozenset({"bool"}),
    "signed integer": frozenset({"int"}),
    "unsigned integer": frozenset({"uint"}),
    "integral": frozenset({"int", "uint"}),
    "real floating": frozenset({"float"}),
    "complex floating": frozenset({"complex"}),
    "numeric": frozenset({"int", "uint", "float", "complex"}),
}


def _prefix(op: str) -> str:
    return f"darray {op}: " if op else "darray: "


def _label(obj: Any) -> str:
    """A short name for an unsupported dtype (``'U5'``, ``'float128'``, ``'>f4'``)."""
    if isinstance(obj, np.dtype):
        if obj.kind in "USV" or not obj.isnative:
            s = obj.str
            return s[1:] if s[0] in "|=" or (obj.isnative and s[0] in "<>") else s
        return obj.name
    if isinstance(obj, type):
        return obj.__qualname__
    return repr(obj) if not isinstance(obj, str) else obj


def _unsupported(obj: Any, op: str) -> TypeError:
    return TypeError(
        f"{_prefix(op)}unsupported dtype '{_label(obj)}'; darray supports {_SUPPORTED_NAMES}"
    )


def as_dtype(obj: Any, op: str = "") -> np.dtype:
    """Convert a dtype-like object to one of the 14 darray dtypes.

    Accepts ``np.dtype`` instances, NumPy scalar types (``np.float32``), the Python types
    ``bool``/``int``/``float``/``complex`` (-> bool, int64, float64, complex128) and
    strings (``'float32'``, ``'f4'``). ``op`` names the calling operation in errors.
    Raises ``TypeError`` for anything else, including ``None`` (callers handle defaults).
    See also: numpy.dtype. Note: Python ``int`` is always int64, on every platform.
    """
    if isinstance(obj, np.dtype):
        dt = obj
    elif obj is None:
        raise TypeError(f"{_prefix(op)}dtype None is not a dtype here; darray supports {_SUPPORTED_NAMES}")
    elif isinstance(obj, type) and obj in _PY_TYPES:
        return _PY_TYPES[obj]
    elif isinstance(obj, (str, type)):
        try:
            dt = np.dtype(obj)
        except Exception:
            raise _unsupported(obj, op) from None
    else:
        raise _unsupported(obj, op)
    if dt not in _SUPPORTED or not dt.isnative:
        raise _unsupported(dt, op)
    return dt


def _typed(x: Any, op: str) -> np.dtype | None:
    """The dtype of a strongly typed argument, or None for a Python scalar."""
    if isinstance(x, np.dtype):
        return as_dtype(x, op)
    if isinstance(x, type) or isinstance(x, str):
        return as_dtype(x, op)
    dt = getattr(x, "dtype", None)
    if dt is not None:  # arrays and NumPy scalars (np.float64 subclasses float)
        return as_dtype(dt, op)
    if isinstance(x, (bool, int, float, complex)):
        return None
    raise TypeError(
        f"{_prefix(op)}cannot determine a dtype from {type(x).__name__} {x!r}; "
        "expected a dtype, an array or a Python scalar"
    )


def _scalar_rank(x: bool | int | float | complex) -> int:
    if isinstance(x, bool):
        return 0
    if isinstance(x, int):
        return 1
    if isinstance(x, float):
        return 2
    return 3


def promote_types(a: Any, b: Any, /) -> np.dtype:
    """The smallest darray dtype both ``a`` and ``b`` can be safely cast to.

    Array API promotion table; pairs it leaves undefined (bool with numbers, integer with
    floating, int64-class with uint64, float16) follow ``numpy.promote_types``
    (e.g. int64 + uint64 -> float64). See also: numpy.promote_types.
    """
    return np.promote_types(as_dtype(a, "promote_types"), as_dtype(b, "promote_types"))


def result_type(*arrays_and_dtypes: Any) -> np.dtype:
    """The dtype an operation on ``arrays_and_dtypes`` produces.

    The arguments are dtypes, objects with a ``.dtype`` (arrays, NumPy scalars) or Python
    scalars. Typed arguments promote as ``numpy.result_type``. Python scalars are weak
    (NumPy 2 / NEP 50): they take the typed result's dtype when their kind fits
    (``1`` with float32 -> float32), else the smallest fitting dtype of their kind
    (``1.0`` with int32 -> float64, ``1j`` with float32 -> complex64); a bool scalar
    never promotes. Only scalars -> the default dtype of the highest kind.
    Raises ``ValueError`` with no arguments. Value overflow (``300`` with int8) is not
    checked here. See also: numpy.result_type.
    """
    if not arrays_and_dtypes:
        raise ValueError("darray result_type: at least one array or dtype is required")
    dts: list[np.dtype] = []
    rank = -1
    for x in arrays_and_dtypes:
        dt = _typed(x, "result_type")
        if dt is None:
            rank = max(rank, _scalar_rank(x))
        else:
            dts.append(dt)
    # NumPy's promotion of 3+ dtypes is not a pairwise fold (int8, uint8, float16 -> float16):
    # let NumPy combine the typed arguments.
    typed = (dts[0] if len(dts) == 1 else np.result_type(*dts)) if dts else None
    if typed is None:
        return _RANK_DEFAULT[rank]
    if rank <= _KIND_RANK[category(typed)]:
        return typed
    if rank == 3 and typed.kind == "f":
        return complex_dtype(typed)
    return _RANK_DEFAULT[rank]


def can_cast(from_: Any, to: Any, casting: str = "safe") -> bool:
    """Whether a cast from ``from_`` (a dtype or array) to ``to`` follows ``casting``.

    ``casting`` is one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe'. Python scalars
    are rejected, as in NumPy 2. See also: numpy.can_cast.
    """
    if casting not in _CASTINGS:
        raise ValueError(f"darray can_cast: casting must be one of {_CASTINGS}, got {casting!r}")
    src = getattr(from_, "dtype", from_) if not isinstance(from_, (np.dtype, type, str)) else from_
    return bool(np.can_cast(as_dtype(src, "can_cast"), as_dtype(to, "can_cast"), casting=cast("_Casting", casting)))


@dataclass(frozen=True)
class finfo_object:
    """Machine limits of a floating dtype (Array API ``finfo`` result)."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: np.dtype
    tiny: float = 0.0  # NumPy's names beside the Array API's
    resolution: float = 0.0
    precision: int = 0
    smallest_subnormal: float = 0.0


@dataclass(frozen=True)
class iinfo_object:
    """Machine limits of an integer dtype (Array API ``iinfo`` result)."""

    bits: int
    max: int
    min: int
    dtype: np.dtype


def _dtype_of(type_: Any, op: str) -> np.dtype:
    if isinstance(type_, (np.dtype, type, str)):
        return as_dtype(type_, op)
    dt = getattr(type_, "dtype", None)
    if dt is None:
        raise _unsupported(type_, op)
    return as_dtype(dt, op)


def finfo(type: Any, /) -> finfo_object:
    """Limits of a floating dtype (or array); complex gives its real part's limits.

    Fields: bits, eps, max, min, smallest_normal (Python floats) and dtype (the real
    dtype). Raises ``TypeError`` for non-floating dtypes. See also: numpy.finfo.
    """
    dt = _dtype_of(type, "finfo")
    if dt.kind not in "fc":
        raise TypeError(f"darray finfo: needs a floating or complex dtype, got {dt.name}")
    fi = np.finfo(dt)
    return finfo_object(
        bits=int(fi.bits), eps=float(fi.eps), max=float(fi.max), min=float(fi.min),
        smallest_normal=float(fi.smallest_normal), dtype=real_dtype(dt), tiny=float(fi.tiny),
        resolution=float(fi.resolution), precision=int(fi.precision), smallest_subnormal=float(fi.smallest_subnormal),
    )


def iinfo(type: Any, /) -> iinfo_object:
    """Limits of an integer dtype (or array): bits, max, min, dtype.

    Raises ``TypeError`` for bool and non-integer dtypes. See also: numpy.iinfo.
    """
    dt = _dtype_of(type, "iinfo")
    if dt.kind not in "iu":
        raise TypeError(f"darray iinfo: needs an integer dtype, got {dt.name}")
    ii = np.iinfo(dt)
    return iinfo_object(bits=int(ii.bits), max=int(ii.max), min=int(ii.min), dtype=dt)


def isdtype(dtype: Any, kind: Any) -> bool:
    """Whether ``dtype`` is of ``kind`` (Array API ``isdtype``; both arguments may be keywords).

    ``kind`` is a dtype, one of 'bool', 'signed integer', 'unsigned integer',
    'integral', 'real floating', 'complex floating', 'numeric', or a tuple of these.
    Unknown kind strings raise ``ValueError``. See also: numpy.isdtype.
    """
    dt = as_dtype(dtype, "isdtype")
    if isinstance(kind, tuple):
        return any(isdtype(dt, k) for k in kind)
    if isinstance(kind, str):
        cats = _KINDS.get(kind)
        if cats is None:
            raise ValueError(
                f"darray isdtype: unknown kind {kind!r}; expected a dtype or one of {tuple(_KINDS)}"
            )
        return category(dt) in cats
    return dt == as_dtype(kind, "isdtype")


def category(dtype: Any, /) -> str:
    """The dtype's category: 'bool', 'int', 'uint', 'float' or 'complex'."""
    return _CATEGORY[as_dtype(dtype, "category").kind]


def real_dtype(dtype: Any, /) -> np.dtype:
    """complex64 -> float32, complex128 -> float64; any other dtype is returned as is."""
    dt = as_dtype(dtype, "real_dtype")
    if dt == complex64:
        return float32
    if dt == complex128:
        return float64
    return dt


def complex_dtype(dtype: Any, /) -> np.dtype:
    """The complex dtype matching ``dtype``: float16/float32 -> complex64, float64 -> complex128.

    Complex dtypes are unchanged; bool and integers give complex128 (as ``x + 1j`` does).
    """
    dt = as_dtype(dtype, "complex_dtype")
    if dt.kind == "c":
        return dt
    if dt == float16 or dt == float32:
        return complex64
    return complex128


def default_float() -> np.dtype:
    """The default real floating dtype: float64."""
    return float64


def default_int() -> np.dtype:
    """The default integer dtype: int64 (on every platform)."""
    return int64


def default_complex() -> np.dtype:
    """The default complex dtype: complex128."""
    return complex128


def ctype(dtype: Any, /) -> str:
    """The OpenCL C type name storing ``dtype``.

    bool is 'uchar' (one byte holding 0 or 1); complex64/complex128 are 'float2'/'double2'
    (real in .x, imaginary in .y).
    """
    return _CTYPES[as_dtype(dtype, "ctype")]


def check_device_dtype(
    dtype: Any, *, device_name: str, fp64: bool, fp16: bool, op: str = ""
) -> None:
    """Raise ``TypeError`` if the device cannot compute with ``dtype``.

    float64/complex128 need cl_khr_fp64, float16 needs cl_khr_fp16. darray never
    downcasts silently.
    """
    dt = as_dtype(dtype, op)
    if dt in (float64, complex128) and not fp64:
        ext = "cl_khr_fp64"
    elif dt == float16 and not fp16:
        ext = "cl_khr_fp16"
    else:
        return
    raise TypeError(f"{_prefix(op)}device '{device_name}' cannot do {dt.name} (no {ext})")


dtype = np.dtype
generic, number, integer, signedinteger = np.generic, np.number, np.integer, np.signedinteger
unsignedinteger, inexact, floating, complexfloating = np.unsignedinteger, np.inexact, np.floating, np.complexfloating
byte, short, intc, int_, intp, long, longlong = (np.dtype(t) for t in ("b", "h", "i", "int_", "intp", "l", "q"))
ubyte, ushort, uintc, uint, uintp, ulong, ulonglong = (np.dtype(t) for t in ("B", "H", "I", "uint", "uintp", "L", "Q"))
half, single, double, csingle, cdouble = (np.dtype(t) for t in ("e", "f", "d", "F", "D"))
issubdtype = np.issubdtype
mintypecode = np.mintypecode
typename = np.typename


def min_scalar_type(a: Any, /) -> np.dtype:
    """The smallest dtype holding ``a`` (a scalar; an array's own dtype otherwise). See also: numpy.min_scalar_type."""
    dt = getattr(a, "dtype", None)
    return as_dtype(dt) if dt is not None and getattr(a, "ndim", False) else np.min_scalar_type(a)


def common_type(*arrays: Any) -> np.dtype:
    """The inexact dtype NumPy's ``common_type`` gives the arrays: integers count as float64, else the
    widest float, complex if any is complex. Differs from NumPy: returns a dtype, not a scalar type.
    See also: numpy.common_type."""
    kinds = [as_dtype(getattr(a, "dtype", a), "common_type") for a in arrays]
    if any(d.kind == "b" for d in kinds):
        raise TypeError("darray common_type: can't get common type for non-numeric array")
    size = max((d.itemsize // (2 if d.kind == "c" else 1) if d.kind in "fc" else 8) for d in kinds) if kinds else 2
    real = {2: float16, 4: float32, 8: float64}[size]
    return complex_dtype(real) if any(d.kind == "c" for d in kinds) else real
