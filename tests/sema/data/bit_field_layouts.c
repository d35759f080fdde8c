/* Structs and unions with bit-fields whose layout (size, alignment, offsets of
 * ordinary members) and initialised bytes omp2gpu must give exactly as gcc does:
 * tests/sema/test_record_layout.py runs this with both and compares the output. */
#include <stdio.h>
#include <stddef.h>
#include <string.h>

struct packed_header { unsigned version:4, ihl:4; unsigned char tos; unsigned short length; };
struct zero_width { char a; int :0; char b; };
struct zero_width_at_end { char a; int :0; };
struct zero_width_long { char a; long long :0; char b; };
struct unnamed_first { int :5; char c; };
struct straddle { char a; int b:4; int c:30; char d; };
struct wide { char a; long long x:40; char b; unsigned long long y:60; };
struct shorts { char a; short b:9; char c; unsigned short d:7, e:9; };
struct mixed { unsigned long long x:3; unsigned long long y:40; long long z:33; unsigned w:32;
               char c:3; _Bool b:1; unsigned short s:9; };
struct bools { _Bool a:1, b:1; char c; _Bool d:1; };
struct chars { char a:3, b:5, c:7; signed char d:2; unsigned char e:8; };
struct after_array { char name[3]; unsigned flag:1; double d; };
struct pointer_then_bits { int *p; unsigned n:12, m:20; unsigned k:1; };
enum mode { IDLE, RUN, STOP, FAIL };
struct with_enum { enum mode m:2; enum mode n:3; int value; };
union bits_union { unsigned bits:12; char c; };
union unnamed_union { char c; int :5; };
union wide_union { char c[5]; int x:3; };
struct nested { char tag; struct packed_header h; struct zero_width_at_end z[2]; union bits_union u; };

static struct packed_header s_header = { 4, 5, 0x10, 1500 };
static struct zero_width s_zero = { 'a', 'b' };
static struct straddle s_straddle = { 1, -3, 123456789, 7 };
static struct wide s_wide = { 9, -2, 3, 0xFFFFFFFFFFFFFFull };
static struct shorts s_shorts = { .c = 3, .b = -200, .e = 300, .d = 100 };
static struct mixed s_mixed = { 5, 0x123456789Aull, -1, 0xDEADBEEF, -2, 1, 257 };
static struct bools s_bools = { 1, 0, 'q', 1 };
static struct chars s_chars = { -4, 11, 63, -2, 255 };
static struct after_array s_after = { "ab", 1, 2.5 };
static struct with_enum s_enum = { STOP, FAIL, -6 };
static union bits_union s_union = { 0xABC };
static union wide_union s_wide_union = { .x = -1 };
static struct nested s_nested = { 'n', { 6, 9, 1, 2 }, { { 1 }, { 2 } }, { .c = 'u' } };
static struct straddle s_array[3] = { { 1, 2, 3, 4 }, [2] = { .c = -5, .d = 6 } };

static void dump(const char *name, const void *object, size_t size) {
    const unsigned char *bytes = object;
    printf("%-18s", name);
    for (size_t i = 0; i < size; i++)
        printf(" %02x", bytes[i]);
    printf("\n");
}

#define LAYOUT(T) printf("%-28s size %2zu align %zu\n", #T, sizeof(T), _Alignof(T))
#define DUMP(object) dump(#object, &(object), sizeof(object))

int main(void) {
    LAYOUT(struct packed_header); LAYOUT(struct zero_width); LAYOUT(struct zero_width_at_end);
    LAYOUT(struct zero_width_long); LAYOUT(struct unnamed_first); LAYOUT(struct straddle);
    LAYOUT(struct wide); LAYOUT(struct shorts); LAYOUT(struct mixed); LAYOUT(struct bools);
    LAYOUT(struct chars); LAYOUT(struct after_array); LAYOUT(struct pointer_then_bits);
    LAYOUT(struct with_enum); LAYOUT(union bits_union); LAYOUT(union unnamed_union);
    LAYOUT(union wide_union); LAYOUT(struct nested);
    printf("offsets %zu %zu %zu %zu %zu %zu %zu %zu %zu\n", offsetof(struct packed_header, tos),
           offsetof(struct zero_width, b), offsetof(struct zero_width_long, b),
           offsetof(struct unnamed_first, c), offsetof(struct straddle, d), offsetof(struct wide, b),
           offsetof(struct shorts, c), offsetof(struct after_array, d), offsetof(struct nested, u));

    DUMP(s_header); DUMP(s_zero); DUMP(s_straddle); DUMP(s_wide); DUMP(s_shorts); DUMP(s_mixed);
    DUMP(s_bools); DUMP(s_chars); DUMP(s_after.name); DUMP(s_after.d); DUMP(s_enum);
    DUMP(s_union); DUMP(s_wide_union.c); DUMP(s_nested.h); DUMP(s_nested.z); DUMP(s_nested.u.c);
    DUMP(s_nested.tag); DUMP(s_array);

    /* The same values in automatic objects (zeroed first so padding compares). */
    struct mixed a_mixed;
    memset(&a_mixed, 0, sizeof a_mixed);
    a_mixed = (struct mixed){ 5, 0x123456789Aull, -1, 0xDEADBEEF, -2, 1, 257 };
    DUMP(a_mixed);
    struct straddle a_array[3];
    memset(a_array, 0, sizeof a_array);
    a_array[0] = s_array[0];
    a_array[2].c = -5; a_array[2].d = 6;
    DUMP(a_array);
    struct shorts a_shorts = { .c = 3, .b = -200, .e = 300, .d = 100 };
    printf("%d %d %u %u\n", a_shorts.b, a_shorts.c, a_shorts.d, a_shorts.e);
    return 0;
}
