"""cpu_driver.jit: the CPU device's machine code from the disk cache where the same IR
was compiled before; a damaged entry is compiled again and rewritten."""

from __future__ import annotations

import ctypes

import llvmlite.binding as llvm
import pytest

from omp2gpu import cpu_driver
from omp2gpu.disk_cache import CODE_CACHE_SWITCH, ENTRY_SUFFIX, read_entry
from omp2gpu.targets import host

ANSWER = "define i32 @answer(i32 %x) {\n  %y = add i32 %x, 40\n  ret i32 %y\n}\n"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv(CODE_CACHE_SWITCH, raising=False)
    return tmp_path


@pytest.fixture
def optimised(monkeypatch) -> list:
    """The -O levels host.optimise ran at, in order."""
    levels, real = [], host.optimise
    monkeypatch.setattr(cpu_driver.host, "optimise", lambda module, level: levels.append(level) or real(module, level))
    return levels


def _answer() -> int:
    engine = cpu_driver.jit(host.prepare(llvm.parse_assembly(ANSWER)), ANSWER, 3)
    return ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)(engine.get_function_address("answer"))(2)


def test_the_second_jit_takes_the_cached_object(cache, optimised):
    assert _answer() == 42 and optimised == [3]
    [entry] = cache.glob(f"cpu-object-*{ENTRY_SUFFIX}")
    assert _answer() == 42 and optimised == [3]
    assert read_entry(entry) is not None


def test_a_damaged_object_is_compiled_again_and_rewritten(cache, optimised):
    _answer()
    [entry] = cache.glob(f"cpu-object-*{ENTRY_SUFFIX}")
    whole = entry.read_bytes()
    entry.write_bytes(whole[:-10])
    assert _answer() == 42 and optimised == [3, 3]
    assert entry.read_bytes() == whole


def test_nothing_is_kept_when_the_cache_is_off(cache, optimised, monkeypatch):
    monkeypatch.setenv(CODE_CACHE_SWITCH, "0")
    assert _answer() == 42 and _answer() == 42 and optimised == [3, 3]
    assert not list(cache.iterdir())
