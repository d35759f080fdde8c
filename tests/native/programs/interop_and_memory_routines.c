/* OpenMP 5.1's device-memory routines and interop on the default device, printing what a
 * test checks: a mapped pointer's device address, accessibility, associate_ptr, an
 * asynchronous rectangular copy ordered by a depend object, an interop object's
 * properties. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int dev = omp_get_default_device(), host = omp_get_initial_device();
    double x[16];
    for (int i = 0; i < 16; i++) x[i] = i;
    int inside = -5;
#pragma omp target map(from: inside)
    inside = omp_get_initial_device();
    printf("initial device inside a region: %s\n", inside == host ? "the host's number" : "wrong");
#pragma omp target enter data map(to: x)
    printf("mapped: %d, unmapped: %d\n", omp_get_mapped_ptr(x, dev) != NULL, omp_get_mapped_ptr(&dev, dev) != NULL);
    printf("host memory accessible: %d\n", omp_target_is_accessible(x, sizeof x, dev));
#pragma omp target exit data map(delete: x)

    double *buffer = omp_target_alloc(sizeof x, dev);
    printf("its own memory accessible: %d\n", omp_target_is_accessible(buffer, sizeof x, dev));
    printf("associate: %d\n", omp_target_associate_ptr(x, buffer, sizeof x, 0, dev));
    printf("present after associate: %d, mapped to the buffer: %d\n", omp_target_is_present(x, dev),
           omp_get_mapped_ptr(x, dev) == buffer);
#pragma omp target map(tofrom: x)          /* associated: no copy either way */
    for (int i = 0; i < 16; i++) x[i] = -1;
    printf("host copy kept: %g\n", x[3]);
#pragma omp target update from(x)
    printf("after update: %g\n", x[3]);
    printf("disassociate: %d, again: %d\n", omp_target_disassociate_ptr(x, dev) == 0,
           omp_target_disassociate_ptr(x, dev) == 0);

    double grid[4][6], back[4][6];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++) grid[i][j] = 10 * i + j, back[i][j] = 0;
    size_t volume[2] = {2, 3}, offsets[2] = {1, 2}, zero[2] = {0, 0}, dims[2] = {4, 6}, small[2] = {2, 3};
    omp_depend_t obj;
#pragma omp depobj(obj) depend(inout: buffer)
    omp_target_memcpy_rect_async(buffer, grid, sizeof(double), 2, volume, zero, offsets, small, dims, dev, host, 1, &obj);
    omp_target_memcpy_rect_async(back, buffer, sizeof(double), 2, volume, offsets, zero, dims, small, host, dev, 1, &obj);
#pragma omp taskwait depend(depobj: obj)
#pragma omp depobj(obj) destroy
    printf("rect: %g %g %g %g\n", back[1][2], back[1][4], back[2][2], back[2][4]);
    omp_target_free(buffer, dev);

    omp_interop_t io = omp_interop_none;
    int rc;
#pragma omp interop init(targetsync: io) device(dev)
    printf("interop: made %d, device_num %ld, ", io != omp_interop_none,
           (long)omp_get_interop_int(io, omp_ipr_device_num, &rc));
    void *stream = omp_get_interop_ptr(io, omp_ipr_targetsync, &rc);
    printf("targetsync rc %s, name %s\n", rc == omp_irc_success ? "success" : rc == omp_irc_no_value ? "no value" : "?",
           omp_get_interop_name(io, omp_ipr_targetsync));
    (void)stream;
    omp_get_interop_str(io, omp_ipr_device_num, &rc);
    printf("asking a string of an int: %d\n", rc == omp_irc_type_int);
#pragma omp interop use(io)
#pragma omp interop destroy(io)
    printf("destroyed: %d\n", io == omp_interop_none);
    return 0;
}
