"""Offload tests: every test leaves the process-wide runtime as it found it (unmade)."""

from __future__ import annotations

import pytest

from omp2gpu.offload import runtime


@pytest.fixture(autouse=True)
def _fresh_runtime():
    yield
    runtime._runtime = None
