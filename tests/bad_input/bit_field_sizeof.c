/* expect: 8:24: error: 'sizeof' applied to a bit-field */
struct header {
    unsigned version : 4, length : 12;
};

int main(void) {
    struct header h = { 4, 20 };
    return (int)sizeof(h.length);
}
