/* variant.h: the rule parameters of a game of the Anywoli family, and their presets. */
#ifndef ANYWOLI_VARIANT_H
#define ANYWOLI_VARIANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

enum { SOUTH = 0, NORTH = 1, NOBODY = -1 };

#define MAX_HOLES 32
#define MAX_PITS (2 * MAX_HOLES)

/* The most max_plies may be: a game's plies (and passes) fit the record's 32 bits with room
 * to spare, and the analysis keeps a count per ply of game length, so this bounds its memory
 * (80 MB for a job) whatever a results file claims. 100 times the default cap. */
#define MAX_PLIES_LIMIT 10000000

/* Who receives the seeds left when the game ends (RULES: end of the game). */
typedef enum FinalFour {
    FF_PENULTIMATE = 0, /* whose store received the last capture */
    FF_FIRST_FINAL,     /* who made the first final-seed capture, else as penultimate */
    FF_LOTTERY,         /* a fair coin from the game's own stream */
    FF_NB
} FinalFour;

/* The variant parameters, by their names in the rules. */
typedef enum VariantParam {
    VP_HOLES = 0, VP_SEEDS, VP_CAPTURE, VP_FINAL_FOUR, VP_EXTRA_TURN, VP_SKIP_ORIGIN,
    VP_MAX_PLIES, VP_NB
} VariantParam;

typedef struct Variant {
    /* Parameters, as named in the rules. */
    int holes;                  /* holes per row */
    int seeds;                  /* seeds per hole at the start */
    int capture;                /* the count that is captured */
    FinalFour final_four;       /* convention for the seeds left at the end */
    bool extra_turn;            /* a final-seed capture earns a move at once */
    bool skip_origin;           /* laps skip the hole they started from */
    int64_t max_plies;          /* plies before a game stops as unfinished */
    /* Derived by variant_finish(); read-only afterwards. */
    int pits;                   /* 2 * holes */
    int total;                  /* pits * seeds */
    uint64_t row[2];            /* bit masks of each side's holes */
    uint8_t next[MAX_PITS];     /* the hole after each hole in sowing order */
} Variant;

/* The standard game: 12 holes, 4 seeds, capture 4, penultimate, extra turn, no skip. */
void variant_default(Variant *v);

/* Set v to a named preset (`anywoli`, `yit-nuri`, `yit-jani`); -1 with a message if unknown. */
int variant_preset(Variant *v, const char *name, Error *e);

/* Names of the presets, NULL-terminated, and of the parameters and conventions. */
extern const char *const variant_preset_names[];
const char *variant_param_name(VariantParam p);
const char *final_four_name(FinalFour f);

/* Set one parameter from text (`holes`, "7"; `final_four`, "lottery"; `extra_turn`, "no").
 * Accepts the rules' names and their dashed spellings. -1 with a one-line message on error.
 * (In variant_text.c, beside the rest of text to variant.) */
int variant_set(Variant *v, const char *name, const char *value, Error *e);

/* Check every parameter against its allowed range and compute the derived fields.
 * -1 with a message naming the parameter, its value and the allowed range. */
int variant_finish(Variant *v, Error *e);

/* As variant_finish, and in *param the parameter its message is about (VP_NB on success). */
int variant_finish_at(Variant *v, VariantParam *param, Error *e);

/* One parameter's value as configs and the command line write it ("12", "lottery", "yes")
 * into buf: the one text form of a value, for every writer of variants as text. */
void variant_param_text(const Variant *v, VariantParam p, char *buf, size_t len);

/* Write the parameters as `holes=12 seeds=4 ...` (variant_param_text's values) into buf. */
void variant_describe(const Variant *v, char *buf, int len);

/* Which side owns pit i. */
static inline int variant_owner(const Variant *v, int pit)
{
    return pit >= v->holes;
}

#endif
