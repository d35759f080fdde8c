"""codegen/openmp/data/mappers.py: a declare mapper's map types under the invoking clause, and
what a struct or an array of structs with a mapper becomes (captures, the element function)."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.codegen.openmp.data.mappers import combined
from omp2gpu.diagnostics import CompileError
from omp2gpu.offload.abi import MapType

TO, FROM, ALLOC = MapType.TO, MapType.FROM, MapType.NONE
TOFROM = TO | FROM


@pytest.mark.parametrize("outer, inner, result", [
    # OpenMP 5.0 2.19.7.1's table: the clause's map type (rows) and the mapper's (columns)
    (ALLOC, TOFROM, ALLOC), (ALLOC, TO, ALLOC),
    (TO, ALLOC, ALLOC), (TO, TO, TO), (TO, FROM, ALLOC), (TO, TOFROM, TO),
    (FROM, ALLOC, ALLOC), (FROM, TO, ALLOC), (FROM, FROM, FROM), (FROM, TOFROM, FROM),
    (TOFROM, ALLOC, ALLOC), (TOFROM, TO, TO), (TOFROM, FROM, FROM), (TOFROM, TOFROM, TOFROM),
    (MapType.DELETE, TOFROM, MapType.DELETE),                          # exit data's delete: all of it
    (TO | MapType.ALWAYS, TOFROM, TO | MapType.ALWAYS), (TO, TO | MapType.ALWAYS, TO | MapType.ALWAYS),
])
def test_map_types_combine_as_the_spec_says(outer, inner, result):
    assert combined(outer, inner) == result


VECTOR = r"""
#include <stdlib.h>
typedef struct { int len; double *data; } vec_t;
#pragma omp declare mapper(vec_t v) map(v, v.data[0:v.len])
#pragma omp declare mapper(only_data: vec_t v) map(to: v.data[0:v.len])
int main(void) {
    vec_t s = {8, calloc(8, sizeof(double))}, t = {8, calloc(8, sizeof(double))};
    vec_t *many = calloc(4, sizeof(vec_t));
    #pragma omp target map(mapper(only_data), tofrom: t) map(tofrom: many[0:4])
    { s.data[0] = t.data[0] + many[0].len; }
    return 0;
}
"""


def _kernel_captures(tmp_path, source):
    path = tmp_path / "prog.c"
    path.write_text(source)
    translation = driver.translate(path, driver.CompileOptions())
    (kernel,) = translation.device.kernels
    return {capture.name: capture for capture in kernel.captures}, str(translation.host)


def test_a_struct_takes_its_mappers_items(tmp_path):
    captures, _ = _kernel_captures(tmp_path, VECTOR)
    s, t = captures["s"], captures["t"]
    assert s.map_type == TOFROM | MapType.IMPLICIT                     # implicit, through the default mapper
    assert [m.item.spelling for m in s.members] == ["s.data[0:s.len]"] and s.members[0].through_pointer
    assert t.item is None and [(m.item.spelling, m.bits) for m in t.members] == [("t.data[0:t.len]", TO)]


def test_an_array_of_structs_maps_its_elements_at_run_time(tmp_path):
    captures, host = _kernel_captures(tmp_path, VECTOR)
    (runtime,) = captures["many"].mappers
    assert runtime.mapper.identifier == "default" and runtime.bits == TOFROM
    assert '@"omp2gpu.mapper.' in host


def test_a_mapper_cycle_through_two_types_is_found_where_it_closes(tmp_path):
    path = tmp_path / "prog.c"
    path.write_text(r"""
struct b;
struct a { int n; struct b *bs; };
struct b { int n; struct a *as; };
#pragma omp declare mapper(struct b y) map(y, y.as[0:y.n])
#pragma omp declare mapper(struct a x) map(x, x.bs[0:x.n])
int main(void) { return 0; }
""")
    with pytest.raises(CompileError, match="mapper cycle: mapper 'default' for 'struct a' -> mapper 'default' for "
                                           "'struct b' -> mapper 'default' for 'struct a'"):
        driver.translate(path, driver.CompileOptions())
