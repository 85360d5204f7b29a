/* fuzz_apn.c: libFuzzer target for the APN parser (apn_parse). The first byte chooses the
 * variant options given (a preset, holes, seeds); the rest is the APN text. Nothing may
 * crash; a position that parses must be consistent, and must format and parse back to
 * itself. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "position.h"
#include "variant.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The variant and which of its sizes count as given, from the flags byte. */
static void choose_variant(uint8_t flags, Variant *v, bool *holes_given, bool *seeds_given)
{
    variant_default(v);
    *holes_given = *seeds_given = false;
    if (flags & 1) {
        variant_preset(v, variant_preset_names[(flags >> 1) % 3], NULL);
        *holes_given = *seeds_given = true;
    } else {
        if (flags & 2) {
            v->holes = 2 + (flags >> 4) % 31;
            *holes_given = true;
        }
        if (flags & 4) {
            v->seeds = 1 + (flags >> 3) % 8;
            *seeds_given = true;
        }
    }
    if (flags & 0x80)
        v->capture = 2 + (flags >> 2) % 6;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    Variant v, again;
    bool holes_given, seeds_given;
    Position p, q;
    Error e;
    choose_variant(data[0], &v, &holes_given, &seeds_given);
    if (apn_parse(text, &v, holes_given, seeds_given, &p, &e) == 0) {
        char buf[APN_MAX];
        if (!pos_ok(&v, &p))
            __builtin_trap();
        apn_format(&v, &p, buf);
        again = v;
        if (apn_parse(buf, &again, true, true, &q, &e) != 0 || memcmp(&p, &q, sizeof p) != 0)
            __builtin_trap();
    }
    /* Not checked: that an error is one line. apn_parse quotes the field it rejects as
     * written, so a newline in the input shows in the message. */
    free(text);
    return 0;
}
