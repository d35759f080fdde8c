"""A pointer a target region uses without a map whose pointee is not mapped keeps its value
in the region (OpenMP 5.1 2.21.7.2; 4.5/5.0 made it NULL): a device address from
omp_target_alloc or from a dispatch's adjust_args(need_device_ptr) works as it is
(runtime/offload/present_table.c table_translate); a mapped pointee's is still translated."""

from __future__ import annotations

from native_runs import run_native

PROGRAM = r"""
#include <omp.h>
#include <stdio.h>
int main(void) {
    int n = 1000, dev = omp_get_default_device();
    double host[1000];
    double *d = (double *)omp_target_alloc(n * sizeof(double), dev);
    double *h = host;
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) d[i] = 2.0 * i;         /* d: not mapped, kept */
    #pragma omp target data map(from: host)
    {
        #pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++) h[i] = d[i] + 1;    /* h: looked up, d: kept */
    }
    double sum = 0;
    for (int i = 0; i < n; i++) sum += host[i];
    printf("%.0f %d\n", sum, omp_is_initial_device());
    omp_target_free(d, dev);
    return 0;
}
"""


def test_an_unmapped_device_address_keeps_its_value(tmp_path):
    done = run_native(tmp_path, PROGRAM, devices="cpu")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "1000000 1\n"          # sum of 2i + 1 for i < 1000
