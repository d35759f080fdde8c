"""What every test folder shares: tests marked `gpu` skip where there is no CUDA GPU,
tests marked `no_gpu` (what a machine without one does) where there is one."""

from __future__ import annotations

import pytest
from gpu_presence import gpu_present


def pytest_runtest_setup(item):
    if item.get_closest_marker("gpu") is not None and not gpu_present():
        pytest.skip("no CUDA GPU")
    if item.get_closest_marker("no_gpu") is not None and gpu_present():
        pytest.skip("a GPU is present")
