"""Offload tests: `gpu`-marked tests skip without a CUDA GPU; every test leaves the
process-wide runtime as it found it (unmade)."""

from __future__ import annotations

import pytest

from omp2gpu.offload import runtime
from omp2gpu.offload.devices import cuda


def pytest_runtest_setup(item):
    if item.get_closest_marker("gpu") is not None and not cuda.available():
        pytest.skip("no CUDA GPU")


@pytest.fixture(autouse=True)
def _fresh_runtime():
    yield
    runtime._runtime = None
