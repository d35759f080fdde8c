/* expect: 5:9: error: 'break' statement not in loop or switch statement */
int main(void) {
    int a = 1;
    if (a)
        break;
    return 0;
}
