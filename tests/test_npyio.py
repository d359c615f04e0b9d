"""save/load, savez, savetxt/loadtxt, genfromtxt and fromfile: round trips against NumPy's files."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same

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
