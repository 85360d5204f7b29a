/* h5util.h: HDF5 helpers shared by the results file (results.c), its reader (results_read.c)
 * and the tuning file (analysis/tune_file.c), so that the three write and read attributes the
 * same way. HDF5 is not thread-safe: callers serialise their use of these. */
#ifndef ANYWOLI_H5UTIL_H
#define ANYWOLI_H5UTIL_H

#include <hdf5.h>
#include <stdbool.h>
#include <stdint.h>

/* Keep HDF5 from printing its error stack: failures become one-line messages. */
void h5u_silence(void);

/* h5u_silence(), and keep HDF5 from closing files at exit: for the writers, which close every
 * file explicitly (HDF5 1.10 crashes at exit on a file whose close failed, e.g. a full disk). */
void h5u_quiet(void);

/* A variable-length UTF-8 string type (NUL-terminated C strings in memory), or -1. The caller
 * closes it. */
hid_t h5u_string_type(void);

/* Write a scalar attribute of loc: file type ftype, memory type mtype. An existing attribute
 * of that name is replaced. 0, or -1 on failure. */
int h5u_attr_write(hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *value);

/* A 64-bit integer, a double and a text (variable-length UTF-8) attribute: 0 or -1. */
int h5u_attr_int(hid_t loc, const char *name, int64_t v);
/* A one-dimensional int64 attribute of n values. */
int h5u_attr_int_array(hid_t loc, const char *name, const int64_t *v, int n);
int h5u_attr_double(hid_t loc, const char *name, double v);
int h5u_attr_string(hid_t loc, const char *name, const char *s);

/* The class of attribute name of loc (H5T_INTEGER, H5T_STRING...), H5T_NO_CLASS when absent. */
H5T_class_t h5u_attr_class(hid_t loc, const char *name);

/* Read a numeric attribute into *v, converted by HDF5: 0, or -1 when absent or unreadable. */
int h5u_read_int(hid_t loc, const char *name, int64_t *v);
int h5u_read_double(hid_t loc, const char *name, double *v);

/* A text attribute as a malloc'd string; NULL when absent, not variable-length text, or out of
 * memory. */
char *h5u_read_string(hid_t loc, const char *name);

/* Read (write false) or write rows [first, first + n) of the 1-D dataset ds as memory type
 * `type` to or from buf: 0, or -1 (the HDF5 error stack cleared). */
int h5u_range_io(hid_t ds, hid_t type, uint64_t first, uint64_t n, void *buf, bool write);

/* Whether the dataset `name` of loc is a table (compound) with the field `field`: how a reader
 * tells a file written before a column was added. */
bool h5u_table_has_field(hid_t loc, const char *name, const char *field);

#endif
