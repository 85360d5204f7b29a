/* h5util.h: HDF5 helpers shared by the results file (results.c), its reader (results_read.c)
 * and the tuning file (sim/tune_file.c), so that the three write and read attributes the
 * same way. HDF5 is not thread-safe: callers serialise their use of these. */
#ifndef ANYWOLI_H5UTIL_H
#define ANYWOLI_H5UTIL_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Keep HDF5 from printing its error stack: failures become one-line messages. A thread-safe
 * HDF5 (Debian's) keeps this per thread, and a new thread prints again: every thread that
 * calls HDF5 calls this first (the driver's writer thread does). */
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

/* The one reading of an attribute: attribute name of loc, which must hold one value (a
 * scalar, or a one-element array) of the class asked for: a 64-bit integer at most (an
 * unsigned one at most INT64_MAX), a float, or variable-length text (a malloc'd copy into *s).
 * 0 when read, 1 when absent, -1 with what was found instead into why ("2 values, expected
 * one", "a float, expected an integer"...). */
int h5u_get_int(hid_t loc, const char *name, int64_t *v, char *why, size_t len);
int h5u_get_double(hid_t loc, const char *name, double *v, char *why, size_t len);
int h5u_get_string(hid_t loc, const char *name, char **s, char *why, size_t len);

/* The same without the reason: 0, or -1 when absent or not as above. */
/* A one-dimensional integer attribute of one value or more, malloc'd into *v (its length in
 * *n): 0, 1 when absent, -1 with why (h5u_get_int's). */
int h5u_get_int_array(hid_t loc, const char *name, int64_t **v, int *n, char *why, size_t len);
int h5u_read_int(hid_t loc, const char *name, int64_t *v);
int h5u_read_double(hid_t loc, const char *name, double *v);

/* The same for text: a malloc'd string, NULL when absent or not as above. */
char *h5u_read_string(hid_t loc, const char *name);

/* Read (write false) or write rows [first, first + n) of the 1-D dataset ds as memory type
 * `type` to or from buf: 0, or -1 (the HDF5 error stack cleared). */
int h5u_range_io(hid_t ds, hid_t type, uint64_t first, uint64_t n, void *buf, bool write);

/* Whether every row of the 1-D dataset ds is stored in the file: a table resized beyond
 * what was written (chunks never written read as fill values) is damage, refused before a
 * reader sizes anything by its length. */
bool h5u_rows_stored(hid_t ds);

/* Whether the dataset `name` of loc is a table (compound) with the field `field`: how a reader
 * tells a file written before a column was added. */
bool h5u_table_has_field(hid_t loc, const char *name, const char *field);

#endif
