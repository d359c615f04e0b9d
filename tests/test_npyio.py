"""save/load, savez, savetxt/loadtxt, genfromtxt and fromfile: round trips against NumPy's files."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers import DEVICE_DTYPES, assert_same, viewed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import darray as da


@pytest.mark.parametrize("place", [None, "cpu"])
def test_round_trips(place, tmp_path) -> None:
    a = np.arange(12.0).reshape(3, 4)
    x = da.asarray(a, device=place)
    da.save(tmp_path / "x.npy", x[:, ::-1])
    assert_same(np.load(tmp_path / "x.npy"), a[:, ::-1])
    got = da.load(tmp_path / "x.npy", device=place)
    assert isinstance(got, da.DArray) and got.place == x.place
    assert_same(got, a[:, ::-1])
    da.savez(tmp_path / "z.npz", x, b=x.T)
    da.savez_compressed(tmp_path / "c.npz", x)
    with da.load(tmp_path / "z.npz") as archive:
        assert sorted(archive) == ["arr_0", "b"] and len(archive) == 2
        assert_same(archive["b"], a.T)
    assert_same(da.load(tmp_path / "c.npz")["arr_0"], a)
    da.savetxt(tmp_path / "x.txt", x, fmt="%.3f")
    assert_same(da.loadtxt(tmp_path / "x.txt", device=place), np.loadtxt(tmp_path / "x.txt"))
    (tmp_path / "m.csv").write_text("1,2\n3,\n")
    assert_same(da.genfromtxt(tmp_path / "m.csv", delimiter=","), np.genfromtxt(tmp_path / "m.csv", delimiter=","))
    x.tofile(tmp_path / "x.bin")
    assert_same(da.fromfile(tmp_path / "x.bin"), a.reshape(-1))
    with pytest.raises(TypeError, match="structured"):
        da.genfromtxt(tmp_path / "m.csv", delimiter=",", names=True)


# Hypothesis: arrays of every device dtype (0-d, empty, strided, reversed and transposed views; NaN,
# inf, -0.0, extremes) written by darray and read by NumPy and by darray, on both places.
PLACES = pytest.mark.parametrize("place", [None, "cpu"])
FILES = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # tmp_path: one folder, files rewritten
ANY = st.sampled_from(DEVICE_DTYPES).flatmap(viewed)
NUMBERS = ["int8", "int32", "int64", "uint8", "uint64", "float32", "float64"]


@PLACES
@FILES
@given(x=ANY, keyword=st.booleans())
def test_save_load_property(place, tmp_path, x, keyword) -> None:
    base, view = x
    want, got_in = view(base), view(da.asarray(base, device=place))
    path = tmp_path / "x.npy"
    da.save(file=path, arr=got_in) if keyword else da.save(path, got_in)
    assert_same(np.load(path), want)
    got = da.load(file=path, device=place) if keyword else da.load(path, device=place)
    assert isinstance(got, da.DArray) and got.place == da.place.parse(place)
    assert_same(got, want)


@PLACES
@FILES
@given(xs=st.lists(ANY, min_size=1, max_size=3), names=st.lists(st.sampled_from("abc"), max_size=3, unique=True),
       compressed=st.booleans())
def test_savez_property(place, tmp_path, xs, names, compressed) -> None:
    views = [(view(base), view(da.asarray(base, device=place))) for base, view in xs]
    named = dict(zip(names, views))
    positional = views[len(named):]
    path = tmp_path / "z.npz"
    (da.savez_compressed if compressed else da.savez)(path, *[d for _, d in positional],
                                                     **{k: d for k, (_, d) in named.items()})
    want = {f"arr_{k}": n for k, (n, _) in enumerate(positional)} | {k: n for k, (n, _) in named.items()}
    with np.load(path) as archive, da.load(path, device=place) as got:
        assert sorted(archive.files) == sorted(got) == sorted(want) and len(got) == len(want)
        for key, value in want.items():
            assert_same(archive[key], value)
            assert_same(got[key], value)
            assert got[key].place == da.place.parse(place)


@PLACES
@FILES
@given(x=st.sampled_from(NUMBERS).flatmap(lambda d: viewed(d, min_dims=1, max_dims=2)), ndmin=st.integers(0, 2),
       fmt=st.sampled_from([None, "%d", "%.6g", "%.18e"]), delimiter=st.sampled_from([" ", ",", "\t"]))
def test_savetxt_loadtxt_property(place, tmp_path, x, ndmin, fmt, delimiter) -> None:
    base, view = x
    want_in = view(base)
    kw = {"delimiter": delimiter} | ({} if fmt is None else {"fmt": fmt})
    if fmt == "%d" and want_in.dtype.kind == "f":  # NumPy's '%d' of NaN or inf is an error
        want_in = np.nan_to_num(want_in, nan=0, posinf=0, neginf=0).astype(np.int64)
        base, view = want_in, lambda a: a
    np.savetxt(tmp_path / "n.txt", want_in, **kw)
    da.savetxt(tmp_path / "d.txt", view(da.asarray(base, device=place)), **kw)
    assert (tmp_path / "d.txt").read_bytes() == (tmp_path / "n.txt").read_bytes()
    dtype = np.float64 if fmt != "%d" else np.uint64 if want_in.dtype == np.uint64 else np.int64  # (2**63 up)
    want = np.loadtxt(tmp_path / "n.txt", dtype=dtype, delimiter=delimiter, ndmin=ndmin)
    got = da.loadtxt(tmp_path / "d.txt", dtype=dtype, delimiter=delimiter, ndmin=ndmin, device=place)
    assert got.place == da.place.parse(place)
    assert_same(got, want)


@PLACES
@FILES
@given(rows=st.lists(st.lists(st.one_of(st.integers(-99, 99).map(str), st.floats(allow_nan=True).map(repr),
                                        st.just("")), min_size=3, max_size=3), min_size=1, max_size=5),
       filling=st.sampled_from([None, -1.0, 0]), skip_header=st.integers(0, 1))
def test_genfromtxt_property(place, tmp_path, rows, filling, skip_header) -> None:
    path = tmp_path / "m.csv"
    path.write_text("".join(",".join(r) + "\n" for r in rows))
    kw = {"delimiter": ",", "skip_header": skip_header} | ({} if filling is None else {"filling_values": filling})
    with warnings.catch_warnings():  # NumPy warns when skip_header leaves nothing to read: on both sides
        warnings.simplefilter("ignore")
        want = np.genfromtxt(path, **kw)
        got = da.genfromtxt(path, device=place, **kw)
    assert got.place == da.place.parse(place)
    assert_same(got, want)


@PLACES
@FILES
@given(x=ANY, count=st.integers(-1, 5), offset=st.sampled_from([0, 16]))
def test_tofile_fromfile_property(place, tmp_path, x, count, offset) -> None:
    base, view = x
    path = tmp_path / "x.bin"
    view(da.asarray(base, device=place)).tofile(path)
    size = view(base).nbytes
    offset = min(offset, size - size % base.itemsize)
    want = np.fromfile(path, dtype=base.dtype, count=count, offset=offset)
    got = da.fromfile(path, dtype=base.dtype, count=count, offset=offset, device=place)
    assert got.place == da.place.parse(place)
    assert_same(got, want)
    assert_same(np.fromfile(path, dtype=base.dtype), view(base).reshape(-1))
