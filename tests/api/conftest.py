"""The Python API's fixtures (api_harness.py has what they share)."""

from __future__ import annotations

import pytest
from api_harness import SAXPY, load_once


@pytest.fixture
def saxpy_library(monkeypatch):
    return load_once(monkeypatch, SAXPY)
