/* Nestable locks and omp_get_wtime inside target regions: a ledger of accounts on the
 * device, one nestable lock per account. A transfer locks both accounts (the lower
 * number first); a transfer from an account to itself takes the same lock twice, and a
 * fee posted while the lock is held (post_fee) takes it again: what nestable locks are
 * for. Locks are initialised and destroyed in their own target regions, as codes do;
 * omp_test_nest_lock's depths are checked by one thread, and another thread of the
 * team must fail to take a lock the first holds. Kernel times (omp_get_wtime on the
 * device) print on "timing:" lines; the checks on them (not decreasing, omp_get_wtick
 * positive) print plainly. Amounts are integers: any order of the transfers gives the
 * same balances. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define ACCOUNTS 24
#define TRANSFERS 6000
#define STEPS 3

struct ledger {
    long balance[ACCOUNTS];
    long postings[ACCOUNTS];
    omp_nest_lock_t lock[ACCOUNTS];
};

#pragma omp declare target
static void post(struct ledger *book, int account, long amount)
{
    omp_set_nest_lock(&book->lock[account]);
    book->balance[account] += amount;
    book->postings[account] += 1;
    omp_unset_nest_lock(&book->lock[account]);
}

/* Called with the account's lock held: takes it once more. */
static void post_fee(struct ledger *book, int account, long fee)
{
    post(book, account, -fee);
}

static void transfer(struct ledger *book, int from, int to, long amount)
{
    int first = from < to ? from : to, second = from < to ? to : from;
    omp_set_nest_lock(&book->lock[first]);
    omp_set_nest_lock(&book->lock[second]);         /* the same lock again when from == to */
    post(book, from, -amount);
    post(book, to, amount);
    if (amount > 50)
        post_fee(book, from, 1);
    omp_unset_nest_lock(&book->lock[second]);
    omp_unset_nest_lock(&book->lock[first]);
}
#pragma omp end declare target

int main(void)
{
    static struct ledger book;
    int from[TRANSFERS], to[TRANSFERS];
    long amount[TRANSFERS];
    unsigned seed = 12345u;
    for (int a = 0; a < ACCOUNTS; a++)
        book.balance[a] = 1000;
    for (int i = 0; i < TRANSFERS; i++) {
        seed = seed * 1103515245u + 12345u;
        from[i] = (seed >> 8) % ACCOUNTS;
        seed = seed * 1103515245u + 12345u;
        to[i] = (i % 7 == 0) ? from[i] : (int)((seed >> 8) % ACCOUNTS);
        amount[i] = 1 + (seed >> 4) % 97;
    }

    double started = 0, finished = 0, tick = 0;
    int depths_ok = 0, contended_ok = 0, clock_ok = 1;
    #pragma omp target data map(tofrom: book) map(to: from, to, amount)
    {
        #pragma omp target teams distribute parallel for
        for (int a = 0; a < ACCOUNTS; a++)
            omp_init_nest_lock(&book.lock[a]);

        for (int step = 0; step < STEPS; step++) {
            double t0 = 0, t1 = 0;
            #pragma omp target map(from: t0)
            t0 = omp_get_wtime();
            #pragma omp target teams distribute parallel for num_teams(8) thread_limit(64)
            for (int i = 0; i < TRANSFERS; i++)
                transfer(&book, from[i], to[i], amount[i] + step);
            #pragma omp target map(from: t1)
            t1 = omp_get_wtime();
            if (t1 < t0)
                clock_ok = 0;
            printf("timing: step %d transfers %.6f s\n", step, t1 - t0);
        }

        #pragma omp target map(from: depths_ok, contended_ok, started, finished, tick)
        {
            started = omp_get_wtime();
            tick = omp_get_wtick();
            int held = 0, refused = 0;
            #pragma omp parallel num_threads(2)
            {
                if (omp_get_thread_num() == 0) {
                    int d1 = omp_test_nest_lock(&book.lock[0]);
                    int d2 = omp_test_nest_lock(&book.lock[0]);
                    omp_set_nest_lock(&book.lock[0]);
                    int d4 = omp_test_nest_lock(&book.lock[0]);
                    #pragma omp atomic write
                    held = (d1 == 1 && d2 == 2 && d4 == 4);
                }
                #pragma omp barrier
                if (omp_get_num_threads() == 2 && omp_get_thread_num() == 1)
                    refused = omp_test_nest_lock(&book.lock[0]) == 0;
                #pragma omp barrier
                if (omp_get_thread_num() == 0)
                    for (int k = 0; k < 4; k++)
                        omp_unset_nest_lock(&book.lock[0]);
            }
            depths_ok = held;
            /* a team of one thread has no other thread to be refused */
            contended_ok = refused || omp_get_max_threads() < 2;
            finished = omp_get_wtime();
        }

        #pragma omp target teams distribute parallel for
        for (int a = 0; a < ACCOUNTS; a++)
            omp_destroy_nest_lock(&book.lock[a]);
    }

    long total = 0, postings = 0;
    for (int a = 0; a < ACCOUNTS; a++) {
        total += book.balance[a];
        postings += book.postings[a];
        printf("account %2d balance %6ld postings %5ld\n", a, book.balance[a], book.postings[a]);
    }
    printf("total %ld postings %ld\n", total, postings);
    printf("depths ok %d contended ok %d\n", depths_ok, contended_ok);
    printf("clock ok %d tick positive %d\n", clock_ok && finished >= started, tick > 0);
    printf("timing: checks %.6f s\n", finished - started);
    return 0;
}
