/*
 * ldcache.h: the dynamic loader's cache (/etc/ld.so.cache) and the
 * configuration that fills it (/etc/ld.so.conf and what it includes).
 *
 * For a soname that no DT_RPATH, LD_LIBRARY_PATH or DT_RUNPATH folder
 * holds, the loader takes the path the cache gives, without a word. So a
 * toolkit listed in /etc/ld.so.conf.d/ (NVIDIA's packages add one) fills
 * every gap in a cuenv selection with its own, other release's, library:
 * `cuenv doctor` reads the cache to say so.
 *
 * The cache is glibc's "glibc-ld.so.cache1.1" format (what ldconfig has
 * written since glibc 2.32), alone or after the old "ld.so-1.7.0" table;
 * an old table alone is read too. The file is data from the disk: every
 * count, offset and string is checked against its size before use.
 */
#ifndef CUENV_LDCACHE_H
#define CUENV_LDCACHE_H

#include <stddef.h>

#include "base/err.h"

struct ldcache_entry {
	char *soname;	/* "libcudart.so.13" */
	char *path;	/* "/usr/local/cuda-13.0/lib/libcudart.so.13" */
	unsigned flags; /* glibc's: ELF type and architecture */
};

struct ldcache {
	struct ldcache_entry *v;
	size_t n;
};

void ldcache_release(struct ldcache *c);

/*
 * The flags of entries the loader of this process's architecture uses
 * (x86-64: 0x0303), or 0 when unknown (then every entry is kept).
 */
unsigned ldcache_native_flags(void);

/*
 * Parse a cache image of len bytes into out (appended to), keeping only
 * the entries for this architecture (see ldcache_native_flags). Returns
 * CUENV_OK, or CUENV_E_MANIFEST when data is not a loader cache or is
 * damaged (a count, offset or string outside the data), naming what.
 */
int ldcache_parse(const void *data, size_t len, struct ldcache *out,
		  struct cuenv_err *err);

/*
 * Read and parse the cache file at path. Returns CUENV_OK, CUENV_NO when
 * there is no such file, CUENV_E_STORE when it cannot be read, or
 * CUENV_E_MANIFEST as above.
 */
int ldcache_read(const char *path, struct ldcache *out, struct cuenv_err *err);

/* A folder the loader's configuration names, and the file that does. */
struct ldconf_dir {
	char *dir;
	char *file;
};

struct ldconf {
	struct ldconf_dir *v;
	size_t n;
};

void ldconf_release(struct ldconf *c);

/*
 * Read the loader configuration at path (/etc/ld.so.conf): folder lines,
 * and `include PATTERN` lines (glob patterns, relative ones taken from
 * the including file's folder) followed a few levels deep. Comments,
 * `hwcap` lines and unreadable files are skipped: this never fails.
 */
void ldconf_read(const char *path, struct ldconf *out);

/*
 * The configuration file that names dir (compared as given, then through
 * links), or NULL: the folder is then one the loader searches anyway
 * (/lib, /usr/lib, ...), or was added by hand to a cache built elsewhere.
 */
const char *ldconf_file_for(const struct ldconf *c, const char *dir);

#endif
