/* expect: 9:32: error: mapping 'g.inner->v[0:4]' through a pointer member is not supported: map that member's pointee as a section ('s.p[0:n]') instead */
struct Inner { double v[4]; };
struct Grid { struct Inner *inner; int n; };

int main(void) {
    struct Inner in = { { 1, 2, 3, 4 } };
    struct Grid g = { &in, 4 };
    double sum = 0;
    #pragma omp target map(to: g.inner->v[0:4]) map(tofrom: sum)
    sum = g.inner->v[0];
    return (int)sum;
}
