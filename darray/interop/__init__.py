"""NumPy interoperability: which conversions copy and which keep the data on the device.

- ``np.asarray(x)`` / ``np.array(x)`` / ``x.get()`` (``DArray.__array__``): an explicit host copy
  (it waits only for the work writing ``x``). ``np.asarray(x, copy=False)`` raises ValueError,
  as NumPy 2 specifies, except for arrays on the ``cpu`` place, which are viewed in place.
- ``np.sin(x)``, ``np.add(x, y, out=z)``, ``np.add.reduce(x)`` (``__array_ufunc__``, see
  ``interop.ufunc``) and ``np.concatenate([x, y])``, ``np.sum(x)``, ``np.where(c, x, y)``
  (``__array_function__``, see ``interop.function``) run darray's op on ``x``'s place and
  return DArrays: no host round trip. NumPy arrays among the arguments are copied to that
  place first. A ufunc, method, keyword or function darray does not implement is a TypeError
  naming it, never a silent host computation: use ``np.asarray(x)`` to ask for one.
- ``x.__dlpack__()`` / ``darray.from_dlpack`` share memory the host can address (see
  ``interop.dlpack``); other device memory is a ``BufferError`` unless a copy is asked for.
- ``darray.asarray(numpy_array)`` copies onto the place; ``x.to_device(place)`` copies between
  places (``x`` itself when already there).
- pyopencl: ``x.to_pyopencl()`` and ``darray.from_pyopencl(a)`` share the buffer, events respected
  both ways (``interop.cl_arrays``).
- ``pickle``: a host copy, loaded onto the same kind of place or the default one (``interop.pickling``);
  Dask's distributed scheduler moves DArray chunks that way (``interop.dask_chunks`` registers
  DArray with Dask as a chunk type).
"""
from __future__ import annotations

from .cl_arrays import from_pyopencl, to_pyopencl
from .dlpack import from_dlpack

__all__ = ["from_dlpack", "from_pyopencl", "to_pyopencl"]
