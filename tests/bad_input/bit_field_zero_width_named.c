/* expect: 3:9: error: zero width for bit-field 'pad' */
struct record {
    int pad : 0;
    int value;
};

int main(void) {
    struct record r = { 1 };
    return r.value;
}
