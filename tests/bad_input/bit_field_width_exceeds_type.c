/* expect: 4:19: error: width of 'packed' exceeds its type */
struct record {
    unsigned char kind : 3;
    unsigned char packed : 9;
};

int main(void) {
    struct record r = { 1, 2 };
    return r.kind;
}
