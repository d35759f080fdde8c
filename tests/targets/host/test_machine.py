"""Target machines are made once per kind."""

from __future__ import annotations

from omp2gpu.targets.host.machine import target_machine


def test_target_machine_is_cached():
    assert target_machine(2) is target_machine(2)
    assert target_machine(2, code_model="medium") is not target_machine(2)
