/* check_fires.c: in the checking build (-DANYWOLI_CHECKS=ON), a move that leaves a broken
 * position must stop the program: a position whose count of seeds on the board is wrong is
 * played, and the program must abort in pos_ok's CHECK (CTest expects it to fail). In any
 * other build it is not registered. */
#include <stdio.h>

#include "position.h"
#include "variant.h"

int main(void)
{
    Variant v;
    variant_default(&v);
    Position p, out;
    pos_start(&v, &p);
    p.left += 1;                 /* the board holds 96 seeds; the position says 97 */
    MoveInfo info;
    pos_play(&v, &p, 0, &out, &info, NULL);
    puts("the broken position was played without a word");
    return 0;
}
