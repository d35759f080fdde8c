"""Discontiguous target updates as the runtime copies them (runtime/offload/strided_copies.c):
halo_strided_update.c's column updates, 24 rows of one double a row of the grid apart, are
24 copies of 8 bytes on the CPU device (a memcpy a row) and one 2-D copy of 192 bytes a
column on a GPU (cuMemcpy2D)."""

from __future__ import annotations

import pytest
from test_native_executables import build, run_bare

HALO = "../../programs_beyond_gcc12/halo_strided_update.c"
ROWS, ROW_BYTES = 24, 8


@pytest.mark.parametrize("device", ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_a_column_update_copies_rows_or_one_block(tmp_path, device):
    program = build(tmp_path, HALO)
    log = tmp_path / "copies.log"
    done = run_bare(program, "-s", "1", env={"OMP2GPU_DEVICES": device, "OMP_TARGET_OFFLOAD": "MANDATORY",
                                             "OMP2GPU_COPY_LOG": str(log)})
    assert done.returncode == 0, done.stderr
    copies = [line.split()[:2] for line in log.read_text().splitlines()]
    # the first update: t's two interior columns back to the host
    first_from = next(i for i, (kind, _) in enumerate(copies) if kind == "to-host")
    if device == "cpu":
        assert copies[first_from:first_from + 2 * ROWS] == [["to-host", f"bytes={ROW_BYTES}"]] * (2 * ROWS)
    else:
        assert copies[first_from:first_from + 2] == [["to-host", f"bytes={ROWS * ROW_BYTES}"]] * 2
