/* openings.h: TEMPORARY STUB of the openings API (only `start`), until the real module lands. */
#ifndef ANYWOLI_OPENINGS_H
#define ANYWOLI_OPENINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "position.h"
#include "variant.h"

typedef enum OpeningKind { OPENINGS_START = 0, OPENINGS_PLIES, OPENINGS_ALL, OPENINGS_FILE } OpeningKind;
#define OPENING_MAX_PLIES 64
typedef struct Opening { bool has_position; Position position; int n_moves; int moves[OPENING_MAX_PLIES]; } Opening;
typedef struct OpeningSet { OpeningKind kind; char *spec; int plies; char *path; int64_t count; Opening *list; } OpeningSet;
int openings_load(OpeningSet *s, const char *spec, const Variant *v, Error *e);
void openings_free(OpeningSet *s);
int64_t openings_pair(const OpeningSet *s, const Variant *v, uint64_t seed, uint64_t job, uint64_t pair, Opening *o);
int opening_apn(const Variant *v, const Opening *o, char *buf);
void opening_moves_text(const Opening *o, char *buf, size_t len);

#endif
