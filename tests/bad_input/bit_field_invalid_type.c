/* expect: 3:12: error: bit-field 'ratio' has invalid type */
struct record {
    double ratio : 8;
};

int main(void) {
    struct record r;
    return 0;
}
