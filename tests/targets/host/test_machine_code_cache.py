"""machine_code_cache: a program's machine code kept and read back, under a key that
changes with what the code follows from."""

from __future__ import annotations

import llvmlite.binding as llvm
import pytest

from omp2gpu.disk_cache import CODE_CACHE_SWITCH, entry_path, write_entry
from omp2gpu.targets.host import machine_code_cache as cache
from omp2gpu.targets.host.two_process_codegen import MachineCode

CODE = MachineCode((b"\x7fELF first", b"\x7fELF second"), ("init.omp2gpu.local",), ("printf", "GOMP_barrier"))
MAIN = "define i32 @main() {\n  ret i32 0\n}\n"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv(CODE_CACHE_SWITCH, raising=False)


def test_a_kept_program_reads_back_as_it_was():
    cache.keep_program("k1", CODE)
    assert cache.cached_program("k1") == CODE
    assert cache.cached_program("k2") is None
    assert cache.cached_program(None) is None


def test_an_entry_without_a_programs_names_or_objects_is_a_miss():
    write_entry(entry_path("program", "k"), {"imports": []}, CODE.objects)
    assert cache.cached_program("k") is None
    write_entry(entry_path("program", "k"), {"imports": [], "constructors": []}, ())
    assert cache.cached_program("k") is None


def test_the_key_follows_the_ir_and_the_levels():
    key = cache.entry_key(MAIN, 2, 2)
    assert key == cache.entry_key(MAIN, 2, 2)
    assert len({key, cache.entry_key(MAIN.replace("0", "1"), 2, 2), cache.entry_key(MAIN, 1, 2),
                cache.entry_key(MAIN, 2, 3)}) == 4


def test_no_key_when_the_cache_is_off(monkeypatch):
    module = llvm.parse_assembly(MAIN)
    assert cache.program_key(module, 2, 2) == cache.entry_key(str(module), 2, 2)
    monkeypatch.setenv(CODE_CACHE_SWITCH, "0")
    assert cache.program_key(module, 2, 2) is None
