"""einops' main API on DArrays (darray/interop/einops_backend.py), against the same calls on NumPy arrays."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_same

import darray as da

einops = pytest.importorskip("einops")


@pytest.mark.parametrize("place", [None, "cpu"])
def test_einops_main_api(place) -> None:
    a = np.arange(2 * 3 * 4 * 6, dtype=np.float32).reshape(2, 3, 4, 6)
    x = da.asarray(a, device=place)
    for pattern in ("b c h w -> b h w c", "b c h w -> (b h) (w c)", "b c (h h2) (w w2) -> b (c h2 w2) h w"):
        kw = {"h2": 2, "w2": 2} if "h2" in pattern else {}
        got = einops.rearrange(x, pattern, **kw)
        assert isinstance(got, da.DArray) and got.place == x.place
        assert_same(got, einops.rearrange(a, pattern, **kw))
    for op in ("max", "mean", "sum", "min", "prod"):
        assert_same(einops.reduce(x, "b c h w -> b c", op), einops.reduce(a, "b c h w -> b c", op), rtol=1e-5,
                    atol=1e-5)
    assert_same(einops.repeat(x[0, 0], "h w -> h w k", k=3), einops.repeat(a[0, 0], "h w -> h w k", k=3))
    assert_same(einops.repeat(x[0, 0, 0], "w -> b w", b=2), einops.repeat(a[0, 0, 0], "w -> b w", b=2))
    assert einops.parse_shape(x, "b c _ w") == {"b": 2, "c": 3, "w": 6}
    y = da.asarray(a[0, 0], device=place)
    assert_same(einops.einsum(y, y, "h w, k w -> h k"), einops.einsum(a[0, 0], a[0, 0], "h w, k w -> h k"),
                rtol=1e-5, atol=1e-4)
    assert_same(einops.rearrange([x[0], x[1]], "n c h w -> n c h w"), a)
