"""Shared test set-up: hypothesis profiles and the OpenCL place fixture.

``HYPOTHESIS_PROFILE=ci`` (the default) keeps the suite fast; ``dev`` runs more examples.
With ``DARRAY_REQUIRE_OPENCL=1`` a missing OpenCL device fails the tests instead of skipping.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=30, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _opencl_place():
    import darray as da

    if not da.place.is_available():
        if os.environ.get("DARRAY_REQUIRE_OPENCL") == "1":
            pytest.fail("DARRAY_REQUIRE_OPENCL=1 but no OpenCL device was found")
        pytest.skip("no OpenCL device")
    return da.place.parse("cl")


@pytest.fixture(scope="session")
def cl_place():
    """The best OpenCL place (skips, or fails under DARRAY_REQUIRE_OPENCL=1, when there is none)."""
    return _opencl_place()


@pytest.fixture(scope="session", params=["cl", "cpu"])
def any_place(request):
    """Each place kind in turn: the OpenCL device and the CPU."""
    import darray as da

    return _opencl_place() if request.param == "cl" else da.CPUPlace()


# Modules whose tests run twice, lazily (fused graphs) and eagerly (as under DARRAY_LAZY=0):
# results must be identical in both modes. Tests of fusion itself are marked ``lazy_only``.
BOTH_MODES = {"test_elementwise", "test_reduction", "test_sched"}


def pytest_configure(config):
    config.addinivalue_line("markers", "lazy_only: checks fusion itself, so it runs in lazy mode only")


def pytest_generate_tests(metafunc):
    if (metafunc.module.__name__.rsplit(".", 1)[-1] in BOTH_MODES and "lazy_mode" in metafunc.fixturenames
            and metafunc.definition.get_closest_marker("lazy_only") is None):
        metafunc.parametrize("lazy_mode", ["lazy", "eager"], indirect=True)


@pytest.fixture(autouse=True)
def lazy_mode(request):
    """'lazy' or 'eager' (BOTH_MODES modules run in both); eager sets what DARRAY_LAZY=0 sets."""
    import importlib

    mode = getattr(request, "param", "lazy")
    evaluate = importlib.import_module("darray.lazy.evaluate")
    old = evaluate.ENABLED
    evaluate.ENABLED = old and mode == "lazy"
    yield mode
    evaluate.ENABLED = old
