/* record_row.c: the games table's one schema (record_row.h). Every field's name, place and
 * type come from GameRecord itself; only the order of the columns is written down, once. And
 * the one check of a record against the rules, which the reader applies to every stored row
 * and the game loop, in the checking build, to every game it ends. */
#include "record_row.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* GameRecord's stored fields, in the order of the games table's columns (and of the packed
 * row): X the columns every file of format 1 has, LATER (with the value a reader gives a row
 * of a file written before it) the ones added since, which older files lack. */
#define STORED_FIELDS(X, LATER)                                                               \
    X(game) X(a_south) X(outcome) X(south) X(north) X(left) X(last_capturer) X(first_final)  \
    X(lottery) X(plies) X(passes) X(mid_captures) X(final_captures)                          \
    LATER(opening, -1) LATER(moves_hash, 0) LATER(line_hash, 0) LATER(nodes_a, 0)        \
    LATER(nodes_b, 0) LATER(choices_a, 0) LATER(choices_b, 0)

/* A member of GameRecord as an expression of its type (never evaluated: sizeof, _Generic). */
#define MEMBER(m) (((const GameRecord *)0)->m)

/* Whether an integer expression has a signed type (the record uses the fixed-width types). */
#define IS_SIGNED(x) _Generic((x), int8_t: true, int16_t: true, int32_t: true, int64_t: true, \
                              default: false)

/* One column: its name, where the field lies in GameRecord, and its width, the same in the
 * record and in the row (1, 2, 4 or 8 bytes). */
typedef struct RowField {
    const char *name;
    size_t offset;
    size_t size;
    bool is_signed;
    bool later;              /* added after format 1's first files, which lack it */
    int64_t absent;          /* the value of a row of a file without it */
} RowField;

#define FIELD_ENTRY(m) { #m, offsetof(GameRecord, m), sizeof MEMBER(m), IS_SIGNED(MEMBER(m)), \
                         false, 0 },
#define LATER_ENTRY(m, d) { #m, offsetof(GameRecord, m), sizeof MEMBER(m),                   \
                            IS_SIGNED(MEMBER(m)), true, d },
#define FIELD_BYTES(m) + sizeof MEMBER(m)
#define LATER_BYTES(m, d) + sizeof MEMBER(m)

static const RowField fields[] = { STORED_FIELDS(FIELD_ENTRY, LATER_ENTRY) };

#define FIELDS_NB ((int)(sizeof fields / sizeof fields[0]))

/* A packed row holds the fields back to back: a new field must come with a new ROW_BYTES
 * (and, being a change to the format, a new format_version: docs/results.md). */
_Static_assert(0 STORED_FIELDS(FIELD_BYTES, LATER_BYTES) == ROW_BYTES,
               "ROW_BYTES must be the sum of the stored fields' sizes");
_Static_assert(FIELDS_NB <= 64, "row_type_reading's mask of absent fields has 64 bits");

/* Store x little-endian in n bytes at p. */
static void put_le(unsigned char *p, uint64_t x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(x >> (8 * i));
}

/* A little-endian unsigned number of n bytes at p. */
static uint64_t get_le(const unsigned char *p, size_t n)
{
    uint64_t x = 0;
    for (size_t i = n; i-- > 0;)
        x = x << 8 | p[i];
    return x;
}

/* Field f of r as the unsigned number of its bits (a signed field in two's complement). */
static uint64_t field_bits(const GameRecord *r, const RowField *f)
{
    const unsigned char *p = (const unsigned char *)r + f->offset;
    uint8_t x8;
    uint16_t x16;
    uint32_t x32;
    uint64_t x64;
    switch (f->size) {
    case 1: memcpy(&x8, p, 1); return x8;
    case 2: memcpy(&x16, p, 2); return x16;
    case 4: memcpy(&x32, p, 4); return x32;
    default: memcpy(&x64, p, 8); return x64;
    }
}

/* Set field f of r from the unsigned number of its bits. */
static void field_set_bits(GameRecord *r, const RowField *f, uint64_t bits)
{
    unsigned char *p = (unsigned char *)r + f->offset;
    uint8_t x8 = (uint8_t)bits;
    uint16_t x16 = (uint16_t)bits;
    uint32_t x32 = (uint32_t)bits;
    switch (f->size) {
    case 1: memcpy(p, &x8, 1); break;
    case 2: memcpy(p, &x16, 2); break;
    case 4: memcpy(p, &x32, 4); break;
    default: memcpy(p, &bits, 8); break;
    }
}

void row_pack(const GameRecord *r, unsigned char *out)
{
    for (int i = 0; i < FIELDS_NB; i++) {
        put_le(out, field_bits(r, &fields[i]), fields[i].size);
        out += fields[i].size;
    }
}

void row_unpack(const unsigned char *in, GameRecord *r)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < FIELDS_NB; i++) {
        field_set_bits(r, &fields[i], get_le(in, fields[i].size));
        in += fields[i].size;
    }
}

/* The HDF5 type of a column: its width and signedness, little-endian. */
static hid_t field_type(const RowField *f)
{
    switch (f->size) {
    case 1: return f->is_signed ? H5T_STD_I8LE : H5T_STD_U8LE;
    case 2: return f->is_signed ? H5T_STD_I16LE : H5T_STD_U16LE;
    case 4: return f->is_signed ? H5T_STD_I32LE : H5T_STD_U32LE;
    default: return f->is_signed ? H5T_STD_I64LE : H5T_STD_U64LE;
    }
}

hid_t row_type_create(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, ROW_BYTES);
    size_t at = 0;
    for (int i = 0; t >= 0 && i < FIELDS_NB; i++) {
        if (H5Tinsert(t, fields[i].name, at, field_type(&fields[i])) < 0) {
            H5Tclose(t);
            return -1;
        }
        at += fields[i].size;
    }
    return t;
}

/* Whether member `name` of a compound type is an integer (HDF5 would convert a float or a
 * string into the field silently, so such a column is damage, not a value). */
static bool member_is_integer(hid_t type, int member)
{
    hid_t m = H5Tget_member_type(type, (unsigned)member);
    bool ok = m >= 0 && H5Tget_class(m) == H5T_INTEGER;
    if (m >= 0)
        H5Tclose(m);
    return ok;
}

hid_t row_type_reading(hid_t file_type, uint64_t *absent, const char **bad)
{
    *absent = 0;
    *bad = NULL;
    if (H5Tget_class(file_type) != H5T_COMPOUND)
        return -1;
    hid_t t = H5Tcreate(H5T_COMPOUND, ROW_BYTES);
    size_t at = 0;
    for (int i = 0; t >= 0 && i < FIELDS_NB; i++) {
        int member = H5Tget_member_index(file_type, fields[i].name);
        if (member < 0) {
            if (!fields[i].later) {   /* not a table of format 1 */
                H5Tclose(t);
                return -1;
            }
            *absent |= (uint64_t)1 << i;
        } else if (!member_is_integer(file_type, member) ||
                   H5Tinsert(t, fields[i].name, at, field_type(&fields[i])) < 0) {
            *bad = fields[i].name;
            H5Tclose(t);
            return -1;
        }
        at += fields[i].size;
    }
    return t;
}

void row_set_absent(GameRecord *r, uint64_t absent)
{
    for (int i = 0; absent && i < FIELDS_NB; i++)
        if (absent >> i & 1)
            field_set_bits(r, &fields[i], (uint64_t)fields[i].absent);
}

int row_field_count(void)
{
    return FIELDS_NB;
}

const char *row_field_name(int i)
{
    return fields[i].name;
}

int64_t row_field_value(const GameRecord *r, int i)
{
    const RowField *f = &fields[i];
    uint64_t bits = field_bits(r, f);
    /* Sign-extend a signed field narrower than 64 bits. */
    if (f->is_signed && f->size < 8 && bits >> (8 * f->size - 1))
        return (int64_t)bits - ((int64_t)1 << (8 * f->size));
    return (int64_t)bits;
}

/* The checks of record_fault on a finished game (South won, North won, a draw): the seeds
 * left went to the convention's recipient, so the scores hold every seed and agree with the
 * outcome. */
static int finished_fault(const Variant *v, const GameRecord *r, char *why, size_t len)
{
    int to = award_recipient(v->final_four, r->last_capturer, r->first_final, r->lottery);
    unsigned score_to = to == SOUTH ? r->south : r->north;
    if (r->left > v->capture)
        return snprintf(why, len, "left %u in a finished game, expected at most capture %d",
                        r->left, v->capture);
    if (r->south + r->north != v->total)
        return snprintf(why, len, "south %u + north %u is not the variant's %d seeds",
                        r->south, r->north, v->total);
    if (to == NOBODY || score_to < r->left)
        return snprintf(why, len, "the %u seeds left cannot have gone to the %s recipient",
                        r->left, final_four_name(v->final_four));
    if (r->outcome != (int)game_outcome(r->south, r->north))
        return snprintf(why, len, "outcome %d disagrees with south %u, north %u", r->outcome,
                        r->south, r->north);
    return 0;
}

/* The checks of record_fault on an endless or unfinished game: the stores as they stood, the
 * game not over, and an unfinished one stopped by its cap. */
static int stopped_fault(const Variant *v, const RecordLimits *l, const GameRecord *r,
                         char *why, size_t len)
{
    if (r->left <= v->capture)
        return snprintf(why, len, "left %u in an %s game, expected more than capture %d",
                        r->left, outcome_name(r->outcome), v->capture);
    if (r->south + r->north + r->left != v->total)
        return snprintf(why, len, "south %u + north %u + left %u is not the variant's %d "
                        "seeds", r->south, r->north, r->left, v->total);
    if (r->outcome == OUT_UNFINISHED && (int64_t)r->plies != l->max_plies)
        return snprintf(why, len, "plies %" PRIu32 " in an unfinished game, expected "
                        "max_plies %" PRId64, r->plies, l->max_plies);
    return 0;
}

/* The checks of record_fault on an adjudicated game (record_adjudicated): the stores as they
 * stood, the game not over, the winner's store more than half the seeds. */
static int adjudicated_fault(const Variant *v, const GameRecord *r, char *why, size_t len)
{
    unsigned winner = r->outcome == OUT_SOUTH ? r->south : r->north;
    if (r->south + r->north + r->left != v->total)
        return snprintf(why, len, "south %u + north %u + left %u is not the variant's %d "
                        "seeds", r->south, r->north, r->left, v->total);
    if (2 * winner <= (unsigned)v->total)
        return snprintf(why, len, "an adjudicated %s win with %u of %d seeds, expected more "
                        "than half", outcome_name(r->outcome), winner, v->total);
    return 0;
}

int record_fault(const Variant *v, const RecordLimits *l, const GameRecord *r, char *why,
                 size_t len)
{
    /* Step 1. Each field in its own range. */
    if (r->outcome < OUT_SOUTH || r->outcome > OUT_UNFINISHED)
        return snprintf(why, len, "outcome %d, expected 0 to 4", r->outcome);
    if (r->last_capturer < NOBODY || r->last_capturer > NORTH)
        return snprintf(why, len, "last_capturer %d, expected -1 to 1", r->last_capturer);
    if (r->first_final < NOBODY || r->first_final > NORTH)
        return snprintf(why, len, "first_final %d, expected -1 to 1", r->first_final);
    if (r->lottery != SOUTH && r->lottery != NORTH)
        return snprintf(why, len, "lottery %d, expected 0 or 1", r->lottery);
    if (r->opening < -1)
        return snprintf(why, len, "opening %" PRId32 ", expected -1 or more", r->opening);
    if (r->plies < l->min_plies || (int64_t)r->plies > l->max_plies)
        return snprintf(why, len, "plies %" PRIu32 ", expected %" PRIu32 " to max_plies %"
                        PRId64, r->plies, l->min_plies, l->max_plies);
    /* Step 2. The counts that must agree: a pass follows a move, a final-seed capture ends
     * one, every capture takes `capture` seeds, and the recipients exist once someone
     * captured. */
    if (r->passes > r->plies || r->final_captures > r->plies)
        return snprintf(why, len, "passes %" PRIu32 " or final_captures %u above plies %"
                        PRIu32, r->passes, r->final_captures, r->plies);
    long taken = ((long)r->mid_captures + r->final_captures) * v->capture;
    if (r->left > v->total || taken > v->total - r->left ||
        (!l->from_position && taken != v->total - r->left))
        return snprintf(why, len, "mid_captures %u + final_captures %u of %d seeds each "
                        "with left %u is not the variant's %d seeds", r->mid_captures,
                        r->final_captures, v->capture, r->left, v->total);
    /* From a position, a recipient may come from before the game's first capture. */
    if (r->last_capturer == NOBODY ? taken != 0 : !l->from_position && taken == 0)
        return snprintf(why, len, "last_capturer %d with %u captures", r->last_capturer,
                        r->mid_captures + r->final_captures);
    if (r->first_final == NOBODY ? r->final_captures != 0
                                 : !l->from_position && r->final_captures == 0)
        return snprintf(why, len, "first_final %d with %u final captures", r->first_final,
                        r->final_captures);
    /* Step 3. The scores, by how the game ended. */
    if (l->adjudicated && record_adjudicated(v, r))
        return adjudicated_fault(v, r, why, len);
    return r->outcome <= OUT_DRAW ? finished_fault(v, r, why, len)
                                  : stopped_fault(v, l, r, why, len);
}
