/* expect: 6:45: error: 's.x' is part of 's', which the same construct maps: map the struct or its members, not both */
struct Point { double x, y; };

int main(void) {
    struct Point s = { 1, 2 };
    #pragma omp target map(to: s) map(from: s.x)
    s.x = s.y;
    return (int)s.x;
}
