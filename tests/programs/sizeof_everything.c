/* sizeof for types, expressions, arrays, structs (padding), and unevaluated operands. */
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

struct a { char c; int i; };
struct b { char c; double d; char e; };
struct c { int i; char c; };
struct d { char x[3]; };
struct e { short s; char c; long long l; };
union u { char c; int i; double d; };
enum color { RED, GREEN, BLUE };

int main(void)
{
    int arr[17];
    double darr[3][5];
    char *ptrs[4];
    int n = 0;
    struct b sb;

    printf("char %d short %d int %d long %d llong %d\n",
           (int)sizeof(char), (int)sizeof(short), (int)sizeof(int), (int)sizeof(long), (int)sizeof(long long));
    printf("float %d double %d ptr %d size_t %d ptrdiff %d\n",
           (int)sizeof(float), (int)sizeof(double), (int)sizeof(void *), (int)sizeof(size_t), (int)sizeof(ptrdiff_t));
    printf("int8 %d int16 %d int32 %d int64 %d intptr %d\n",
           (int)sizeof(int8_t), (int)sizeof(int16_t), (int)sizeof(int32_t), (int)sizeof(int64_t), (int)sizeof(intptr_t));
    printf("struct a %d b %d c %d d %d e %d union %d enum %d\n",
           (int)sizeof(struct a), (int)sizeof(struct b), (int)sizeof(struct c), (int)sizeof(struct d),
           (int)sizeof(struct e), (int)sizeof(union u), (int)sizeof(enum color));
    printf("offsetof b: c %d d %d e %d\n", (int)offsetof(struct b, c), (int)offsetof(struct b, d), (int)offsetof(struct b, e));
    printf("offsetof e: s %d c %d l %d\n", (int)offsetof(struct e, s), (int)offsetof(struct e, c), (int)offsetof(struct e, l));
    printf("arr %d elems %d, darr %d, darr[0] %d, ptrs %d\n",
           (int)sizeof arr, (int)(sizeof arr / sizeof arr[0]), (int)sizeof darr, (int)sizeof darr[0], (int)sizeof ptrs);
    printf("sb.d %d, sb %d\n", (int)sizeof sb.d, (int)sizeof sb);
    /* operand not evaluated */
    printf("sizeof(n++) = %d, n = %d\n", (int)sizeof(n++), n);
    printf("sizeof(arr[n++]) = %d, n = %d\n", (int)sizeof(arr[n++]), n);
    /* expression types */
    printf("1.0f %d, 1.0 %d, 1L %d, 'x' %d, 1==1 %d\n",
           (int)sizeof 1.0f, (int)sizeof 1.0, (int)sizeof 1L, (int)sizeof 'x', (int)sizeof(1 == 1));
    printf("\"hello\" %d, &arr %d, *darr %d, arr+0 %d\n",
           (int)sizeof "hello", (int)sizeof &arr, (int)sizeof *darr, (int)sizeof(arr + 0));
    /* array parameter vs array: computed from a typedef */
    {
        typedef int row[6];
        row rows[2];
        printf("row %d, rows %d\n", (int)sizeof(row), (int)sizeof rows);
    }
    /* sizeof in a constant expression */
    {
        char buf[sizeof(struct e) * 2];
        printf("buf %d\n", (int)sizeof buf);
    }
    /* sizeof result is unsigned size_t */
    printf("sizeof(int) - 5 > 0: %d\n", sizeof(int) - 5 > 0);
    return 0;
}
