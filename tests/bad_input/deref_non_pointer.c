/* expect: 4:12: error: indirection requires pointer operand */
int main(void) {
    int value = 5;
    return *value;
}
