/* variant_params_dump.c: prints the table of variant parameters (variant_params) as
 * `NAME KIND LOW HIGH STANDARD PLAY COST OPTION`, one a line, for variant_params_test.py to
 * hold every copy outside C (the Python package's, the docs') to it and to drive the
 * command-line round trips over every parameter; then, one line each, the words of the
 * conventions and of the outcomes, which the Python package repeats. */
#include <inttypes.h>
#include <stdio.h>

#include "game.h"
#include "variant.h"
#include "variant_text.h"

int main(void)
{
    static const char *const kinds[] = { "int", "int64", "bool", "convention" };
    for (int p = 0; p < VP_NB; p++) {
        const VariantParamInfo *i = &variant_params[p];
        char option[32];
        variant_option_name((VariantParam)p, option, sizeof option);
        printf("%s %s %" PRId64 " %" PRId64 " %" PRId64 " %d %d %s\n", i->name, kinds[i->kind],
               i->lo, i->hi, i->standard, i->play, i->cost, option);
    }
    printf("conventions");
    for (int f = 0; f < FF_NB; f++)
        printf(" %s", final_four_name((FinalFour)f));
    printf("\noutcomes");
    for (int o = OUT_SOUTH; o <= OUT_UNFINISHED; o++)
        printf(" %s", outcome_name(o));
    printf("\n");
    return 0;
}
