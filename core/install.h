/*
 * install.h: putting a release from the catalogue into the store.
 *
 * Each archive is streamed once: the downloaded bytes go through SHA-256,
 * into the cache ($CUENV_ROOT/cache/<sha256>.part, renamed to <sha256>
 * once verified) and into libarchive's extraction at the same time, with
 * several archives in flight at once (jobs). An archive extracts into
 * .staging/ and becomes $CUENV_ROOT/pool/<sha256>[-filter]/ only once its
 * sha256 matched; the version folder is then assembled from pool trees
 * with hard links (so two versions sharing a component store it once),
 * its receipt written, and it is renamed into versions/ in one step. A
 * failure at any point leaves the store as it was: the version is absent
 * or complete, never half made.
 *
 * Downloads converge: a .part as long as the catalogue's size is hashed
 * and promoted without a request, one with the wrong bytes is discarded,
 * and only a network failure leaves a .part behind (to resume from).
 * Every download is bounded (fetch_opts), and so is extraction:
 * expand_ratio times the archive's size, and the disk's free space. When
 * extraction fails, the hash is still finished: a wrong sha256 is what the
 * caller hears.
 *
 * Locks (fcntl open file description locks, so they hold across NFS
 * hosts and between the worker threads of one install and another's):
 * one per archive, so that one job at a time downloads it (and only that
 * job removes its .part); one per version, so that a second install of
 * the same version waits and then finds it done; one per staging folder, so that the next install can tell a dead install's
 * leftovers (kill -9, power loss) from a live one's and remove them; and
 * the store's lock, shared by installs and taken alone by `cuenv gc`.
 */
#ifndef CUENV_INSTALL_H
#define CUENV_INSTALL_H

#include <stdint.h>

#include "catalog.h"
#include "fetch.h"
#include "plan.h"
#include "store.h"

enum part_state {
	PART_WAITING,
	PART_FETCHING,	/* downloading (or reading the cache) and extracting */
	PART_DONE,	/* in the pool */
	PART_FAILED,
};

struct part_progress {
	const char *name;
	uint64_t done;	 /* bytes read so far */
	uint64_t total;	 /* expected size, 0 when unknown */
	enum part_state state;
	int cached;	 /* served from the cache or pool, no download */
};

#define INSTALL_EXPAND_RATIO_DEFAULT 50

struct install_opts {
	const char *mirror;	/* replaces NVIDIA's host, or NULL */
	const char *pypi_index; /* for SRC_PYPI: a PEP 691 simple index */
	unsigned jobs;		/* archives in flight (0: one per core) */
	int no_cache;		/* neither read nor write the cache */
	struct plan_opts plan;	/* which archives (plan_archives) */
	/*
	 * An archive of known size may expand to this many times its size
	 * (INSTALL_EXPAND_RATIO_DEFAULT; 0: no bound); extraction also stops
	 * before the disk is full.
	 */
	unsigned expand_ratio;
	/*
	 * A version already installed without some of the components asked
	 * for stays as it is, rather than failing (install --cudnn/--cupti
	 * beside a --runtime-only toolkit: what they came for is the rest).
	 */
	int keep_partial;
	struct fetch_opts fetch;
	/*
	 * Called from the installing thread about five times a second and at
	 * every change of state, with one entry per archive.
	 */
	void (*progress)(void *ctx, const struct part_progress *parts,
			 size_t n);
	void *progress_ctx;
	/* Called once when the version lock is busy (another install). */
	void (*waiting)(void *ctx, const char *what);
};

/*
 * Install rel into st (which must be open). On success *out describes
 * the new version (as a receipt would). Returns CUENV_OK, CUENV_NO when
 * that version is already installed (nothing done), or the failure:
 * CUENV_E_FETCH, CUENV_E_INTEGRITY (sha256 or size mismatch: the message
 * names the file, the expected and the actual hash; it wins over any
 * extraction failure, a full disk included), CUENV_E_UNPACK (also an
 * archive expanding past expand_ratio),
 * CUENV_E_STORE, CUENV_E_USAGE.
 */
int install_run(struct store *st, const struct release *rel,
		const struct install_opts *opts, struct install *out,
		struct cuenv_err *err);

struct gc_opts {
	int cache;	   /* also remove every cached archive */
	unsigned part_age; /* partial downloads untouched this long (s) go */
};

/* What install_gc freed. Bytes are of files whose last link went. */
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
 * download. A cache file whose .locks/<sha>.lock is held stays (counted
 * in r->busy). Trees of any depth are removed, never following links.
 * Fills *r with what was freed, also when it fails: then it went on with
 * the rest and returns CUENV_E_STORE naming the first path it could not
 * remove (which *r does not count).
 */
int install_gc(struct store *st, const struct gc_opts *o, struct gc_report *r,
	       struct cuenv_err *err);

/* A file of a project on a package index. */
struct index_file {
	char *name;   /* "torch-2.1.2-cp39-cp39-manylinux1_x86_64.whl" */
	char *url;    /* absolute */
	char *sha256; /* the index's, 64 hex digits */
	uint64_t size; /* 0: the index did not say (PEP 503 HTML) */
	/*
	 * Its core metadata as a file of its own at url + ".metadata" (PEP
	 * 658 and 714: JSON "core-metadata" or "data-dist-info-metadata",
	 * HTML data-core-metadata or data-dist-info-metadata): false when
	 * the index does not serve one; metadata_sha256 the index's sha256
	 * of it (64 hex digits), or NULL when it gave none ("true").
	 */
	bool metadata;
	char *metadata_sha256;
};

/*
 * The files of project on the package index at index (a simple API root
 * such as https://pypi.org/simple): its page (PEP 691 JSON, or PEP 503
 * HTML as proxies serve) fetched with fetch's options, its URL into
 * page, the files with a sha256 and not yanked into *v and *n (free them
 * with install_index_files_free). Returns CUENV_OK or CUENV_E_FETCH.
 * Network I/O.
 */
int install_index_files(const char *index, const char *project,
			const struct fetch_opts *fetch, struct buf *page,
			struct index_file **v, size_t *n,
			struct cuenv_err *err);
void install_index_files_free(struct index_file *v, size_t n);

/*
 * The files of a project page already fetched (body: PEP 691 JSON, else
 * PEP 503 HTML) into *v and *n, their URLs as the page gives them. Pure.
 */
void install_index_parse(const struct buf *body, struct index_file **v,
			 size_t *n);

/* Replace NVIDIA's host in url by mirror (a heap string either way). */
char *install_mirror_url(const char *url, const char *mirror);

#endif
