/* GCC's memory orders for the __atomic_* builtins (omp2gpu/codegen/atomic_builtins.py);
 * the preprocessor runs with -undef, so GCC's own definitions are not there. */
#ifndef __OMP2GPU_CPU_ATOMICS_H
#define __OMP2GPU_CPU_ATOMICS_H

#define __ATOMIC_RELAXED 0
#define __ATOMIC_CONSUME 1
#define __ATOMIC_ACQUIRE 2
#define __ATOMIC_RELEASE 3
#define __ATOMIC_ACQ_REL 4
#define __ATOMIC_SEQ_CST 5

#endif
