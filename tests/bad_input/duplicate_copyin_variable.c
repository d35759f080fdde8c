/* expect: 6:45: error: 'scratch' appears more than once in data clauses */
/* gcc: the same; a fuzz finding (host_threadprivate_copyin_persistence.c) that was accepted */
int scratch;
#pragma omp threadprivate(scratch)
int main(void) {
#pragma omp parallel copyin(scratch) copyin(scratch)
    { scratch++; }
    return 0;
}
