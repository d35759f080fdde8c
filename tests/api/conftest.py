"""The Python API's fixtures (api_harness.py has what they share)."""

from __future__ import annotations

import os

import pytest
from api_harness import SAXPY, load_once, session_environment

session_environment(os.environ)         # before the offload runtime starts: it reads it once


@pytest.fixture
def saxpy_library():
    return load_once(SAXPY)
