/* fuzz_config.c: libFuzzer target for the experiment config loader (sim/config.c): any text
 * must either load into a consistent experiment or fail with one line that names the file
 * and line; it must never crash, leak or read out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether an error message is one line starting with the file's label. */
static int one_line_about(const char *msg, const char *label)
{
    return strncmp(msg, label, strlen(label)) == 0 && strchr(msg, '\n') == NULL;
}

/* Check what a loaded experiment promises: jobs with unique names, numbers in range. */
static void check_experiment(const Experiment *x)
{
    if (x->njobs < 1 || x->njobs > CONFIG_MAX_JOBS || x->seed < 0 || !x->output || !x->text)
        __builtin_trap();
    for (int i = 0; i < x->njobs; i++) {
        const Job *j = &x->jobs[i];
        if (j->index != (uint64_t)i || j->games < 1 || j->games > CONFIG_MAX_GAMES ||
            !j->name[0] || strlen(j->name) > JOB_NAME_MAX || experiment_job(x, j->name) != j)
            __builtin_trap();
    }
    char *fp = experiment_fingerprint(x);
    if (!fp)
        __builtin_trap();
    free(fp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    /* Agent specs are checked by building the agent: a huge transposition table (tt=30) is
     * the agents' concern, not the loader's, and would only exhaust the fuzzer's memory. */
    if (!strstr(text, "tt")) {
        Experiment x;
        Error e;
        if (experiment_parse(&x, text, "fuzz.cfg", NULL, &e) == 0) {
            check_experiment(&x);
            experiment_free(&x);
        } else if (!one_line_about(e.msg, "fuzz.cfg:")) {
            __builtin_trap();
        }
    }
    free(text);
    return 0;
}
