/* Byte-sized and short counters updated with `omp atomic` from many teams: a text
 * classifier keeps a histogram of character classes in unsigned short bins, marks which
 * letters it saw in a byte array of flags (atomic |=), and counts down a signed char
 * budget with atomic capture; per document, a char tally declared in the distribute loop
 * is shared by a parallel region's threads (the aomp smoke test bugz-50967's shape).
 * gcc, the CPU device and the GPU must agree: the GPU has no 1- or 2-byte
 * compare-and-swap, so these are loops on the aligned word holding each. */
#include <stdio.h>
#include <string.h>

#define TEXT_REPEAT 40
#define CLASSES 4
#define DOCS 3

enum { LOWER, UPPER, DIGIT, OTHER };

static int class_of(char c)
{
    if (c >= 'a' && c <= 'z')
        return LOWER;
    if (c >= 'A' && c <= 'Z')
        return UPPER;
    if (c >= '0' && c <= '9')
        return DIGIT;
    return OTHER;
}
#pragma omp declare target(class_of)

int main(void)
{
    const char *line = "The 3 quick brown foxes jumped over 12 lazy dogs; OpenMP 5.1 says so!";
    int length = (int)strlen(line), total = length * TEXT_REPEAT, i;
    char text[length * TEXT_REPEAT];                 /* a VLA, as the reader sized it */
    unsigned short bins[CLASSES] = {0};
    unsigned char seen[26] = {0};
    signed char budget = 100;
    short spent_last = 0;
    int vowels[DOCS];

    for (i = 0; i < total; i++)
        text[i] = line[i % length];

    #pragma omp target teams distribute parallel for map(to: text[0:total]) \
            map(tofrom: bins, seen, budget) map(from: spent_last)
    for (i = 0; i < total; i++) {
        char c = text[i];
        signed char left;
        #pragma omp atomic update
        bins[class_of(c)] += 1;
        if (c >= 'a' && c <= 'z') {
            #pragma omp atomic
            seen[c - 'a'] |= (unsigned char)(1u << (i % 3));
        }
        if (c == 'o') {
            #pragma omp atomic capture
            left = budget--;
            if (left == 1)
                spent_last = 1;                     /* the one that took the last unit */
        }
    }

    #pragma omp target teams distribute map(to: text[0:total]) map(from: vowels)
    for (int doc = 0; doc < DOCS; doc++) {
        char tally = 0;                             /* the team's, shared by its threads */
        #pragma omp parallel for
        for (int k = 0; k < length; k++) {
            char c = text[doc * length + k];
            if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u') {
                #pragma omp atomic
                tally += 1;
            }
        }
        vowels[doc] = tally;
    }

    printf("bins: lower %u upper %u digit %u other %u\n", bins[LOWER], bins[UPPER], bins[DIGIT], bins[OTHER]);
    printf("seen:");
    for (i = 0; i < 26; i++)
        printf(" %u", seen[i]);
    printf("\nbudget %d, last unit taken %d, vowels %d %d %d\n", budget, spent_last, vowels[0], vowels[1],
           vowels[DOCS - 1]);
    return 0;
}
