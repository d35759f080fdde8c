"""deep_stack.py: a command runs in a thread deep recursion does not stop."""

from __future__ import annotations

import sys
import threading

import pytest

from omp2gpu import deep_stack


def _depth(levels: int) -> int:
    """Recursion that goes through C each level (a bound method called by map), as
    pycparser's visitors do, so it takes C stack as well as Python frames."""
    if levels == 0:
        return 0
    return 1 + sum(map(_depth, [levels - 1]))


def test_returns_the_result_of_deep_recursion():
    assert deep_stack.call_with_deep_stack(_depth, 100_000) == 100_000


def test_deep_recursion_fails_without_it():
    with pytest.raises(RecursionError):
        _depth(100_000)


def test_exceptions_reach_the_caller():
    def fail():
        raise ValueError("from the worker")
    with pytest.raises(ValueError, match="from the worker"):
        deep_stack.call_with_deep_stack(fail)


def test_limits_restored_and_worker_named():
    limit = sys.getrecursionlimit()
    seen = deep_stack.call_with_deep_stack(lambda: threading.current_thread().name)
    assert seen == "omp2gpu-compile"
    assert sys.getrecursionlimit() == limit
