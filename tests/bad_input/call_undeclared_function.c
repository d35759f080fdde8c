/* expect: 3:13: error: use of undeclared identifier 'compute_answer' */
int main(void) {
    int r = compute_answer(6, 7);
    return r;
}
