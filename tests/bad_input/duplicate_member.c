/* expect: 4:9: error: duplicate member 'x' */
struct point {
    int x;
    int x;
};

int main(void) {
    struct point p;
    p.x = 1;
    return p.x;
}
