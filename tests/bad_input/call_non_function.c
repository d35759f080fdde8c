/* expect: 4:12: error: called object is not a function or function pointer */
int main(void) {
    int n = 4;
    return n(1);
}
