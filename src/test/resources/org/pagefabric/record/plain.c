/* A program that is not an MPI program. */
#include <stdio.h>

int main(void) {
    puts("no MPI here");
    return 0;
}
