/* expect: 5:17: error: variable 'n' has incomplete type 'struct node' */
struct node;

int main(void) {
    struct node n;
    return 0;
}
