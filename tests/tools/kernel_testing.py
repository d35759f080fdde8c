"""What the report tests share: kernels whose figures are given, not measured."""

from __future__ import annotations

from omp2gpu.targets.nvptx import KernelResources


class GivenFigures:
    """What a gpu_kernels.DeviceModule tells its kernels, given here instead of by ptxas."""
    arch = "sm_90"
    unavailable = None
    maxntid: dict = {}
    linked_recursion: list = []

    def __init__(self, registers: int):
        self.registers = registers

    def resources(self, name: str) -> KernelResources:
        return KernelResources(name, registers=self.registers)

    def wide_twin(self, name: str) -> KernelResources | None:
        return None

    def fused(self, name: str) -> KernelResources | None:
        return None
