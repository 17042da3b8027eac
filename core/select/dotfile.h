/*
 * dotfile.h: the `.cuenv` project file (also the format of the global
 * default file, $CUENV_ROOT/version).
 *
 * The file is data, never code. It holds `key = value` lines, blank lines
 * and `#` comments:
 *
 *	# what this project needs
 *	cuda = 12.4
 *	cudnn = 9.1
 *	cupti = 11.2	# CUPTI from another CUDA release
 *	isolate = true	# strip foreign CUDA dirs from LD_LIBRARY_PATH
 *	source = pypi	# where `cuenv install` gets it: redist, runfile,
 *			# pypi (DOTFILE_SOURCES)
 *
 * A file holding just one version on its own line ("12.4") is accepted too,
 * as pyenv users write it. The value "system" for cuda means "cuenv stays
 * out of the way here". Every version is checked with version_parse(), so
 * no value can name a path. Errors name the file and line.
 */
#ifndef CUENV_DOTFILE_H
#define CUENV_DOTFILE_H

#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"

/* Largest file accepted; a .cuenv is a few lines. */
#define DOTFILE_MAX_BYTES 65536

#define DOTFILE_SYSTEM "system"

struct dotfile {
	char *cuda;   /* a version, DOTFILE_SYSTEM, or NULL */
	char *cudnn;  /* a version or NULL */
	char *cupti;  /* a version or NULL */
	int isolate;  /* -1 when not given, else 0 or 1 */
	char *source; /* one of DOTFILE_SOURCES, or NULL */
};

/* The values of `source =`: the catalogue's source names an install
 * takes (source_parse's, less the cuDNN tarball). */
#define DOTFILE_SOURCES "redist, runfile, pypi"

void dotfile_init(struct dotfile *df);
void dotfile_release(struct dotfile *df);
/* True when the file names nothing at all (only comments or blank). */
int dotfile_is_empty(const struct dotfile *df);

/*
 * Parse text (len bytes, not necessarily NUL-terminated). name is used in
 * messages only ("/p/.cuenv:3: unknown key 'cudaa'"). Returns CUENV_OK or
 * CUENV_E_MANIFEST; df is filled only on success.
 */
int dotfile_parse(const char *name, const char *text, size_t len,
		  struct dotfile *df, struct cuenv_err *err);

/*
 * Read and parse the file at path. Returns CUENV_NO without touching err
 * when there is no such file or it is a folder (~/.cuenv, the default
 * root, is one), CUENV_E_STORE when it cannot be read (or is
 * too big), CUENV_E_MANIFEST when its contents are bad.
 */
int dotfile_read(const char *path, struct dotfile *df, struct cuenv_err *err);

/*
 * Produce in out the text of a file that keeps old's comments, blank lines
 * and order, with each key that set gives replaced in place (or appended),
 * and, when unset is true, cuenv's keys removed instead. A legacy bare
 * version line becomes `cuda = ...`. old may be empty.
 */
void dotfile_rewrite(const char *old, size_t len, const struct dotfile *set,
		     int unset, struct buf *out);

#endif
