/* expect: 3:16: error: unterminated comment */
int main(void) {
    int a = 1; /* this comment never ends
    return a;
}
