/* Bit-fields as real codes use them: a packed packet header, particle status
 * flags in an array of structs mapped to a target region, a union over a
 * register word, enum-typed and wide (long long) bit-fields. Layout (sizeof,
 * _Alignof, bytes) and every operation must match gcc on x86-64, on the host
 * and in device code. */
#include <stdio.h>
#include <string.h>

#define NP 1000

enum phase { SOLID, LIQUID, GAS, PLASMA };

struct packet_header {
    unsigned version : 4;
    unsigned ihl : 4;
    unsigned char tos;
    unsigned short length;
    unsigned flags : 3;
    unsigned fragment : 13;
    unsigned char ttl;
    unsigned char protocol;
};

struct particle {
    double x, v;
    unsigned alive : 1;
    unsigned bounces : 5;        /* saturates at 31 */
    int charge : 3;              /* -4 .. 3, sign-extended */
    enum phase phase : 2;
    unsigned : 0;                /* next field starts a new unit */
    unsigned short cell : 10;
    _Bool flagged : 1;
};

union control_register {
    unsigned word;
    struct {
        unsigned enable : 1;
        unsigned mode : 3;
        unsigned : 4;
        unsigned divider : 8;
        unsigned reserved : 16;
    } f;
};

struct counter48 {
    unsigned long long ticks : 48;   /* wraps modulo 2^48, as gcc computes it */
    unsigned long long epoch : 16;
};

static struct packet_header template_header = { 4, 5, 0, 1500, 2, 0, 64, 17 };
static struct particle seed = { .v = 1.5, .alive = 1, .charge = -2, .phase = GAS, .cell = 1023 };

static void dump(const char *name, const void *object, size_t size)
{
    const unsigned char *bytes = object;
    printf("%s:", name);
    for (size_t i = 0; i < size; i++)
        printf(" %02x", bytes[i]);
    printf("\n");
}

static int header_checksum(const struct packet_header *h)
{
    return h->version * 1000 + h->ihl * 100 + h->flags * 10 + (h->length >> 8) + h->ttl + h->protocol;
}

int main(void)
{
    static struct particle p[NP];
    struct packet_header h = template_header;
    union control_register reg;
    struct counter48 clock = { 0xFFFFFFFFFFFEull, 7 };
    int i, alive = 0, flagged = 0, negative = 0;
    long bounces = 0, charges = 0;

    printf("sizes %zu %zu %zu %zu\n", sizeof(struct packet_header), sizeof(struct particle),
           sizeof(union control_register), sizeof(struct counter48));
    printf("aligns %zu %zu %zu\n", _Alignof(struct packet_header), _Alignof(struct particle),
           _Alignof(struct counter48));
    dump("template", &template_header, sizeof template_header);

    /* Reads, writes, truncation and the value an assignment yields. */
    h.fragment = 8191 + 3;               /* keeps the low 13 bits */
    h.ihl += 12;                         /* 5 + 12 wraps to 1 */
    int assigned = (h.version = 22);     /* 22 & 15 */
    printf("header %u %u %u %d checksum %d\n", h.version, h.ihl, h.fragment, assigned,
           header_checksum(&h));
    printf("promoted %d %d\n", (h.version - 10) < 0, h.flags * -1);
    dump("header", &h, sizeof h);

    /* The union sees the bits where gcc puts them. */
    reg.word = 0;
    reg.f.enable = 1;
    reg.f.mode = 5;
    reg.f.divider = 200;
    printf("register %08x\n", reg.word);
    reg.word = 0xDEADBEEF;
    printf("fields %u %u %u %u\n", reg.f.enable, reg.f.mode, reg.f.divider, reg.f.reserved);

    /* A 48-bit counter: arithmetic in 48 bits. */
    clock.ticks += 5;
    printf("ticks %llx epoch %llu sum %llx\n", (unsigned long long)clock.ticks,
           (unsigned long long)clock.epoch, (unsigned long long)(clock.ticks + clock.ticks));

    for (i = 0; i < NP; i++) {
        p[i] = seed;
        p[i].x = i * 0.25;
        p[i].v = (i % 7) - 3.0;
        p[i].charge = i % 8 - 4;
        p[i].phase = (enum phase)(i % 4);
        p[i].cell = i;
        p[i].bounces = i % 3;
    }

#pragma omp target teams distribute parallel for map(tofrom: p)
    for (i = 0; i < NP; i++) {
        int step;
        for (step = 0; step < 40; step++) {
            p[i].x += p[i].v * 0.5;
            if (p[i].x < 0.0 || p[i].x > 100.0) {
                p[i].v = -p[i].v;
                if (p[i].bounces < 31)
                    p[i].bounces++;
            }
        }
        if (p[i].bounces >= 20 && p[i].charge < 0)
            p[i].alive = 0;
        p[i].flagged = p[i].phase == PLASMA || p[i].charge == -4;
        p[i].charge = -p[i].charge / 2;
        p[i].cell += 100;                  /* wraps modulo 1024 */
    }

#pragma omp target teams distribute parallel for map(to: p) reduction(+: alive, flagged, negative, bounces, charges)
    for (i = 0; i < NP; i++) {
        alive += p[i].alive;
        flagged += p[i].flagged;
        negative += p[i].charge < 0;
        bounces += p[i].bounces;
        charges += p[i].charge;
    }

    printf("alive %d flagged %d negative %d bounces %ld charges %ld\n", alive, flagged, negative,
           bounces, charges);
    for (i = 0; i < NP; i += 111)
        printf("p[%d] x=%.2f alive=%u bounces=%u charge=%d phase=%d cell=%u flagged=%d\n", i,
               p[i].x, p[i].alive, p[i].bounces, p[i].charge, p[i].phase, p[i].cell, p[i].flagged);
    dump("p[7]", &p[7], sizeof p[7]);

    struct particle copy;
    memcpy(&copy, &p[5], sizeof copy);
    copy.phase = PLASMA;
    printf("copy phase %d plasma %d original %d\n", copy.phase, copy.phase == PLASMA, p[5].phase);
    return 0;
}
