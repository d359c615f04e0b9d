"""Shared test set-up: hypothesis profiles and the OpenCL place fixture.

``HYPOTHESIS_PROFILE=ci`` (the default) keeps the suite fast and draws the same examples every run
(derandomized: a CI result does not depend on luck); ``dev`` runs more examples, freshly drawn each
run, to search for new failures.
With ``DARRAY_REQUIRE_OPENCL=1`` a missing OpenCL device fails the tests instead of skipping.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=30, deadline=None, print_blob=True, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_call(item):
    """Each invocation of a parametrized hypothesis test starts from the test's own settings.

    Hypothesis's pytest plugin (6.155) replaces such a test's settings at every invocation by a new
    settings object whose parent is the last one, so they nest one level per invocation; resolving
    ``database`` walks the whole nest (uncached while it is None, as ``derandomize`` makes it), and
    past about 950 invocations of one function in one process every later one fails with a
    RecursionError inside hypothesis (CI's item-form stage hit it in test_random_values).
    """
    fn = getattr(item.obj, "__func__", item.obj)
    own = getattr(fn, "__dict__", {}).get("_darray_own_settings")
    if own is None:
        own = getattr(fn, "_hypothesis_internal_use_settings", None)
        if own is not None:
            fn._darray_own_settings = own
    else:
        fn._hypothesis_internal_use_settings = own
    yield


def pytest_sessionstart(session):
    """Under DARRAY_REQUIRE_OPENCL=1, a machine whose devices all failed darray's probe stops the
    run at once with the probe's reasons (not with a build error in every test)."""
    if os.environ.get("DARRAY_REQUIRE_OPENCL") != "1":
        return
    import darray as da

    if not da.place.is_available():
        reasons = "; ".join(f"cl:{d.index} ({d.name} [{d.platform}]): {da.place.probe(d.index).reason}"
                            for d in da.place.devices())
        pytest.exit("DARRAY_REQUIRE_OPENCL=1 but no OpenCL device passed darray's probe: "
                    + (reasons or "no OpenCL device was found"), returncode=1)


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
# Small graphs run through NumPy on host-backed devices (darray.lazy.host); that is off in
# every mode but "host" (eager, the host path on), so the kernels are what the tests check;
# HOST_MODE modules run a third time in it.
BOTH_MODES = {"test_elementwise", "test_reduction", "test_sched"}
HOST_MODE = {"test_elementwise"}


def pytest_configure(config):
    config.addinivalue_line("markers", "lazy_only: checks fusion itself, so it runs in lazy mode only")


def pytest_generate_tests(metafunc):
    module = metafunc.module.__name__.rsplit(".", 1)[-1]
    if module in BOTH_MODES and "lazy_mode" in metafunc.fixturenames:
        modes = ["lazy"] if metafunc.definition.get_closest_marker("lazy_only") else ["lazy", "eager"]
        if len(modes) > 1 or module in HOST_MODE:
            metafunc.parametrize("lazy_mode", modes + (["host"] if module in HOST_MODE else []), indirect=True)


@pytest.fixture(autouse=True)
def lazy_mode(request):
    """'lazy', 'eager' or 'host' (see BOTH_MODES); eager sets what DARRAY_LAZY=0 sets, host is
    eager with small graphs computed on the host where the device allows it."""
    import importlib

    mode = getattr(request, "param", "lazy")
    evaluate = importlib.import_module("darray.lazy.evaluate")
    host = importlib.import_module("darray.lazy.host")
    old, old_limit = evaluate.ENABLED, host.LIMIT
    evaluate.ENABLED = old and mode == "lazy"
    host.LIMIT = 1 << 30 if mode == "host" else 0
    yield mode
    evaluate.ENABLED, host.LIMIT = old, old_limit


@pytest.fixture(autouse=True)
def bounds_check():
    """Under ``DARRAY_CHECK_BOUNDS=1`` (``darray.alloc._guard``), a test fails when a command it
    ran wrote outside its view (a guard byte changed; reads outside a view see NaN or -1, so
    comparisons with NumPy catch those)."""
    yield
    if os.environ.get("DARRAY_CHECK_BOUNDS") != "1":
        return
    import gc

    from darray.alloc import _guard

    gc.collect()  # free the test's arrays: their guards are checked as they return to the pool
    found = list(_guard.violations)
    _guard.violations.clear()
    assert not found, found
