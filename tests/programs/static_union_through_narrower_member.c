/* Static unions initialised through a member other than the widest, as
 * tagged values and type-punning tables in real codes are: the storage
 * holds the named member, zero padded. */
#include <stdio.h>
#include <string.h>

enum kind { K_INT, K_REAL, K_NAME };

struct value {
    enum kind kind;
    union {
        char name[6];
        double real;
        int integer;
    } as;
};

static struct value table[] = {
    { K_INT,  { .integer = -42 } },
    { K_REAL, { .real = 2.5 } },
    { K_NAME, { "pi" } },
    { K_INT,  { .integer = 7 } },
};

union word {
    unsigned char bytes[8];
    unsigned long long bits;
};

static union word magic = { { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0 } };
static union { float f; unsigned u; double wide; } one = { .u = 0x3f800000u };
static union { short s; long l; } small = { -2 };

static void show(const struct value *v) {
    switch (v->kind) {
    case K_INT:  printf("int %d\n", v->as.integer); break;
    case K_REAL: printf("real %g\n", v->as.real); break;
    case K_NAME: printf("name %s (%zu)\n", v->as.name, strlen(v->as.name)); break;
    }
}

int main(void) {
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        show(&table[i]);
    printf("magic %llx\n", magic.bits);
    printf("one.f %g, one.wide bits above the float: %s\n", one.f,
           ((const unsigned char *)&one)[4] == 0 ? "zero" : "set");
    printf("small.s %d, small.l %ld\n", small.s, small.l);
    static union word local = { .bits = 0x0102030405060708ull };
    printf("local bytes %d %d\n", local.bytes[0], local.bytes[7]);
    return 0;
}
