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


FIRSTPRIVATE_STRUCTS = r"""
struct weights { double half; int offset; };
struct table { double rows[16]; };
int main(void) {
    struct weights w = {0.5, 1}, shared_w = {1, 2};
    struct table t = {{0}};
    double out[4];
    #pragma omp target teams distribute parallel for firstprivate(w, t) map(from: out)
    for (int i = 0; i < 4; i++) out[i] = w.half * i + w.offset + t.rows[i] + shared_w.half;
    return (int)out[3];
}
"""


def test_a_small_firstprivate_struct_is_a_parameter_not_a_mapping(tmp_path):
    """A struct named firstprivate, of at most 64 bytes, reaches the kernel by value (its
    bytes a parameter: nothing copied there and back, and the launch may run ahead); a
    larger one, and a struct the region just uses, stay mapped."""
    path = tmp_path / "prog.c"
    path.write_text(FIRSTPRIVATE_STRUCTS)
    (kernel,) = driver.translate(path, driver.CompileOptions()).device.kernels
    captures = {capture.name: capture for capture in kernel.captures}
    assert (captures["w"].kind, captures["w"].map_type) == ("literal", MapType.LITERAL)
    assert str(captures["w"].param_ir_type()) == "[2 x i64]"     # its bytes in words of its alignment: fusable
    assert captures["t"].kind == captures["shared_w"].kind == "object"          # 128 bytes; no clause
    assert captures["shared_w"].map_type == MapType.TO | MapType.FROM | MapType.IMPLICIT
