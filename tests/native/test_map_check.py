"""host_memory.c's map check on its own (docs/map-checks.md): check_entries called by a C
driver linked with the runtime files it uses (tests/native/programs/map_check_cases.c).
Heap blocks of the main heap and of a thread arena are bound by their usable size, on
their first byte or from their base pointer (`p[990:20]` of 1000 doubles); a pointer into
an array whose previous word looks like a chunk's size word is not taken for a block
(asked twice: the second answer comes from the remembered claim); a pointee whose base is
the struct holding it, a block after a free, stack, static and mmapped memory pass; an
entry copied back into read-only memory and one off every mapping are refused."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
RUNTIME = HERE.parents[1] / "runtime" / "offload"
FILES = ["host_memory.c", "heap_chunks.c", "messages.c", "argument_arrays.c"]

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")

PAST_BLOCK = "refused: runs past its heap block (8008 usable by"
EXPECTED = {
    **{f"{heap}-{case}": PAST_BLOCK for heap in ("main-heap", "thread-arena")
       for case in ("one-past", "400KB-past", "64MB-past", "tail-from-base")},
    "main-heap-exact": "ok", "thread-arena-exact": "ok",
    "forged-header-inside-array": "ok", "forged-header-again": "ok",
    "forged-header-past-array": "refused: runs past the host memory of the program",
    "pointee-of-a-struct": "ok", "block-after-free": "ok", "static-array": "ok", "stack-array": "ok",
    "mmapped-block": "ok", "read-only-to": "ok",
    "read-only-from": "refused: runs into memory the program cannot writ",
    "nowhere": "refused: runs past the host memory of the program",
}


def test_check_entries_cases(tmp_path):
    driver = tmp_path / "cases"
    subprocess.run(["gcc", "-std=gnu11", "-O2", f"-I{RUNTIME}", str(HERE / "programs" / "map_check_cases.c"),
                    *(str(RUNTIME / name) for name in FILES), "-ldl", "-pthread", "-o", str(driver)], check=True)
    done = subprocess.run([str(driver)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    answers = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert answers == EXPECTED
