/* expect: 4:11: error: const */
int main(void) {
    const int limit = 10;
    limit = 20;
    return limit;
}
