"""What tests of native programs share: the stand-in CUDA driver (fake_cuda/libcuda.c)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def fake_driver(tmp_path_factory) -> Path:
    """The folder holding the stand-in libcuda.so.1 (LD_LIBRARY_PATH finds it for dlopen)."""
    folder = tmp_path_factory.mktemp("fake_cuda")
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(folder / "libcuda.so.1"),
                    str(Path(__file__).resolve().parent / "fake_cuda" / "libcuda.c"), "-lpthread"], check=True)
    return folder
