/* config_keys_dump.c: prints every key of the config loaders' tables as `PLACE KEY`, one a
 * line, for config_doc_test.py to compare with docs/config.md. */
#include <stdio.h>

#include "config.h"
#include "tune.h"

/* The names docs/config.md uses for the places of enum ConfigPlace, bit by bit. */
static const char *const place_names[] = { "root", "defaults", "job", "tune", "tune.weight",
                                           "tune.verification", "tune.bounds" };

/* Print table t's keys, each once for every place that allows it. */
static void dump(const ConfigKey *t, int n)
{
    for (int i = 0; i < n; i++)
        for (unsigned b = 0; b < sizeof place_names / sizeof place_names[0]; b++)
            if (t[i].places & (1u << b))
                printf("%s %s\n", place_names[b], t[i].name);
}

int main(void)
{
    dump(config_run_keys(), config_run_key_count);
    dump(config_tune_keys, config_tune_key_count);
    return 0;
}
