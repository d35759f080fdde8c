/* `#pragma omp atomic` on bit-fields in a target region (gcc accepts it): a
 * counter, a wide 40-bit accumulator, a flag and captures, updated by every
 * thread at once. In device code each is a compare-and-swap on the aligned word
 * holding the bits, so neighbouring members and bit-fields are not lost. */
#include <stdio.h>

#define N 1000

struct tally {
    unsigned count : 12;
    int level : 5;
    unsigned char tag;
    _Bool seen : 1;
    unsigned long long bytes : 40;    /* wraps modulo 2^40 */
};

int main(void)
{
    struct tally t = { 1, -3, 'x', 0, 0xFFFFFFFF00ull };
    int tags[N], sane[N];
    long tag_sum = 0, sane_count = 0;
    int i;

#pragma omp target teams distribute parallel for map(tofrom: t, tags, sane)
    for (i = 0; i < N; i++) {
        int before, level;
#pragma omp atomic
        t.count++;
#pragma omp atomic
        t.bytes += 3;
#pragma omp atomic update
        t.level = t.level ^ 1;
#pragma omp atomic write
        t.seen = 1;
#pragma omp atomic read
        tags[i] = t.tag;
#pragma omp atomic capture
        { level = t.level; t.level += 2; }
#pragma omp atomic capture
        before = t.count++;
        sane[i] = (level >= -16 && level <= 15) + (before > 1);
    }

    for (i = 0; i < N; i++) {
        tag_sum += tags[i];
        sane_count += sane[i];
    }
    printf("count %u bytes %llx seen %d tag %c tags %ld sane %ld\n", t.count,
           (unsigned long long)t.bytes, t.seen, t.tag, tag_sum, sane_count);
    return 0;
}
