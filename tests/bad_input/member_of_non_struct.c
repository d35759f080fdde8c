/* expect: 4:12: error: member reference base type */
int main(void) {
    int n = 4;
    return n.size;
}
