/* expect: 8:10: error: duplicate case value '1' */
int main(int argc, char **argv) {
    switch (argc) {
    case 1:
        return 10;
    case 2:
        return 20;
    case 1:
        return 30;
    }
    return 0;
}
