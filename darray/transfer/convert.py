"""Moving values between NumPy, places and dtypes: asarray, get, to, astype, slice assignment."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from .. import dtypes as _dt
from .. import lazy
from .._array import DArray, read_only
from .._registry import implementation, register
from ..alloc import HostAllocation, allocate
from ..dim import MAX_RANK, Dim, broadcast_shapes, check_nbytes
from ..lazy import at_once, execute, graph, host
from ..place import CLPlace, Place, PlaceLike, parse, runtime
from . import copies


def check_dtype(dtype: np.dtype, place: Place, op: str) -> None:
    """TypeError when ``place`` cannot hold ``dtype`` (float64 without fp64, float16 without fp16)."""
    if isinstance(place, CLPlace) and dtype.kind in "fc":
        info = runtime(place).info
        _dt.check_device_dtype(dtype, device_name=info.name, fp64=info.fp64, fp16=info.fp16, op=op)


def _checked(shape: Any, dtype: np.dtype, place: Place, op: str) -> Dim:
    """The contiguous Dim of a new array of ``shape`` and ``dtype`` on ``place``; errors name ``op``."""
    dim = Dim.contiguous(shape)
    check_nbytes(dim.shape, dtype.itemsize, op)
    check_dtype(dtype, place, op)
    return dim


def empty(shape: Any, dtype: np.dtype, place: Place, op: str = "empty") -> DArray:
    """An uninitialised contiguous array (errors name ``op``: a dtype the place cannot hold, a
    size no array can have)."""
    dim = _checked(shape, dtype, place, op)
    return DArray(allocate(place, dim.size * dtype.itemsize), dim, dtype, place)


def full(shape: Any, value: np.ndarray, place: Place, op: str) -> DArray:
    """A new contiguous array filled with the 0-d ``value``, of its dtype (errors name ``op`` as
    :func:`empty`'s): filled at once on host-backed devices where ``lazy.at_once.put`` can, else
    by ``assign``."""
    dtype = value.dtype
    dim = _checked(shape, dtype, place, op)
    if isinstance(place, CLPlace):
        made = at_once.put(value, dim, dtype, place)
        if made is not None:
            return made
    out = DArray(allocate(place, dim.size * dtype.itemsize), dim, dtype, place)
    assign(out, dim, value)
    return out


def from_numpy(host: np.ndarray, place: Place) -> DArray:
    """A copy of a NumPy array on ``place``: C-contiguous, Fortran-contiguous for a ``host`` that is
    Fortran- and not C-contiguous (NumPy's order "K" for the two layouts)."""
    if host.ndim > 1 and host.flags.f_contiguous and not host.flags.c_contiguous:
        t = from_numpy(host.T, place)
        return DArray(t._alloc, t._dim.transpose(), t._dtype, place)
    dtype = _dt.as_dtype(host.dtype, "asarray")
    dim = Dim.trusted(host.shape) if host.ndim <= MAX_RANK else Dim.contiguous(host.shape)  # (raises: rank)
    check_dtype(dtype, place, "asarray")
    return implementation("convert.from_numpy", place)(host, dim, dtype, place)


def from_result(values: np.ndarray, place: Place) -> DArray:
    """``from_numpy`` for what NumPy computed from darray arrays on ``place`` (a mask's selection,
    ``nonzero``, a gather): its dtype and rank need no checks."""
    return implementation("convert.from_numpy", place)(values, Dim.trusted(values.shape), values.dtype, place)


@register("convert.from_numpy", "cpu")
def _from_numpy_cpu(host: np.ndarray, dim: Dim, dtype: np.dtype, place: Place) -> DArray:
    out = DArray(HostAllocation(host.nbytes), dim, dtype, place)
    out._host_view()[...] = host
    return out


@register("convert.from_numpy", "cl")
def _from_numpy_cl(values: np.ndarray, dim: Dim, dtype: np.dtype, place: CLPlace) -> DArray:
    made = at_once.put(values, dim, dtype, place)  # at once on host-backed devices where it can
    return made if made is not None else DArray(copies.upload(values, place), dim, dtype, place)


def input_term(x: DArray) -> graph.Input:
    """The lazy-graph leaf reading ``x`` (materialising it first)."""
    return graph.Input(x._data(), x._dim, x._dtype)


def run_into(root: graph.Term, out: DArray, name: str = "elementwise") -> DArray:
    """Compute one elementwise term into the (OpenCL) view ``out`` now."""
    place = cast(CLPlace, out._place)
    target = graph.Input(out._data(), out._dim, out._dtype)
    if type(root) is graph.Node and root.value is None and lazy.compute_into(root, target, place, name):
        return out  # (with the values below it that live arrays hold: ``evaluate.shared``)
    if not lazy.launch([root], [target], place, name):
        # over the device's kernel-argument budget: the graph runs on its own first (in parts)
        value = DArray(None, Dim.trusted(root.shape), root.dtype, place, root)
        execute.run([input_term(value)], [target], place, name)
    return out


def scalar(x: DArray, what: str = "item") -> np.generic:
    """The one element of ``x`` as a NumPy scalar (``what``: the op, for the error of another size):
    read by the host engine where it may, else copied out."""
    if x._dim.size != 1:
        raise ValueError(f"darray {what}: can only convert an array of size 1 to a Python scalar, got size "
                         f"{x._dim.size}")
    v = at_once.element(x)
    if v is not None:
        return v
    src = graph.copied(x._node)  # a pending copy (an element read: ``indexing.getitem``) reads its source
    return to_numpy(x if src is None else DArray(src.alloc, src.dim, src.dtype, x._place)).reshape(-1)[0]


def item(x: DArray, what: str = "item") -> Any:
    """The one element of ``x`` as a Python scalar (see :func:`scalar`)."""
    return scalar(x, what).item()


def to_numpy(x: DArray, out: np.ndarray | None = None) -> np.ndarray:
    """A NumPy copy of ``x``, or ``x`` copied into ``out`` (checked by ``copies.check_out``)."""
    if out is not None:
        copies.check_out(x.shape, x._dtype, out)
    return implementation("convert.to_numpy", x._place)(x, out)


@register("convert.to_numpy", "cpu")
def _to_numpy_cpu(x: DArray, out: np.ndarray | None) -> np.ndarray:
    if out is None:
        return np.array(x._host_view(), copy=True)
    copies.host_copy(out, x._host_view())
    return out


@register("convert.to_numpy", "cl")
def _to_numpy_cl(x: DArray, out: np.ndarray | None) -> np.ndarray:
    host = copies.download(x._data(), x._dim, x._dtype, cast(CLPlace, x._place), out)
    if host is None:  # sparse strided view: gather on the device, then read
        host = to_numpy(astype(x, x._dtype, copy=True), out)
    return host


def to_place(x: DArray, place: Place) -> DArray:
    if place == x._place:
        return x
    return from_numpy(to_numpy(x), place)


ORDERS = ("C", "F", "A", "K")


def axis_order(x: DArray, order: str | None) -> tuple[int, ...]:
    """The axes of a new array made from ``x`` in memory order ``order``, outermost first, as NumPy
    lays it out: "C" in order, "F" reversed, "A" reversed for a Fortran-contiguous ``x`` (not
    C-contiguous), "K" (None) by ``x``'s strides, largest first (ties and length-1 axes in order)."""
    d = x._dim
    n = len(d.shape)
    if n < 2 or order == "C" or (order == "A" and not (d.is_f_contiguous and not d.is_c_contiguous)):
        return tuple(range(n))
    if order in ("F", "A"):
        return tuple(range(n - 1, -1, -1))
    return tuple(sorted(range(n), key=lambda a: -abs(d.strides[a]) if d.shape[a] > 1 else 0))


def laid_out(x: DArray, order: str | None) -> bool:
    """Whether ``x`` already is in the memory order ``order`` asks of it (NumPy's no-copy test of
    ``astype``: "A" takes a C- or Fortran-contiguous array, "K" any; ``asarray``'s "A" takes any);
    ValueError for an order NumPy does not have."""
    if order == "C":
        return x._dim.is_c_contiguous
    if order == "F":
        return x._dim.is_f_contiguous
    if order == "A":
        return x._dim.is_c_contiguous or x._dim.is_f_contiguous
    if order not in ORDERS and order is not None:
        raise ValueError(f"darray: order must be one of 'C', 'F', 'A', 'K', got {order!r}")
    return True


def astype(x: DArray, dtype: np.dtype, *, copy: bool, order: str | None = "C") -> DArray:
    """``x`` converted to ``dtype`` in a new contiguous array laid out by ``order``
    (:func:`axis_order`); ``x`` itself where ``copy`` is False and it is already so."""
    if laid_out(x, order) and not copy and dtype == x._dtype:
        return x
    check_dtype(dtype, x._place, "astype")
    axes = axis_order(x, order)
    if axes == tuple(range(len(axes))):
        return implementation("convert.astype", x._place)(x, dtype)
    inverse = tuple(np.argsort(axes).tolist())  # made in the order ``axes`` over the permuted view
    t = implementation("convert.astype", x._place)(DArray(x._data(), x._dim.transpose(axes), x._dtype, x._place),
                                                   dtype)
    return DArray(t._alloc, t._dim.transpose(inverse), dtype, x._place)


@register("convert.astype", "cpu")
def _astype_cpu(x: DArray, dtype: np.dtype) -> DArray:
    return from_numpy(x._host_view().astype(dtype, order="C"), x._place)


@register("convert.astype", "cl")
def _astype_cl(x: DArray, dtype: np.dtype) -> DArray:
    out = empty(x.shape, dtype, x._place)
    return run_into(input_term(x), out, "astype" if dtype != x._dtype else "copy")


def scalar_value(value: Any, dtype: np.dtype) -> Any:
    """A host scalar (or 0-d array) cast to ``dtype`` as NumPy's setitem casts it; OverflowError
    or ValueError naming setitem when it does not fit."""
    t = type(value)
    if (t is float or t is int) and dtype.kind in "fc":  # the common case, quickly (same value and warnings)
        return dtype.type(value)
    try:
        return (np.array(value).astype(dtype)[()] if isinstance(value, np.ndarray)
                else np.array(value, dtype=dtype)[()])
    except (OverflowError, ValueError) as err:
        raise type(err)(f"darray setitem: {value!r} does not fit {dtype}: {err}") from err


def _value_term(value: Any, dtype: np.dtype, shape: tuple[int, ...], place: CLPlace, target: DArray) -> graph.Term:
    if isinstance(value, DArray):
        src = value
    elif np.isscalar(value) or (isinstance(value, np.ndarray) and value.ndim == 0):
        return graph.Scalar(scalar_value(value, dtype), dtype)
    else:  # host values are cast on the host, as NumPy's setitem casts them
        src = from_numpy(value.astype(dtype, copy=False) if isinstance(value, np.ndarray)
                         else np.asarray(value, dtype=dtype), place)
    extra = src.ndim - len(shape)
    if extra > 0 and isinstance(value, (DArray, np.ndarray)) and all(n == 1 for n in src.shape[:extra]):
        # NumPy's setitem drops an array's extra leading ones (a list may not have more axes)
        src = src.reshape(src.shape[extra:])
    try:
        fits = broadcast_shapes(src.shape, shape) == shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"darray setitem: could not broadcast input array from shape {src.shape} into shape {shape}")
    n = src._node
    if n is not None and n.value is None and src.shape == shape and src._place == place:
        return n  # a pending value of the target's shape: computed in the assignment's one kernel
    return input_term(src)


def assign(x: DArray, dim: Dim, value: Any, op: str = "setitem") -> None:
    """``x[key] = value`` where ``dim`` is the view ``key`` selects (NumPy casting and broadcasting);
    ValueError naming ``op`` when ``x`` is read-only (every write into an existing array comes here
    or to :func:`write`)."""
    if x._readonly:
        read_only(op)
    if isinstance(value, DArray) and value._place != x._place:
        raise ValueError(f"darray setitem: value is on {value._place} but the array is on {x._place}; use .to()")
    target = DArray(x._data(), dim, x._dtype, x._place)
    implementation("convert.assign", x._place)(target, value)


@register("convert.assign", "cpu")
def _assign_cpu(target: DArray, value: Any) -> None:
    target._host_view()[...] = to_numpy(value) if isinstance(value, DArray) else value


@register("convert.assign", "cl")
def _assign_cl(target: DArray, value: Any) -> None:
    if not assign_now(target, ..., target._dim.size, value):
        write(target, _value_term(value, target._dtype, target.shape, cast(CLPlace, target._place), target))


_SCALARS = (float, int, bool, complex)


def assign_now(x: DArray, key: Any, n: int, value: Any) -> bool:
    """``x[key] = value`` for a basic ``key`` selecting ``n`` elements, by the host engine as it is
    called where it may write ``x`` (``host.view``) and ``n`` is at most ``host.LIMIT``: a scalar,
    or a settled array whose cast NumPy makes as the kernels do (NumPy's broadcasting). True when
    done; False (nothing done) where the kernels take it."""
    if not n or n > host.LIMIT or x._readonly:
        return False
    dtype = x._dtype
    if type(value) is DArray:
        src = host.view(value)
        if src is None or not host.exact_copy(value._dtype, dtype):
            return False
    elif type(value) in _SCALARS or isinstance(value, np.generic):
        src = scalar_value(value, dtype)
    else:
        return False
    lazy.before_write(x._alloc)  # pending graphs reading the old values run first
    dst = host.view(x, write=True)
    if dst is None:
        return False
    try:
        if type(src) is np.ndarray and src.dtype != dtype:
            host.quietly(dst.__setitem__, key, src)
        else:
            dst[key] = src
    except ValueError as err:  # shapes that do not broadcast
        raise ValueError(f"darray setitem: {err}") from None
    return True


def write(target: DArray, value: Any, op: str = "setitem") -> None:
    """Write a lazy term (OpenCL) or NumPy result (CPU) of ``target``'s shape into ``target``
    (ValueError naming ``op`` when it is read-only).

    Pending graphs that read ``target`` run first, so they keep seeing the old values.
    """
    if target._readonly:
        read_only(op)
    implementation("convert.write", target._place)(target, value)


@register("convert.write", "cpu")
def _write_cpu(target: DArray, value: Any) -> None:
    target._host_view()[...] = value


@register("convert.write", "cl")
def _write_cl(target: DArray, value: graph.Term) -> None:
    alloc = target._data()
    if type(value) is graph.Input and value.alloc is alloc and value.dim == target._dim \
            and value.dtype == target._dtype:  # a view written onto itself (``a[k] += 1`` stores the
        return                                 # updated element back): nothing changes
    view = graph.Input(alloc, target._dim, target._dtype)
    # ``value`` reads another view sharing an element with the target (``a[1:] = a[:-1]``: not
    # ``cp[..., k] = cp[..., k - 1] * 2``, interleaved views that share none): computed aside first
    aside = graph.touches(value, view, same=False)
    held = lazy.before_write(alloc, view, None if aside or value.dtype != target._dtype else value)
    if aside:
        tmp = empty(target.shape, target._dtype, target._place)
        value = input_term(run_into(value, tmp))
    if target.size:
        run_into(value, target, "setitem")
    lazy.hand_over(held, view)  # the arrays holding ``value`` now read it in the target


_ADOPTERS: list[tuple[type, Callable[[Any, PlaceLike, bool | None], DArray]]] = []


def adopt(kind: type, convert: Callable[[Any, PlaceLike, bool | None], DArray]) -> None:
    """Let ``asarray`` take objects of ``kind`` through ``convert(obj, device, copy)`` (registered by
    ``darray.interop``, which sits above this module)."""
    _ADOPTERS.append((kind, convert))


def host_view(x: DArray) -> np.ndarray | None:
    """A NumPy view of ``x``'s memory where NumPy can address it in place (the ``cpu`` place), else None."""
    return implementation("convert.host_view", x._place)(x)


@register("convert.host_view", "cpu")
def _host_view_cpu(x: DArray) -> np.ndarray:
    x._data()
    return x._host_view()


@register("convert.host_view", "cl")
def _host_view_cl(x: DArray) -> None:
    return None


def asarray(a: Any, dtype: Any = None, order: str | None = None, *, device: PlaceLike = None,
            copy: bool | None = None, like: Any = None) -> DArray:
    """Convert ``obj`` (NumPy array, nested list, scalar, DArray, pyopencl array) to a DArray on ``device``.

    See also: numpy.asarray. ``copy=False`` raises ValueError when a copy is needed.
    """
    want = _dt.as_dtype(dtype, "asarray") if dtype is not None else None
    for kind, adopt in _ADOPTERS:  # e.g. a pyopencl array, wrapping darray's buffers (``darray.interop``)
        if isinstance(a, kind):
            a = adopt(a, device, copy)
    if isinstance(a, DArray):
        place = parse(device) if device is not None else a._place
        same = place == a._place and (want is None or want == a._dtype)
        if same and not copy and laid_out(a, "K" if order == "A" else order):  # (asarray's "A": no copy)
            return a
        if copy is False:
            raise ValueError("darray asarray: copy=False but a copy is needed (other place, dtype or order)")
        moved = to_place(a, place)
        return astype(moved, want or a._dtype, copy=moved is a or not laid_out(moved, order), order=order)
    place = parse(device)
    if copy is False:
        raise ValueError("darray asarray: copy=False cannot wrap host data on a device without copying")
    if isinstance(a, (bool, int, float, complex)) and want is None:
        want = _dt.result_type(a)
    try:
        host = np.asarray(a, dtype=want, order=cast(Any, order))  # (NumPy checks the order)
    except OverflowError as err:
        raise OverflowError(f"darray asarray: {err}") from err
    if not host.dtype.isnative:
        host = host.astype(host.dtype.newbyteorder("="))
    _dt.as_dtype(host.dtype, "asarray")
    return from_numpy(host, place)
