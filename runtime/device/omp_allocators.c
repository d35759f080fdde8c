/* OpenMP 5.0/5.1 memory management inside target regions on an NVIDIA GPU: the host's
 * allocators (runtime/host/omp_allocators.c) on the CUDA device heap (malloc and free in
 * a kernel; its size is the driver's cudaLimitMallocHeapSize, 8 MiB unless the launcher
 * raises it). The `allocate` directive's and clause's omp_pteam_mem_alloc and
 * omp_cgroup_mem_alloc variables of a size known when compiling are in shared memory
 * instead (the compiler's, docs/allocators.md).
 * Compiled by omp2gpu for the device and linked into each device module.
 */
#define OMP2GPU_ALLOCATORS_ON_DEVICE
#define OMP2GPU_ALLOCATORS_ON_GPU
#include "../host/omp_allocators.c"
