/* learn_auto.h: the fit behind learned=auto (agents/learned.h): a set of learned weights for
 * any variant, fitted from its own self-play positions labelled by its endgame tables
 * (tables=auto's) and a search, with fixed inputs (docs/learned.md, "Fitted on first use").
 * learn_auto_install hands it to agents/, which keeps the cache file. */
#ifndef ANYWOLI_LEARN_AUTO_H
#define ANYWOLI_LEARN_AUTO_H

#include "error.h"
#include "learned.h"
#include "variant.h"

/* The fit of v's set: `learn sample` with the fixed inputs, then `learn fit`'s fit (both
 * called, learn_data.h and learn_fit.h). 0 and a new set, or -1 with a one-line message. */
int learn_auto_fit(const Variant *v, LearnedSet **out, Error *e);

/* The fixed inputs, as text (part of the cache file's name). */
const char *learn_auto_inputs(void);

/* Install learn_auto_fit as learned=auto's fitter (learned_auto_install). */
void learn_auto_install(void);

#endif
