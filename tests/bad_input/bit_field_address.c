/* expect: 9:19: error: cannot take address of bit-field 'ready' */
struct flags {
    unsigned ready : 1;
    unsigned error : 1;
};

int main(void) {
    struct flags f = { 1, 0 };
    unsigned *p = &f.ready;
    return *p;
}
