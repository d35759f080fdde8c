/* omp2gpu <setjmp.h>: glibc x86-64's jmp_buf. The declarations are here so
 * that programs include the header; a call to setjmp is refused at compile
 * time (it returns twice, which the code generator does not model). */
#ifndef __OMP2GPU_SETJMP_H
#define __OMP2GPU_SETJMP_H

#include <signal.h>

struct __jmp_buf_tag {
  long __jmpbuf[8];
  int __mask_was_saved;
  sigset_t __saved_mask;
};
typedef struct __jmp_buf_tag jmp_buf[1];
typedef struct __jmp_buf_tag sigjmp_buf[1];

int setjmp(jmp_buf env);
int _setjmp(struct __jmp_buf_tag env[1]);
int __sigsetjmp(struct __jmp_buf_tag env[1], int savemask);
#define sigsetjmp(env, savemask) __sigsetjmp(env, savemask)
void longjmp(struct __jmp_buf_tag env[1], int val);
void _longjmp(struct __jmp_buf_tag env[1], int val);
void siglongjmp(sigjmp_buf env, int val);

#endif
