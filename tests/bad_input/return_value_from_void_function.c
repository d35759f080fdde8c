/* expect: 3:5: error: void function should not return a value */
static void finish(int code) {
    return code;
}

int main(void) {
    finish(0);
    return 0;
}
