/* net.c: the network evaluation (net.h): network files read, checked and written, the
 * compiled-in default, the float reference, and the integer network of the search with its
 * first layer's sums updated move by move. */
#include "net.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "door.h"
#include "eval.h"
#include "learned.h"

/* The magic first line of a network file: the word, then the format's version (1: no base
 * line; 2: a base line after the hidden one; 3: the base line, then the dense line and the
 * dense inputs' rows). */
#define NET_MAGIC_WORD "anywoli-net "
#define NET_MAGIC "anywoli-net 1"
#define NET_MAGIC_2 "anywoli-net 2"
#define NET_MAGIC_3 "anywoli-net 3"
#define NET_NOT_A_NETWORK "not a network file (the first line is not '" NET_MAGIC "', '" \
    NET_MAGIC_2 "' or '" NET_MAGIC_3 "')"

/* The largest network file read: the largest network the limits allow (2 x 32 x 64 + 6
 * inputs of 256 weights, some 13 bytes each) fits. */
#define NET_MAX_BYTES ((size_t)64 << 20)

/* The first layer's units are padded to a multiple of this in the integer network (with
 * weights 0), and its sums are computed this many at a time: a block of sums (four vectors
 * of eight int32) stays in registers while the rows are added, and no loop has a
 * remainder. */
#define NET_BLOCK 32

/* The largest capture a file may name (as a weights file's). */
#define NET_MAX_CAPTURE 64

/* ---- files: read and checked ---- */

/* The weights are one block (at w1), the dense names another, freed by net_file_free. */
NetFile *net_file_new(int holes, int capture, int buckets, int h1, int h2, int dense)
{
    NetFile *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->holes = holes;
    f->capture = capture;
    f->buckets = buckets;
    f->h1 = h1;
    f->h2 = h2;
    f->dense = dense;
    f->inputs = 2 * holes * buckets + NET_EXTRA;
    size_t n = (size_t)f->inputs * h1 + h1 + (size_t)h2 * 2 * h1 + h2 + h2 +
               (size_t)dense * h1 + h1;
    float *w = calloc(n, sizeof *w);
    f->dense_name = calloc((size_t)dense + 1, sizeof *f->dense_name);
    if (!w || !f->dense_name) {
        free(w);
        free(f->dense_name);
        free(f);
        return NULL;
    }
    f->w1 = w;
    f->b1 = f->w1 + (size_t)f->inputs * h1;
    f->w2 = f->b1 + h1;
    f->b2 = f->w2 + (size_t)h2 * 2 * h1;
    f->w3 = f->b2 + h2;
    f->w1d = f->w3 + h2;
    f->b1d = f->w1d + (size_t)dense * h1;
    return f;
}

void net_file_free(NetFile *f)
{
    if (f) {
        free(f->w1);
        free(f->dense_name);
    }
    free(f);
}

/* A parse of a network's text: where it stands and the first fault found. */
typedef struct Parse {
    const char *text, *at, *stop;   /* the text, the next line, the end of the content */
    int line;                       /* the number of the line being read (1-based) */
    char *buf;                      /* that line, NUL-terminated */
    size_t cap;
    const char *why;                /* the fault, or NULL */
    char why_buf[160];
} Parse;

/* The next line of the content into ps->buf (its line break and any \r dropped): false at
 * the end of the content (ps->why: the file ends early, naming `want`) or when out of
 * memory. */
static bool next_line(Parse *ps, const char *want)
{
    ps->line++;
    if (ps->at >= ps->stop) {
        snprintf(ps->why_buf, sizeof ps->why_buf, "the file ends here, before its '%s' line "
                 "(cut short?)", want);
        ps->why = ps->why_buf;
        return false;
    }
    const char *nl = memchr(ps->at, '\n', (size_t)(ps->stop - ps->at));
    size_t len = (size_t)((nl ? nl : ps->stop) - ps->at);
    if (len + 1 > ps->cap) {
        char *more = realloc(ps->buf, len + 1);
        if (!more) {
            ps->why = "out of memory";
            return false;
        }
        ps->buf = more;
        ps->cap = len + 1;
    }
    memcpy(ps->buf, ps->at, len);
    if (len && ps->buf[len - 1] == '\r')
        len--;
    ps->buf[len] = '\0';
    ps->at = nl ? nl + 1 : ps->stop;
    return true;
}

/* The text after "WORD " on the next line, or NULL with the fault noted. */
static const char *keyed_line(Parse *ps, const char *word)
{
    if (!next_line(ps, word))
        return NULL;
    size_t n = strlen(word);
    if (strncmp(ps->buf, word, n) != 0 || ps->buf[n] != ' ') {
        snprintf(ps->why_buf, sizeof ps->why_buf, "expected the '%s' line here (the lines "
                 "come in net.h's order)", word);
        ps->why = ps->why_buf;
        return NULL;
    }
    return ps->buf + n + 1;
}

/* A header's whole number in [lo, hi] (the rest of the line); -1 with the fault noted. */
static int header_int(Parse *ps, const char *word, int lo, int hi)
{
    const char *text = keyed_line(ps, word);
    if (!text)
        return -1;
    char *end;
    errno = 0;
    long x = strtol(text, &end, 10);
    if (errno || end == text || *end || x < lo || x > hi) {
        snprintf(ps->why_buf, sizeof ps->why_buf, "%s: expected a whole number from %d to %d",
                 word, lo, hi);
        ps->why = ps->why_buf;
        return -1;
    }
    return (int)x;
}

/* Exactly n numbers from text into w: false with the fault noted (too few, too many, not a
 * finite number). */
static bool numbers(Parse *ps, const char *text, float *w, int n)
{
    for (int i = 0; i < n; i++) {
        char *end;
        errno = 0;
        double x = strtod(text, &end);
        if (end == text) {
            snprintf(ps->why_buf, sizeof ps->why_buf, "expected %d numbers, found %d", n, i);
            ps->why = ps->why_buf;
            return false;
        }
        if (errno == ERANGE || !isfinite(x) || fabs(x) > 1e30) {
            snprintf(ps->why_buf, sizeof ps->why_buf, "number %d is not a finite number",
                     i + 1);
            ps->why = ps->why_buf;
            return false;
        }
        w[i] = (float)x;
        text = end;
    }
    while (*text == ' ' || *text == '\t')
        text++;
    if (*text) {
        snprintf(ps->why_buf, sizeof ps->why_buf, "expected %d numbers, found more", n);
        ps->why = ps->why_buf;
        return false;
    }
    return true;
}

/* A line "WORD x ..." of n numbers into w. */
static bool weights_line(Parse *ps, const char *word, float *w, int n)
{
    const char *text = keyed_line(ps, word);
    return text && numbers(ps, text, w, n);
}

/* A line "WORD K x ..." (K the row's number, as expected) of n numbers into w. */
static bool row_line(Parse *ps, const char *word, int k, float *w, int n)
{
    const char *text = keyed_line(ps, word);
    if (!text)
        return false;
    char *end;
    errno = 0;
    long x = strtol(text, &end, 10);
    if (errno || end == text || x != k || (*end != ' ' && *end != '\0')) {
        snprintf(ps->why_buf, sizeof ps->why_buf, "expected '%s %d' (its rows in order)",
                 word, k);
        ps->why = ps->why_buf;
        return false;
    }
    return numbers(ps, end, w, n);
}

/* The largest quantised bias of the second layer and of the output (int32 in the
 * integers): with the weights' int16, their sums stay within int32 (net_prepare checks the
 * second layer's worst case). */
#define NET_MAX_BIAS ((int32_t)1 << 24)

/* x times scale, rounded to the nearest (halves away from zero): the quantisation. */
static inline long quantise(float x, double scale)
{
    return lround((double)x * scale);
}

/* Whether x times scale, rounded, is within limit (decided before rounding: lround of a
 * huge number is undefined). */
static inline bool in_range(float x, double scale, long limit)
{
    return fabs((double)x * scale) < limit + 0.5;
}

/* Every number of the n in w within limit once scaled (int16 for a weight, NET_MAX_BIAS
 * for a bias); else the fault noted. */
static bool quantisable(Parse *ps, const float *w, int n, double scale, long limit,
                        const char *what)
{
    for (int i = 0; i < n; i++)
        if (!in_range(w[i], scale, limit)) {
            snprintf(ps->why_buf, sizeof ps->why_buf, "number %d (%g) is too large for the "
                     "integers once scaled (%s: |x| <= %g)", i + 1, (double)w[i], what,
                     (double)limit / scale);
            ps->why = ps->why_buf;
            return false;
        }
    return true;
}

/* The end line of text's n bytes, checked: the content's length (the bytes before it) into
 * *content and its checksum into *sum, the end line's number into ps->line. false with the
 * fault noted (no end line, a wrong checksum). */
static bool check_end(Parse *ps, size_t n, size_t *content, uint64_t *sum)
{
    const char *text = ps->text;
    size_t last = n && text[n - 1] == '\n' ? n - 1 : n;
    size_t start = last;
    while (start && text[start - 1] != '\n')
        start--;
    const char *line = text + start;
    size_t len = last - start;
    if (len && line[len - 1] == '\r')
        len--;
    int lines = 1;
    for (size_t i = 0; i < start; i++)
        lines += text[i] == '\n';
    ps->line = lines;
    if (len != 4 + 16 || strncmp(line, "end ", 4) != 0 ||
        strspn(line + 4, "0123456789abcdef") < 16) {
        ps->why = "expected the end line ('end' and the checksum of the content): the file "
                  "was cut short, or is not a network file";
        return false;
    }
    uint64_t stored = strtoull(line + 4, NULL, 16);
    uint64_t actual = learned_text_checksum(text, start);
    if (stored != actual) {
        snprintf(ps->why_buf, sizeof ps->why_buf, "the end line's checksum %016" PRIx64 " is "
                 "not the content's, %016" PRIx64 ": the file was changed or damaged since it "
                 "was written", stored, actual);
        ps->why = ps->why_buf;
        return false;
    }
    *content = start;
    *sum = stored;
    return true;
}

/* A version-2 or 3 file's base line: "base none", or "base learned HEX" (16 hex digits: the
 * digest of the learned set the output is added to); false with the fault noted. */
static bool parse_base(Parse *ps, bool *learned, uint64_t *digest)
{
    const char *t = keyed_line(ps, "base");
    if (!t)
        return false;
    *learned = false;
    *digest = 0;
    if (strcmp(t, "none") == 0)
        return true;
    int used = 0;
    unsigned long long d;
    if (strncmp(t, "learned ", 8) == 0 && strlen(t + 8) == 16 &&
        strspn(t + 8, "0123456789abcdef") == 16 && sscanf(t + 8, "%16llx%n", &d, &used) == 1 &&
        used == 16) {
        *learned = true;
        *digest = d;
        return true;
    }
    ps->why = "base: expected 'none' or 'learned' and the set's 16 hex digits";
    return false;
}

/* The header (the lines up to hidden, and version 2's base line) into a new NetFile; NULL
 * with the fault noted. */
static NetFile *parse_header(Parse *ps)
{
    if (!next_line(ps, NET_MAGIC))
        return NULL;
    const int version = strcmp(ps->buf, NET_MAGIC) == 0     ? 1
                        : strcmp(ps->buf, NET_MAGIC_2) == 0 ? 2
                        : strcmp(ps->buf, NET_MAGIC_3) == 0 ? 3
                                                            : 0;
    if (!version) {
        ps->why = NET_NOT_A_NETWORK;
        return NULL;
    }
    char name[64], about[512];
    const char *t = keyed_line(ps, "name");
    if (!t)
        return NULL;
    if (!*t || strlen(t) >= sizeof name) {
        ps->why = "name: expected a name of 1 to 63 characters";
        return NULL;
    }
    strcpy(name, t);
    if (!next_line(ps, "about"))
        return NULL;
    if (strcmp(ps->buf, "about") != 0 && strncmp(ps->buf, "about ", 6) != 0) {
        ps->why = "expected the 'about' line here (the lines come in net.h's order)";
        return NULL;
    }
    t = ps->buf[5] ? ps->buf + 6 : "";
    if (strlen(t) >= sizeof about) {
        ps->why = "about: longer than 511 characters";
        return NULL;
    }
    strcpy(about, t);
    int holes = header_int(ps, "holes", 2, MAX_HOLES);
    int capture = holes < 0 ? -1 : header_int(ps, "capture", 2, NET_MAX_CAPTURE);
    int buckets = capture < 0 ? -1 : header_int(ps, "buckets", 1, NET_MAX_BUCKETS);
    if (buckets < 0)
        return NULL;
    t = keyed_line(ps, "hidden");
    if (!t)
        return NULL;
    int h1, h2, used = 0;
    if (sscanf(t, "%d %d%n", &h1, &h2, &used) != 2 || t[used] || h1 < 1 || h1 > NET_MAX_H1 ||
        h2 < 1 || h2 > NET_MAX_H2) {
        snprintf(ps->why_buf, sizeof ps->why_buf, "hidden: expected two whole numbers, H1 "
                 "from 1 to %d and H2 from 1 to %d", NET_MAX_H1, NET_MAX_H2);
        ps->why = ps->why_buf;
        return NULL;
    }
    bool base = false;
    uint64_t base_digest = 0;
    if (version >= 2 && !parse_base(ps, &base, &base_digest))
        return NULL;
    int dense = version == 3 ? header_int(ps, "dense", 1, NET_MAX_DENSE) : 0;
    if (dense < 0)
        return NULL;
    NetFile *f = net_file_new(holes, capture, buckets, h1, h2, dense);
    if (!f) {
        ps->why = "out of memory";
        return NULL;
    }
    strcpy(f->name, name);
    strcpy(f->about, about);
    f->base_learned = base;
    f->base_digest = base_digest;
    return f;
}

/* Version 3's dense rows ("l1d NAME w ...", each name once) and l1d.bias into f: false with
 * the fault noted. Whether the names are features of the board is net_prepare's check (the
 * layout of the features needs the board's seeds). */
static bool parse_dense(Parse *ps, NetFile *f)
{
    const double qad = (double)NET_QA * NET_QD;
    for (int d = 0; d < f->dense; d++) {
        const char *t = keyed_line(ps, "l1d");
        if (!t)
            return false;
        size_t len = strcspn(t, " \t");
        if (len == 0 || len >= sizeof f->dense_name[d]) {
            ps->why = "l1d: expected a feature's name (1 to 31 characters), then its weights";
            return false;
        }
        memcpy(f->dense_name[d], t, len);
        f->dense_name[d][len] = '\0';
        for (int j = 0; j < d; j++)
            if (strcmp(f->dense_name[j], f->dense_name[d]) == 0) {
                snprintf(ps->why_buf, sizeof ps->why_buf, "l1d: the feature '%s' a second "
                         "time", f->dense_name[d]);
                ps->why = ps->why_buf;
                return false;
            }
        float *w = f->w1d + (size_t)d * f->h1;
        if (!numbers(ps, t + len, w, f->h1) ||
            !quantisable(ps, w, f->h1, qad, NET_MAX_BIAS, "l1d"))
            return false;
    }
    return f->dense == 0 || (weights_line(ps, "l1d.bias", f->b1d, f->h1) &&
                             quantisable(ps, f->b1d, f->h1, qad, NET_MAX_BIAS, "l1d.bias"));
}

/* The layers' lines into f: false with the fault noted. */
static bool parse_layers(Parse *ps, NetFile *f)
{
    const int h1 = f->h1, h2 = f->h2;
    const double qab = (double)NET_QA * NET_QB, qao = (double)NET_QA * NET_QO;
    for (int i = 0; i < f->inputs; i++) {
        float *w = f->w1 + (size_t)i * h1;
        if (!row_line(ps, "l1", i, w, h1) || !quantisable(ps, w, h1, NET_QA, INT16_MAX, "l1"))
            return false;
    }
    if (!weights_line(ps, "l1.bias", f->b1, h1) ||
        !quantisable(ps, f->b1, h1, NET_QA, INT16_MAX, "l1.bias") || !parse_dense(ps, f))
        return false;
    for (int j = 0; j < h2; j++) {
        float *w = f->w2 + (size_t)j * 2 * h1;
        if (!row_line(ps, "l2", j, w, 2 * h1) ||
            !quantisable(ps, w, 2 * h1, NET_QB, INT16_MAX, "l2"))
            return false;
    }
    if (!weights_line(ps, "l2.bias", f->b2, h2) ||
        !quantisable(ps, f->b2, h2, qab, NET_MAX_BIAS, "l2.bias"))
        return false;
    if (!weights_line(ps, "out", f->w3, h2) ||
        !quantisable(ps, f->w3, h2, NET_QO, INT16_MAX, "out"))
        return false;
    return weights_line(ps, "out.bias", &f->b3, 1) &&
           quantisable(ps, &f->b3, 1, qao, NET_MAX_BIAS, "out.bias");
}

int net_file_parse(const char *text, size_t n, const char *name, NetFile **out, Error *e)
{
    *out = NULL;
    Parse ps = { .text = text, .at = text };
    size_t content = 0;
    uint64_t sum = 0;
    NetFile *f = NULL;
    const size_t magic = strlen(NET_MAGIC_WORD);
    if (n == 0) {
        ps.line = 1;
        ps.why = "empty file: not a network file";
    } else if (n > magic && memcmp(text, NET_MAGIC_WORD, magic) != 0) {
        /* Another kind of file (a weights file, data): said at once, whatever its end. */
        ps.line = 1;
        ps.why = NET_NOT_A_NETWORK;
    } else if (check_end(&ps, n, &content, &sum)) {
        ps.line = 0;
        ps.stop = text + content;
        f = parse_header(&ps);
        if (f && parse_layers(&ps, f) && ps.at < ps.stop) {
            ps.line++;
            ps.why = "expected the end line here: the out.bias line is the last before it";
        }
    }
    free(ps.buf);
    if (ps.why) {
        net_file_free(f);
        return error_set(e, "%s:%d: %s", name, ps.line, ps.why);
    }
    f->digest = sum;
    *out = f;
    return 0;
}

int net_file_load(const char *path, NetFile **out, Error *e)
{
    *out = NULL;
    char *text;
    size_t n;
    if (door_read_text(path, NET_MAX_BYTES, "a network file", &text, &n, e) != 0)
        return -1;
    int rc = net_file_parse(text, n, path, out, e);
    free(text);
    return rc;
}

int net_file_digest(const char *path, uint64_t *out, Error *e)
{
    NetFile *f;
    if (net_file_load(path, &f, e) != 0)
        return -1;
    *out = f->digest;
    net_file_free(f);
    return 0;
}

/* ---- files: written ---- */

/* n numbers, each as %.9g (a float's every digit), after a space. */
static void put_numbers(FILE *m, const float *w, int n)
{
    for (int i = 0; i < n; i++)
        fprintf(m, " %.9g", (double)w[i]);
    fputc('\n', m);
}

/* The content of f's file: every line but the end line. */
static void write_content(const NetFile *f, FILE *m)
{
    /* The lowest version that holds f: a network without a base or dense inputs keeps
     * version 1's text, byte for byte. */
    const char *magic = f->dense ? NET_MAGIC_3 : f->base_learned ? NET_MAGIC_2 : NET_MAGIC;
    fprintf(m, "%s\nname %s\nabout %s\nholes %d\ncapture %d\nbuckets %d\nhidden %d %d\n",
            magic, f->name, f->about, f->holes, f->capture, f->buckets, f->h1, f->h2);
    if (f->base_learned)
        fprintf(m, "base learned %016" PRIx64 "\n", f->base_digest);
    else if (f->dense)
        fprintf(m, "base none\n");
    if (f->dense)
        fprintf(m, "dense %d\n", f->dense);
    for (int i = 0; i < f->inputs; i++) {
        fprintf(m, "l1 %d", i);
        put_numbers(m, f->w1 + (size_t)i * f->h1, f->h1);
    }
    fprintf(m, "l1.bias");
    put_numbers(m, f->b1, f->h1);
    for (int d = 0; d < f->dense; d++) {
        fprintf(m, "l1d %s", f->dense_name[d]);
        put_numbers(m, f->w1d + (size_t)d * f->h1, f->h1);
    }
    if (f->dense) {
        fprintf(m, "l1d.bias");
        put_numbers(m, f->b1d, f->h1);
    }
    for (int j = 0; j < f->h2; j++) {
        fprintf(m, "l2 %d", j);
        put_numbers(m, f->w2 + (size_t)j * 2 * f->h1, 2 * f->h1);
    }
    fprintf(m, "l2.bias");
    put_numbers(m, f->b2, f->h2);
    fprintf(m, "out");
    put_numbers(m, f->w3, f->h2);
    fprintf(m, "out.bias");
    put_numbers(m, &f->b3, 1);
}

int net_file_write(const NetFile *f, FILE *out, Error *e)
{
    char *text = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    if (!m)
        return error_set(e, "cannot write the network: out of memory");
    write_content(f, m);
    bool failed = ferror(m) != 0;
    if (fclose(m) != 0 || failed) {
        free(text);
        return error_set(e, "cannot write the network: out of memory");
    }
    fwrite(text, 1, n, out);
    fprintf(out, "end %016" PRIx64 "\n", learned_text_checksum(text, n));
    free(text);
    if (ferror(out))
        return error_set(e, "cannot write the network: %s", strerror(errno));
    return 0;
}

/* ---- the compiled-in network ---- */

/* The text of agents/net_default.net, embedded by the build (net_default_data.c). */
extern const unsigned char net_default_text[];
extern const size_t net_default_size;

static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;
static NetFile *builtin;

static void builtin_parse(void)
{
    Error e = { 0 };
    if (net_file_parse((const char *)net_default_text, net_default_size, "net_default.net",
                       &builtin, &e) != 0) {
        /* The build embeds a file the tests parse: this is a broken build, not bad input. */
        fprintf(stderr, "anywoli: the compiled-in network is broken: %s\n", e.msg);
        abort();
    }
}

const NetFile *net_builtin(void)
{
    pthread_once(&builtin_once, builtin_parse);
    return builtin;
}

int net_builtin_digest(const char *path, uint64_t *out, const char **key)
{
    *out = path[0] ? 0 : net_builtin()->digest;
    *key = "net";
    return 0;
}

/* ---- the encoding ---- */

/* The pit that perspective q sees as its hole r (r < H: q's row; else the other's). */
static inline int pit_of(int h, int q, int r)
{
    return r < h ? q * h + r : (!q) * h + r - h;
}

/* The extra inputs active for perspective q at p, as bits (bit k: input 2HB + k). */
static inline unsigned extra_bits(const Variant *v, const Position *p, int q)
{
    int conv = v->final_four == FF_PENULTIMATE ? 0 : v->final_four == FF_FIRST_FINAL ? 1 : 2;
    unsigned b = 1u << conv;
    int r = eval_final_recipient(v, p);
    if (r == q)
        b |= 1u << 3;
    else if (r == !q)
        b |= 1u << 4;
    if (v->final_four == FF_FIRST_FINAL && p->first_final == NOBODY)
        b |= 1u << 5;
    return b;
}

int net_inputs(const NetFile *f, const Variant *v, const Position *p, int q, int *idx)
{
    const int h = f->holes, B = f->buckets;
    int n = 0;
    for (int r = 0; r < 2 * h; r++) {
        int c = p->pit[pit_of(h, q, r)];
        if (c >= 1)
            idx[n++] = r * B + (c < B ? c : B) - 1;
    }
    unsigned x = extra_bits(v, p, q);
    for (int k = 0; k < NET_EXTRA; k++)
        if (x & (1u << k))
            idx[n++] = 2 * h * B + k;
    return n;
}

/* ---- the float reference ---- */

static inline double crelu(double x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

void net_dense_values(const NetFile *f, const Variant *v, const Position *p, int *x)
{
    FeatureLayout l;
    FeatureList list;
    features_layout(v, &l);
    features_of(&l, v, p, &list);
    for (int d = 0; d < f->dense; d++)
        x[d] = 0;
    /* By name, as the file gives them: the reference does not share net_prepare's map. */
    for (int i = 0; i < list.n; i++) {
        char name[64];
        features_name(&l, list.index[i], name, sizeof name);
        for (int d = 0; d < f->dense; d++)
            if (strcmp(name, f->dense_name[d]) == 0)
                x[d] = list.value[i];
    }
}

double net_positional_float(const NetFile *f, const Variant *v, const Position *p)
{
    const int h1n = f->h1;
    double h1[2 * NET_MAX_H1], h2[NET_MAX_H2];
    int idx[2 * MAX_HOLES + NET_EXTRA], x[NET_MAX_DENSE];
    net_dense_values(f, v, p, x);
    for (int half = 0; half < 2; half++) {
        int q = half == 0 ? p->side : !p->side;
        int n = net_inputs(f, v, p, q, idx);
        for (int k = 0; k < h1n; k++) {
            double a = f->b1[k];
            for (int i = 0; i < n; i++)
                a += f->w1[(size_t)idx[i] * h1n + k];
            if (half == 0 && f->dense) {   /* the mover's: its dense inputs */
                a += f->b1d[k];
                for (int d = 0; d < f->dense; d++)
                    a += (double)f->w1d[(size_t)d * h1n + k] * x[d];
            }
            h1[half * h1n + k] = crelu(a);
        }
    }
    for (int j = 0; j < f->h2; j++) {
        double s = f->b2[j];
        const float *w = f->w2 + (size_t)j * 2 * h1n;
        for (int k = 0; k < 2 * h1n; k++)
            s += w[k] * h1[k];
        h2[j] = crelu(s);
    }
    double y = f->b3;
    for (int j = 0; j < f->h2; j++)
        y += f->w3[j] * h2[j];
    return y;
}

/* ---- the integer network ---- */

struct Net {
    const NetFile *file;
    int holes, buckets, h2;
    int hp;              /* the first layer's units padded to NET_BLOCK (the padding's
                          * weights 0) */
    int16_t *w1;         /* inputs x hp, row by row */
    int16_t *b1;         /* hp */
    int16_t *w2;         /* h2 x 2 hp: the mover's half, then the other's */
    int32_t *b2;         /* h2 */
    int16_t *w3;         /* h2 */
    int32_t b3;
    Learned *base;       /* the learned set the output is added to, or NULL */
    /* The dense inputs (version 3; file->dense of them): */
    FeatureLayout layout;/* the features the base and the dense inputs read: its groups
                          * theirs (none: features_of is not called) */
    int16_t *slot;       /* layout.n: feature f's dense row, or -1 */
    int32_t *w1d;        /* dense x hp, in NET_QA x NET_QD units */
    int32_t *b1d;        /* hp */
};

/* x quantised into *to: false when it does not fit int16. */
static bool put16(float x, double scale, int16_t *to)
{
    if (!in_range(x, scale, INT16_MAX))
        return false;
    *to = (int16_t)quantise(x, scale);
    return true;
}

/* The learned set a network with a base is added to: the compiled-in set, whose digest
 * must be the one the network was trained over (another set's values would shift every
 * output). */
static int prepare_base(const NetFile *f, const Variant *v, Learned **out, Error *e)
{
    const LearnedSet *set = learned_builtin("learned");
    uint64_t have = set ? learned_set_digest(set) : 0;
    if (!set || have != f->base_digest)
        return error_set(e, "network '%s' is trained over the learned set %016" PRIx64
                         ", not this program's compiled-in set (%016" PRIx64 ")", f->name,
                         f->base_digest, have);
    if (learned_prepare(set, v, out, e) != 0)
        return -1;
    return 0;
}

/* Whether every position's first-layer sums fit int16 (NetAcc's): for each unit, its bias
 * plus, for each hole, the largest of its buckets' weights, plus every extra input's weight,
 * all in absolute value, is within INT16_MAX. A bound, not the exact largest sum (no
 * position holds every extra input); trained networks lie far within it (the shipped one's
 * largest is under a thirtieth of it). */
static bool sums_fit_16(const Net *n, const NetFile *f)
{
    const int B = f->buckets, holes = 2 * f->holes;
    for (int k = 0; k < f->h1; k++) {
        long worst = labs(n->b1[k]);
        for (int r = 0; r < holes; r++) {
            long most = 0;
            for (int b = 0; b < B; b++) {
                long w = labs(n->w1[(size_t)(r * B + b) * n->hp + k]);
                most = w > most ? w : most;
            }
            worst += most;
        }
        for (int x = 0; x < NET_EXTRA; x++)
            worst += labs(n->w1[(size_t)(holes * B + x) * n->hp + k]);
        if (worst > INT16_MAX)
            return false;
    }
    return true;
}

/* The largest |value| a feature takes on v's board (learn_features.h): a count of seeds
 * (at most the total), a gain (within 3 capture), a count of moves or holes, or 1. */
static long feature_value_bound(const Variant *v)
{
    long b = v->total;
    b = 3L * v->capture > b ? 3L * v->capture : b;
    return v->holes > b ? v->holes : b;
}

/* n's dense inputs from f's: the features' indices on v's board, W1d and b1d quantised, and
 * the groups features_of computes (the base's and the dense inputs'). -1 with a message when
 * a name is not a feature of the board or a unit's dense sum could leave int32. */
static int prepare_dense(const NetFile *f, const Variant *v, Net *n, Error *e)
{
    features_layout(v, &n->layout);
    n->layout.groups = n->base ? learned_groups(n->base) : 0;
    if (!f->dense)
        return 0;
    const double qad = (double)NET_QA * NET_QD;
    n->slot = malloc((size_t)n->layout.n * sizeof *n->slot);
    n->w1d = calloc((size_t)f->dense * n->hp + n->hp, sizeof *n->w1d);
    if (!n->slot || !n->w1d)
        return error_set(e, "network '%s': out of memory", f->name);
    n->b1d = n->w1d + (size_t)f->dense * n->hp;
    for (int i = 0; i < n->layout.n; i++)
        n->slot[i] = -1;
    for (int d = 0; d < f->dense; d++) {
        int i = features_lookup(&n->layout, f->dense_name[d]);
        if (i < 0)
            return error_set(e, "network '%s': its dense input '%s' is no feature of this "
                             "board (learn_features.h names them)", f->name, f->dense_name[d]);
        n->slot[i] = (int16_t)d;
        n->layout.groups |= 1u << features_group(&n->layout, i);
        for (int k = 0; k < f->h1; k++)
            n->w1d[(size_t)d * n->hp + k] = (int32_t)quantise(f->w1d[(size_t)d * f->h1 + k],
                                                              qad);
    }
    const long bound = feature_value_bound(v);
    for (int k = 0; k < f->h1; k++) {
        n->b1d[k] = (int32_t)quantise(f->b1d[k], qad);
        int64_t worst = labs((long)n->b1d[k]) + (int64_t)INT16_MAX * NET_QD;
        for (int d = 0; d < f->dense; d++)
            worst += (int64_t)labs((long)n->w1d[(size_t)d * n->hp + k]) * bound;
        if (worst > INT32_MAX)
            return error_set(e, "network '%s': l1d (a position's dense sums could leave 32 "
                             "bits)", f->name);
    }
    return 0;
}

int net_prepare(const NetFile *f, const Variant *v, Net **out, Error *e)
{
    *out = NULL;
    if (f->holes != v->holes || f->capture != v->capture)
        return error_set(e, "network '%s' is for holes=%d capture=%d, not holes=%d capture=%d",
                         f->name, f->holes, f->capture, v->holes, v->capture);
    Net *n = calloc(1, sizeof *n);
    if (!n)
        return error_set(e, "network '%s': out of memory", f->name);
    const int h1 = f->h1, hp = (h1 + NET_BLOCK - 1) / NET_BLOCK * NET_BLOCK;
    n->file = f;
    n->holes = f->holes;
    n->buckets = f->buckets;
    n->h2 = f->h2;
    n->hp = hp;
    n->w1 = calloc((size_t)f->inputs * hp + hp + (size_t)f->h2 * 2 * hp + f->h2,
                   sizeof *n->w1);
    n->b2 = calloc((size_t)f->h2, sizeof *n->b2);
    if (!n->w1 || !n->b2) {
        net_free(n);
        return error_set(e, "network '%s': out of memory", f->name);
    }
    n->b1 = n->w1 + (size_t)f->inputs * hp;
    n->w2 = n->b1 + hp;
    n->w3 = n->w2 + (size_t)f->h2 * 2 * hp;
    const char *bad = NULL;
    for (int i = 0; i < f->inputs; i++)
        for (int k = 0; k < h1; k++)
            if (!put16(f->w1[(size_t)i * h1 + k], NET_QA, &n->w1[(size_t)i * hp + k]))
                bad = "l1";
    for (int k = 0; k < h1; k++)
        if (!put16(f->b1[k], NET_QA, &n->b1[k]))
            bad = "l1.bias";
    if (!bad && !sums_fit_16(n, f))
        bad = "l1 (a position's sums could leave 16 bits)";
    for (int j = 0; j < f->h2; j++) {
        int64_t worst = 0;
        for (int half = 0; half < 2; half++)
            for (int k = 0; k < h1; k++) {
                int16_t *w = &n->w2[(size_t)j * 2 * hp + half * hp + k];
                if (!put16(f->w2[(size_t)j * 2 * h1 + half * h1 + k], NET_QB, w))
                    bad = "l2";
                worst += (int64_t)abs(*w) * NET_QA;
            }
        if (!in_range(f->b2[j], (double)NET_QA * NET_QB, NET_MAX_BIAS))
            bad = "l2.bias";
        else
            n->b2[j] = (int32_t)quantise(f->b2[j], (double)NET_QA * NET_QB);
        /* Never true within today's limits (32767 x NET_QA x 2 NET_MAX_H1 + NET_MAX_BIAS is
         * below 2^31); kept so that larger limits cannot overflow unnoticed. */
        if (worst + NET_MAX_BIAS > INT32_MAX)
            bad = "l2 (its sums could overflow 32 bits)";
        if (!put16(f->w3[j], NET_QO, &n->w3[j]))
            bad = "out";
    }
    if (!in_range(f->b3, (double)NET_QA * NET_QO, NET_MAX_BIAS))
        bad = "out.bias";
    else
        n->b3 = (int32_t)quantise(f->b3, (double)NET_QA * NET_QO);
    if (bad) {
        net_free(n);
        return error_set(e, "network '%s': a weight of %s does not fit the integers once "
                         "scaled", f->name, bad);
    }
    if (f->base_learned && prepare_base(f, v, &n->base, e) != 0) {
        net_free(n);
        return -1;
    }
    if (prepare_dense(f, v, n, e) != 0) {
        net_free(n);
        return -1;
    }
    *out = n;
    return 0;
}

int net_option_load(bool chosen, const char *path, const char *agent, NetFile **out,
                    Error *e)
{
    *out = NULL;
    if (!chosen)
        return path[0] ? error_set(e, "agent '%s': net=%s needs weights=net", agent, path) : 0;
    if (path[0] && net_file_load(path, out, e) != 0) {
        char msg[sizeof e->msg];
        snprintf(msg, sizeof msg, "%s", e->msg);
        return error_set(e, "agent '%s': net=%s", agent, msg);
    }
    return 0;
}

int net_prepare_for(const NetFile *file, const Variant *v, const char *agent, Net **net,
                    Variant *prepared_for, Error *e)
{
    if (*net && variant_same_play(prepared_for, v))
        return 0;
    net_free(*net);
    *net = NULL;
    Error inner;
    if (net_prepare(file ? file : net_builtin(), v, net, &inner) != 0) {
        if (e)
            error_set(e, "agent '%s': weights=net: %s", agent, inner.msg);
        return -1;
    }
    *prepared_for = *v;
    return 0;
}

void net_free(Net *n)
{
    if (n) {
        free(n->w1);
        free(n->b2);
        free(n->slot);
        free(n->w1d);
        learned_free(n->base);
    }
    free(n);
}

const NetFile *net_file_of(const Net *n)
{
    return n->file;
}

/* The bucket of a hole of c seeds: 0 for an empty hole (no input), else 1 .. B. */
static inline int bucket(int c, int B)
{
    return c < B ? c : B;
}

/* The most rows one perspective's sums take or give: every hole's, twice, and the extra
 * inputs'. */
#define NET_MAX_ROWS (4 * MAX_HOLES + 2 * NET_EXTRA)

/* Sixteen sums or weights: a GCC generic vector (one AVX2 register, or two SSE ones where
 * the target has no AVX2), which it compiles for any target. Unsigned, so that a sum wraps
 * instead of overflowing: the rows a move adds come before those it takes away, and a sum
 * may pass beyond int16 on the way; net_prepare has checked that every position's sums fit
 * int16, so the sum arrived at, taken modulo 2^16, is the exact one. */
typedef uint16_t Lanes16 __attribute__((vector_size(32)));

static inline Lanes16 load16(const int16_t *w)
{
    Lanes16 x;
    memcpy(&x, w, sizeof x);
    return x;
}

/* out = base (a perspective's sums, or NULL: the bias b1) + the rows of add - the rows of
 * sub. NET_BLOCK units at a time, held in vector registers while every row is added to
 * them, rather than going to memory and back for each row. out may be base. */
static void acc_rows(const Net *n, int16_t *out, const int16_t *base,
                     const int16_t *const *add, int na, const int16_t *const *sub, int ns)
{
    const int16_t *from = base ? base : n->b1;
    for (int c = 0; c < n->hp; c += NET_BLOCK) {
        Lanes16 s0 = load16(from + c), s1 = load16(from + c + 16);
        for (int i = 0; i < na; i++) {
            s0 += load16(add[i] + c);
            s1 += load16(add[i] + c + 16);
        }
        for (int i = 0; i < ns; i++) {
            s0 -= load16(sub[i] + c);
            s1 -= load16(sub[i] + c + 16);
        }
        memcpy(out + c, &s0, sizeof s0);
        memcpy(out + c + 16, &s1, sizeof s1);
    }
}

/* W1's row of input i. */
static inline const int16_t *row_of(const Net *n, int i)
{
    return n->w1 + (size_t)i * n->hp;
}

void net_acc_full(const Net *n, const Variant *v, const Position *p, NetAcc *out)
{
    const int h = n->holes, B = n->buckets;
    for (int q = 0; q < 2; q++) {
        const int16_t *rows[NET_MAX_ROWS];
        int k = 0;
        for (int r = 0; r < 2 * h; r++) {
            /* Without a branch on the empty holes, which a board's counts make a coin toss:
             * an empty hole's entry is written and then written over. */
            int b = bucket(p->pit[pit_of(h, q, r)], B);
            rows[k] = row_of(n, r * B + (b ? b - 1 : 0));
            k += b != 0;
        }
        unsigned x = extra_bits(v, p, q);
        for (int e = 0; e < NET_EXTRA; e++)
            if (x & (1u << e))
                rows[k++] = row_of(n, 2 * h * B + e);
        acc_rows(n, out->a[q], NULL, rows, k, NULL, 0);
    }
}

bool net_acc_update(const Net *n, const Variant *v, const Position *p, const NetAcc *pa,
                    const Position *c, NetAcc *out)
{
    const int h = n->holes, B = n->buckets;
    /* The holes whose bucket changed, as South sees them (North's r is the other row's). */
    int changed[MAX_PITS], nc = 0, filled = 0, rows = 0;
    for (int i = 0; i < 2 * h; i++) {
        int now = bucket(c->pit[i], B), was = bucket(p->pit[i], B);
        filled += now != 0;
        if (now != was) {
            changed[nc++] = i;
            rows += (now != 0) + (was != 0);
        }
    }
    /* A changed hole costs a row taken away (if it held seeds) and a row added (if it holds
     * some); a recomputation a row for each non-empty hole. */
    if (rows > filled) {
        net_acc_full(n, v, c, out);
        return true;
    }
    for (int q = 0; q < 2; q++) {
        const int16_t *add[NET_MAX_ROWS], *sub[NET_MAX_ROWS];
        int na = 0, ns = 0;
        for (int j = 0; j < nc; j++) {
            int i = changed[j];
            int r = q == SOUTH ? i : i < h ? i + h : i - h;
            int was = bucket(p->pit[i], B), now = bucket(c->pit[i], B);
            if (was)
                sub[ns++] = row_of(n, r * B + was - 1);
            if (now)
                add[na++] = row_of(n, r * B + now - 1);
        }
        unsigned xp = extra_bits(v, p, q), xc = extra_bits(v, c, q);
        for (int e = 0; e < NET_EXTRA; e++) {
            if (xc & ~xp & (1u << e))
                add[na++] = row_of(n, 2 * h * B + e);
            if (xp & ~xc & (1u << e))
                sub[ns++] = row_of(n, 2 * h * B + e);
        }
        acc_rows(n, out->a[q], pa->a[q], add, na, sub, ns);
    }
    return false;
}

/* crelu in the integers: the sums clamped to [0, NET_QA]. */
static inline void clamp_into(int16_t *restrict h, const int16_t *restrict a, int hp)
{
    for (int k = 0; k < hp; k++)
        h[k] = a[k] < 0 ? 0 : a[k] > NET_QA ? NET_QA : a[k];
}

/* The dot product of two rows of int16 in int32 (net_prepare bounds it). */
static inline int32_t dot16(const int16_t *restrict a, const int16_t *restrict b, int n)
{
    int32_t s = 0;
    for (int k = 0; k < n; k++)
        s += (int32_t)a[k] * b[k];
    return s;
}

/* The mover's half of h1 with the dense inputs: crelu(a + d), d = b1d + the rows of the
 * features in list (those of the dense inputs) times their values, brought from NET_QA x
 * NET_QD units to NET_QA (rounded, halves up: an arithmetic shift). */
static void clamp_dense_into(const Net *n, int16_t *restrict h, const int16_t *restrict a,
                             const FeatureList *list)
{
    const int hp = n->hp;
    int32_t d[NET_MAX_H1] __attribute__((aligned(32)));
    memcpy(d, n->b1d, (size_t)hp * sizeof *d);
    for (int i = 0; i < list->n; i++) {
        int slot = n->slot[list->index[i]];
        if (slot < 0)
            continue;
        const int32_t *w = n->w1d + (size_t)slot * hp, x = list->value[i];
        for (int k = 0; k < hp; k++)
            d[k] += w[k] * x;
    }
    for (int k = 0; k < hp; k++) {
        int32_t y = a[k] + ((d[k] + NET_QD / 2) >> NET_QD_SHIFT);
        h[k] = (int16_t)(y < 0 ? 0 : y > NET_QA ? NET_QA : y);
    }
}

int32_t net_positional(const Net *n, const Variant *v, const Position *p, const NetAcc *a)
{
    const int hp = n->hp, s = p->side;
    int16_t h1[2 * NET_MAX_H1] __attribute__((aligned(32)));
    /* The features are computed once, for the base and the dense inputs alike. */
    FeatureList list;
    list.n = 0;
    if (n->layout.groups)
        features_of(&n->layout, v, p, &list);
    if (n->file->dense)
        clamp_dense_into(n, h1, a->a[s], &list);
    else
        clamp_into(h1, a->a[s], hp);
    clamp_into(h1 + hp, a->a[!s], hp);
    /* h2 is kept in the second layer's own units (NET_QA x NET_QB), not shifted down to
     * NET_QA: a trained network's output weighs each unit by tens of seeds, so a step of
     * 1/NET_QA of a unit would move the output by a tenth of a seed or more (0.43 seeds at
     * the start of the shipped network, against 0.06 kept whole). */
    int64_t y = (int64_t)n->b3 * NET_QB;
    for (int j = 0; j < n->h2; j++) {
        int32_t x = dot16(n->w2 + (size_t)j * 2 * hp, h1, 2 * hp) + n->b2[j];
        x = x < 0 ? 0 : x > NET_QA * NET_QB ? NET_QA * NET_QB : x;
        y += (int64_t)n->w3[j] * x;
    }
    /* From NET_QA x NET_QB x NET_QO units of a seed to EVAL_SCALE units, truncated towards
     * zero. */
    int32_t out = (int32_t)(y * EVAL_SCALE / ((int64_t)NET_QA * NET_QB * NET_QO));
    return n->base ? out + learned_positional_of(n->base, p, &list) : out;
}

int32_t net_base_value(const Net *n, const Variant *v, const Position *p)
{
    return n->base ? learned_positional(n->base, v, p) : 0;
}

int32_t net_eval(const Net *n, const Variant *v, const Position *p, const NetAcc *a)
{
    const int s = p->side;
    return (p->store[s] - p->store[!s]) * EVAL_SCALE + net_positional(n, v, p, a);
}
