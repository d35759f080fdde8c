/* bench/cpu: the vector add of vadd.c as OpenCL C (one work-item per element). */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void vadd(__global double *a, __global const double *b, __global const double *c, int n) {
    int i = get_global_id(0);
    if (i < n)
        a[i] += b[i] + c[i];
}
