/* omp2gpu <iso646.h>: alternative spellings (C99 7.9). */
#ifndef __OMP2GPU_ISO646_H
#define __OMP2GPU_ISO646_H
#define and &&
#define and_eq &=
#define bitand &
#define bitor |
#define compl ~
#define not !
#define not_eq !=
#define or ||
#define or_eq |=
#define xor ^
#define xor_eq ^=
#endif
