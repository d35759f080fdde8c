/* expect: 5:5: error: const */
/* xfail: the type model has no qualifiers, so assigning to a const object is accepted */
int main(void) {
    const int limit = 10;
    limit = 20;
    return limit;
}
