/* new_file.h: the one way the program makes a file it writes (an output's FILE.partial, a
 * journal, tables, a book, a CSV, a report's page, a --dump).
 *
 * A file is always created fresh: never opened through a symbolic link, never over a name
 * that exists (O_CREAT | O_EXCL, which refuses a link, dangling or not), so that a link
 * planted at a name the program writes cannot send its bytes into another file. A finished
 * file reaches its final name by a rename, which replaces a name and never writes through
 * it. HDF5 files are made the same way inside HDF5 (H5Fcreate with H5F_ACC_EXCL). Lives in
 * agents/, the lowest layer that writes files (its tables). */
#ifndef ANYWOLI_NEW_FILE_H
#define ANYWOLI_NEW_FILE_H

#include <stdio.h>

#include "error.h"

/* Create path, which must not exist, for reading and writing: a file descriptor, or -1 with
 * a one-line message ("PATH: cannot create: File exists"). */
int new_file_create(const char *path, Error *e);

/* new_file_create as a stream for writing; NULL with the message. */
FILE *new_file_stream(const char *path, Error *e);

#endif
