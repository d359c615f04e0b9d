"""darray.testing.plugin: the xp and place fixtures and the "darray" hypothesis profile, in a pytest run of
its own (the plugin is opt-in: darray's own suite does not load it)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import warnings

import pytest

import darray as da

USER_TESTS = '''
import numpy as np
from hypothesis import given, settings, strategies as st

import darray as da


def test_xp(xp):
    assert xp in (np, da)


def test_place(place):
    assert da.asarray([1, 2], device=place).place == place


CALLS = []


@given(st.integers())
def test_profile(n):
    assert settings.get_current_profile_name() == "darray"
    assert settings().max_examples == 50
    CALLS.append(n)
    if len(CALLS) == 1:
        time.sleep(0.3)  # past hypothesis's default deadline, which the "darray" profile has not
'''


def _pytest(tmp_path, *args: str, head: str = "") -> str:
    (tmp_path / "test_user.py").write_text(head + "import time\n" + textwrap.dedent(USER_TESTS))
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_PROFILE"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v", *args,
                           "test_user.py"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    return proc.stdout


@pytest.mark.parametrize("how", ["-p", "pytest_plugins"])
def test_plugin_fixtures_and_profile(how, tmp_path, cl_place):
    if how == "-p":
        out = _pytest(tmp_path, "-p", "darray.testing.plugin")
    else:
        out = _pytest(tmp_path, head='pytest_plugins = ["darray.testing.plugin"]\n')
    assert re.findall(r"test_xp\[(\w+)\] PASSED", out) == ["numpy", "darray"]
    with warnings.catch_warnings():  # the probe warns about each device it leaves out
        warnings.simplefilter("ignore", RuntimeWarning)
        usable = [f"cl:{d.index}" for d in da.place.devices() if da.place.probe(d.index).ok]
    assert str(cl_place) in usable
    assert re.findall(r"test_place\[([^\]]+)\] PASSED", out) == [*usable, "cpu"]
    assert "test_profile PASSED" in out


def test_places_lists_the_probed_devices_then_cpu(cl_place):
    from darray.testing.plugin import places

    assert places()[0] == cl_place and places()[-1] == da.CPUPlace()
