"""Parameter strings of user kernels: ``"float32 x, T y"`` parsed into :class:`Param` rows, and
the dtypes of one call resolved from its arguments (type placeholders such as ``T``).

Types are NumPy dtype names (``float32``, ``int64``, ``bool``...) or OpenCL C names (``float``,
``double``, ``int``, ``uint``, ``long``...); a placeholder is a name of capital letters and
digits that starts with a letter (``T``, ``U``, ``T2``). ``raw`` is parsed (CuPy's word for a
whole-array parameter) and refused by the kernels that cannot take one. Complex dtypes
(``complex64``, ``complex128``) are ``float2``/``double2`` (real, imaginary) in a body: ``+``,
``-`` and scaling by a real are complex arithmetic there, a complex product or quotient is
``cmul_float(a, b)``/``cdiv_float`` (``_double`` for complex128; see ``kernels/include/complex.h``).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._array import DArray

C_NAMES: dict[str, str] = {
    "float": "float32", "double": "float64", "half": "float16", "char": "int8", "uchar": "uint8",
    "short": "int16", "ushort": "uint16", "int": "int32", "uint": "uint32", "long": "int64", "ulong": "uint64",
    "bool": "bool", "unsigned char": "uint8", "unsigned short": "uint16", "unsigned int": "uint32",
    "unsigned long": "uint64", "signed char": "int8"}
NUMERIC = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
           "float64", "complex64", "complex128")
_IDENT = re.compile(r"[A-Za-z_]\w*\Z")
_PLACEHOLDER = re.compile(r"[A-Z][A-Z0-9]*\Z")


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter: its ``name``, its ``dtype`` (None for a placeholder ``ctype``) and ``raw``."""

    name: str
    ctype: str
    dtype: np.dtype | None
    raw: bool = False


def identifier(kernel: str, what: str, name: str) -> str:
    """``name`` when it is a C identifier, else ValueError naming the kernel."""
    if not isinstance(name, str) or not _IDENT.match(name):
        raise ValueError(f"darray {kernel}: {what} {name!r} is not a C identifier")
    return name


def parse_type(kernel: str, param: str, text: str) -> np.dtype | None:
    """The dtype of type name ``text`` (None for a placeholder); TypeError naming the kernel and
    the parameter for an unknown type."""
    name = C_NAMES.get(text, text)
    if name in NUMERIC:
        return np.dtype(name)
    if _PLACEHOLDER.match(text):
        return None
    raise TypeError(f"darray {kernel}: parameter {param!r} has unknown type {text!r} (NumPy names such as "
                    "float32, C names such as float, or a placeholder such as T)")


def parse(kernel: str, text: str, *, what: str = "parameter") -> tuple[Param, ...]:
    """The parameters of ``"type name, raw type name, ..."``; ValueError for a malformed entry or a
    repeated name, TypeError for an unknown type (both name the kernel and the parameter)."""
    if not isinstance(text, str):
        raise TypeError(f"darray {kernel}: {what}s must be a string like 'float32 x, T y', got {type(text).__name__}")
    out: list[Param] = []
    for entry in (e.strip() for e in text.split(",")) if text.strip() else ():
        words = entry.split()
        raw = bool(words) and words[0] == "raw"
        words = words[1:] if raw else words
        if len(words) < 2:
            raise ValueError(f"darray {kernel}: {what} {entry!r} must be 'type name' (e.g. 'float32 x')")
        name = identifier(kernel, what, words[-1])
        dtype = parse_type(kernel, name, " ".join(words[:-1]))
        if any(p.name == name for p in out):
            raise ValueError(f"darray {kernel}: {what} {name!r} appears twice")
        out.append(Param(name, " ".join(words[:-1]), dtype, raw))
    return tuple(out)


def scalar(value: Any) -> bool:
    """Whether a kernel argument passes by value (a Python or NumPy scalar)."""
    return isinstance(value, (bool, int, float, complex, np.bool_, np.number))


def resolve(kernel: str, params: Sequence[Param], args: Sequence[Any], types: dict[str, np.dtype]) -> list[np.dtype]:
    """The dtype of each parameter for ``args`` (DArrays, scalars, None: an output to make), binding placeholders in
    ``types`` from the arrays first, then from NumPy scalars, then from Python scalars (NumPy's
    default dtypes). An array whose dtype differs from its parameter's type, or two arrays
    binding one placeholder to different dtypes, is a TypeError naming the kernel and parameter."""
    for p, a in zip(params, args):
        if isinstance(a, DArray):
            if p.dtype is not None and a.dtype != p.dtype:
                raise TypeError(f"darray {kernel}: parameter {p.name!r} is {p.dtype}, got an array of {a.dtype}")
            if p.dtype is None:
                bound = types.setdefault(p.ctype, a.dtype)
                if bound != a.dtype:
                    raise TypeError(f"darray {kernel}: parameter {p.name!r} binds {p.ctype} to {a.dtype}, but an "
                                    f"earlier argument bound it to {bound}")
    for p, a in zip(params, args):
        if p.dtype is None and p.ctype not in types and a is not None and not isinstance(a, DArray):
            if not scalar(a):
                raise TypeError(f"darray {kernel}: parameter {p.name!r} takes a DArray or a scalar, got "
                                f"{type(a).__name__}")
            types[p.ctype] = a.dtype if isinstance(a, np.generic) else np.asarray(a).dtype
    out = []
    for p in params:
        dt = p.dtype if p.dtype is not None else types.get(p.ctype)
        if dt is None:
            raise TypeError(f"darray {kernel}: cannot tell the type {p.ctype} of parameter {p.name!r} from the "
                            "arguments (pass out= or an argument of that type)")
        if dt.kind not in "biufc":
            raise TypeError(f"darray {kernel}: parameter {p.name!r} cannot be {dt} (numeric dtypes only)")
        out.append(dt)
    return out


def arity(kernel: str, params: Sequence[Param], args: Sequence[Any], what: str = "arguments") -> None:
    """TypeError naming the kernel when ``args`` does not match ``params`` in number."""
    if len(args) != len(params):
        names = ", ".join(p.name for p in params)
        raise TypeError(f"darray {kernel}: takes {len(params)} {what} ({names}), got {len(args)}")
