/* first_move.c: the smallest program that plays Anywoli over the lab's line protocol
 * (docs/protocol.md): it answers the hello, then every position with the first of the legal
 * moves the lab lists. It keeps no state and uses nothing but the C library, so it is also
 * what `scripts/protocol-bench.sh` times the protocol with.
 *
 *     cc -O2 -o first_move first_move.c
 *     anywoli run --agent-a external:cmd=./first_move --agent-b random --games 100
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
    /* Position lines carry the moves made since the last one, so they stay short; a longer
     * line is read in pieces, and only its first piece is looked at. */
    static char line[1 << 16];
    int whole = 1;   /* whether the next piece read starts a line */
    while (fgets(line, sizeof line, stdin)) {
        int starts = whole;
        whole = strchr(line, '\n') != NULL;
        if (!starts)
            continue;
        if (strncmp(line, "anywoli ", 8) == 0) {
            fputs("name first_move\nprotocol 1\n", stdout);
        } else if (strncmp(line, "position ", 9) == 0) {
            const char *moves = strstr(line, " moves ");
            int move;
            if (!moves || sscanf(moves + 7, "%d", &move) != 1)
                fputs("error no legal moves listed\n", stdout);
            else
                printf("move %d\n", move);
        } else if (strncmp(line, "quit", 4) == 0) {
            return 0;
        } else {
            continue;   /* game, set, end: nothing to answer */
        }
        fflush(stdout);   /* the lab waits for each answer */
    }
    return 0;
}
