/* record_row.c: the games table's one schema (record_row.h). Every field's name, place and
 * type come from GameRecord itself; only the order of the columns is written down, once. */
#include "record_row.h"

#include <stdbool.h>
#include <stddef.h>
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
