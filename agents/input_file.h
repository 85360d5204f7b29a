/* input_file.h: opening a file the program reads (a results file, a tuning file, tables).
 *
 * Every input must be a regular file: open() of a FIFO with nobody writing blocks forever,
 * and a device or a folder is never what a user meant. Lives in agents/, the lowest layer
 * that reads files (its tables); sim/ and analysis/ use it for the files they read. */
#ifndef ANYWOLI_INPUT_FILE_H
#define ANYWOLI_INPUT_FILE_H

#include "error.h"

/* Open path read-only, never blocking: a file descriptor of a regular file, or -1 with a
 * one-line message naming the file ("PATH: not a regular file (a FIFO)", "PATH: cannot
 * open: No such file or directory"). */
int input_file_open(const char *path, Error *e);

/* Check that path opens as a regular file (input_file_open, then closed): 0 or -1 with the
 * message. For readers that open by name (HDF5): call it just before. */
int input_file_check(const char *path, Error *e);

#endif
