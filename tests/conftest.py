"""What every test folder shares: a code cache of the run's own (OMP2GPU_CACHE_DIR, unless
set: what a fresh machine has, so a test cannot pass on what an earlier run left in the
user's cache); tests marked `gpu` skip where there is no CUDA GPU,
tests marked `no_gpu` (what a machine without one does) where there is one; and the Python
API's session settings (tests/api/conftest.py puts them in os.environ for the offload
runtime of the test process) kept from every other test's programs."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from gpu_presence import gpu_present

TESTS = Path(__file__).resolve().parent
# Tests that call the offload runtime in the test process, under the session's settings.
IN_PROCESS = (TESTS / "api", TESTS / "native" / "test_native_api.py")
SESSION_SETTINGS = ("OMP2GPU_DEVICES", "OMP_TARGET_OFFLOAD", "OMP2GPU_OFFLOAD_LOG", "OMP2GPU_COPY_LOG")


_OWN_CACHE: list[str] = []


def pytest_configure(config):
    """The run's code cache: made by the first process (xdist's workers inherit it)."""
    if "OMP2GPU_CACHE_DIR" not in os.environ:
        _OWN_CACHE.append(tempfile.mkdtemp(prefix="omp2gpu-test-cache-"))
        os.environ["OMP2GPU_CACHE_DIR"] = _OWN_CACHE[0]


def pytest_unconfigure(config):
    for folder in _OWN_CACHE:
        shutil.rmtree(folder, ignore_errors=True)


def pytest_runtest_setup(item):
    if item.get_closest_marker("gpu") is not None and not gpu_present():
        pytest.skip("no CUDA GPU")
    if item.get_closest_marker("no_gpu") is not None and gpu_present():
        pytest.skip("a GPU is present")


@pytest.fixture(autouse=True)
def _session_settings_only_in_process(request, monkeypatch):
    """A program another test starts sees the environment the test gives it, not the API
    tests' MANDATORY device (a fallback test would fail under it)."""
    path = Path(str(request.node.fspath)).resolve()
    if not any(path == place or place in path.parents for place in IN_PROCESS):
        for name in SESSION_SETTINGS:
            if os.environ.get(name) is not None and _set_by_api_session(name):
                monkeypatch.delenv(name)
    yield


def _set_by_api_session(name: str) -> bool:
    """Whether os.environ's `name` is the API session's (not the user's own setting)."""
    try:
        import api_harness
    except ImportError:
        return False
    return getattr(api_harness, "SESSION_VALUES", {}).get(name) == os.environ.get(name)
