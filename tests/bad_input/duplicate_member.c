/* expect: 5:9: error: duplicate member 'x' */
/* xfail: a struct member declared twice is accepted (sema/declarators.py _struct) */
struct point {
    int x;
    int x;
};

int main(void) {
    struct point p;
    p.x = 1;
    return p.x;
}
