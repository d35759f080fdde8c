/* expect: 6:14: error: no member named 'z' in 'struct point' */
struct point { int x, y; };

int main(void) {
    struct point p = {1, 2};
    return p.z;
}
