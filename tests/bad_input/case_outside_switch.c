/* expect: 4:5: error: 'case' statement not in switch statement */
int main(int argc, char **argv) {
    if (argc > 1) {
    case 2:
        return 1;
    }
    return 0;
}
