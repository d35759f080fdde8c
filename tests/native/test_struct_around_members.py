"""A range mapped around mappings that lie inside it (runtime/offload/present_table.c
take_in): a struct mapped whole after some of its members were takes them in, keeping their
device bytes (a member the device changed keeps the device's value) and the largest of their
reference counts (the members stay mapped after the struct's construct), the rest copied from
the host; the members are then parts of one mapping, counted and released together, as the
members of any struct mapped whole are.
A range that sticks out of a mapping is still the program's partial-map error."""

from __future__ import annotations

from native_runs import run_native

TAKES_IN = r"""
#include <omp.h>
#include <stdio.h>
typedef struct { int a; double b; int *p; } rec;
int main(void) {
    int data[4] = {1, 2, 3, 4}, r = 0, dev = omp_get_default_device();
    rec s = {1, 10.0, data};
    #pragma omp target enter data map(to: s.a)
    #pragma omp target map(tofrom: s.a)
    s.a = 5;                                   /* the device's member: 5, the host's: 1 */
    #pragma omp target enter data map(to: s.p[0:4])
    #pragma omp target map(to: s, s.p[0:4]) map(from: r)
    r = s.a * 100 + (int)s.b + s.p[3];         /* 5 (device), 10 (host, taken in), 4 */
    int still = omp_target_is_present(&s.a, dev) && omp_target_is_present(&s.p, dev);
    #pragma omp target exit data map(from: s.a)     /* the struct's one mapping now: released */
    #pragma omp target exit data map(delete: s.p[0:4])
    printf("%d %d %d %d\n", r, still, s.a, omp_target_is_present(&s, dev));
    return 0;
}
"""

STICKS_OUT = r"""
#include <stdio.h>
int main(void) {
    int a[16] = {0};
    #pragma omp target enter data map(to: a[0:8])
    #pragma omp target map(tofrom: a[4:8])
    a[5] = 1;
    printf("%d\n", a[5]);
    return 0;
}
"""


def test_a_struct_takes_in_its_members_mappings(tmp_path):
    done = run_native(tmp_path, TAKES_IN, devices="cpu")
    assert done.returncode == 0, done.stderr
    # the struct's region read the device's s.a; the members stayed mapped after it; the
    # first exit data brought the device's 5 back and released the struct's storage
    assert done.stdout == "514 1 5 0\n"


def test_a_range_sticking_out_is_still_an_error(tmp_path):
    done = run_native(tmp_path, STICKS_OUT, devices="cpu")
    assert done.returncode == 1
    assert "is partially mapped: it overlaps the mapped range" in done.stderr
