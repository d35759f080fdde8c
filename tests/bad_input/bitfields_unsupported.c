/* expect: 3:14: error: bit-fields are not supported */
struct flags {
    unsigned ready : 1;
    unsigned error : 1;
};

int main(void) {
    struct flags f;
    f.ready = 1;
    return f.ready;
}
