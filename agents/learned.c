/* learned.c: the learned evaluation in fixed point, and its sets of weights: compiled in,
 * read from and written to weights files (docs/learned.md), and written as C. */
#include "learned.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "door.h"
#include "eval.h"

/* The weights' fixed point: units per seed. Finer than EVAL_SCALE, so that the sum of a
 * hundred rounded weights stays within a hundredth of a seed of the fitted one; the sum is
 * brought to EVAL_SCALE units once, at the end. */
#define LEARNED_UNIT (EVAL_SCALE * 100)

/* The magic first line of a weights file. */
#define LEARNED_MAGIC "anywoli-learned 1"

/* The last line of a weights file: this word and the checksum of every byte before the line
 * (learned_text_checksum), 16 hex digits, so that a file cut short or edited is refused
 * rather than played. */
#define LEARNED_END "end "
#define LEARNED_END_DIGITS 16

/* The largest weights file read: far beyond any board's features. */
#define LEARNED_MAX_BYTES (16u << 20)

/* The largest weight a set may hold, in seeds: far beyond any fitted one, and small enough
 * that the sums of the fixed point never overflow 64 bits. */
#define LEARNED_MAX_WEIGHT 10000.0

struct Learned {
    const LearnedSet *set;
    FeatureLayout layout;
    int32_t *w;                       /* layout.n x FEATURE_KNOTS, feature by feature: the
                                       * two knots a position reads lie side by side */
};

const LearnedSet *learned_builtin(const char *name)
{
    for (int i = 0; learned_builtin_sets[i]; i++)
        if (strcmp(learned_builtin_sets[i]->name, name) == 0)
            return learned_builtin_sets[i];
    return NULL;
}

int learned_prepare(const LearnedSet *s, const Variant *v, Learned **out, Error *e)
{
    *out = NULL;
    if (s->holes != v->holes || s->capture != v->capture)
        return error_set(e, "learned weights '%s' are for holes=%d capture=%d, not holes=%d "
                         "capture=%d", s->name, s->holes, s->capture, v->holes, v->capture);
    Learned *L = calloc(1, sizeof *L);
    if (!L)
        return error_set(e, "learned weights '%s': out of memory", s->name);
    features_layout(v, &L->layout);
    L->set = s;
    L->w = calloc((size_t)L->layout.n * FEATURE_KNOTS, sizeof *L->w);
    if (!L->w) {
        free(L);
        return error_set(e, "learned weights '%s': out of memory", s->name);
    }
    for (int i = 0; i < s->n; i++) {
        int f = features_lookup(&L->layout, s->feature[i]);
        if (f < 0) {
            learned_free(L);
            return error_set(e, "learned weights '%s': no feature '%s' on this board",
                             s->name, s->feature[i]);
        }
        for (int k = 0; k < FEATURE_KNOTS; k++) {
            double w = s->w[i * FEATURE_KNOTS + k];
            if (!(fabs(w) <= LEARNED_MAX_WEIGHT)) {
                learned_free(L);
                return error_set(e, "learned weights '%s': feature '%s' weighs %g seeds, "
                                 "beyond %g", s->name, s->feature[i], w, LEARNED_MAX_WEIGHT);
            }
            double x = w * LEARNED_UNIT;
            L->w[f * FEATURE_KNOTS + k] = (int32_t)(x < 0 ? x - 0.5 : x + 0.5);
        }
    }
    /* Only the groups with a weight are computed: a set without the opponent's moves, say,
     * does not play them out. */
    L->layout.groups = 0;
    for (int f = 0; f < L->layout.n; f++)
        for (int k = 0; k < FEATURE_KNOTS; k++)
            if (L->w[f * FEATURE_KNOTS + k])
                L->layout.groups |= 1u << features_group(&L->layout, f);
    *out = L;
    return 0;
}

void learned_free(Learned *L)
{
    if (L)
        free(L->w);
    free(L);
}

const LearnedSet *learned_set_of(const Learned *L)
{
    return L->set;
}

int learned_check_board(const LearnedSet *s, const char *agent, const Variant *v, Error *e)
{
    if (s && (s->holes != v->holes || s->capture != v->capture))
        return error_set(e, "agent '%s': weights=learned: the set '%s' is for holes=%d "
                         "capture=%d, not this board's holes=%d capture=%d", agent, s->name,
                         s->holes, s->capture, v->holes, v->capture);
    return 0;
}

int learned_fits(const Learned *L, const Variant *v)
{
    return features_fit(&L->layout, v);
}

int32_t learned_positional(const Learned *L, const Variant *v, const Position *p)
{
    FeatureList f;
    features_of(&L->layout, v, p, &f);
    return learned_positional_of(L, p, &f);
}

unsigned learned_groups(const Learned *L)
{
    return L->layout.groups;
}

int32_t learned_positional_of(const Learned *L, const Position *p, const FeatureList *f)
{
    int k;
    int32_t a, b;
    features_phase(&L->layout, p->left, &k, &a, &b);
    const int32_t *w = L->w + k;
    int64_t s0 = 0, s1 = 0;
    for (int i = 0; i < f->n; i++) {
        const int32_t *x = w + (size_t)f->index[i] * FEATURE_KNOTS;
        s0 += (int64_t)x[0] * f->value[i];
        s1 += (int64_t)x[1] * f->value[i];
    }
    /* Interpolated, then from LEARNED_UNIT to EVAL_SCALE units, truncated towards zero. */
    int64_t den = (int64_t)(a + b) * (LEARNED_UNIT / EVAL_SCALE);
    return (int32_t)((s0 * a + s1 * b) / den);
}

int32_t learned_eval(const Learned *L, const Variant *v, const Position *p)
{
    const int s = p->side;
    return (p->store[s] - p->store[!s]) * EVAL_SCALE + learned_positional(L, v, p);
}

/* ---- sets: made, freed, read and written ---- */

/* A set that owns its names and weights. */
typedef struct OwnedSet {
    LearnedSet s;
    char *name, *about, *variant;
    char **feature;
    double *w;
    int cap;
} OwnedSet;

/* A new empty owned set, or NULL. */
static OwnedSet *owned_new(const char *name, const char *about)
{
    OwnedSet *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->name = strdup(name);
    o->about = strdup(about ? about : "");
    if (!o->name || !o->about) {
        learned_set_free(&o->s);
        return NULL;
    }
    o->s.name = o->name;
    o->s.about = o->about;
    return o;
}

/* Append a feature with its weights; -1 when out of memory. */
static int owned_add(OwnedSet *o, const char *feature, const double *w)
{
    if (o->s.n == o->cap) {
        int cap = o->cap ? 2 * o->cap : 256;
        char **f = realloc(o->feature, (size_t)cap * sizeof *f);
        if (!f)
            return -1;
        o->feature = f;
        double *x = realloc(o->w, (size_t)cap * FEATURE_KNOTS * sizeof *x);
        if (!x)
            return -1;
        o->w = x;
        o->cap = cap;
    }
    o->feature[o->s.n] = strdup(feature);
    if (!o->feature[o->s.n])
        return -1;
    memcpy(o->w + (size_t)o->s.n * FEATURE_KNOTS, w, FEATURE_KNOTS * sizeof *w);
    o->s.n++;
    o->s.feature = (const char *const *)o->feature;
    o->s.w = o->w;
    return 0;
}

void learned_set_free(LearnedSet *s)
{
    /* Only sets made here are freed: s is the first member of its OwnedSet. */
    OwnedSet *o = (OwnedSet *)s;
    if (!o)
        return;
    for (int i = 0; i < o->s.n; i++)
        free(o->feature[i]);
    free(o->feature);
    free(o->w);
    free(o->name);
    free(o->about);
    free(o->variant);
    free(o);
}

int learned_set_note_variant(LearnedSet *s, const char *variant)
{
    OwnedSet *o = (OwnedSet *)s;
    char *copy = strdup(variant);
    if (!copy)
        return -1;
    free(o->variant);
    o->s.variant = o->variant = copy;
    return 0;
}

LearnedSet *learned_set_make(const char *name, const FeatureLayout *l, const double *w,
                             const char *about)
{
    OwnedSet *o = owned_new(name, about);
    if (!o)
        return NULL;
    o->s.holes = l->holes;
    o->s.capture = l->capture;
    for (int f = 0; f < l->n; f++) {
        const double *x = w + (size_t)f * FEATURE_KNOTS;
        bool zero = true;
        for (int k = 0; k < FEATURE_KNOTS; k++)
            zero &= x[k] == 0;
        if (zero)
            continue;
        char fname[64];
        features_name(l, f, fname, sizeof fname);
        if (owned_add(o, fname, x) != 0) {
            learned_set_free(&o->s);
            return NULL;
        }
    }
    return &o->s;
}

/* One line of a weights file, without its end; 0 at the end of the file, -1 on a line too
 * long. */
static int read_line(FILE *f, char *buf, size_t len)
{
    if (!fgets(buf, (int)len, f))
        return 0;
    size_t n = strlen(buf);
    if (n && buf[n - 1] == '\n')
        buf[--n] = '\0';
    else if (!feof(f))
        return -1;
    if (n && buf[n - 1] == '\r')
        buf[--n] = '\0';
    return 1;
}

/* A whole number of a header line in [lo, hi]; -1 otherwise. */
static int header_int(const char *text, int lo, int hi)
{
    char *end;
    errno = 0;
    long x = strtol(text, &end, 10);
    if (errno || end == text || *end || x < lo || x > hi)
        return -1;
    return (int)x;
}

/* Parse "w NAME x x x x" into name and w; -1 with the reason in why. */
static int parse_weight_line(char *line, char **name, double *w, const char **why)
{
    char *save = NULL, *tok = strtok_r(line + 2, " ", &save);
    if (!tok)
        return *why = "expected 'w NAME' and its weights", -1;
    *name = tok;
    for (int k = 0; k < FEATURE_KNOTS; k++) {
        char *x = strtok_r(NULL, " ", &save), *end;
        if (!x)
            return *why = "too few weights (one for each of the 4 knots)", -1;
        errno = 0;
        w[k] = strtod(x, &end);
        if (errno || end == x || *end || !isfinite(w[k]) || fabs(w[k]) > LEARNED_MAX_WEIGHT)
            return *why = "a weight is not a number within -10000 .. 10000", -1;
    }
    if (strtok_r(NULL, " ", &save))
        return *why = "too many weights (one for each of the 4 knots)", -1;
    return 0;
}

uint64_t learned_text_checksum(const char *text, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);   /* FNV-1a, 64 bits */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)text[i]) * UINT64_C(0x100000001b3);
    return h;
}

/* The whole file at path (a regular file, at most LEARNED_MAX_BYTES), NUL-terminated, into
 * *text (malloc'd) and its length into *n. */
static int read_whole(const char *path, char **text, size_t *n, Error *e)
{
    return door_read_text(path, LEARNED_MAX_BYTES, "a weights file", text, n, e);
}

/* The checksum on the end line of a weights file of n bytes, checked against the content,
 * into *sum, and the length of the content (the text before that line) into *content; -1
 * with a message naming the file. */
static int check_end(const char *path, const char *text, size_t n, size_t *content,
                     uint64_t *sum, Error *e)
{
    /* The end line ends the file with its line break: a file cut within it has none. */
    size_t last = n && text[n - 1] == '\n' ? n - 1 : 0;
    size_t start = last;
    while (start && text[start - 1] != '\n')
        start--;
    const char *line = text + start;
    size_t len = last - start, word = strlen(LEARNED_END);
    if (len && line[len - 1] == '\r')
        len--;
    if (len != word + LEARNED_END_DIGITS || strncmp(line, LEARNED_END, word) != 0 ||
        strspn(line + word, "0123456789abcdef") < LEARNED_END_DIGITS)
        return error_set(e, "%s: no end line ('end' and the checksum of the content): the file "
                         "was cut short, or written by an older version (write it again with "
                         "anywoli learn fit --weights-out)", path);
    uint64_t stored = strtoull(line + word, NULL, 16);
    uint64_t actual = learned_text_checksum(text, start);
    if (stored != actual)
        return error_set(e, "%s: the end line's checksum %016" PRIx64 " is not the content's, "
                         "%016" PRIx64 ": the file was changed or damaged since it was written",
                         path, stored, actual);
    *content = start;
    *sum = stored;
    return 0;
}

int learned_file_digest(const char *path, uint64_t *out, Error *e)
{
    char *text;
    size_t n, content;
    if (read_whole(path, &text, &n, e) != 0)
        return -1;
    int rc = check_end(path, text, n, &content, out, e);
    free(text);
    return rc;
}

int learned_set_load(const char *path, LearnedSet **out, Error *e)
{
    *out = NULL;
    char *text;
    size_t n, content;
    uint64_t sum;
    if (read_whole(path, &text, &n, e) != 0)
        return -1;
    if (check_end(path, text, n, &content, &sum, e) != 0) {
        free(text);
        return -1;
    }
    /* The lines before the end line, read as a file. */
    FILE *f = content ? fmemopen(text, content, "r") : NULL;
    OwnedSet *o = f ? owned_new("", "") : NULL;
    char line[1024];
    int lineno = 0, rc, holes = -1, capture = -1;
    const char *why = NULL;
    FeatureLayout l;
    bool laid_out = false;
    if (!o) {
        if (f)
            fclose(f);
        free(text);
        return content ? error_set(e, "%s: out of memory", path)
                       : error_set(e, "%s: empty file (only its end line)", path);
    }
    while (!why && (rc = read_line(f, line, sizeof line)) != 0) {
        lineno++;
        if (rc < 0) {
            why = "line too long";
        } else if (lineno == 1) {
            if (strcmp(line, LEARNED_MAGIC) != 0)
                why = "not a weights file (the first line is not '" LEARNED_MAGIC "')";
        } else if (line[0] == '\0' || line[0] == '#') {
            continue;
        } else if (strncmp(line, "name ", 5) == 0) {
            free(o->name);
            o->s.name = o->name = strdup(line + 5);
        } else if (strncmp(line, "about ", 6) == 0) {
            free(o->about);
            o->s.about = o->about = strdup(line + 6);
        } else if (strncmp(line, "variant ", 8) == 0) {
            if (learned_set_note_variant(&o->s, line + 8) != 0)
                why = "out of memory";
        } else if (strncmp(line, "holes ", 6) == 0) {
            if ((holes = header_int(line + 6, 2, MAX_HOLES)) < 0)
                why = "holes: expected a whole number from 2 to 32";
        } else if (strncmp(line, "capture ", 8) == 0) {
            if ((capture = header_int(line + 8, 2, 64)) < 0)
                why = "capture: expected a whole number from 2 to 64";
        } else if (strncmp(line, "w ", 2) == 0) {
            char *name;
            double w[FEATURE_KNOTS];
            if (holes < 0 || capture < 0) {
                why = "a weight before the board (holes and capture come first)";
            } else if (parse_weight_line(line, &name, w, &why) == 0) {
                if (!laid_out) {
                    Variant v;
                    variant_default(&v);
                    v.holes = holes;
                    v.capture = capture;
                    v.total = 2 * holes * v.seeds;
                    features_layout(&v, &l);
                    laid_out = true;
                }
                if (features_lookup(&l, name) < 0)
                    why = "no such feature on this board";
                for (int i = 0; !why && i < o->s.n; i++)
                    if (strcmp(o->feature[i], name) == 0)
                        why = "this feature's weights are given twice";
                if (!why && owned_add(o, name, w) != 0)
                    why = "out of memory";
            }
        } else {
            why = "expected name, about, variant, holes, capture or w";
        }
        if (!o->name || !o->about)
            why = "out of memory";
    }
    fclose(f);
    free(text);
    if (!why && lineno == 0)
        why = "empty file";
    else if (!why && (holes < 0 || capture < 0))
        why = "holes and capture are not given", lineno = 0;
    else if (!why && !o->name[0])
        why = "no name is given", lineno = 0;
    if (why) {
        learned_set_free(&o->s);
        return lineno ? error_set(e, "%s:%d: %s", path, lineno, why)
                      : error_set(e, "%s: %s", path, why);
    }
    o->s.holes = holes;
    o->s.capture = capture;
    *out = &o->s;
    return 0;
}

/* The content of s's weights file, every line but the end line. */
static void write_content(const LearnedSet *s, FILE *f)
{
    fprintf(f, "%s\nname %s\nabout %s\n", LEARNED_MAGIC, s->name, s->about ? s->about : "");
    if (s->variant)
        fprintf(f, "variant %s\n", s->variant);
    fprintf(f, "holes %d\ncapture %d\n", s->holes, s->capture);
    fprintf(f, "# w FEATURE, then its weight in seeds at each knot: 1/12, 1/4, 1/2 and all "
               "of the seeds on the board\n");
    for (int i = 0; i < s->n; i++) {
        fprintf(f, "w %s", s->feature[i]);
        for (int k = 0; k < FEATURE_KNOTS; k++)
            fprintf(f, " %.6g", s->w[i * FEATURE_KNOTS + k]);
        fputc('\n', f);
    }
}

int learned_set_write(const LearnedSet *s, FILE *f, Error *e)
{
    char *text = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    if (!m)
        return error_set(e, "cannot write the weights: out of memory");
    write_content(s, m);
    bool failed = ferror(m) != 0;
    if (fclose(m) != 0 || failed) {
        free(text);
        return error_set(e, "cannot write the weights: out of memory");
    }
    fwrite(text, 1, n, f);
    fprintf(f, LEARNED_END "%016" PRIx64 "\n", learned_text_checksum(text, n));
    free(text);
    if (ferror(f))
        return error_set(e, "cannot write the weights: %s", strerror(errno));
    return 0;
}

uint64_t learned_set_digest(const LearnedSet *s)
{
    char *text = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    if (!m)
        return 0;
    write_content(s, m);
    uint64_t d = (fclose(m) == 0 && text) ? learned_text_checksum(text, n) : 0;
    free(text);
    return d;
}

/* Text as a C string literal's contents: quotes and backslashes escaped, control characters
 * dropped. */
static void put_c_text(FILE *f, const char *text)
{
    for (const char *c = text ? text : ""; *c; c++) {
        if (*c == '"' || *c == '\\')
            fputc('\\', f);
        if ((unsigned char)*c >= ' ')
            fputc(*c, f);
    }
}

int learned_set_write_c(const LearnedSet *s, FILE *f, Error *e)
{
    fprintf(f, "/* learned_weights.c: the compiled-in learned weights (learned.h), written by "
               "`anywoli learn fit\n * --c-out`; do not edit. */\n");
    fprintf(f, "#include \"learned.h\"\n\n");
    fprintf(f, "static const char *const features[%d] = {\n", s->n > 0 ? s->n : 1);
    for (int i = 0; i < s->n; i++)
        fprintf(f, "    \"%s\",\n", s->feature[i]);
    if (s->n == 0)
        fprintf(f, "    \"bias\",\n");
    fprintf(f, "};\n\n/* Seeds per unit of each feature at the knots 1/12, 1/4, 1/2 and 1 of "
               "the seeds. */\nstatic const double weights[%d] = {\n",
            (s->n > 0 ? s->n : 1) * FEATURE_KNOTS);
    for (int i = 0; i < s->n; i++) {
        fprintf(f, "   ");
        for (int k = 0; k < FEATURE_KNOTS; k++)
            fprintf(f, " %.6g,", s->w[i * FEATURE_KNOTS + k]);
        fprintf(f, "   /* %s */\n", s->feature[i]);
    }
    if (s->n == 0)
        fprintf(f, "    0, 0, 0, 0,\n");
    fprintf(f, "};\n\nstatic const LearnedSet set = {\n    \"");
    put_c_text(f, s->name);
    fprintf(f, "\", %d, %d, %d, features, weights,\n    \"", s->holes, s->capture, s->n);
    put_c_text(f, s->about);
    if (s->variant) {
        fprintf(f, "\",\n    \"");
        put_c_text(f, s->variant);
        fprintf(f, "\",\n};\n\n");
    } else {
        fprintf(f, "\",\n    NULL,\n};\n\n");
    }
    fprintf(f, "const LearnedSet *const learned_builtin_sets[] = { &set, NULL };\n");
    if (ferror(f))
        return error_set(e, "cannot write the weights: %s", strerror(errno));
    return 0;
}
