/*
 * mirror.h: a folder that serves `cuenv install --mirror` where nothing
 * else can be reached (air-gapped clusters).
 *
 * A mirror is NVIDIA's download tree, cut down to what some installs
 * need: every archive sits at its URL's path below NVIDIA's host
 * (install_mirror_url maps https://developer.download.nvidia.com/P to
 * MIRROR/P), and so do the redistrib_<version>.json manifests that
 * `cuenv update --mirror` lists and fetches. Beside them:
 *
 *	DIR/compute/...              archives and manifests, NVIDIA's paths
 *	                             (compute/{cuda,cudnn}/redist/ always
 *	                             exist: update lists both)
 *	DIR/pypi/packages/           the package index's wheels (--source
 *	                             pypi), by their file names
 *	DIR/pypi/simple/<project>/index.html
 *	                             a PEP 503 page of each project's wheels
 *	                             there: DIR/pypi/simple is an index that
 *	                             `install --source pypi` reads
 *	DIR/cuenv-catalogue/         a catalogue folder (CUENV_MANIFESTS) of
 *	                             what the mirror holds: the manifests,
 *	                             the runfile and tarball rows, pypi.tsv,
 *	                             compat/
 *	DIR/cuenv-mirror.json        the index: releases and files (sha256,
 *	                             size), all runs into DIR together
 *	DIR/README.txt               what it holds and the commands to use
 *	DIR/.cuenv-mirror/lock       held while a run writes DIR
 *	DIR/.cuenv-mirror/verified   stamps of files already hashed
 *	DIR/.cuenv-mirror/tmp/       downloads in progress (<sha256>.part)
 *
 * Invariants: a file under its final name was hashed and matched the
 * catalogue's sha256 (downloads go to tmp/ and are renamed into place);
 * a file is hashed again only when its stamp (size, mtime, inode) no
 * longer matches, or when asked (verify), and downloaded again only when
 * that hash is wrong; one run at a time writes DIR (the lock), others
 * wait. Below DIR, every folder is opened one name at a time from DIR's
 * descriptor without following a link (a link at compute/, a
 * component's folder, .cuenv-mirror/ or cuenv-catalogue/ is refused,
 * naming it), and files are read and written by their folder's
 * descriptor: nothing outside DIR is written or read as the mirror's. A
 * file "already there" is a regular file: a link in its place is
 * replaced, a folder or a FIFO refused.
 */
#ifndef CUENV_MIRROR_H
#define CUENV_MIRROR_H

#include <stdint.h>

#include "nvidia/catalog.h"
#include "base/err.h"
#include "net/fetch.h"
#include "install/install.h"
#include "install/mirror_args.h"

/* One archive or manifest the mirror holds. */
struct mirror_file {
	char *path;    /* below DIR: "compute/cuda/redist/..." */
	char *url;     /* on NVIDIA's host (never a mirror's) */
	char *sha256;  /* 64 lowercase hex digits */
	uint64_t size; /* 0 when the catalogue does not say */
	char *origin;  /* a manifest: the catalogue file copied, else NULL */
};

/* One release the mirror can install, as the index lists it. */
struct mirror_entry {
	enum kit_kind kind; /* KIT_CUPTI: CUPTI alone from a CUDA release */
	enum source_kind source;
	char *version;
	unsigned cuda_major;
	char *platform;
	char *components; /* comma-separated archive names */
};

struct mirror_plan {
	struct mirror_file *files;
	size_t nfiles;
	struct mirror_entry *entries;
	size_t nentries;
	struct strv tables; /* runfile, tarball and pypi.tsv tables read */
	/* For --source pypi, set before planning (borrowed): the package
	 * index the wheels are looked up on and how it is fetched. */
	const char *pypi_index;
	const struct fetch_opts *pypi_fetch;
};

void mirror_plan_init(struct mirror_plan *p);
void mirror_plan_release(struct mirror_plan *p);

/*
 * The path below a mirror's root that url (on NVIDIA's host) has, as a
 * heap string; NULL when url is on another host or its path is not a
 * plain relative one (empty, "..", "." or empty segments, a backslash).
 */
char *mirror_path(const char *url);

/*
 * Add to p what `cuenv install` fetches for rel installed as kind
 * (KIT_CUPTI: only its cuda_cupti) on platform, opts giving the
 * components or runtime_only as plan_archives reads them: the archives,
 * and for a redist release its manifest (rel->origin, copied verbatim).
 * A file already planned is not added twice. Returns CUENV_OK,
 * CUENV_E_USAGE (an unknown component) or CUENV_E_MANIFEST (a URL that
 * is not on NVIDIA's host, naming it).
 */
int mirror_plan_add(struct mirror_plan *p, const struct release *rel,
		    enum kit_kind kind, const struct plan_opts *opts,
		    const char *platform, struct cuenv_err *err);

/*
 * Add to p what cat (platform's catalogue) gives for CUDA spec cuda with
 * cudnn and cupti (NULL: none), from source as catalog_resolve takes it:
 * each release resolved, by mirror_plan_add (SRC_PYPI: its wheels as
 * install fetches them). Returns CUENV_OK, or
 * catalog_resolve's error (" for PLATFORM" added when platform is not
 * this machine's) or mirror_plan_add's.
 */
int mirror_plan_request(struct mirror_plan *p, const struct catalog *cat,
			const char *cuda, const char *cudnn, const char *cupti,
			int source, const char *platform,
			const struct plan_opts *opts, struct cuenv_err *err);

/*
 * What the command reads for mirror_plan_all: a platform's catalogue,
 * and the build a framework's --for picks from it (cmd_framework_pick's
 * table, which says its notes unless quiet).
 */
struct framework_builds;
struct mirror_sources {
	int (*catalog)(void *ctx, const char *platform, struct catalog *cat,
		       struct cuenv_err *err);
	int (*framework)(void *ctx, const char *arg, const struct catalog *cat,
			 const char *cudnn, int source, int quiet,
			 struct framework_builds *out, struct cuenv_err *err);
	void *ctx;
};

/*
 * Add to p what q asks for on each of q->plats (checked) in turn: each
 * SPEC with --cudnn, then each --for's CUDA with --cudnn or the build's
 * cuDNN (the builds picked with the first platform's catalogue), each
 * with --cupti, by mirror_plan_request. Returns CUENV_OK or the first
 * failure: src's, or mirror_plan_request's.
 */
int mirror_plan_all(struct mirror_plan *p, const struct mirror_asked *q,
		    const struct mirror_sources *src, struct cuenv_err *err);

enum mirror_how {
	MIRROR_HAD,	 /* already in DIR and verified */
	MIRROR_FETCHED,	 /* downloaded */
	MIRROR_CACHED,	 /* copied from the download cache */
	MIRROR_COPIED,	 /* a manifest, from the catalogue */
	MIRROR_REPAIRED, /* was in DIR with wrong bytes: fetched again */
};

struct mirror_opts {
	const char *dir;      /* the mirror; created when missing */
	const char *upstream; /* replaces NVIDIA's host, or NULL */
	const char *cache;    /* a download cache ($CUENV_ROOT/cache) or NULL */
	const char *compat;   /* compat/ tables to copy, or NULL */
	const char *command;  /* how the run was asked for, for README.txt */
	int verify;	      /* hash every file, stamps or not */
	struct fetch_opts fetch;
	/* After each file (from this thread); bytes: what it moved. */
	void (*on_file)(void *ctx, const struct mirror_file *f,
			enum mirror_how how, uint64_t bytes);
	/* Once, when another run holds DIR's lock (then this one waits). */
	void (*waiting)(void *ctx, const char *dir);
	void *ctx;
};

struct mirror_report {
	unsigned fetched, cached, had, repaired, copied;
	uint64_t fetched_bytes, cached_bytes, had_bytes;
};

/*
 * Make DIR hold every file of p, as the header says, then write the
 * index, README.txt and cuenv-catalogue/ for everything DIR holds (this
 * run's plan merged with the previous index). Network I/O through
 * fetch_open (retries, resume from a .part, size bounds); files in
 * o->cache named by their sha256 are copied (and hashed) instead. Fills
 * *r, also on failure (what was done until then). Returns CUENV_OK,
 * CUENV_E_FETCH, CUENV_E_INTEGRITY (a download whose sha256 or size is
 * wrong: the message names its URL), CUENV_E_STORE (naming the path),
 * or CUENV_E_MANIFEST (a damaged index).
 */
int mirror_run(const struct mirror_plan *p, const struct mirror_opts *o,
	       struct mirror_report *r, struct cuenv_err *err);

#endif
