/* Device memory lent to the launcher for the length of one Python call (a CuPy array
 * passed through the Python API, omp2gpu/api/c_function.py): present while lent, its
 * host address being its device address, so map clauses on it copy nothing and
 * kernels get the pointer itself (data_environment.DataEnvironment.borrow says the same
 * for the launcher's own table).
 *
 * The Python side lends and ends loans here, one call per range, instead of changing
 * its data environment and pushing the whole present table to mirror.c twice per call.
 * Its launcher reads them back into its own table when it next looks there and they
 * have changed (the generation counts changes; native_launch.MirroredDataEnvironment).
 * A loan never overlaps a range of mirror.c's table: one that touches such a range, or
 * another loan without lying inside it, is not lent here, and the Python side lends it
 * (counted in the mapping it lies in) or refuses it, as it always has. The
 * __omp2gpu_native_* functions take the native lock; the others are called with it
 * held (mirror.c's planning).
 */
#include "native_launch.h"

static long loan_begin[MAX_LOANS];
static long loan_end[MAX_LOANS];
static long loan_uses[MAX_LOANS];
static int loan_count;
static long generation;

/* The loan holding [begin, begin + size) (size 0: holding begin, or ending there, the
 * later one if two do, as mirror.c's find_mapping), -1 if none. */
static int loan_holding(long begin, long size) {
    int i, found = -1;
    for (i = 0; i < loan_count; i++) {
        if (loan_begin[i] > begin || (found >= 0 && loan_begin[i] < loan_begin[found])) continue;
        if (size > 0 ? begin + size <= loan_end[i] : begin <= loan_end[i]) found = i;
    }
    return found;
}

int native_touches_loan(long begin, long size) {
    int i;
    for (i = 0; i < loan_count; i++)
        if (loan_begin[i] < begin + size && begin < loan_end[i]) return 1;
    return 0;
}

/* For mirror.c's lookups: whether a loan holds the range, and where that loan begins. */
int native_lent(long begin, long size, long *start) {
    int i = loan_holding(begin, size);
    if (i < 0) return 0;
    *start = loan_begin[i];
    return 1;
}

void native_forget_loans(void) {
    loan_count = 0;
    generation++;
}

/* 0: lent (another use of the loan holding it, or a new loan); 1: not lent here. */
int __omp2gpu_native_lend(long begin, long nbytes) {
    int i, lent = 1;
    native_lock();
    i = nbytes > 0 ? loan_holding(begin, nbytes) : -1;
    if (i >= 0) {
        loan_uses[i]++;
        lent = 0;
    } else if (nbytes > 0 && loan_count < MAX_LOANS && !native_touches_mapping(begin, nbytes)
               && !native_touches_loan(begin, nbytes)) {
        loan_begin[loan_count] = begin;
        loan_end[loan_count] = begin + nbytes;
        loan_uses[loan_count] = 1;
        loan_count++;
        generation++;
        lent = 0;
    }
    native_unlock();
    return lent;
}

/* One use of the loan holding the range ended (the range __omp2gpu_native_lend lent);
 * -1 when no loan holds it (the launcher was reset meanwhile). */
int __omp2gpu_native_end_loan(long begin, long nbytes) {
    int i;
    native_lock();
    i = loan_holding(begin, nbytes);
    if (i >= 0 && --loan_uses[i] == 0) {
        loan_count--;
        loan_begin[i] = loan_begin[loan_count];
        loan_end[i] = loan_end[loan_count];
        loan_uses[i] = loan_uses[loan_count];
        generation++;
    }
    native_unlock();
    return i >= 0 ? 0 : -1;
}

/* The loans, at most `capacity` of them (begins, ends); returns how many there are. */
int __omp2gpu_native_loans(int capacity, long *begins, long *ends) {
    int i, count;
    native_lock();
    for (i = 0; i < loan_count && i < capacity; i++) {
        begins[i] = loan_begin[i];
        ends[i] = loan_end[i];
    }
    count = loan_count;
    native_unlock();
    return count;
}

/* Where the generation lives: the Python side reads it without a call. */
long *__omp2gpu_native_loan_generation(void) { return &generation; }
