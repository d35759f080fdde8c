/* expect: 6:20: error: 'sizeof' applied to a bit-field */
struct header {
    unsigned version : 4, length : 12;
} h;

char buffer[sizeof h.length];

int main(void) {
    return buffer[0];
}
