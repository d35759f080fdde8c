"""The bundled headers: they parse with pycparser, and they agree with the
glibc/libm of this machine (prototypes, exported symbols, macro values,
layouts, behaviour). The glibc comparisons compile small C programs with gcc."""

import ctypes
import shutil
import subprocess

import pytest
from pycparser import c_ast, c_generator

from omp2gpu import runtime_files
from omp2gpu.frontend.parse import parse
from omp2gpu.frontend.preprocess import preprocess

INCLUDE = runtime_files.include_dir()
HEADERS = sorted(str(p.relative_to(INCLUDE)) for p in INCLUDE.rglob("*.h"))
LIBC_HEADERS = [h for h in HEADERS if h != "omp.h"]
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc")


def all_headers_file(tmp_path, twice=True):
    path = tmp_path / "all.c"
    path.write_text("".join(f"#include <{h}>\n" * (2 if twice else 1) for h in HEADERS))
    return str(path)


@pytest.fixture(scope="module")
def declarations(tmp_path_factory):
    path = all_headers_file(tmp_path_factory.mktemp("headers"))
    return parse(preprocess(path), path).ext


def test_the_required_headers_are_bundled():
    for name in ("omp.h", "stdio.h", "stdlib.h", "string.h", "math.h", "stdint.h", "stdbool.h",
                 "stddef.h", "stdarg.h", "limits.h", "float.h", "time.h", "assert.h", "errno.h",
                 "ctype.h", "sys/time.h", "inttypes.h", "unistd.h",
                 # issue 12: the C11 headers and the POSIX ones programs include
                 "complex.h", "fenv.h", "locale.h", "setjmp.h", "signal.h", "stdalign.h",
                 "stdnoreturn.h", "tgmath.h", "wchar.h", "iso646.h", "uchar.h", "wctype.h",
                 "strings.h", "getopt.h", "fcntl.h", "sys/stat.h", "sys/resource.h",
                 "sys/mman.h", "sys/wait.h", "sys/utsname.h", "sys/types.h", "dirent.h",
                 "libgen.h", "pthread.h", "sched.h", "dlfcn.h"):
        assert name in HEADERS


@pytest.mark.parametrize("backend", [pytest.param("gcc", marks=needs_gcc), "pcpp"])
def test_every_header_parses_twice_included(tmp_path, backend):
    path = all_headers_file(tmp_path)
    ast = parse(preprocess(path, backend=backend), path)
    typedefs = {node.name for node in ast.ext if isinstance(node, c_ast.Typedef)}   # file scope
    assert {"size_t", "FILE", "int64_t", "va_list", "omp_lock_t", "clock_t"} <= typedefs


def test_each_header_stands_alone(tmp_path):
    for header in HEADERS:
        path = tmp_path / "one.c"
        path.write_text(f"#include <{header}>\n")
        parse(preprocess(str(path)), str(path))


@pytest.mark.parametrize("backend", [pytest.param("gcc", marks=needs_gcc), "pcpp"])
def test_a_typical_program_preprocesses_and_parses(tmp_path, backend):
    path = tmp_path / "prog.c"
    path.write_text("""\
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <limits.h>
#include <float.h>
#include <inttypes.h>
#include <stdbool.h>
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <time.h>
#include <sys/time.h>
#include <omp.h>

static int sum(int n, ...) {
  va_list ap;
  int total = 0;
  va_start(ap, n);
  for (int i = 0; i < n; i++) total += va_arg(ap, int);
  va_end(ap);
  return total;
}

int main(void) {
  double *a = malloc(10 * sizeof *a);
  double b[10];
  int64_t big = INT64_MAX;
  bool ok = true;
  struct timespec ts;
  memcpy(b, a, sizeof b);
  assert(a != NULL);
  clock_gettime(CLOCK_MONOTONIC, &ts);
  printf("%d %g %" PRId64 " %d %g\\n", INT_MAX, DBL_EPSILON, big, ok, sqrt(2.0) + M_PI);
  if (isnan(b[0]) || errno == ERANGE || b[1] == HUGE_VAL) return EXIT_FAILURE;
  printf("%d %f\\n", sum(2, 3, 4), omp_get_wtime());
  free(a);
  return 0;
}
""")
    ast = parse(preprocess(str(path), backend=backend), str(path))
    assert any(isinstance(e, c_ast.FuncDef) and e.decl.name == "main" for e in ast.ext)


def test_ndebug_turns_assert_off(tmp_path):
    path = tmp_path / "a.c"
    path.write_text("#include <assert.h>\nvoid f(int x) { assert(x); }\n"
                    "#define NDEBUG\n#include <assert.h>\nvoid g(int x) { assert(x); }\n")
    ast = parse(preprocess(str(path)), str(path))
    bodies = {e.decl.name: c_generator.CGenerator().visit(e.body) for e in ast.ext
              if isinstance(e, c_ast.FuncDef)}
    assert '__assert_fail("x", ' in bodies["f"] and ", 2, __func__)" in bodies["f"]
    assert "__assert_fail" not in bodies["g"]


def test_every_libc_symbol_resolves_in_this_process(declarations):
    libraries = [ctypes.CDLL("libc.so.6"), ctypes.CDLL("libm.so.6")]
    names = [d.name for d in declarations
             if isinstance(d, c_ast.Decl) and (isinstance(d.type, c_ast.FuncDecl) or "extern" in d.storage)]
    # atexit is declared but reached through __cxa_atexit (glibc does not export it);
    # omp_*, omp2gpu_* and llvm_omp_* are omp2gpu's host runtime's (runtime/host/omp_api.c).
    missing = [n for n in names if not n.startswith(("omp_", "omp2gpu_", "llvm_omp_")) and n != "atexit"
               and not any(hasattr(lib, n) for lib in libraries)]
    assert missing == []


@needs_gcc
def test_prototypes_agree_with_glibc(declarations, tmp_path):
    # Redeclaring a glibc function with an incompatible type is a gcc error.
    # POSIX and BSD names, not _GNU_SOURCE: in GNU mode glibc types the
    # `resource`/`which` parameters of getrlimit, getitimer, ... as enums.
    generator = c_generator.CGenerator()
    lines = ["#define _DEFAULT_SOURCE", "#define _XOPEN_SOURCE 700"] + [f"#include <{h}>" for h in LIBC_HEADERS]
    lines.append("typedef va_list __omp2gpu_va_list;")
    for decl in declarations:
        if (isinstance(decl, c_ast.Decl) and decl.name and not decl.name.startswith("omp_")
                and (isinstance(decl.type, c_ast.FuncDecl) or "extern" in decl.storage)):
            lines += [f"#undef {decl.name}", generator.visit(decl) + ";"]
    path = tmp_path / "protos.c"
    path.write_text("\n".join(lines) + "\n")
    result = subprocess.run(["gcc", "-fsyntax-only", "-std=gnu11", str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def _compile_and_run(tmp_path, name, source, ours, args=()):
    path = tmp_path / f"{name}.c"
    path.write_text(source)
    exe = tmp_path / (name + ("_ours" if ours else "_glibc"))
    # the same mode on both sides (the bundled headers show what glibc's show in it)
    mode = ["-std=gnu11", "-D_GNU_SOURCE"]
    flags = [*mode, "-nostdinc", "-isystem", str(INCLUDE)] if ours else mode
    subprocess.run(["gcc", *flags, "-w", str(path), "-o", str(exe), "-lm"], check=True,
                   capture_output=True, text=True)
    run = subprocess.run([str(exe), *args], capture_output=True, text=True, cwd=tmp_path)
    return run.returncode, run.stdout, run.stderr.replace(exe.name, "PROG")


@needs_gcc
def test_macro_values_and_types_match_glibc(tmp_path):
    # Our expansions, compared in a program built against glibc's headers.
    ours_names = subprocess.run(
        ["gcc", "-E", "-dM", "-undef", "-nostdinc", "-isystem", str(INCLUDE),
         all_headers_file(tmp_path)], capture_output=True, text=True, check=True).stdout
    system = "#define _GNU_SOURCE\n" + "".join(f"#include <{h}>\n" for h in LIBC_HEADERS)
    (tmp_path / "sys.c").write_text(system)
    system_names = subprocess.run(["gcc", "-E", "-dM", str(tmp_path / "sys.c")],
                                  capture_output=True, text=True, check=True).stdout

    def object_like(text):
        return {line.split()[1] for line in text.splitlines()
                if line.startswith("#define ") and "(" not in line.split()[1]}

    # These have no comparable value.
    skip = {"errno", "stdin", "stdout", "stderr", "MB_CUR_MAX", "HUGE_VAL", "HUGE_VALF",
            "INFINITY", "NAN", "NULL", "math_errhandling", "bool", "true", "false",
            "static_assert",
            # Not expressions: spellings of operators and keywords, member
            # names, brace initialisers.
            "and", "and_eq", "bitand", "bitor", "compl", "not", "not_eq", "or", "or_eq",
            "xor", "xor_eq", "noreturn", "alignas", "alignof", "complex", "I", "_Complex_I",
            "sa_handler", "sa_sigaction", "st_atime", "st_mtime", "st_ctime",
            "PTHREAD_MUTEX_INITIALIZER", "PTHREAD_COND_INITIALIZER", "PTHREAD_RWLOCK_INITIALIZER"}
    names = sorted(n for n in object_like(ours_names) & object_like(system_names)
                   if not n.startswith(("_OMP2GPU", "__")) and n not in skip)
    assert len(names) > 300
    probe = tmp_path / "probe.c"
    probe.write_text("".join(f"#include <{h}>\n" for h in HEADERS) +
                     "".join(f"\n@{i}@ {n}\n" for i, n in enumerate(names)))
    expanded = subprocess.run(["gcc", "-E", "-P", "-undef", "-nostdinc", "-isystem", str(INCLUDE),
                               str(probe)], capture_output=True, text=True, check=True).stdout
    checks = []
    for line in expanded.splitlines():
        if line.startswith("@"):
            _, index, value = line.split("@", 2)
            name = names[int(index)]
            if value.strip().startswith('"'):
                checks.append(f'if (strcmp({name}, {value})) puts("{name}");')
            else:
                checks.append(f"if (({name}) != ({value}) || !__builtin_types_compatible_p("
                              f'__typeof__({name}), __typeof__({value}))) puts("{name}");')
    assert len(checks) == len(names)
    program = system + "#include <string.h>\nint main(void) {\n" + "\n".join(checks) + "\nreturn 0;\n}\n"
    path = tmp_path / "values.c"
    path.write_text(program)
    subprocess.run(["gcc", "-std=gnu11", "-w", str(path), "-o", str(tmp_path / "values"), "-lm"],
                   check=True)
    mismatches = subprocess.run([str(tmp_path / "values")], capture_output=True, text=True).stdout
    assert mismatches == ""


LAYOUT_PROGRAM = """\
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <time.h>
#include <sys/time.h>
#include <sys/types.h>
#include <stdarg.h>
#include <unistd.h>
#include <math.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <getopt.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <setjmp.h>
#include <locale.h>
#include <fenv.h>
#include <wchar.h>
#include <wctype.h>
#include <pthread.h>
#include <sched.h>
#define T(t) printf("%s %zu %zu %d\\n", #t, sizeof(t), _Alignof(t), (t)-1 < (t)0);
#define S(t) printf("%s %zu %zu\\n", #t, sizeof(t), _Alignof(t));
#define O(t, m) printf("%s.%s %zu\\n", #t, #m, __builtin_offsetof(t, m));
int main(void) {
  T(size_t) T(ptrdiff_t) T(wchar_t) T(int8_t) T(int16_t) T(int32_t) T(int64_t)
  T(uint8_t) T(uint16_t) T(uint32_t) T(uint64_t) T(int_least8_t) T(int_least16_t)
  T(int_least32_t) T(int_least64_t) T(uint_least8_t) T(uint_least16_t) T(uint_least32_t)
  T(uint_least64_t) T(int_fast8_t) T(int_fast16_t) T(int_fast32_t) T(int_fast64_t)
  T(uint_fast8_t) T(uint_fast16_t) T(uint_fast32_t) T(uint_fast64_t) T(intptr_t)
  T(uintptr_t) T(intmax_t) T(uintmax_t) T(time_t) T(clock_t) T(clockid_t) T(suseconds_t)
  T(ssize_t) T(off_t) T(pid_t) T(uid_t) T(gid_t) T(mode_t) T(useconds_t) T(float_t) T(double_t)
  S(fpos_t) S(div_t) S(ldiv_t) S(lldiv_t) S(imaxdiv_t) S(va_list) S(struct tm)
  S(struct timespec) S(struct timeval) S(struct timezone)
  O(struct tm, tm_isdst) O(struct tm, tm_gmtoff) O(struct tm, tm_zone)
  O(struct timespec, tv_nsec) O(struct timeval, tv_usec) O(div_t, rem) O(ldiv_t, rem)
  O(lldiv_t, rem) O(imaxdiv_t, rem)
  T(dev_t) T(ino_t) T(nlink_t) T(blksize_t) T(blkcnt_t) T(rlim_t) T(sig_atomic_t) T(wint_t)
  T(id_t) T(fexcept_t) T(wctype_t)
  S(struct stat) S(struct rusage) S(struct rlimit) S(struct option) S(struct utsname)
  S(struct dirent) S(struct flock) S(sigset_t) S(struct sigaction) S(siginfo_t) S(jmp_buf)
  S(struct lconv) S(fenv_t) S(mbstate_t) S(pthread_mutex_t) S(pthread_cond_t)
  S(pthread_barrier_t) S(pthread_rwlock_t) S(pthread_attr_t) S(struct sched_param)
  S(struct itimerval)
  O(struct stat, st_mode) O(struct stat, st_uid) O(struct stat, st_size)
  O(struct stat, st_blocks) O(struct stat, st_mtim) O(struct rusage, ru_maxrss)
  O(struct rusage, ru_nivcsw) O(struct utsname, machine) O(struct dirent, d_type)
  O(struct dirent, d_name) O(struct sigaction, sa_mask) O(struct sigaction, sa_flags)
  O(struct lconv, int_n_sign_posn) O(struct option, val) O(struct flock, l_pid)
  O(siginfo_t, si_code) O(fenv_t, __mxcsr)
  return 0;
}
"""


@needs_gcc
def test_type_layouts_match_glibc(tmp_path):
    assert (_compile_and_run(tmp_path, "layout", LAYOUT_PROGRAM, ours=True)
            == _compile_and_run(tmp_path, "layout", LAYOUT_PROGRAM, ours=False))


BEHAVIOUR_PROGRAM = """\
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <errno.h>
#include <inttypes.h>
#include <ctype.h>
#include <time.h>
#include <assert.h>
static void bye(void) { puts("bye"); }
static void show(const char *what, double d, float f) {
  printf("%s: %d%d%d%d%d %d%d%d%d%d\\n", what, isnan(d) != 0, isinf(d) != 0, isfinite(d) != 0,
         signbit(d) != 0, fpclassify(d), isnan(f) != 0, isinf(f) != 0, isfinite(f) != 0,
         signbit(f) != 0, fpclassify(f));
}
int main(int argc, char **argv) {
  atexit(bye);
  show("nan", NAN, NAN);
  show("inf", INFINITY, -INFINITY);
  show("huge", HUGE_VAL, HUGE_VALF);
  show("zero", -0.0, 0.0f);
  show("sub", 4e-320, 1e-40f);
  show("one", 1.0, 1.0f);
  printf("%d %d %d\\n", isnormal(1.0), isgreater(2.0, NAN), islessgreater(1.0, 2.0));
  printf("%" PRId64 " %" PRIu32 " %" PRIxPTR "\\n", INT64_MIN, UINT32_MAX, (uintptr_t)255);
  errno = 0;
  strtol("99999999999999999999", NULL, 10);
  printf("errno %d %d\\n", errno == ERANGE, toupper('q'));
  printf("%.17g %g\\n", M_PI, sqrt(2.0));
  fflush(stdout);
  assert(argc < 2);
  return 0;
}
"""


@needs_gcc
def test_header_macros_behave_like_glibc(tmp_path):
    for args in ((), ("fail",)):
        ours = _compile_and_run(tmp_path, "behaviour", BEHAVIOUR_PROGRAM, ours=True, args=args)
        glibc = _compile_and_run(tmp_path, "behaviour", BEHAVIOUR_PROGRAM, ours=False, args=args)
        assert ours == glibc
    assert ours[0] != 0 and "main: Assertion `argc < 2' failed." in ours[2]
