"""The same program compiles to the same IR on every run: no set order (which follows
Python's hash seed) or object address leaks into names, slots or shared-memory layout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = ["target_firstprivate_scalars", "cl_team_shared_structs", "cl_critical_team_shared",
            "host_teams_distribute_matvec", "combined_5x_cell_ledger"]    # parallel inside a host team

_DUMP = """
import sys
from omp2gpu import driver
translation = driver.translate(sys.argv[1], driver.CompileOptions())
print(translation.device.module if translation.device is not None else 'no device code')
print(driver.emit_ir(sys.argv[1], driver.CompileOptions()))
"""


def _ir(program: Path, seed: int) -> str:
    env = dict(os.environ, PYTHONHASHSEED=str(seed), PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", _DUMP, str(program)], env=env, capture_output=True,
                          text=True, timeout=120, check=True)
    return done.stdout


@pytest.mark.parametrize("name", PROGRAMS)
def test_same_ir_whatever_the_hash_seed(name):
    program = REPO / "tests" / "programs" / f"{name}.c"
    first, second = _ir(program, 1), _ir(program, 2)
    assert "define" in first
    assert first == second


def test_same_ir_whatever_was_compiled_before():
    """Struct names are numbered per module, so a program's IR does not depend on what the
    process compiled first (the cached host runtime is compiled after some user program)."""
    from omp2gpu import driver
    first = REPO / "tests" / "programs" / "teams_prelude_spmd.c"
    other = REPO / "tests" / "programs" / "cl_team_shared_structs.c"
    before = str(driver.emit_ir(first, driver.CompileOptions()))
    driver.emit_ir(other, driver.CompileOptions())
    assert str(driver.emit_ir(first, driver.CompileOptions())) == before
