"""codegen/openmp/data/target_regions.py: what a target region captures, and how each capture
is mapped."""

from __future__ import annotations

from omp2gpu import driver
from omp2gpu.offload.abi import MapType

CONST_OBJECTS = r"""
static const double weights[3] = {0.25, 0.5, 0.25};
int main(void) {
    double grid[3] = {1, 2, 3}, total = 0;
    #pragma omp target map(tofrom: total)
    {
        for (int i = 0; i < 3; i++) total += weights[i] * grid[i] + __func__[0];
    }
    return (int)total;
}
"""


def test_const_objects_are_mapped_to_the_device_only(tmp_path):
    """`__func__` and a const table live in read-only memory: copying them back from the
    device would write there (the CPU device crashed on assert() in a region). A
    writable array is mapped tofrom."""
    path = tmp_path / "prog.c"
    path.write_text(CONST_OBJECTS)
    translation = driver.translate(path, driver.CompileOptions())
    (kernel,) = translation.device.kernels
    maps = {capture.name: capture.map_type for capture in kernel.captures}
    assert maps["__func__"] == MapType.TO | MapType.IMPLICIT
    assert maps["weights"] == MapType.TO | MapType.IMPLICIT
    assert maps["grid"] == MapType.TO | MapType.FROM | MapType.IMPLICIT
