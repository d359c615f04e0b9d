"""darray's pytest plugin, opt-in: ``pytest_plugins = ["darray.testing.plugin"]`` in a test module or the
root conftest.py, or ``pytest -p darray.testing.plugin``.

- ``xp``: a fixture run once with ``numpy`` and once with ``darray``;
- ``place``: a fixture run once per place: every OpenCL device that passed darray's probe, then ``cpu``;
- the hypothesis profile ``"darray"`` (no deadline: a device's first call compiles kernels; the
  too-slow and data-too-large health checks off), loaded as the plugin loads unless a profile
  other than hypothesis's own ("default", or "ci", which hypothesis loads where ``CI`` is set) was
  loaded first (``--hypothesis-profile`` still wins); it also reaches the ``@given`` tests of a
  module that named the plugin in its own ``pytest_plugins`` (defined before the plugin loaded,
  they bound hypothesis's profile).
"""
from __future__ import annotations

import warnings
from types import ModuleType

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import darray

from ..place import CLPlace, CPUPlace, Place, devices, probe

__all__ = ["places", "xp", "place"]

settings.register_profile("darray", max_examples=50, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
_BUILT_IN = ("default", "ci")  # the profiles hypothesis loads by itself
_bound = settings.get_profile(settings.get_current_profile_name())
if settings.get_current_profile_name() in _BUILT_IN:
    settings.load_profile("darray")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Hypothesis tests holding the profile hypothesis had loaded (no ``@settings`` of their own, defined
    before this plugin loaded) get the "darray" profile, when it is the one loaded."""
    if settings.get_current_profile_name() != "darray":
        return
    for item in items:
        test = getattr(item, "obj", None)
        test = getattr(test, "__func__", test)
        if getattr(test, "_hypothesis_internal_use_settings", None) is _bound:
            test._hypothesis_internal_use_settings = settings.get_profile("darray")  # type: ignore[union-attr]


def places() -> list[Place]:
    """Every OpenCL place whose device passed darray's probe, then the cpu place."""
    with warnings.catch_warnings():  # the probe warns once about each device it leaves out
        warnings.simplefilter("ignore", RuntimeWarning)
        usable: list[Place] = [CLPlace(d.index) for d in devices() if probe(d.index).ok]
    return [*usable, CPUPlace()]


@pytest.fixture(params=[np, darray], ids=["numpy", "darray"])
def xp(request: pytest.FixtureRequest) -> ModuleType:
    """``numpy``, then ``darray``: a test body written once against both namespaces."""
    module: ModuleType = request.param
    return module


@pytest.fixture(params=places(), ids=str)
def place(request: pytest.FixtureRequest) -> Place:
    """Each usable place in turn (``cl:0``, ..., ``cpu``)."""
    chosen: Place = request.param
    return chosen
