/* expect: 6:5: error: switch jumps into scope of identifier with variably modified type */
int main(void) {
    int n = 1;
    switch (n) {
        int v[n];
    case 1:
        v[0] = 1;
        return v[0];
    }
    return 0;
}
