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

#include "nvidia/catalog.h"
#include "net/fetch.h"
#include "install/plan.h"
#include "store/store.h"

enum part_state {
	PART_WAITING,
	PART_FETCHING, /* downloading (or reading the cache) and extracting */
	PART_DONE,     /* in the pool */
	PART_FAILED,
};

struct part_progress {
	const char *name;
	uint64_t done;	/* bytes read so far */
	uint64_t total; /* expected size, 0 when unknown */
	enum part_state state;
	int cached; /* served from the cache or pool, no download */
};

#define INSTALL_EXPAND_RATIO_DEFAULT 50

struct install_opts {
	const char *mirror;	/* replaces NVIDIA's host, or NULL */
	const char *pypi_index; /* for SRC_PYPI: a PEP 691 simple index */
	/* whose wheels SRC_PYPI takes (CUENV_PLATFORM), NULL: this machine's */
	const char *platform;
	unsigned jobs;	       /* archives in flight (0: one per core) */
	int no_cache;	       /* neither read nor write the cache */
	struct plan_opts plan; /* which archives (plan_archives) */
	/*
	 * An archive of known size may expand to this many times its size
	 * (INSTALL_EXPAND_RATIO_DEFAULT; 0: no bound); extraction also stops
	 * before the disk is full.
	 */
	unsigned expand_ratio;
	/*
	 * A version already installed without some of the components asked
	 * for stays as it is, rather than growing (install --cudnn/--cupti
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
	/* Called before anything is fetched with what the install adds to
	 * a version and what its source lacks (progress_ctx). */
	void (*say)(void *ctx, const char *text);
};

/* What rel's source lacks of what plan asks (the package index: a
 * component with no wheel, or whose wheel holds less), in words, comma-separated onto out (nothing when it has it all). */
void install_lacking(const struct release *rel, const struct plan_opts *plan,
		     struct buf *out);

/* The archives an install fetches. */
struct install_parts {
	const struct part **v; /* borrowed from the release, or wheels */
	size_t n;
	struct part *wheels; /* owned: the index's wheels */
	size_t nwheels;
};

/*
 * The archives of rel's components names (plan_archives' list, narrowed
 * to what the source offers) into ip, exactly as install_run fetches
 * them: the catalogue's parts, or for the package index each component's
 * wheel at the catalogue's version or its newest post-release
 * (pypi_wheel_part: network I/O), or the wheel a part names already (a
 * lock's: its url ends in .whl), as it is. `install --dry-run` prints these.
 * Returns CUENV_OK or pypi_wheel_part's failure. Release ip with
 * install_parts_release either way.
 */
int install_resolve(const struct release *rel, const struct install_opts *o,
		    const struct strv *names, struct install_parts *ip,
		    struct cuenv_err *err);
void install_parts_release(struct install_parts *ip);

/*
 * Install rel into st (which must be open). On success *out describes
 * the new version (as a receipt would). A version installed already
 * without some of the components asked for (and offered by rel's
 * source) grows: they are fetched and the version folder, its old files
 * and the new ones, replaces the old one in one step (store_commit_over),
 * its receipt naming all. Returns CUENV_OK, CUENV_NO when that version
 * already holds all (nothing done), or the failure:
 * CUENV_E_FETCH, CUENV_E_INTEGRITY (sha256 or size mismatch: the message
 * names the file, the expected and the actual hash; it wins over any
 * extraction failure, a full disk included), CUENV_E_UNPACK (also an
 * archive expanding past expand_ratio), CUENV_E_UNKNOWN when the source
 * offers none of the components asked for, CUENV_E_STORE, CUENV_E_USAGE.
 */
int install_run(struct store *st, const struct release *rel,
		const struct install_opts *opts, struct store_version *out,
		struct cuenv_err *err);

/*
 * With no source chosen, should the install of found go to the package
 * index instead? 1 when found's CUDA comes from NVIDIA's host (no mirror
 * given: a mirror is a source chosen), the index has that release and
 * wheels for platform (pypi_platform_has_wheels; NULL: not asked), and
 * NVIDIA's host cannot be reached (fetch_reachable: no name, no
 * connection; never a 404 or a checksum). Network I/O: one connection.
 */
int install_falls_back(const struct catalog_choice *found, const char *mirror,
		       const char *platform, const struct fetch_opts *fo);

/* Replace NVIDIA's host in url by mirror (a heap string either way). */
char *install_mirror_url(const char *url, const char *mirror);

#endif
