/* The preprocessor: object and function-like macros, stringizing, token pasting, conditionals,
   predefined macros that are stable, multi-line macros, macro side-effect pitfalls. */
#include <stdio.h>

#define PI_TIMES_100 314
#define SQUARE(x) ((x) * (x))
#define BAD_SQUARE(x) x * x
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a##b
#define MAKE_FN(name, k) static int name(int v) { return v * (k); }
#define SWAP(type, a, b) do { type tmp_ = (a); (a) = (b); (b) = tmp_; } while (0)
#define COUNT_ARGS_HELPER(a, b, c, d, n, ...) n
#define NELEMS(arr) (int)(sizeof(arr) / sizeof((arr)[0]))
#define LONG_MACRO(x) \
    ((x) + \
     (x) * 2 + \
     (x) * 3)
#define EMPTY
#define VERSION 3

MAKE_FN(times3, 3)
MAKE_FN(times7, 7)

#if VERSION >= 3
static const char *version_text = "v3+";
#elif VERSION == 2
static const char *version_text = "v2";
#else
static const char *version_text = "old";
#endif

#ifdef NOT_DEFINED_ANYWHERE
#error "should not be seen"
#endif

#if defined(SQUARE) && !defined(NOT_DEFINED_ANYWHERE)
#define HAS_SQUARE 1
#else
#define HAS_SQUARE 0
#endif

int main(void)
{
    int CAT(my, var) = 11;
    int a = 3, b = 4, arr[17];
    int i = 2;

    printf("PI_TIMES_100 = %d\n", PI_TIMES_100);
    printf("SQUARE(a+1) = %d, BAD_SQUARE(a+1) = %d\n", SQUARE(a + 1), BAD_SQUARE(a + 1));
    printf("MAX(a, b) = %d, MAX(2.5, -1) = %.1f\n", MAX(a, b), MAX(2.5, -1));
    printf("STR(hello world) = %s, STR(a + b) = %s\n", STR(hello world), STR(a + b));
    printf("XSTR(PI_TIMES_100) = %s, STR(PI_TIMES_100) = %s\n", XSTR(PI_TIMES_100), STR(PI_TIMES_100));
    printf("myvar = %d\n", myvar);
    printf("times3(5) = %d, times7(5) = %d\n", times3(5), times7(5));
    SWAP(int, a, b);
    printf("after SWAP a = %d, b = %d\n", a, b);
    printf("args counted = %d\n", COUNT_ARGS_HELPER(x, y, z, 4, 3, 2, 1));
    printf("NELEMS(arr) = %d\n", NELEMS(arr));
    printf("LONG_MACRO(2) = %d\n", LONG_MACRO(2));
    printf("version %s, has square %d\n", version_text, HAS_SQUARE);
    printf("EMPTY expands to nothing: %d\n", 5 EMPTY + 1);
    /* a macro argument evaluated twice */
    printf("MAX(i++, 1) = %d, ", MAX(i++, 1));
    printf("i = %d\n", i);
    printf("__STDC__ = %d, __STDC_VERSION__ >= 199901L: %d\n", __STDC__, __STDC_VERSION__ >= 199901L);
    printf("__LINE__ = %d\n", __LINE__);
    printf("__func__ = %s\n", __func__);
#undef SQUARE
#define SQUARE(x) ((x) + (x))
    printf("redefined SQUARE(5) = %d\n", SQUARE(5));
#line 1000
    printf("after #line, __LINE__ = %d\n", __LINE__);
    return 0;
}
