"""dtype parametrizers for pytest (CuPy's ``for_*_dtypes`` style) and the dtypes a place can do.

A parametrizer is ``pytest.mark.parametrize(name, dtypes)``; a dtype the current place cannot do
(float64 without cl_khr_fp64, float16 without cl_khr_fp16) stays in the list as a test skipped with
the device's reason, decided when the test module is collected. pytest is imported only when a
parametrizer is called.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import dtypes as _dt
from ..place import CLPlace, Place, PlaceLike, devices, parse

if TYPE_CHECKING:
    from _pytest.mark import MarkDecorator

__all__ = ["unsupported", "supported_dtypes", "select", "for_dtypes", "for_all_dtypes", "for_float_dtypes",
           "for_signed_dtypes", "for_unsigned_dtypes", "for_int_dtypes", "for_complex_dtypes"]

# the order a drawn dtype shrinks in (first: simplest); float16 last, as its precision misleads
ORDER: tuple[np.dtype, ...] = tuple(np.dtype(t) for t in (
    "bool", "int32", "int64", "int16", "int8", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128", "float16"))
_KIND_NAMES = ("bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating",
               "numeric")


@functools.cache
def _reason(dtype: np.dtype, place: Place) -> str | None:
    if not isinstance(place, CLPlace):
        return None
    info = devices()[place.index]
    try:
        _dt.check_device_dtype(dtype, device_name=f"{info.name} ({place})", fp64=info.fp64, fp16=info.fp16)
    except TypeError as err:
        return str(err)
    return None


def unsupported(dtype: Any, place: PlaceLike = None) -> str | None:
    """Why ``place`` (default: the current place) cannot do ``dtype``, or None when it can."""
    return _reason(np.dtype(dtype), parse(place))


def supported_dtypes(place: PlaceLike = None) -> tuple[np.dtype, ...]:
    """Every dtype darray has that ``place`` (default: the current place) can do, in darray's order."""
    return tuple(d for d in _dt.ALL_DTYPES if unsupported(d, place) is None)


def select(kinds: Any, place: PlaceLike = None) -> list[np.dtype]:
    """The dtypes ``place`` can do among ``kinds``: an Array API kind name (``"real floating"``,
    ``"integral"``, ``"numeric"``...), a dtype, or a sequence of these; in :data:`ORDER`.

    Differs from NumPy's kinds: a kind name, as in the Array API, never includes float16; name it."""
    wanted = [kinds] if isinstance(kinds, str) or not isinstance(kinds, Sequence) else list(kinds)
    chosen: set[np.dtype] = set()
    for kind in wanted:
        if isinstance(kind, str) and kind in _KIND_NAMES:
            chosen.update(d for d in ORDER[:-1] if _dt.isdtype(d, kind))
        else:
            chosen.add(_dt.as_dtype(kind, "darray.testing"))
    found = [d for d in ORDER if d in chosen and unsupported(d, place) is None]
    if not found:
        raise ValueError(f"darray.testing: {parse(place)} can do no dtype of {kinds!r} "
                         f"({'; '.join(filter(None, (unsupported(d, place) for d in chosen)))})")
    return found


def for_dtypes(dtypes: Sequence[Any], name: str = "dtype") -> MarkDecorator:
    """Run the test once per dtype of ``dtypes``, passed as argument ``name``; dtypes the current
    place cannot do are skipped with the device's reason."""
    import pytest

    params = []
    for d in map(np.dtype, dtypes):
        why = unsupported(d)
        params.append(pytest.param(d, id=d.name, marks=[pytest.mark.skip(reason=why)] if why else []))
    return pytest.mark.parametrize(name, params)


def _of_kinds(kinds: str, *, no_bool: bool = False, no_float16: bool = False, no_float64: bool = False,
              no_complex: bool = False) -> list[np.dtype]:
    """darray's dtypes whose NumPy kind letter is in ``kinds``, less the ones excluded."""
    left = {np.dtype("bool"): no_bool, np.dtype("float16"): no_float16, np.dtype("float64"): no_float64}
    return [d for d in _dt.ALL_DTYPES if d.kind in kinds and not left.get(d, False)
            and not (no_complex and d.kind == "c")]


def for_all_dtypes(name: str = "dtype", *, no_bool: bool = False, no_float16: bool = False, no_float64: bool = False,
                   no_complex: bool = False) -> MarkDecorator:
    """Every darray dtype (bool, int8..uint64, float16..float64, complex64, complex128), less those
    excluded; ``no_float64`` leaves out float64 only (``no_complex`` the complex ones)."""
    return for_dtypes(_of_kinds("biufc", no_bool=no_bool, no_float16=no_float16, no_float64=no_float64,
                                no_complex=no_complex), name)


def for_float_dtypes(name: str = "dtype", *, no_float16: bool = False, no_float64: bool = False) -> MarkDecorator:
    """float16, float32 and float64, less those excluded."""
    return for_dtypes(_of_kinds("f", no_float16=no_float16, no_float64=no_float64), name)


def for_signed_dtypes(name: str = "dtype") -> MarkDecorator:
    """int8, int16, int32 and int64."""
    return for_dtypes(_of_kinds("i"), name)


def for_unsigned_dtypes(name: str = "dtype") -> MarkDecorator:
    """uint8, uint16, uint32 and uint64."""
    return for_dtypes(_of_kinds("u"), name)


def for_int_dtypes(name: str = "dtype", *, no_bool: bool = False) -> MarkDecorator:
    """bool (unless ``no_bool``) and the signed and unsigned integers, as CuPy's ``for_int_dtypes``."""
    return for_dtypes(_of_kinds("biu", no_bool=no_bool), name)


def for_complex_dtypes(name: str = "dtype") -> MarkDecorator:
    """complex64 and complex128."""
    return for_dtypes(_of_kinds("c"), name)
