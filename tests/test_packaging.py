"""Packaging: the kernels ship inside the package, and the README's commands are what CI runs.

The OpenCL sources live in ``kernels/`` at the repository root and are mapped to the package
``darray.kernels``; they load through ``importlib.resources``. Under ``CI`` the suite must be
testing a real (non-editable) install, not the source tree: a ``darray`` imported from the
checkout would hide a wheel that forgot its kernels.
"""
from __future__ import annotations

import importlib.resources
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import darray

REPO = Path(__file__).resolve().parents[1]


def _kernel_sources() -> list[str]:
    """Every kernel source of the checkout, relative to ``kernels/`` (posix paths)."""
    root = REPO / "kernels"
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if p.is_file() and p.suffix in (".cl", ".h"))


def test_kernels_load_through_importlib_resources():
    files = importlib.resources.files("darray.kernels")
    header = files.joinpath("include", "elementwise.h")
    assert header.is_file(), f"darray.kernels has no include/elementwise.h (package at {files})"
    assert "darray" in header.read_text()


@pytest.mark.skipif(not (REPO / "kernels").is_dir(), reason="not run from a checkout")
def test_every_kernel_source_is_installed():
    files = importlib.resources.files("darray.kernels")
    missing = [rel for rel in _kernel_sources() if not files.joinpath(*rel.split("/")).is_file()]
    assert not missing, f"kernel sources missing from the installed package: {missing}"


def test_kernel_sources_name_their_entry_points():
    """Each ``*.cl`` file opens with a comment naming its entry points (DESIGN: Kernels)."""
    files = importlib.resources.files("darray.kernels")
    for entry in files.iterdir():
        if entry.name.endswith(".cl"):
            head = entry.read_text().lstrip()
            assert head.startswith(("/*", "//")), f"{entry.name} does not open with a comment"
            assert "entry point" in head[:2000].lower(), f"{entry.name}: header comment names no entry points"


def test_benchmarks_and_main_are_packaged():
    import darray.__main__ as main
    import darray.benchmarks as benchmarks

    assert callable(main.main)
    assert benchmarks.__name__ == "darray.benchmarks"


def test_generated_kernel_builds_from_installed_header():
    """A kernel that includes the shipped header builds and runs (a copy through the device)."""
    import numpy as np

    if not darray.place.is_available():
        if os.environ.get("DARRAY_REQUIRE_OPENCL") == "1":
            pytest.fail("DARRAY_REQUIRE_OPENCL=1 but no OpenCL device was found")
        pytest.skip("no OpenCL device")
    host = np.arange(1000, dtype=np.float32)
    x = darray.asarray(host, device="cl")
    np.testing.assert_array_equal(x.copy().get(), host)


@pytest.mark.skipif(not os.environ.get("CI"), reason="only CI must test a non-editable install")
def test_ci_tests_the_installed_wheel():
    """Under CI the package and its kernels come from site-packages, not from this checkout."""
    pkg = Path(darray.__file__).resolve()
    kernels = Path(str(importlib.resources.files("darray.kernels"))).resolve()
    for path in (pkg, kernels):
        assert REPO not in path.parents, (
            f"{path} is inside the checkout {REPO}: the tests import the source tree (or an editable "
            "install) instead of the wheel; run the README's test command")
    assert str(REPO) not in sys.path and "" not in sys.path, "the checkout is on sys.path"


def _quick_start() -> list[str]:
    text = (REPO / "README.md").read_text()
    m = re.search(r"^## Quick start\s*$(.*?)^## ", text, re.M | re.S)
    assert m, "README.md has no '## Quick start' section"
    blocks = re.findall(r"```(?:bash|sh|console)?\n(.*?)```", m.group(1), re.S)
    return [line.strip() for block in blocks for line in block.splitlines()
            if line.strip() and not line.strip().startswith("#")]


@pytest.mark.skipif(not (REPO / "README.md").is_file(), reason="not run from a checkout")
def test_readme_quick_start_has_exactly_two_commands():
    commands = _quick_start()
    assert len(commands) == 2, f"README Quick start must hold exactly two commands, found {commands}"
    demo, tests = commands
    assert "scripts/setup" in demo and "darray demo" in demo
    assert "scripts/setup test" in tests and "pytest" in tests


@pytest.mark.skipif(not (REPO / ".ci" / "run").is_file(), reason="not run from a checkout")
def test_ci_runs_exactly_the_readme_test_command():
    ci = (REPO / ".ci" / "run").read_text()
    test_command = _quick_start()[1]
    runs = [line.strip() for line in ci.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert test_command in runs, f".ci/run does not run the README test command {test_command!r}"
    assert "DARRAY_REQUIRE_OPENCL=1" in ci and "DARRAY_REQUIRE_FFT=1" in ci


@pytest.mark.skipif(not (REPO / "README.md").is_file(), reason="not run from a checkout")
def test_readme_example_runs(capsys):
    """The usage example in the README runs as written."""
    if not darray.place.is_available():
        if os.environ.get("DARRAY_REQUIRE_OPENCL") == "1":
            pytest.fail("DARRAY_REQUIRE_OPENCL=1 but no OpenCL device was found")
        pytest.skip("no OpenCL device")
    m = re.search(r"```python\n(.*?)```", (REPO / "README.md").read_text(), re.S)
    assert m, "README.md has no python example"
    exec(compile(m.group(1), "README.md", "exec"), {"__name__": "readme"})
    assert "cl:" in capsys.readouterr().out


@pytest.mark.skipif(not (REPO / "darray").is_dir(), reason="not run from a checkout")
def test_installed_package_has_every_module():
    """Every module of the checkout's ``darray/`` is in the imported package (a package left out
    of ``[tool.setuptools] packages`` in pyproject.toml shows up only in a non-editable install)."""
    src = REPO / "darray"
    installed = Path(darray.__file__).resolve().parent
    want = sorted(p.relative_to(src).as_posix() for p in src.rglob("*.py") if "__pycache__" not in p.parts)
    missing = [rel for rel in want if not (installed / rel).is_file()]
    assert not missing, f"modules missing from the installed darray at {installed}: {missing}"


@pytest.mark.skipif(not os.environ.get("CI"), reason="CI only: installs darray again from a fresh clone")
@pytest.mark.timeout(900)
def test_newcomer_path(tmp_path):
    """The README's first command, run in a fresh clone of this checkout with a fresh virtual
    environment first on the PATH (it sees the packages already installed, so only darray
    itself installs), ends with a demo whose last line counts no failed step."""
    clone, venv = tmp_path / "clone", tmp_path / "venv"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True, timeout=120)
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", "VIRTUAL_ENV": str(venv),
           "PYTHON": str(venv / "bin" / "python")}
    env.pop("DARRAY_DEVICE", None)
    proc = subprocess.run(["bash", "-c", _quick_start()[0]], cwd=clone, env=env, capture_output=True, text=True,
                          timeout=840)
    lines = proc.stdout.strip().splitlines()
    assert proc.returncode == 0 and lines, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert re.match(r"demo: \d+ steps, \d+ OK, 0 FAIL", lines[-1]), lines[-1]
    assert f"darray 0.1.0 at {venv}" in proc.stdout  # the clone's install, not the one under test
