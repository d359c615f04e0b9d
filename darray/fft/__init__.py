"""darray.fft: the Array API fft extension, computed by pyvkfft (VkFFT) on OpenCL places.

Transforms run on the array's OpenCL queue, ordered by the scheduler like any kernel; plans
are cached (``_plan``). The ``cpu`` place computes through ``numpy.fft``. Where darray
differs from NumPy:

- ``s`` entries of None or -1 mean the axis length (the Array API's -1; NumPy wants ints);
- ``s`` without ``axes`` takes the last ``len(s)`` axes with no DeprecationWarning;
- repeated axes transform once per entry, as in NumPy; an empty ``axes`` (a 0-d input of
  fftn) returns the input itself, as NumPy (rfftn and irfftn: IndexError, as NumPy);
- integer and bool inputs compute in the place's default float (float32 on a device
  without fp64, where NumPy would give complex128); complex128 needs a device with fp64;
  otherwise the result dtypes are NumPy 2's: float16 and float32 in single precision, and
  a 1-axis irfft (hfft) of float16 a float16 (VkFFT computes it in float32);
- a bool ``n`` (or entry of ``s``) is a TypeError (NumPy's rfft and ihfft take True as 1);
- on OpenCL places "ortho" and "forward" results are lazy (the scaling fuses into what
  reads them), and a real axis that is not last gives a result that is a view.

Without pyvkfft, ``import darray`` works; a transform on an OpenCL place raises ImportError
with the install line. ``fftfreq``/``rfftfreq`` take ``dtype=`` and ``device=`` (Array API).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from .._exclusions import lookup as _lookup
from ..ops._out import finish
from ..ops.arrange import roll
from ..ops.creation import arange, default_float
from ..ops.elementwise import apply, where
from ..place import PlaceLike, parse
from ..transfer.convert import asarray
from ._core import transform

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq",
           "fft2", "ifft2", "rfft2", "irfft2",
           "rfftfreq", "fftshift", "ifftshift"]

Norm = str


def _n(n: int | None) -> tuple[int | None]:
    return (n,)


def _s(s: Sequence[int] | None) -> list[int | None] | None:
    return None if s is None else [None if v is None or v == -1 else v for v in s]


def fft(a: DArray, n: int | None = None, axis: int = -1, norm: Norm | None = None,
          out: Any = None) -> DArray:
    """1-D discrete Fourier transform along ``axis``; ``n`` crops or zero-pads the axis first.
    See also: numpy.fft.fft."""
    return finish("fft.fft", transform("fft", "fft", a, _n(n), (axis,), norm), out)


def ifft(a: DArray, n: int | None = None, axis: int = -1, norm: Norm | None = None,
          out: Any = None) -> DArray:
    """1-D inverse transform (divided by ``n`` under "backward"). See also: numpy.fft.ifft."""
    return finish("fft.ifft", transform("ifft", "ifft", a, _n(n), (axis,), norm), out)


def fftn(a: DArray, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
         norm: Norm | None = None, out: Any = None) -> DArray:
    """N-D transform over ``axes`` (default: the last ``len(s)``, or all), each cropped or
    zero-padded to ``s``. See also: numpy.fft.fftn."""
    return finish("fft.fftn", transform("fft", "fftn", a, _s(s), axes, norm), out)


def ifftn(a: DArray, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: Norm | None = None, out: Any = None) -> DArray:
    """N-D inverse transform. See also: numpy.fft.ifftn."""
    return finish("fft.ifftn", transform("ifft", "ifftn", a, _s(s), axes, norm), out)


def rfft(a: DArray, n: int | None = None, axis: int = -1, norm: Norm | None = None,
          out: Any = None) -> DArray:
    """1-D transform of real input: the ``n // 2 + 1`` non-negative frequencies (TypeError for
    complex input). See also: numpy.fft.rfft."""
    return finish("fft.rfft", transform("rfft", "rfft", a, _n(n), (axis,), norm), out)


def irfft(a: DArray, n: int | None = None, axis: int = -1, norm: Norm | None = None,
          out: Any = None) -> DArray:
    """Inverse of :func:`rfft`: ``n`` real outputs (default ``2 * (m - 1)``) from ``n // 2 + 1``
    inputs (cropped or zero-padded). See also: numpy.fft.irfft."""
    return finish("fft.irfft", transform("irfft", "irfft", a, _n(n), (axis,), norm), out)


def rfftn(a: DArray, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: Norm | None = None, out: Any = None) -> DArray:
    """N-D transform of real input, halved along the last of ``axes``. See also: numpy.fft.rfftn."""
    return finish("fft.rfftn", transform("rfft", "rfftn", a, _s(s), axes, norm), out)


def irfftn(a: DArray, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
           norm: Norm | None = None, out: Any = None) -> DArray:
    """Inverse of :func:`rfftn`; the last of ``s`` is the real output length (default
    ``2 * (m - 1)``). See also: numpy.fft.irfftn."""
    return finish("fft.irfftn", transform("irfft", "irfftn", a, _s(s), axes, norm), out)


def hfft(a: DArray, n: int | None = None, axis: int = -1, norm: Norm | None = None,
          out: Any = None) -> DArray:
    """Transform of a Hermitian-symmetric signal given by its first half: ``n`` real outputs.
    See also: numpy.fft.hfft."""
    a = a if isinstance(a, DArray) else asarray(a)
    return finish("fft.hfft", transform("irfft", "hfft", apply("conj", a), _n(n), (axis,), norm, swap=True), out)


def ihfft(a: DArray, n: int | None = None, axis: int = -1, norm: Norm | None = None,
          out: Any = None) -> DArray:
    """Inverse of :func:`hfft` for real input: ``n // 2 + 1`` complex outputs.
    See also: numpy.fft.ihfft."""
    return finish("fft.ihfft", apply("conj", transform("rfft", "ihfft", a, _n(n), (axis,), norm, swap=True)), out)


def _count(op: str, n: Any) -> Any:
    """``n`` as numpy.fft's frequency functions take it: an int or NumPy integer (ValueError otherwise),
    kept as it is (``1 / (n * d)`` in its arithmetic, as NumPy's)."""
    if not isinstance(n, (int, np.integer)):
        raise ValueError(f"darray fft.{op}: n should be an integer, got {n!r}")
    return n


def _frequencies(op: str, n: int, count: int, d: float, dtype: Any, device: PlaceLike) -> tuple[DArray, float]:
    """(``arange(count)`` in the result dtype, ``1 / (n * d)``); ZeroDivisionError for n or d of 0 as in NumPy."""
    scale = 1.0 / (n * d)
    if op == "fftfreq" and isinstance(n, bool):  # NumPy's empty(n) refuses it (rfftfreq's arange does not)
        raise TypeError("darray fft.fftfreq: expected an integer n, got a bool")
    if count < 0:
        raise ValueError(f"darray fft.{op}: negative dimensions are not allowed (n={n})")
    place = parse(device)
    dt = default_float(place) if dtype is None else _dt.as_dtype(dtype, f"fft.{op}")
    if dt.kind != "f":
        raise ValueError(f"darray fft.{op}: dtype must be a real floating dtype, got {dt}")
    return arange(int(count), dtype=dt, device=place), scale


def fftfreq(n: int, d: float = 1.0, device: PlaceLike = None, *, dtype: Any = None) -> DArray:
    """The sample frequencies of an ``n``-point :func:`fft` with sample spacing ``d``:
    ``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (n * d)``. Default dtype: the place's
    default float. See also: numpy.fft.fftfreq. ``n`` True is NumPy's TypeError (rfftfreq takes it)."""
    n = _count("fftfreq", n)
    k, scale = _frequencies("fftfreq", n, n, d, dtype, device)
    return where(k < (n - 1) // 2 + 1, k, k - n) * scale


def rfftfreq(n: int, d: float = 1.0, device: PlaceLike = None, *, dtype: Any = None) -> DArray:
    """The sample frequencies of an ``n``-point :func:`rfft`: ``[0, 1, ..., n // 2] / (n * d)``.
    See also: numpy.fft.rfftfreq."""
    n = _count("rfftfreq", n)
    k, scale = _frequencies("rfftfreq", n, max(n // 2 + 1, 0), d, dtype, device)
    return k * scale


def _shift(x: Any, axes: int | Sequence[int] | None, sign: int) -> DArray:
    x = x if isinstance(x, DArray) else asarray(x)
    axes = tuple(range(x.ndim)) if axes is None else (axes,) if isinstance(axes, int) else tuple(axes)
    return roll(x, tuple(sign * (x.shape[a] // 2) for a in axes), axis=axes)


def fftshift(x: DArray, axes: int | Sequence[int] | None = None) -> DArray:
    """``x`` rolled so that frequency 0 is in the middle of each of ``axes`` (default: all).
    See also: numpy.fft.fftshift."""
    return _shift(x, axes, 1)


def ifftshift(x: DArray, axes: int | Sequence[int] | None = None) -> DArray:
    """The inverse of :func:`fftshift`. See also: numpy.fft.ifftshift."""
    return _shift(x, axes, -1)


def fft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: Norm | None = None,
         out: Any = None) -> DArray:
    """2-D transform over ``axes`` (the last two by default). See also: numpy.fft.fft2."""
    return fftn(a, s, axes, norm, out)


def ifft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: Norm | None = None,
          out: Any = None) -> DArray:
    """2-D inverse transform over ``axes``. See also: numpy.fft.ifft2."""
    return ifftn(a, s, axes, norm, out)


def rfft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: Norm | None = None,
          out: Any = None) -> DArray:
    """2-D transform of real input over ``axes``. See also: numpy.fft.rfft2."""
    return rfftn(a, s, axes, norm, out)


def irfft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: Norm | None = None,
           out: Any = None) -> DArray:
    """Inverse of :func:`rfft2`. See also: numpy.fft.irfft2."""
    return irfftn(a, s, axes, norm, out)


__getattr__ = _lookup("fft")  # absent NumPy names say why (darray._exclusions)
