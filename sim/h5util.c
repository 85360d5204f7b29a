/* h5util.c: HDF5 helpers shared by the results file, its reader and the tuning file. */
#include "h5util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void h5u_silence(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void h5u_quiet(void)
{
    /* H5dont_atexit acts only before HDF5's first use, and a second call fails: once. */
    static bool once;
    if (!once)
        H5dont_atexit();
    once = true;
    h5u_silence();
}

hid_t h5u_string_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0 && (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0)) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

int h5u_attr_write(hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *value)
{
    /* The tuning file rewrites some attributes as it goes; H5Acreate2 refuses an existing one. */
    if (H5Aexists(loc, name) > 0)
        H5Adelete(loc, name);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = space < 0 ? -1 : H5Acreate2(loc, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Awrite(a, mtype, value);
    if (a >= 0 && H5Aclose(a) < 0)
        rc = -1;
    if (space >= 0)
        H5Sclose(space);
    return rc < 0 ? -1 : 0;
}

int h5u_attr_int(hid_t loc, const char *name, int64_t v)
{
    return h5u_attr_write(loc, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &v);
}

int h5u_attr_int_array(hid_t loc, const char *name, const int64_t *v, int n)
{
    hsize_t dim = (hsize_t)n;
    hid_t space = H5Screate_simple(1, &dim, NULL);
    hid_t a = space < 0 ? -1 : H5Acreate2(loc, name, H5T_STD_I64LE, space, H5P_DEFAULT,
                                         H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Awrite(a, H5T_NATIVE_INT64, v);
    if (a >= 0 && H5Aclose(a) < 0)
        rc = -1;
    if (space >= 0)
        H5Sclose(space);
    return rc < 0 ? -1 : 0;
}

int h5u_attr_double(hid_t loc, const char *name, double v)
{
    return h5u_attr_write(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v);
}

int h5u_attr_string(hid_t loc, const char *name, const char *s)
{
    hid_t t = h5u_string_type();
    int rc = t < 0 ? -1 : h5u_attr_write(loc, name, t, t, &s);
    if (t >= 0)
        H5Tclose(t);
    return rc;
}

H5T_class_t h5u_attr_class(hid_t loc, const char *name)
{
    /* Checked first so that an absent attribute is an answer, not an HDF5 error. */
    if (H5Aexists(loc, name) <= 0)
        return H5T_NO_CLASS;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t ft = a >= 0 ? H5Aget_type(a) : -1;
    H5T_class_t c = ft >= 0 ? H5Tget_class(ft) : H5T_NO_CLASS;
    if (ft >= 0)
        H5Tclose(ft);
    if (a >= 0)
        H5Aclose(a);
    return c;
}

/* The name of an HDF5 type class, for messages. */
static const char *class_name(H5T_class_t c)
{
    switch (c) {
    case H5T_INTEGER: return "an integer";
    case H5T_FLOAT: return "a float";
    case H5T_STRING: return "text";
    case H5T_COMPOUND: return "a compound";
    case H5T_ARRAY: return "an array type";
    case H5T_VLEN: return "a variable-length sequence";
    case H5T_ENUM: return "an enum";
    default: return "of another type";
    }
}

/* Say what was found into why; -1. */
static int found(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* Open attribute name of loc when it holds one value (a scalar, or a one-element array, as
 * R's rhdf5 writes) of class want, into *a and *ft (the caller closes both): 0, 1 when
 * absent, -1 with what was found into why. */
static int open_one(hid_t loc, const char *name, H5T_class_t want, hid_t *a, hid_t *ft,
                    char *why, size_t len)
{
    *a = *ft = -1;
    htri_t exists = H5Aexists(loc, name);
    if (exists == 0)
        return 1;
    *a = exists > 0 ? H5Aopen(loc, name, H5P_DEFAULT) : -1;
    *ft = *a >= 0 ? H5Aget_type(*a) : -1;
    hid_t space = *a >= 0 ? H5Aget_space(*a) : -1;
    H5S_class_t shape = space >= 0 ? H5Sget_simple_extent_type(space) : H5S_NO_CLASS;
    hssize_t n = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    H5T_class_t c = *ft >= 0 ? H5Tget_class(*ft) : H5T_NO_CLASS;
    if (space >= 0)
        H5Sclose(space);
    H5Eclear2(H5E_DEFAULT);
    if (*ft < 0 || shape == H5S_NO_CLASS)
        return found(why, len, "unreadable");
    if (c != want)
        return found(why, len, "%s, expected %s", class_name(c), class_name(want));
    if (shape == H5S_NULL || n != 1)
        return found(why, len, "%lld values, expected one",
                     shape == H5S_NULL ? 0LL : (long long)n);
    return 0;
}

/* Close what open_one opened; pass rc through. */
static int close_one(hid_t a, hid_t ft, int rc)
{
    if (ft >= 0)
        H5Tclose(ft);
    if (a >= 0)
        H5Aclose(a);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}

/* Read the opened integer attribute a of file type ft into *v (see h5u_get_int). */
static int read_int(hid_t a, hid_t ft, int64_t *v, char *why, size_t len)
{
    if (H5Tget_size(ft) > 8)
        return found(why, len, "a %zu-byte integer, expected at most 8 bytes", H5Tget_size(ft));
    /* Unsigned read as unsigned: HDF5 would clamp 2^63 and beyond to INT64_MAX unseen. */
    if (H5Tget_sign(ft) != H5T_SGN_NONE)
        return H5Aread(a, H5T_NATIVE_INT64, v) < 0 ? found(why, len, "unreadable") : 0;
    uint64_t u;
    if (H5Aread(a, H5T_NATIVE_UINT64, &u) < 0)
        return found(why, len, "unreadable");
    if (u > INT64_MAX)
        return found(why, len, "%" PRIu64 ", expected at most %" PRId64, u, INT64_MAX);
    *v = (int64_t)u;
    return 0;
}

/* Read the opened text attribute a of file type ft as a malloc'd copy into *s. */
static int read_text(hid_t a, hid_t ft, char **s, char *why, size_t len)
{
    /* Only variable-length text reads into our type; fixed-length text is a foreign file. */
    if (H5Tis_variable_str(ft) <= 0)
        return found(why, len, "fixed-length text, expected variable-length text");
    hid_t t = h5u_string_type();
    char *p = NULL;
    int rc = t < 0 || H5Aread(a, t, &p) < 0 || !p ? found(why, len, "unreadable text")
             : !(*s = strdup(p))                  ? found(why, len, "out of memory")
                                                  : 0;
    if (p)
        H5free_memory(p);
    if (t >= 0)
        H5Tclose(t);
    return rc;
}

int h5u_get_int(hid_t loc, const char *name, int64_t *v, char *why, size_t len)
{
    hid_t a, ft;
    int rc = open_one(loc, name, H5T_INTEGER, &a, &ft, why, len);
    return close_one(a, ft, rc == 0 ? read_int(a, ft, v, why, len) : rc);
}

int h5u_get_double(hid_t loc, const char *name, double *v, char *why, size_t len)
{
    hid_t a, ft;
    int rc = open_one(loc, name, H5T_FLOAT, &a, &ft, why, len);
    if (rc == 0 && H5Aread(a, H5T_NATIVE_DOUBLE, v) < 0)
        rc = found(why, len, "unreadable");
    return close_one(a, ft, rc);
}

int h5u_get_string(hid_t loc, const char *name, char **s, char *why, size_t len)
{
    hid_t a, ft;
    *s = NULL;
    int rc = open_one(loc, name, H5T_STRING, &a, &ft, why, len);
    return close_one(a, ft, rc == 0 ? read_text(a, ft, s, why, len) : rc);
}

int h5u_get_int_array(hid_t loc, const char *name, int64_t **v, int *n, char *why, size_t len)
{
    *v = NULL;
    *n = 0;
    htri_t exists = H5Aexists(loc, name);
    if (exists == 0)
        return 1;
    hid_t a = exists > 0 ? H5Aopen(loc, name, H5P_DEFAULT) : -1;
    hid_t ft = a >= 0 ? H5Aget_type(a) : -1;
    hid_t space = a >= 0 ? H5Aget_space(a) : -1;
    int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    hssize_t count = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    int rc = 0;
    if (ft < 0 || H5Tget_class(ft) != H5T_INTEGER || rank != 1 || count < 1 || count > INT32_MAX)
        rc = found(why, len, "expected a list of whole numbers");
    else if (!(*v = malloc((size_t)count * sizeof **v)))
        rc = found(why, len, "out of memory");
    else if (H5Aread(a, H5T_NATIVE_INT64, *v) < 0)
        rc = found(why, len, "unreadable");
    if (rc == 0)
        *n = (int)count;
    else {
        free(*v);
        *v = NULL;
    }
    if (space >= 0)
        H5Sclose(space);
    H5Eclear2(H5E_DEFAULT);
    return close_one(a, ft, rc);
}

int h5u_read_int(hid_t loc, const char *name, int64_t *v)
{
    char why[160];
    return h5u_get_int(loc, name, v, why, sizeof why) == 0 ? 0 : -1;
}

int h5u_read_double(hid_t loc, const char *name, double *v)
{
    char why[160];
    return h5u_get_double(loc, name, v, why, sizeof why) == 0 ? 0 : -1;
}

char *h5u_read_string(hid_t loc, const char *name)
{
    char why[160], *s;
    h5u_get_string(loc, name, &s, why, sizeof why);
    return s;
}

bool h5u_table_has_field(hid_t loc, const char *name, const char *field)
{
    hid_t ds = H5Lexists(loc, name, H5P_DEFAULT) > 0 ? H5Dopen2(loc, name, H5P_DEFAULT) : -1;
    hid_t t = ds >= 0 ? H5Dget_type(ds) : -1;
    bool has = t >= 0 && H5Tget_class(t) == H5T_COMPOUND && H5Tget_member_index(t, field) >= 0;
    if (t >= 0)
        H5Tclose(t);
    if (ds >= 0)
        H5Dclose(ds);
    H5Eclear2(H5E_DEFAULT);
    return has;
}

bool h5u_rows_stored(hid_t ds)
{
    hid_t dcpl = H5Dget_create_plist(ds), space = H5Dget_space(ds);
    H5D_layout_t layout = dcpl >= 0 ? H5Pget_layout(dcpl) : H5D_LAYOUT_ERROR;
    hsize_t rows = 0, chunk = 0, stored = 0;
    bool ok = space >= 0 && H5Sget_simple_extent_ndims(space) == 1 &&
              H5Sget_simple_extent_dims(space, &rows, NULL) == 1;
    /* Chunks: one a chunk's rows, from the first; contiguous: all its space allocated (a
     * compact dataset holds its data in its header). */
    if (ok && layout == H5D_CHUNKED)
        ok = H5Pget_chunk(dcpl, 1, &chunk) == 1 && chunk > 0 &&
             H5Dget_num_chunks(ds, space, &stored) >= 0 &&
             stored == rows / chunk + (rows % chunk != 0);
    else if (ok && layout == H5D_CONTIGUOUS) {
        H5D_space_status_t status;
        ok = rows == 0 || (H5Dget_space_status(ds, &status) >= 0 &&
                           status == H5D_SPACE_STATUS_ALLOCATED);
    } else
        ok = ok && layout == H5D_COMPACT;
    if (space >= 0)
        H5Sclose(space);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    H5Eclear2(H5E_DEFAULT);
    return ok;
}

int h5u_range_io(hid_t ds, hid_t type, uint64_t first, uint64_t n, void *buf, bool write)
{
    hsize_t off[1] = { first }, cnt[1] = { n };
    hid_t fspace = H5Dget_space(ds);
    hid_t mspace = H5Screate_simple(1, cnt, NULL);
    herr_t rc = -1;
    if (fspace >= 0 && mspace >= 0 &&
        H5Sselect_hyperslab(fspace, H5S_SELECT_SET, off, NULL, cnt, NULL) >= 0)
        rc = write ? H5Dwrite(ds, type, mspace, fspace, H5P_DEFAULT, buf)
                   : H5Dread(ds, type, mspace, fspace, H5P_DEFAULT, buf);
    if (mspace >= 0)
        H5Sclose(mspace);
    if (fspace >= 0)
        H5Sclose(fspace);
    if (rc < 0)
        H5Eclear2(H5E_DEFAULT);
    return rc < 0 ? -1 : 0;
}
