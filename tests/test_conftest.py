"""The test set-up's own guards (tests/conftest.py)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


def _depth(s: settings | None) -> int:
    n = 0
    while s is not None:
        s, n = s._fallback, n + 1
    return n


@pytest.mark.parametrize("k", range(40))
@settings(max_examples=1)
@given(x=st.integers())
def test_parametrized_hypothesis_settings_do_not_nest(k, x):
    """hypothesis's pytest plugin wraps a parametrized test's settings at each invocation; the
    conftest hook restarts every invocation from the test's own, so the nest stays shallow
    (hundreds of invocations in one process no longer overflow the stack)."""
    fn = test_parametrized_hypothesis_settings_do_not_nest
    assert _depth(fn._hypothesis_internal_use_settings) <= _depth(fn._darray_own_settings) + 1
