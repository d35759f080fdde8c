/* Unions: overlapping storage, type punning between float/int, byte views, tagged unions. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

union fbits { float f; uint32_t u; };
union dbits { double d; uint64_t u; uint32_t w[2]; };
union bytes { uint32_t u; unsigned char b[4]; };

enum kind { K_INT, K_DBL, K_STR };
struct value {
    enum kind kind;
    union { int i; double d; const char *s; } as;
};

static void print_value(struct value v)
{
    switch (v.kind) {
    case K_INT: printf("int %d\n", v.as.i); break;
    case K_DBL: printf("double %.3f\n", v.as.d); break;
    case K_STR: printf("string %s\n", v.as.s); break;
    }
}

int main(void)
{
    union fbits fb;
    union dbits db;
    union bytes by;
    struct value vals[3];
    int i;

    fb.f = 1.0f;
    printf("1.0f bits = 0x%08x\n", fb.u);
    fb.f = -2.5f;
    printf("-2.5f bits = 0x%08x\n", fb.u);
    fb.u = 0x7f800000u;
    printf("0x7f800000 as float = %f\n", fb.f);
    fb.u = 0x3eaaaaabu;
    printf("0x3eaaaaab as float = %.8f\n", fb.f);
    db.d = 1.0;
    printf("1.0 bits = 0x%016llx\n", (unsigned long long)db.u);
    db.d = -0.0;
    printf("-0.0 bits = 0x%016llx\n", (unsigned long long)db.u);
    db.u = 0x400921fb54442d18ULL;
    printf("pi from bits = %.15f, low word = 0x%08x, high word = 0x%08x\n", db.d, db.w[0], db.w[1]);
    /* little-endian byte order */
    by.u = 0x11223344u;
    printf("bytes: %02x %02x %02x %02x\n", by.b[0], by.b[1], by.b[2], by.b[3]);
    by.b[0] = 0xff;
    printf("after byte write: 0x%08x\n", by.u);
    printf("sizeof: fbits %d dbits %d bytes %d value %d\n",
           (int)sizeof(union fbits), (int)sizeof(union dbits), (int)sizeof(union bytes), (int)sizeof(struct value));
    /* memcpy punning gives the same bits */
    {
        float f = 3.14159f;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        fb.f = f;
        printf("memcpy bits 0x%08x, union bits 0x%08x, same %d\n", u, fb.u, u == fb.u);
    }
    vals[0].kind = K_INT; vals[0].as.i = -42;
    vals[1].kind = K_DBL; vals[1].as.d = 6.125;
    vals[2].kind = K_STR; vals[2].as.s = "tagged";
    for (i = 0; i < 3; i++)
        print_value(vals[i]);
    /* union initializer initializes the first member */
    {
        union dbits z = { 2.0 };
        union bytes y = { .b = { 1, 2, 3, 4 } };
        printf("z.d = %f, y.u = 0x%08x\n", z.d, y.u);
    }
    /* union copy */
    {
        union dbits a, b;
        a.u = 0x0123456789abcdefULL;
        b = a;
        printf("copied words: 0x%08x 0x%08x\n", b.w[0], b.w[1]);
    }
    return 0;
}
