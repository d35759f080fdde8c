/* GNU C's bit builtins as a bitboard code uses them (population counts, the lowest and
 * highest set square, byte order of a hash), on the host and inside target regions:
 * what `#ifdef __GNUC__` paths call once omp2gpu-cc answers as GNU C. */
#include <stdio.h>
#include <stdint.h>

#define BOARDS 256

struct boards {
    uint64_t occupied[BOARDS];
    unsigned int pieces[BOARDS];
    int lowest[BOARDS], highest[BOARDS], first[BOARDS], parity[BOARDS];
};

static uint64_t next_board(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

int main(void) {
    static struct boards b;
    uint64_t state = 88172645463325252ULL;
    for (int i = 0; i < BOARDS; i++) {
        b.occupied[i] = next_board(&state) & next_board(&state);
        if (i % 17 == 0)
            b.occupied[i] = 1ULL << (i % 64);
    }
    uint64_t *occupied = b.occupied;
    unsigned int *pieces = b.pieces;
    int *lowest = b.lowest, *highest = b.highest, *first = b.first, *parity = b.parity;
    long total = 0;
    #pragma omp target teams distribute parallel for reduction(+: total) \
        map(to: occupied[0:BOARDS]) map(from: pieces[0:BOARDS], lowest[0:BOARDS], highest[0:BOARDS], \
                                            first[0:BOARDS], parity[0:BOARDS])
    for (int i = 0; i < BOARDS; i++) {
        uint64_t board = occupied[i];
        pieces[i] = (unsigned int)__builtin_popcountll(board);
        lowest[i] = board ? __builtin_ctzll(board) : -1;
        highest[i] = board ? 63 - __builtin_clzll(board) : -1;
        first[i] = __builtin_ffsll((long long)board) + __builtin_ffs((int)(board >> 40));
        parity[i] = __builtin_parityll(board) + 2 * __builtin_parity((unsigned int)board);
        total += __builtin_popcount((unsigned int)board) + __builtin_popcountl((unsigned long)(board >> 32));
    }
    long checksum = 0;
    for (int i = 0; i < BOARDS; i++)
        checksum = checksum * 31 + pieces[i] + 7 * lowest[i] + 11 * highest[i] + 13 * first[i] + parity[i];
    for (int i = 0; i < BOARDS; i += 51)
        printf("board %3d: %2u pieces, squares %2d..%2d, ffs %2d, parity %d\n", i, pieces[i], lowest[i],
               highest[i], first[i], parity[i]);
    uint32_t hash = 0x12345678u;
    printf("total %ld checksum %ld bswap %08x %04x %016llx clz %d ctz %d\n", total, checksum,
           __builtin_bswap32(hash), __builtin_bswap16((uint16_t)hash),
           (unsigned long long)__builtin_bswap64(0x0102030405060708ULL), __builtin_clz(1u), __builtin_ctz(8u));
    return 0;
}
