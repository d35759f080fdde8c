/* expect: 6:9: error: 'continue' statement not in loop statement */
int main(void) {
    int a = 1;
    switch (a) {
    case 1:
        continue;
    }
    return 0;
}
