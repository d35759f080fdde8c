/* expect: 6:12: error: const-qualified type 'const int' */
struct counter { const int limit; int count; };

int main(void) {
    struct counter c = {10, 0};
    c.limit++;
    return c.count;
}
