/* expect: 6:13: error: invalid operands to binary expression */
struct point { int x, y; };

int main(void) {
    struct point p = {1, 2};
    int r = p + 1;
    return r;
}
