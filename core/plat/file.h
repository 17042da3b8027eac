/*
 * file.h: reading and writing files, the one place that does it.
 *
 * Whole files: file_read takes a file into a struct buf with a bound on its
 * size; file_write replaces one atomically (a temporary file in the same
 * folder, fsync, rename, fsync of the folder), so that a reader sees the
 * old contents or the new, never a part, and a failed write leaves the old
 * file as it was:
 *
 *	struct buf text = BUF_INIT;
 *	int rc = file_read(path, 1 << 20, FILE_MAY_BE_MISSING, &text, err);
 *	...
 *	rc = file_write(path, text.data, text.len, FILE_MODE_KEEP, err);
 *
 * Descriptors: file_read_full, file_pread_full and file_write_full move
 * all n bytes (a read stops short only at the end of the file), retrying
 * on EINTR and after short transfers, and leave the message to the caller
 * (errno tells the failure), who knows what the bytes are.
 *
 * Mapped files: file_map maps a regular file read only for a parser that
 * reads it in place (elf, pe); file_unmap releases it.
 */
#ifndef CUENV_FILE_H
#define CUENV_FILE_H

#include <stddef.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/err.h"
#include "plat/plat_fs.h"

/* file_read: no such file, or a folder, is CUENV_NO (err untouched). */
#define FILE_MAY_BE_MISSING 1u
/* file_open_read: a symbolic link as the last name is refused (ELOOP). */
#define FILE_NOFOLLOW 2u

/* file_open_read's answer for a file that is there but is not a regular
 * file. */
#define FILE_NOT_REGULAR (-2)

/*
 * Open name (relative to the folder open at dir, or PLAT_AT_CWD for a
 * path) for reading when it is a regular file, never waiting: the open is
 * non-blocking, so that a FIFO (a user's, or one planted in a shared
 * mirror) answers at once instead of waiting for a writer, then fstat
 * says what was opened. Every read of a file cuenv did not write itself
 * (a wheel, a mirror's manifest or archive, a catalogue file) opens it
 * so. flags: FILE_NOFOLLOW. Returns the descriptor (its stat in *st when
 * st is not NULL), -1 with errno set when it cannot be opened, or
 * FILE_NOT_REGULAR with nothing left open (a folder, a FIFO, a device, a
 * socket: st->type says which when st is not NULL).
 */
int file_open_read(int dir, const char *name, unsigned flags,
		   struct plat_stat *st);

/* "a folder", "a FIFO, device or socket", ...: what type names in a
 * message ("'%s' is %s, not a regular file"). */
const char *file_type_name(enum plat_ftype type);

/*
 * Read the regular file at path (at most max bytes) into out, which is
 * reset first and NUL-terminated. Returns CUENV_OK, or CUENV_E_STORE naming
 * path: no such file, a folder, something other than a regular file (a
 * FIFO is refused without blocking), a read error, or more than max bytes.
 * With FILE_MAY_BE_MISSING, no such file (or a path through a file) and a
 * folder are CUENV_NO instead, and err is left alone.
 */
int file_read(const char *path, size_t max, unsigned flags, struct buf *out,
	      struct cuenv_err *err);

/*
 * Append what is left to read from fd to out, at most max bytes. Returns 0,
 * or -1 with errno set (EFBIG when there is more than max).
 */
int file_read_fd(int fd, size_t max, struct buf *out);

/* file_write's mode: the old file's, or 0644 for a new one. */
#define FILE_MODE_KEEP (-1)

/*
 * Replace the file at path with len bytes of data, atomically, with the
 * given mode (FILE_MODE_KEEP: the old file's). A path that is a symbolic
 * link is refused, naming the link and its target: neither is written.
 * Returns CUENV_OK or CUENV_E_STORE naming path; on failure the old file
 * is untouched and no temporary file is left.
 */
int file_write(const char *path, const void *data, size_t len, int mode,
	       struct cuenv_err *err);

/*
 * file_write for the file name in the folder open at dir (shown: its
 * path, for messages): the temporary file beside it, the rename and the
 * fsync of the folder all by the descriptor, so that no folder on the
 * way is looked up again (a link put there since is never followed).
 * A link as name is refused as file_write refuses it.
 */
int file_write_at(int dir, const char *name, const char *shown,
		  const void *data, size_t len, int mode,
		  struct cuenv_err *err);

/*
 * Remove the file at path; none there is no error. A symbolic link is
 * refused as file_write refuses it. CUENV_OK or CUENV_E_STORE.
 */
int file_remove(const char *path, struct cuenv_err *err);

/*
 * Read n bytes from fd into buf (at offset off for file_pread_full),
 * stopping short only at the end of the file. Returns the count read, or
 * -1 with errno set.
 */
ssize_t file_read_full(int fd, void *buf, size_t n);
ssize_t file_pread_full(int fd, void *buf, size_t n, off_t off);

/* Write all n bytes of buf to fd. Returns 0, or -1 with errno set. */
int file_write_full(int fd, const void *buf, size_t n);

/* A file mapped by file_map. */
struct file_map {
	void *data;
	size_t len;
	int regular; /* 0: not a regular file (data NULL) */
};

/*
 * Map the regular file at path read only, when it has at least min (>= 1)
 * bytes. Returns CUENV_OK, CUENV_E_STORE naming path where it cannot be
 * opened, read or mapped, or CUENV_NO with err untouched where it is not
 * a regular file (m->regular 0) or is shorter than min: the caller says
 * what it is not. file_unmap is safe after any of them.
 */
int file_map(const char *path, size_t min, struct file_map *m,
	     struct cuenv_err *err);
void file_unmap(struct file_map *m);

/*
 * For the readers of mapped files (elf, pe): record "corrupt KIND file
 * 'NAME': WHAT" in err, name shown as buf_add_display shows it (at most
 * 200 bytes). Returns CUENV_E_MANIFEST.
 */
int file_corrupt(struct cuenv_err *err, const char *kind, const char *name,
		 const char *what);

#endif
