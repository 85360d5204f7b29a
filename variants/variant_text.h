/* variant_text.h: a variant written as text (a preset and parameters by name, as the command
 * line, experiment and tuning configs and results files give them) made into a Variant, with
 * one set of messages. */
#ifndef ANYWOLI_VARIANT_TEXT_H
#define ANYWOLI_VARIANT_TEXT_H

#include <stdbool.h>

#include "error.h"
#include "variant.h"

/* A variant as text: a preset and explicit parameters, each NULL when not given. */
typedef struct VariantText {
    const char *preset;              /* `anywoli`, `yit-nuri`, `yit-jani`, or NULL */
    const char *value[VP_NB];        /* each parameter's value as text ("7", "lottery", "no") */
} VariantText;

/* The part of a VariantText that variant_from_text blames for the preset. */
#define VT_PRESET VP_NB

/* Why a VariantText is refused. */
typedef struct VariantFault {
    int param;               /* the VariantParam the message is about, or VT_PRESET */
    bool whole;              /* refused by the check of the whole variant (ranges and
                              * combinations), not while reading param's text */
    Error e;                 /* one line starting with the key: "holes: 99 is out of range
                              * (2 to 32)", "variant: unknown preset 'x' (expected ...)" */
} VariantFault;

/* Set v to the preset (or the standard game), then each given parameter, without the check of
 * the whole (for a caller that finishes it itself, as an APN does). -1 with f filled. */
int variant_apply_text(const VariantText *t, Variant *v, VariantFault *f);

/* As variant_apply_text, then variant_finish: v is ready to play. -1 with f filled. */
int variant_from_text(const VariantText *t, Variant *v, VariantFault *f);

/* The message of f for a variant given as command-line options (--variant, --holes ...):
 * `--holes 99: holes: 99 is out of range (2 to 32)`, naming the option when the fault is
 * about one that was given, else f's message alone. */
void variant_option_error(const VariantText *t, const VariantFault *f, Error *out);

/* The parameter a name denotes, accepting `final-four` for `final_four`; VP_NB if none. */
VariantParam variant_param_lookup(const char *name);

/* Parameter p's name as a command-line option spells it, with dashes: final-four. */
void variant_option_name(VariantParam p, char *buf, size_t len);

#endif
