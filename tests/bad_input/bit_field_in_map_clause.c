/* expect: 9:32: error: bit-field 's.count' in 'map' clause */
struct state {
    unsigned count : 6;
    unsigned flags : 2;
};

int main(void) {
    struct state s = { 1, 0 };
#pragma omp target map(tofrom: s.count)
    s.count++;
    return s.count;
}
