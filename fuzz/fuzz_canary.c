/* fuzz_canary.c: a fuzz target with deliberate findings, one per input, for tests/fuzz_test.sh
 * alone. The script must see each of them fail: the proof that the sanitizers, the symbolizer
 * and the leak suppressions still let a real finding through on the machine at hand.
 *
 *   leak    memory of our own, lost
 *   config  a libconfig config read and never destroyed (a leak inside libconfig that is not
 *           its lexer's, so the suppressions must not hide it)
 *   crash   a read past the end of a heap block
 */
#include <libconfig.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Kept out of line so that the leak report names it (the script checks the name: proof that
 * the symbolizer works). */
__attribute__((noinline)) static void canary_leak(void)
{
    char *volatile lost = malloc(32);
    if (lost)
        lost[0] = 1;
    lost = NULL;
}

/* A config read and dropped without config_destroy: its settings leak from inside libconfig. */
__attribute__((noinline)) static void canary_config_leak(void)
{
    config_t *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return;
    config_init(cfg);
    (void)config_read_string(cfg, "games = 1;");
    free(cfg);
}

/* One byte read past the end of a heap block. */
__attribute__((noinline)) static int canary_overflow(size_t size)
{
    char *block = malloc(size);
    if (!block)
        return 0;
    memset(block, 0, size);
    int past = ((volatile char *)block)[size];
    free(block);
    return past;
}

/* Whether the input is exactly the word. */
static int input_is(const uint8_t *data, size_t size, const char *word)
{
    return size == strlen(word) && memcmp(data, word, size) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (input_is(data, size, "leak"))
        canary_leak();
    else if (input_is(data, size, "config"))
        canary_config_leak();
    else if (input_is(data, size, "crash"))
        return canary_overflow(size);
    return 0;
}
