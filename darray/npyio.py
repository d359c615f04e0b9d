"""Input and output through NumPy on a host copy: save, load, savez, savez_compressed, loadtxt,
savetxt, genfromtxt, fromfile.

Differs from NumPy: every function goes through a host copy (darray memory is not a file
buffer); loaders put their arrays on ``device`` (the default place unless given), and ``load``
of an ``.npz`` gives a mapping whose arrays come to the device as they are read.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from ._array import DArray
from .place import PlaceLike, parse
from .transfer.convert import from_numpy, to_numpy


def _host(a: Any) -> Any:
    return to_numpy(a) if isinstance(a, DArray) else a


def _device(value: Any, device: PlaceLike) -> Any:
    # np.asarray keeps a 0-d array 0-d (np.ascontiguousarray would make it 1-d)
    return from_numpy(np.asarray(value, order="C"), parse(device)) if isinstance(value, np.ndarray) else value


class NpzFile(Mapping[str, Any]):
    """The arrays of an ``.npz`` archive, each copied to the place when read (a context manager, as
    NumPy's)."""

    def __init__(self, archive: Any, device: PlaceLike) -> None:
        self._archive, self._device = archive, device
        self.files = list(archive.files)

    def __getitem__(self, key: str) -> Any:
        return _device(self._archive[key], self._device)

    def __iter__(self) -> Iterator[str]:
        return iter(self.files)

    def __len__(self) -> int:
        return len(self.files)

    def close(self) -> None:
        self._archive.close()

    def __enter__(self) -> NpzFile:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def save(file: Any, arr: Any, allow_pickle: bool = True) -> None:
    """Write one array to a ``.npy`` file (through a host copy). See also: numpy.save."""
    np.save(file, _host(arr), allow_pickle=allow_pickle)


def savez(file: Any, *args: Any, **kwds: Any) -> None:
    """Write arrays to an uncompressed ``.npz`` archive (through host copies). See also: numpy.savez."""
    np.savez(file, *[_host(a) for a in args], **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file: Any, *args: Any, **kwds: Any) -> None:
    """Write arrays to a compressed ``.npz`` archive (through host copies). See also: numpy.savez_compressed."""
    np.savez_compressed(file, *[_host(a) for a in args], **{k: _host(v) for k, v in kwds.items()})


def load(file: Any, mmap_mode: Any = None, allow_pickle: bool = False, fix_imports: bool = True,
         encoding: str = "ASCII", *, max_header_size: int = 10000, device: PlaceLike = None) -> Any:
    """An array from a ``.npy`` file (on ``device``), or a mapping of them from an ``.npz`` archive.
    See also: numpy.load."""
    got = np.load(file, mmap_mode, allow_pickle, fix_imports, encoding,  # type: ignore[arg-type]  # NumPy 2 types it narrowly
                  max_header_size=max_header_size)
    if isinstance(got, np.lib.npyio.NpzFile):
        return NpzFile(got, device)
    return _device(got, device)


def savetxt(fname: Any, X: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N803  (NumPy's name)
    """Write a 1-D or 2-D array as text (through a host copy). See also: numpy.savetxt."""
    np.savetxt(fname, _host(X), *args, **kwargs)


def loadtxt(fname: Any, *args: Any, device: PlaceLike = None, **kwargs: Any) -> Any:
    """An array parsed from text (on ``device``). See also: numpy.loadtxt."""
    got = np.loadtxt(fname, *args, **kwargs)
    return tuple(_device(g, device) for g in got) if isinstance(got, tuple) else _device(got, device)


def genfromtxt(fname: Any, *args: Any, device: PlaceLike = None, **kwargs: Any) -> Any:
    """An array parsed from text with missing values handled (on ``device``; numeric data only: darray
    has no structured arrays). See also: numpy.genfromtxt."""
    got = np.genfromtxt(fname, *args, **kwargs)
    if got.dtype.names:
        raise TypeError("darray genfromtxt: structured (named-column) results are not supported; pass dtype=float")
    return _device(got, device)


def fromfile(file: Any, dtype: Any = None, count: int = -1, sep: str = "", offset: int = 0, *, like: Any = None,
             device: PlaceLike = None) -> DArray:
    """A 1-D array read from a binary or text file (on ``device``). See also: numpy.fromfile."""
    return _device(np.fromfile(file, dtype, count, sep, offset), device)


def forwards(numpy_fn: Callable[..., Any], *wrappers: Callable[..., Any], device: bool = False) -> None:
    """Give each wrapper, which passes its arguments on to ``numpy_fn`` (through host copies), NumPy's
    signature, plus darray's keyword-only ``device=`` where the wrapper takes it."""
    params = list(inspect.signature(numpy_fn).parameters.values())
    if device:
        at = len(params) - (params[-1].kind is inspect.Parameter.VAR_KEYWORD)
        params.insert(at, inspect.Parameter("device", inspect.Parameter.KEYWORD_ONLY, default=None))
    for fn in wrappers:
        fn.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]


forwards(np.savetxt, savetxt)
forwards(np.savez, savez)
forwards(np.savez_compressed, savez_compressed)
forwards(np.loadtxt, loadtxt, device=True)
forwards(np.genfromtxt, genfromtxt, device=True)

__all__ = ["save", "savez", "savez_compressed", "load", "savetxt", "loadtxt", "genfromtxt", "fromfile"]
