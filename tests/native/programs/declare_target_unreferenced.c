/* declare target variables that no kernel reads (tests/native/test_declare_target_globals.py):
 * a step counter and a table the host keeps in step with the device by `target update`, as a
 * code does between library calls, and one a kernel does read. Each has a device copy: it is
 * present, and an update to it and back returns the device's value, not the host's. */
#include <stdio.h>
#include <omp.h>

#pragma omp declare target
int steps = 5;
double table[4] = {1.0, 2.0, 3.0, 4.0};
#pragma omp end declare target
int scale = 3;
#pragma omp declare target to(scale)

int main(void)
{
    int device = omp_get_default_device(), k, read = 0;

    printf("present: steps %d, table %d, scale %d\n", omp_target_is_present(&steps, device),
           omp_target_is_present(table, device), omp_target_is_present(&scale, device));
    steps = 7;
    for (k = 0; k < 4; k++) table[k] = 10.0 * k;
    #pragma omp target update to(steps, table)
    steps = 0;                                    /* the host's copies only */
    table[2] = -1.0;
    #pragma omp target update from(steps, table[2:1])
    #pragma omp target map(from: read)
    read = scale * 2;
    printf("steps %d, table[2] %.1f, read %d\n", steps, table[2], read);
    return 0;
}
