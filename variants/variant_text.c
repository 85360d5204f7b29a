/* variant_text.c: text to variant, the one way every input (the command line, experiment and
 * tuning configs, results files) becomes a Variant: one parameter from text, a whole
 * VariantText, and its messages. */
#include "variant_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nearest.h"

VariantParam variant_param_lookup(const char *name)
{
    char canon[32];
    size_t n = strlen(name);
    if (n >= sizeof canon)
        return VP_NB;
    for (size_t i = 0; i <= n; i++)
        canon[i] = name[i] == '-' ? '_' : name[i];
    for (int p = 0; p < VP_NB; p++)
        if (strcmp(canon, variant_param_name((VariantParam)p)) == 0)
            return (VariantParam)p;
    return VP_NB;
}

/* Parse a whole decimal integer; -1 on anything else (sign, junk, overflow). */
static int parse_int64(const char *s, int64_t *out)
{
    if (!s || !*s || (*s != '-' && (*s < '0' || *s > '9')))
        return -1;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = x;
    return 0;
}

/* Parse yes/no (also true/false, on/off, 1/0). */
static int parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = { "yes", "true", "on", "1" };
    static const char *const no[] = { "no", "false", "off", "0" };
    for (int i = 0; i < 4; i++) {
        if (strcmp(s, yes[i]) == 0) { *out = true; return 0; }
        if (strcmp(s, no[i]) == 0) { *out = false; return 0; }
    }
    return -1;
}

/* A convention by its name into *x; -1 with the message that lists them. */
static int parse_convention(const char *name, const char *value, int64_t *x, Error *e)
{
    for (int f = 0; f < FF_NB; f++) {
        if (strcmp(value, final_four_name((FinalFour)f)) == 0) {
            *x = f;
            return 0;
        }
    }
    char conventions[64], hint[100];
    final_four_list(conventions, sizeof conventions);
    return error_set(e, "%s: '%s' is not a convention%s (expected %s)", name, value,
                     nearest_hint_in(value, conventions, hint, sizeof hint), conventions);
}

int variant_set(Variant *v, const char *name, const char *value, Error *e)
{
    VariantParam p = variant_param_lookup(name);
    if (p == VP_NB) {
        char params[160], hint[100];
        variant_param_list(params, sizeof params);
        return error_set(e, "unknown variant parameter '%s'%s (expected %s)", name,
                         nearest_hint_in(name, params, hint, sizeof hint), params);
    }
    const VariantParamInfo *i = &variant_params[p];
    int64_t x = 0;
    bool b;
    switch (i->kind) {
    case VK_INT: case VK_INT64:
        if (parse_int64(value, &x) != 0)
            return error_set(e, "%s: '%s' is not a whole number", i->name, value);
        /* The range is variant_finish's; here only what the field can hold. */
        if (i->kind == VK_INT && (x < INT32_MIN || x > INT32_MAX))
            return error_set(e, "%s: %s is out of range", i->name, value);
        break;
    case VK_BOOL:
        if (parse_bool(value, &b) != 0)
            return error_set(e, "%s: '%s' is not yes or no", i->name, value);
        x = b;
        break;
    case VK_CONVENTION:
        if (parse_convention(i->name, value, &x, e) != 0)
            return -1;
        break;
    }
    variant_put(v, p, x);
    return 0;
}

int variant_apply_text(const VariantText *t, Variant *v, VariantFault *f)
{
    f->whole = false;
    f->param = VT_PRESET;
    variant_default(v);
    if (t->preset && variant_preset(v, t->preset, &f->e) != 0)
        return -1;
    for (int p = 0; p < VP_NB; p++) {
        f->param = p;
        if (t->value[p] && variant_set(v, variant_param_name((VariantParam)p), t->value[p],
                                       &f->e) != 0)
            return -1;
    }
    return 0;
}

int variant_from_text(const VariantText *t, Variant *v, VariantFault *f)
{
    if (variant_apply_text(t, v, f) != 0)
        return -1;
    VariantParam param;
    f->whole = true;
    int rc = variant_finish_at(v, &param, &f->e);
    f->param = (int)param;
    return rc;
}

void variant_option_error(const VariantText *t, const VariantFault *f, Error *out)
{
    /* The preset's message starts with its key, `variant`, which is also its option. */
    if (f->param == VT_PRESET) {
        error_set(out, "--%s", f->e.msg);
        return;
    }
    const char *value = f->param >= 0 && f->param < VP_NB ? t->value[f->param] : NULL;
    if (!value) {            /* about a parameter the options left at its default */
        error_set(out, "%s", f->e.msg);
        return;
    }
    char option[32];
    variant_option_name((VariantParam)f->param, option, sizeof option);
    error_set(out, "--%s %s: %s", option, value, f->e.msg);
}

void variant_option_name(VariantParam p, char *buf, size_t len)
{
    snprintf(buf, len, "%s", variant_param_name(p));
    for (char *c = buf; *c; c++)
        *c = *c == '_' ? '-' : *c;
}
