/*
 * gc.h: freeing what the store no longer needs: the staging folders of
 * installs and uninstalls that died (kill -9, power loss), pool trees no
 * version links to, and the download cache. See install.h for the locks
 * that tell a dead install's folder from a live one's.
 */
#ifndef CUENV_GC_H
#define CUENV_GC_H

#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "store/store.h"

/* Partial downloads untouched this long go without --cache: a day. */
#define GC_PART_AGE_DEFAULT (24 * 3600)

struct gc_opts {
	int cache;	   /* also remove every cached archive */
	unsigned part_age; /* partial downloads untouched this long (s) go */
};

/* What gc_run freed. Bytes are of files whose last link went. */
struct gc_report {
	uint64_t trees, tree_bytes;	    /* pool trees no version used */
	uint64_t leftovers, leftover_bytes; /* .staging: dead installs' and
					       uninstalls' folders */
	uint64_t archives, archive_bytes;   /* cache/: archives (o->cache) */
	uint64_t parts, part_bytes;	    /* cache/: partial downloads */
	uint64_t busy; /* cache files kept: a running install holds them */
};

/*
 * Free what nothing needs, taking the store's lock alone (so it waits for
 * running installs): the staging folders of installs and uninstalls that
 * died (trash-* first: its links keep pool trees in use), pool trees no
 * installed version links to, and in cache/ the partial downloads older
 * than o->part_age seconds, or with o->cache every archive and partial
 * download. Only what the store's records say it made goes: a pool tree
 * or cache file whose sha256 has a .locks/<sha>.lock, which the install
 * that fetched the archive created first; anything else in pool/ or
 * cache/ stays. A cache file whose .locks/<sha>.lock is held stays
 * (counted in r->busy). Trees of any depth are removed, never following
 * links. Last, the lock files of what is gone: .locks/<kind>-<name>.lock
 * of versions not installed, .locks/<sha>.lock records that name no pool
 * tree or cache file left; and the hook stamps of shells that ended
 * (store_sweep_stamps).
 * Fills *r with what was freed, also when it fails: then it went on with
 * the rest and returns CUENV_E_STORE naming the first path it could not
 * remove (which *r does not count).
 */
int gc_run(struct store *st, const struct gc_opts *o, struct gc_report *r,
	   struct cuenv_err *err);

/*
 * Remove the dead installs' and uninstalls' folders in root's .staging
 * (as gc_run does first), best effort: an install does this before it
 * makes its own. The caller holds the store's lock (shared or alone).
 */
void gc_sweep_staging(const char *root);

/*
 * What `cuenv gc` says of r onto out, a line each: the unused components
 * removed (always), then, when there were any, the folders left by
 * interrupted installs or uninstalls, the cached archives (when cache,
 * --cache, asked for them), the partial downloads, and the cached files
 * kept for a running install. Sizes in MB (10^6 bytes), one decimal.
 */
void gc_render(const struct gc_report *r, int cache, struct buf *out);

/*
 * What root's download cache (cache/: archives and partial downloads)
 * holds, in bytes: what `cuenv gc --cache` would free, less the files
 * other links keep. Reads the folder; 0 when it cannot.
 */
uint64_t gc_cache_bytes(const char *root);

#endif
