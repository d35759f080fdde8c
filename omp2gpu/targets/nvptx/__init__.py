"""The NVPTX target: llvmlite device module -> PTX -> cubin and ptxas's
resource figures.

    arch         sm_XX names, the PTX ISA version, the GPU present
    machine      triple, data layout, address spaces, kernels
    intrinsics   special registers, barriers, fences, shuffles, atomics
    libdevice_math / libdevice   math.h on the device; linking libdevice
    ptx          link, verify, optimise (new pass manager), emit PTX
    ptxas / cubin                assemble; registers, spills, smem, cmem
    fusion       region bodies and the kernel that runs several launches as one
    wide_twins   kernels with nested loops again, with registers to keep loads in flight
    relocatable  code with recursion compiled relocatable and linked (ptxas -c, nvlink)
    ptx_text     kernels' sections and the records at the top of the PTX

What LLVM 22 (llvmlite 0.50) wants, checked by emitting PTX and running
ptxas 13.0 on it, and by running the test kernels (vector add, shuffle
sums of i32/f32/f64/i64, the atomics, libdevice sqrt/sin/expf, a shared
memory reverse with .maxntid) on an H100 from both PTX and cubin:

- Kernels: the `ptx_kernel` calling convention (`define ptx_kernel void
  @k(...)`) gives `.entry`. The old `!nvvm.annotations !{ptr @k, !"kernel",
  i32 1}` still works (auto-upgraded on parse) but is legacy. `.maxntid N`
  comes from the "nvvm.maxntid"="N" attribute; llvmlite.ir cannot write
  string attributes, so mark_kernel writes the legacy `maxntidx` annotation,
  which LLVM 22 upgrades to that attribute on parse.
- Barriers: `llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)` is __syncthreads
  (bar.sync 0); `llvm.nvvm.barrier0` is auto-upgraded to it. Barriers that a
  warp's threads may reach apart use `llvm.nvvm.barrier.cta.sync.all` (barrier.sync).
  `.aligned.count(i32 id, i32 n)` is bar.sync id, n; the non-aligned
  `llvm.nvvm.barrier.cta.sync.all/.count` give barrier.sync (divergent code).
- Fences: `llvm.nvvm.membar.{cta,gl,sys}` still exist (membar.*); an IR
  `fence syncscope("device") seq_cst` gives fence.sc.gpu.
- Shuffles: `llvm.nvvm.shfl.sync.{down,up,bfly,idx}.{i32,f32}(mask, value,
  operand, clamp)`; 64-bit values take two shuffles.
- Atomics: plain `atomicrmw`. One atom.* instruction on sm_70..sm_120 for
  xchg/add/and/or/xor/max/min/umax/umin on i32/i64, fadd on half, float and
  double, xchg on float/double. fsub, fmax, fmin, fmaximum, fminimum and all
  i8/i16 operations compile too, as compare-and-swap loops (AtomicExpand)
  of atom.relaxed.sys.cas (without a syncscope the scope is the system's; the
  single instructions carry none, i.e. .gpu). `#pragma omp atomic` writes
  syncscope("device") into the ordering text (llvmlite has no argument for it),
  giving .gpu everywhere; the ordering of an atomicrmw is dropped by the back end
  (emitted relaxed), so ordered ones get fences (codegen/openmp/atomics/memory_order.py).
- PTX ISA: LLVM 22 emits up to 9.0 (+ptx90); omp2gpu asks for at least 8.0.
  ptxas 13 accepts sm_75 and newer only (sm_70/sm_72 need an older one).
- Data layout: "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64".
- libdevice declares itself nvptx64-nvidia-gpulibs with an older layout; it
  is retargeted before linking. NVVMReflect runs in the target machine's
  pipeline, so __nvvm_reflect("__CUDA_FTZ") folds to 0 (no flush to zero).
- ptxas -v from CUDA 13 no longer prints cmem[N]; the constant banks come
  from the cubin's `.nv.constantN.<kernel>` sections instead.
"""

from omp2gpu.targets.nvptx import fusion, relocatable, wide_twins
from omp2gpu.targets.nvptx.arch import (
    ARCHITECTURES,
    arch_for_compute_capability,
    default_arch,
    ptx_features,
    ptx_version,
    validate_arch,
)
from omp2gpu.targets.nvptx.intrinsics import (
    FULL_MASK,
    MEMORY_BARRIERS,
    NATIVE_ATOMIC_RMW,
    SPECIAL_REGISTERS,
    SPECIAL_REGISTERS_64,
    WARP_SIZE,
    active_mask,
    barrier,
    diverged_barrier,
    is_local,
    is_native_atomic,
    is_shared,
    membar,
    membar_gl,
    population_count,
    read_sreg,
    shfl_down_sync,
    shfl_sync,
    warp_lanes_mask,
    warp_sync,
)
from omp2gpu.targets.nvptx.libdevice import LIBDEVICE_PREFIX, LibdeviceNotFound, find_libdevice, link_libdevice
from omp2gpu.targets.nvptx.libdevice_math import (
    LIBDEVICE_MATH,
    LIBDEVICE_SIGNATURES,
    declare_math_function,
    libdevice_function_type,
)
from omp2gpu.targets.nvptx.machine import (
    ADDRESS_SPACES,
    DEVICE_TRIPLE,
    SHARED_ADDRESS_SPACE,
    configure_device_module,
    data_layout,
    mark_kernel,
    new_device_module,
    target_machine,
)
from omp2gpu.targets.nvptx.ptx import DeviceCode, compile_device, compile_to_ptx, emit_ptx, optimise
from omp2gpu.targets.nvptx.ptx_text import entry_sections
from omp2gpu.targets.nvptx.ptxas import (
    KernelResources,
    PtxasError,
    PtxasNotFound,
    assemble,
    find_ptxas,
    parse_verbose_output,
    resource_usage,
)
