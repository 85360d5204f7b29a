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

/* The variant parameters, by their names in the rules, in the order of variant_params. */
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

/* How a parameter's value is held in a Variant and written as text. */
typedef enum VariantKind {
    VK_INT,          /* a whole number from lo to hi, an int field */
    VK_INT64,        /* a whole number from lo to hi, an int64_t field */
    VK_BOOL,         /* yes or no, a bool field */
    VK_CONVENTION,   /* a FinalFour, written by its name */
} VariantKind;

/* One variant parameter: everything the program knows of it but its rule (variants/position.c).
 * Every reader, writer, describer and matcher of variants loops over variant_params: the
 * command line's options and their help, the run config's keys, a results file's attributes
 * (written and read), a tables file's header and its match, analyze's sweeps, export's
 * columns. Adding a parameter is one entry here (and in VariantParam, at the end), its field
 * in Variant, and its rule; docs/architecture.md lists what else follows by itself. */
typedef struct VariantParamInfo {
    const char *name;        /* as the rules, configs, results files and CSV columns name it;
                              * the option is its dashed spelling (--final-four) */
    VariantKind kind;
    size_t offset;           /* of its field in Variant */
    int64_t lo, hi;          /* the allowed values (VK_INT, VK_INT64) */
    int64_t standard;        /* the standard game's value (0 or 1 for VK_BOOL, a FinalFour) */
    bool play;               /* a rule of play: exact values depend on it, so endgame tables
                              * must match it (max_plies only stops a game: they need not) */
    bool cost;               /* the work of a game depends on it (the convention only says who
                              * gets the last seeds: jobs that differ in it cost the same) */
    const char *arg;         /* the option's argument in help: N, C, yes|no */
    const char *about;       /* what it is, in a few words, for help and key lists */
} VariantParamInfo;

extern const VariantParamInfo variant_params[VP_NB];

/* A parameter's value as a number (a bool as 0 or 1, a convention as its FinalFour), and
 * setting one from a number (no check: variant_finish checks). */
int64_t variant_get(const Variant *v, VariantParam p);
void variant_put(Variant *v, VariantParam p, int64_t x);

/* Whether two variants agree in every parameter that is a rule of play (tables of one fit the
 * other), or in every one that changes a game's cost. */
bool variant_same_play(const Variant *a, const Variant *b);
bool variant_same_cost(const Variant *a, const Variant *b);

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

/* A set of parameters, as bits, and the set of those that are not rules of play. */
#define VP_BIT(p) (1u << (p))
unsigned variant_not_play(void);

/* As variant_describe, leaving out the parameters in the set leave_out. */
void variant_describe_without(const Variant *v, unsigned leave_out, char *buf, size_t len);

/* The parameters' names as "holes, seeds, ... or max_plies" into buf, for messages. */
void variant_param_list(char *buf, size_t len);

/* The conventions' names as "penultimate, first-final or lottery" into buf, for messages. */
void final_four_list(char *buf, size_t len);

/* Which side owns pit i. */
static inline int variant_owner(const Variant *v, int pit)
{
    return pit >= v->holes;
}

/* Room for a hole's name with its terminating NUL ("S32", and room for any int). */
#define HOLE_NAME_MAX 16

/* The name people read and type for a hole (docs/rules.md): S1..SH for South's holes and
 * N1..NH for North's, each counted from its owner's left, so hole index 3 is S4 and index
 * H + 3 is N4. The 0-based index stays where programs read. */
void hole_name(const Variant *v, int pit, char buf[HOLE_NAME_MAX]);

/* Moves (hole indices) by the holes' names, space-separated ("S5 N5"), into buf (cut to
 * len); returns buf. */
const char *hole_names(const Variant *v, const int *moves, int n, char *buf, size_t len);

/* The hole a name denotes (S or N, either case, then 1 to H, digits only), or -1 when text is
 * not such a name. */
int hole_from_name(const Variant *v, const char *text);

#endif
