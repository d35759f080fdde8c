/* expect: 8:16: error: 'typeof' applied to a bit-field */
struct header {
    unsigned version : 4, length : 12;
};

int main(void) {
    struct header h = { 4, 20 };
    __typeof__(h.version) copy = h.version;
    return copy;
}
