/* expect: 7:17: error: incomplete type 'struct opaque' */
struct opaque;
void use(struct opaque *p);
int take(int x);
int main(void) {
    struct opaque *p = 0;
    return take(*p);
}
