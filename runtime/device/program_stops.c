/* abort() and assert() inside target regions on an NVIDIA GPU.
 *
 * A kernel cannot end the host process: abort traps, and a failed assertion goes
 * through CUDA's own assertion call (__assertfail: it prints the assertion, its
 * file, line, function, block and thread, then stops the kernel). Either way the
 * launch fails, and the launcher treats the device as failed (OMP_TARGET_OFFLOAD
 * says whether the region then runs on the host, where it stops the program).
 * Without these a kernel that merely mentions abort or assert names a function the
 * GPU does not have, and no kernel of the program can be loaded.
 */

/* CUDA's system call; the last argument is the size of a character of the strings. */
void __assertfail(const char *assertion, const char *file, unsigned int line,
                  const char *function, unsigned long char_size);

void abort(void) { __builtin_trap(); }

void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function) {
    __assertfail(assertion, file, line, function, 1);
    __builtin_trap();
}
