"""The Python API: C files with target regions, called with NumPy, CuPy and Numba arrays.

    library          load(): compile a C file; Library, its functions by name
    kernels          lib.kernels: its GPU kernels (scheme, ptxas's figures, occupancy, PTX)
    c_function       CFunction: one C function called with Python arguments
    call_method      a CFunction's __call__, written out for its parameters
    parameters       each parameter's checks and conversion (named in errors)
    arrays           which protocol an array argument speaks, and its memory:
      buffers          the buffer protocol (host memory)
      cuda_interface   __cuda_array_interface__ (device memory)
      cupy_arrays      CuPy arrays of a checked layout, read from their attributes
      dlpack           DLPack (either)
    memory           ArrayMemory, what the C function gets of an array
    element_types    an array's element type against a pointer's pointee type
"""

from omp2gpu.api.c_function import CFunction, OffloadError
from omp2gpu.api.library import Library, load, target_device
