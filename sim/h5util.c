/* h5util.c: HDF5 helpers shared by the results file, its reader and the tuning file. */
#include "h5util.h"

#include <stdbool.h>
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

/* Read scalar attribute name of loc into v as memory type mtype. */
static int read_scalar(hid_t loc, const char *name, hid_t mtype, void *v)
{
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    herr_t rc = a < 0 ? -1 : H5Aread(a, mtype, v);
    if (a >= 0)
        H5Aclose(a);
    return rc < 0 ? -1 : 0;
}

int h5u_read_int(hid_t loc, const char *name, int64_t *v)
{
    return read_scalar(loc, name, H5T_NATIVE_INT64, v);
}

int h5u_read_double(hid_t loc, const char *name, double *v)
{
    return read_scalar(loc, name, H5T_NATIVE_DOUBLE, v);
}

char *h5u_read_string(hid_t loc, const char *name)
{
    if (H5Aexists(loc, name) <= 0)
        return NULL;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT), t = h5u_string_type();
    hid_t ft = a >= 0 ? H5Aget_type(a) : -1;
    char *p = NULL, *s = NULL;
    /* Only variable-length text reads into our type; anything else is a foreign file. */
    if (ft >= 0 && H5Tget_class(ft) == H5T_STRING && H5Tis_variable_str(ft) > 0 && t >= 0 &&
        H5Aread(a, t, &p) >= 0 && p) {
        s = strdup(p);
        H5free_memory(p);
    }
    if (ft >= 0)
        H5Tclose(ft);
    if (t >= 0)
        H5Tclose(t);
    if (a >= 0)
        H5Aclose(a);
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
