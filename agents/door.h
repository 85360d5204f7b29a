/* door.h: the one door for every file the program reads or writes by a name it was given.
 *
 * Reading: an input opens through door_read_open (or door_read_check, for readers that open
 * by name, such as HDF5): it must be a regular file. open() of a FIFO with nobody writing
 * blocks for ever, and a device or a folder is never what a user meant, so each is refused at
 * once with its real reason.
 *
 * Writing: a file is always created afresh by door_create: never through a symbolic link,
 * never over a name that exists (O_CREAT | O_EXCL, which refuses a link, dangling or not),
 * so that a link planted at a name the program writes cannot send its bytes into another
 * file. An output a user names is claimed first (sim/output.c, which tells the door), written
 * as NAME.partial and renamed into place when complete: a rename replaces a name and never
 * writes through it. HDF5 files are made the same way inside HDF5 (H5Fcreate with
 * H5F_ACC_EXCL).
 *
 * Names: every input opened and every output claimed is noted in one table of the process,
 * by the file's identity (device and inode) and by its folder's identity and last name, so
 * that "a.h5", "./a.h5", a link to it and a link to its folder are one file. The same file
 * named twice, as an input and an output or as two outputs, is refused when its second name
 * is noted; each command claims its outputs and opens its inputs before it writes anything,
 * so nothing is lost. Lives in agents/, the lowest layer that reads and writes files (its
 * tables); sim/ and analysis/ use it for every file they read or write. */
#ifndef ANYWOLI_DOOR_H
#define ANYWOLI_DOOR_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

/* Open path read-only, never blocking: a file descriptor of a regular file, or -1 with a
 * one-line message naming the file ("PATH: not a regular file (a FIFO)", "PATH: cannot
 * open: No such file or directory", "PATH is also the output ..."). The file is noted as an
 * input. */
int door_read_open(const char *path, Error *e);

/* door_read_open as a stream; NULL with the message. */
FILE *door_read_stream(const char *path, Error *e);

/* The whole of the regular file at path, NUL-terminated, into *text (malloc'd) and its
 * length into *n: 0, or -1 with a one-line message naming the file (door_read_open's, or
 * "PATH: larger than MAX bytes: not WHAT", or a read error). For the small text files read
 * whole (weights files, networks): `what` names the kind of file ("a weights file"). */
int door_read_text(const char *path, size_t max, const char *what, char **text, size_t *n,
                   Error *e);

/* Check that path opens as a regular file (door_read_open, then closed): 0, or -1 with the
 * message. For readers that open by name (HDF5): call it just before. */
int door_read_check(const char *path, Error *e);

/* Create path, which must not exist, for reading and writing: a file descriptor, or -1 with
 * a one-line message ("PATH: cannot create: File exists"). */
int door_create(const char *path, Error *e);

/* door_create as a stream for writing; NULL with the message. */
FILE *door_create_stream(const char *path, Error *e);

/* Note path as an output of this process (a name it will create or replace): -1 with a
 * one-line message when it is a file noted already, as an input (unless `read_too`: an
 * output that by design replaces the file it grows from, `run --extend`) or as another
 * output, or when its folder cannot be found. Called by the output claim. */
int door_note_output(const char *path, bool read_too, Error *e);

/* Forget the output noted under path (door_note_output): its claim is over, the file in place
 * or given up, and the command may read it from now on. */
void door_forget_output(const char *path);

/* Forget every name noted: a new command begins in this process. The command line runs one
 * command a process and never calls it; a program or a test that runs several in one process
 * (a run, then its file read, then a run again over it) calls it between them. */
void door_forget_all(void);

#endif
