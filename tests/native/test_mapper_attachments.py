"""A declare mapper's per-element entries (runtime/offload/mappers.c) attach each element's
pointer members on the device, and copies back leave the host's pointers alone: checked
on the CPU device, whose buffers are its own (the differential corpus cannot see a pointer
left at its host value there, as the CPU device shares the host's address space)."""

from __future__ import annotations

import pytest
from test_native_executables import PROGRAMS, build, run_bare


@pytest.mark.parametrize("device", ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_every_cell_pointer_is_the_devices(tmp_path, device):
    program = build(tmp_path, "mapper_attachments.c")
    done = run_bare(program, env={"OMP2GPU_DEVICES": device, "OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert done.returncode == 0, done.stderr
    total = sum((i + k) * ((i + k) % 100) for i in range(100) for k in range(1 + i % 3))
    assert done.stdout == (f"cells moved 1, pointers still the host's 0, total {total:.1f}\n"
                           "host pointers changed 0\n"), done.stderr
    assert (PROGRAMS / "mapper_attachments.c").exists()


@pytest.mark.parametrize("device", ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_a_mapper_reached_through_an_array_member_attaches_each_elements_pointers(tmp_path, device):
    """species -> st[2] (an array member of structs) -> each stencil's weights: the nested
    default mapper maps them (they were left at the host's address: a fault on a GPU)."""
    program = build(tmp_path, "mapper_array_members.c")
    done = run_bare(program, env={"OMP2GPU_DEVICES": device, "OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert done.returncode == 0, done.stderr
    total = sum(s + t + 0.5 * k for s in range(5) for t in range(2) for k in range(2 + t + s))
    assert done.stdout == f"weights pointers still the host's 0, total {total:.1f}\n", done.stderr
