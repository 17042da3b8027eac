#include "install/install.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "plat/plat_path.h"
#include "store/assemble.h"
#include "store/detect.h"
#include "net/digest.h"
#include "plat/file.h"
#include "install/download.h"
#include "install/gc.h"
#include "plat/plat_fs.h"
#include "nvidia/nvlib.h"
#include "nvidia/pypi.h"
#include "net/unpack.h"
#include "needs/wheel.h"
#include "base/version.h"
#include "net/workers.h"
#include "base/xalloc.h"

char *install_mirror_url(const char *url, const char *mirror)
{
	static const char *const hosts[] = {
		"https://developer.download.nvidia.com",
		"https://developer.nvidia.com",
	};
	struct buf b = BUF_INIT;

	for (size_t i = 0; mirror && i < 2; i++) {
		size_t n = strlen(hosts[i]);

		if (!strncmp(url, hosts[i], n) && url[n] == '/') {
			buf_adds(&b, mirror);
			while (b.len && b.data[b.len - 1] == '/')
				buf_setlen(&b, b.len - 1);
			buf_adds(&b, url + n);
			return buf_detach(&b);
		}
	}
	return xstrdup(url);
}

int install_falls_back(const struct catalog_choice *found, const char *mirror,
		       const char *platform, const struct fetch_opts *fo)
{
	const struct release *c = found->cuda;

	/* A mirror is a source chosen: its failure is the user's to hear.
	 * Windows and Jetson: the index has no wheel to turn to. */
	if ((mirror && *mirror) || !c || c->source == SRC_PYPI ||
	    !c->on_index || !c->nparts ||
	    (platform && !pypi_platform_has_wheels(platform)))
		return 0;
	return !fetch_reachable(c->parts[0].url, fo);
}

/* ---- small filesystem helpers -------------------------------------------- */

static int exists(const char *path)
{
	struct plat_stat st;

	return !plat_lstat(path, &st);
}

/*
 * Locks are open file description locks (store_lock_fd): the worker
 * threads of one install and of another exclude each other correctly.
 */

/* Take an exclusive lock on the open fd, without waiting. */
static int lock_fd(int fd)
{
	return store_lock_fd(fd, 1, 0) ? -1 : 0;
}

/* store_lock_path: the fd holding it, -1 when busy (no wait), -2 error. */
static int lock_path(const char *path, int exclusive, int wait)
{
	return store_lock_path(path, exclusive, wait);
}


/* ---- sources: network or cache, hashed, teed into the cache ---------------- */

struct src {
	struct download dl;
	int from_cache; /* reading a complete file from the cache */
	char *url;
	/* runfile: the payload starts after a shell header */
	int skip_header;
	int header_done;
	uint64_t payload; /* offset of the payload, once known */
	struct buf head;  /* header bytes read while looking for it */
};

struct job {
	const struct part *part;
	const struct install_opts *opts;
	const char *root;
	const char *staging;
	enum source_kind source;
	const struct strv *names; /* components to keep from a runfile */
	char *key;		  /* pool/<key> */
	struct part_progress prog;
	pthread_mutex_t *lock;
	int rc;
	struct cuenv_err err;
};

static void job_progress(struct job *j, uint64_t done)
{
	pthread_mutex_lock(j->lock);
	j->prog.done = done;
	pthread_mutex_unlock(j->lock);
}

/* Served from the cache or the pool: nothing to download. */
static void set_cached(struct job *j)
{
	pthread_mutex_lock(j->lock);
	j->prog.cached = 1;
	pthread_mutex_unlock(j->lock);
}

static void on_bytes(void *ctx, uint64_t pos)
{
	job_progress(ctx, pos);
}

/* What the unpacker reads: the raw bytes (each hashed once: download.h),
 * past a runfile's header. */
static ssize_t src_read(void *ctx, const void **out, struct cuenv_err *err)
{
	struct src *s = ctx;
	const void *p;
	ssize_t n;

	if (!s->skip_header || s->header_done)
		return download_read(&s->dl, out, err);
	/* A makeself header is a few hundred lines: read 64 KiB (or all). */
	while (s->head.len < 65536) {
		n = download_read(&s->dl, &p, err);
		if (n < 0)
			return -1;
		if (!n)
			break;
		buf_add(&s->head, p, (size_t)n);
	}
	if (unpack_makeself_offset(s->head.data, s->head.len, &s->payload, err))
		return -1;
	s->header_done = 1;
	if (s->payload < s->head.len) {
		*out = s->head.data + s->payload;
		return (ssize_t)(s->head.len - s->payload);
	}
	return download_read(&s->dl, out, err);
}

/* ---- mapping archive paths ------------------------------------------------ */

static int is_runtime_lib(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	/* lib/stubs/libcuda.so is for linking without a driver, not loading */
	size_t n = strlen(base);

	/* Windows: the DLLs an application loads are in bin\ */
	if (n > 4 && !strcasecmp(base + n - 4, ".dll"))
		return !strncmp(path, "bin/", 4) || strstr(path, "/bin/");
	return strstr(base, ".so") && !strstr(path, "stubs/") &&
	       (!strncmp(path, "lib/", 4) || !strncmp(path, "lib64/", 6) ||
		strstr(path, "/lib/") || strstr(path, "/lib64/"));
}

static char *map_runtime(void *ctx, const char *path)
{
	(void)ctx;
	return is_runtime_lib(path) ? xstrdup(path) : NULL;
}

/*
 * A runfile's payload: builds/<component>/<path> for CUDA 11 and later,
 * builds/cuda-toolkit/<path> for 10.1 and 10.2; everything else (driver,
 * samples, Nsight, documentation) is left out.
 */
static char *map_runfile(void *ctx, const char *path)
{
	const struct job *j = ctx;
	const char *p = path, *slash;
	char *comp, *out = NULL;

	if (!strncmp(p, "./", 2))
		p += 2;
	if (!strncmp(p, "pkg/", 4))
		p += 4;
	if (strncmp(p, "builds/", 7))
		return NULL;
	p += 7;
	slash = strchr(p, '/');
	if (!slash || !slash[1])
		return NULL;
	comp = xstrndup(p, (size_t)(slash - p));
	if (!strcmp(comp, "cuda-toolkit") || strv_find(j->names, comp) >= 0) {
		if (!j->opts->plan.runtime_only || is_runtime_lib(slash + 1))
			out = xstrdup(slash + 1);
	}
	free(comp);
	return out;
}

/* A wheel: nvidia/<package>/<path>, and its .dist-info kept aside. */
static char *map_wheel(void *ctx, const char *path)
{
	const char *slash = strchr(path, '/');
	struct buf b = BUF_INIT;
	size_t n;

	(void)ctx;
	if (!slash)
		return NULL;
	n = (size_t)(slash - path);
	if (n > 10 && !strncmp(slash - 10, ".dist-info", 10)) {
		buf_printf(&b, "dist-info/%s", path);
		return buf_detach(&b);
	}
	if (strncmp(path, "nvidia/", 7))
		return NULL;
	slash = strchr(path + 7, '/');
	if (!slash || !slash[1])
		return NULL;
	n = strlen(slash + 1);
	if ((n > 3 && !strcmp(slash + 1 + n - 3, ".py")) ||
	    strstr(slash + 1, "__pycache__"))
		return NULL;
	return xstrdup(slash + 1);
}

/* ---- one archive into the pool ------------------------------------------- */

/*
 * A zip (a wheel; NVIDIA's windows-x86_64 archives) has its directory at
 * the end: it is downloaded whole, then extracted from the file.
 */
static bool is_zip(const struct job *j)
{
	size_t n = strlen(j->part->url);

	return j->source == SRC_PYPI ||
	       (n > 4 && !strcasecmp(j->part->url + n - 4, ".zip"));
}

static int open_cache(struct job *j, struct src *s, const char *cache,
		      const char *part, struct cuenv_err *err)
{
	int fd;

	if (j->opts->no_cache) {
		/* A zip is read from a file even then. */
		if (is_zip(j))
			return download_restart(&s->dl, PLAT_AT_CWD, part, part,
						0, err);
		return CUENV_OK;
	}
	/* not there, or not a file: downloaded again, and replaced */
	fd = file_open_read(PLAT_AT_CWD, cache, 0, NULL);
	if (fd >= 0) {
		s->from_cache = 1;
		set_cached(j);
		download_from_fd_take(&s->dl, fd, cache);
		return CUENV_OK;
	}
	return download_resume(&s->dl, PLAT_AT_CWD, part, part, 0, err);
}

/* Verified, or the .part goes: never resume from bad bytes. */
static int finish_hash(struct src *s, const char *partfile,
		       struct cuenv_err *err)
{
	int rc = download_verify(&s->dl, err);

	if (rc == CUENV_E_INTEGRITY)
		plat_unlink(partfile);
	return rc;
}

/* Rename a verified tree into the pool; another install may have won. */
static int to_pool(const char *tmp, const char *pool, struct cuenv_err *err)
{
	if (!plat_rename(tmp, pool))
		return CUENV_OK;
	if (errno == EEXIST || errno == ENOTEMPTY) {
		store_remove_tree(tmp);
		return CUENV_OK;
	}
	return cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s", pool,
			  strerror(errno));
}

/* Where one archive's files go. */
struct part_paths {
	struct buf pool;  /* pool/<key>: the verified tree */
	struct buf tmp;	  /* .staging/install-X/<key>: extracting */
	struct buf cache; /* cache/<sha256>: the verified archive */
	struct buf part;  /* cache/<sha256>.part: being downloaded */
	struct buf lock;  /* .locks/<sha256>.lock: its downloader's, and the
			     store's record that the pool tree and cache
			     files are cuenv's (gc.h): never removed */
};

static void part_paths_init(struct part_paths *f, const struct job *j)
{
	buf_init(&f->pool);
	buf_init(&f->tmp);
	buf_init(&f->cache);
	buf_init(&f->part);
	buf_init(&f->lock);
	buf_printf(&f->pool, "%s/pool/%s", j->root, j->key);
	buf_printf(&f->tmp, "%s/%s", j->staging, j->key);
	buf_printf(&f->cache, "%s/cache/%s", j->root, j->part->sha256);
	buf_printf(&f->part, "%s.part", f->cache.data);
	buf_printf(&f->lock, "%s/.locks/%s.lock", j->root, j->part->sha256);
}

static void part_paths_release(struct part_paths *f)
{
	buf_release(&f->pool);
	buf_release(&f->tmp);
	buf_release(&f->cache);
	buf_release(&f->part);
	buf_release(&f->lock);
}

/* How far an archive may expand (0: no bound). */
static uint64_t expand_bound(const struct job *j)
{
	if (j->part->size && j->opts->expand_ratio)
		return j->part->size * j->opts->expand_ratio;
	return 0;
}

/* A zip needs its end first: whole file, then extract. */
static int fetch_zip(struct job *j, struct src *s, const struct part_paths *f,
		     struct cuenv_err *err)
{
	struct unpack_opts uo = { 0 };
	struct unpack_stats stats = { 0 };
	int rc;

	rc = finish_hash(s, f->part.data, err);
	/* on failure the .part stays open: discard_part closes it */
	if (!rc && j->opts->no_cache)
		rc = download_close_part(&s->dl, err);
	else if (!rc)
		rc = download_keep(&s->dl, PLAT_AT_CWD, f->cache.data,
				   f->cache.data, err);
	if (j->source == SRC_PYPI) {
		uo.map = map_wheel;
	} else {
		uo.strip = 1; /* "<name>-windows-x86_64-<v>-archive/" */
		if (j->opts->plan.runtime_only)
			uo.map = map_runtime;
	}
	uo.max_bytes = expand_bound(j);
	if (!rc) {
		const char *wheel =
			j->opts->no_cache ? f->part.data : f->cache.data;

		/* the members libarchive will take (by their local
		 * headers) are those the directory lists, each once:
		 * the tree `cuenv needs` reads */
		rc = wheel_local_check(wheel, err);
		if (!rc)
			rc = unpack_file(f->tmp.data, wheel, &uo, &stats, err);
		/* refused as a stream archive is: not kept for next time */
		if (rc == CUENV_E_UNPACK && wheel == f->cache.data)
			(void)plat_unlink(wheel);
	}
	if (!rc)
		rc = to_pool(f->tmp.data, f->pool.data, err);
	return rc;
}

/*
 * Extraction failed with rc (not the network's fault). Bad bytes usually
 * show first as a decoder error, a refused entry, the expansion bound or
 * a full disk: finish the hash (without keeping the bytes), and if it is
 * wrong, say so: that is the cause. Returns the failure to report.
 */
static int unpack_failed(struct job *j, struct src *s,
			 const struct part_paths *f,
			 const struct unpack_stats *stats, int rc,
			 struct cuenv_err *err)
{
	struct cuenv_err e2 = CUENV_ERR_INIT;

	if (download_drop_part(&s->dl))
		plat_unlink(f->part.data);
	if (finish_hash(s, f->part.data, &e2) == CUENV_E_INTEGRITY) {
		err_release(err);
		err_init(err);
		rc = cuenv_fail(err, CUENV_E_INTEGRITY, "%s", e2.msg.data);
	} else if (stats->bounded) {
		cuenv_hint(err,
			   "to allow more: --max-expansion RATIO "
			   "(now %u), or CUENV_UNPACK_MAX_RATIO",
			   j->opts->expand_ratio);
	}
	err_release(&e2);
	return rc;
}

/* A tarball or runfile: extracted as its bytes arrive. */
static int stream_archive(struct job *j, struct src *s,
			  const struct part_paths *f, struct cuenv_err *err)
{
	struct unpack_opts uo = { 0 };
	struct unpack_stats stats = { 0 };
	struct unpack_source us = { src_read, s };
	int rc;

	if (j->source == SRC_RUNFILE) {
		s->skip_header = 1;
		uo.map = map_runfile;
		uo.map_ctx = j;
	} else {
		uo.strip =
			1; /* "<name>-archive/", or "cuda/" in old tarballs */
		if (j->opts->plan.runtime_only)
			uo.map = map_runtime;
	}
	uo.max_bytes = expand_bound(j);
	rc = unpack_stream(f->tmp.data, &us, &uo, &stats, err);
	if (rc && rc != CUENV_E_FETCH)
		rc = unpack_failed(j, s, f, &stats, rc, err);
	else if (!rc)
		rc = finish_hash(s, f->part.data, err);
	if (rc == CUENV_E_INTEGRITY && s->from_cache) {
		/* A damaged cache file would fail every later install. */
		plat_unlink(f->cache.data);
		cuenv_hint(err, "the damaged copy in the cache was removed; "
				"run the install again to download it afresh");
	}
	/* The download verified: its .part becomes the cache's file. */
	if (!rc)
		rc = download_keep(&s->dl, PLAT_AT_CWD, f->cache.data,
				   f->cache.data, err);
	if (!rc)
		rc = to_pool(f->tmp.data, f->pool.data, err);
	return rc;
}

/* With the archive's lock held: fetch, verify, extract, into the pool. */
static int fetch_locked(struct job *j, struct src *s,
			const struct part_paths *f, struct cuenv_err *err)
{
	int rc;

	rc = open_cache(j, s, f->cache.data, f->part.data, err);
	if (rc)
		return rc;
	pthread_mutex_lock(j->lock);
	j->prog.state = PART_FETCHING;
	pthread_mutex_unlock(j->lock);
	rc = store_mkdir_p(f->tmp.data, err);
	if (rc)
		return rc;
	if (is_zip(j))
		return fetch_zip(j, s, f, err);
	return stream_archive(j, s, f, err);
}

/*
 * Only a network failure leaves the .part to resume from: bytes that
 * failed to unpack or verify, ran past the size bound, or met a full
 * disk are not kept. A job that never got the archive's lock touches
 * no file of it (locked 0): another install holds them.
 */
static void discard_part(struct job *j, struct src *s, struct part_paths *f,
			 int locked, int rc)
{
	if (!locked)
		buf_reset(&f->part);
	if (rc && f->part.len && !download_resumable(&s->dl, rc))
		plat_unlink(f->part.data);
	/* A download that failed before its first byte leaves no trace. */
	if (rc && f->part.len) {
		struct plat_stat pst;

		if (!plat_stat(f->part.data, &pst) && !pst.size)
			plat_unlink(f->part.data);
	}
	download_release(&s->dl);
	if (j->opts->no_cache && f->part.len)
		plat_unlink(f->part.data);
}

static void src_release(struct src *s)
{
	download_release(&s->dl);
	free(s->url);
	buf_release(&s->head);
}

static int fetch_part(struct job *j, struct cuenv_err *err)
{
	struct part_paths f;
	struct src s = { 0 };
	int lockfd = -1, rc = CUENV_OK;

	s.url = install_mirror_url(j->part->url, j->opts->mirror);
	download_init(&s.dl, s.url, j->part->sha256, j->part->size,
		      &j->opts->fetch);
	s.dl.progress = on_bytes;
	s.dl.ctx = j;
	part_paths_init(&f, j);
	if (exists(f.pool.data))
		goto cached;
	/* One process at a time downloads one archive. */
	lockfd = lock_path(f.lock.data, 1, 1);
	if (lockfd < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot lock '%s': %s",
				f.lock.data, strerror(errno));
		goto out;
	}
	if (exists(f.pool.data))
		goto cached;
	rc = fetch_locked(j, &s, &f, err);
	goto out;
cached:
	set_cached(j);
out:
	discard_part(j, &s, &f, lockfd >= 0, rc);
	src_release(&s);
	if (lockfd >= 0)
		plat_close(lockfd);
	part_paths_release(&f);
	return rc;
}

/* ---- running the jobs ---------------------------------------------------- */

/* The archives of one install, fetched by a pool of workers. */
struct crew {
	struct job *jobs;
	size_t n;
	const struct install_opts *opts;
	struct workers w; /* its lock guards the jobs' progress */
};

static int crew_run(void *ctx, size_t i)
{
	struct crew *c = ctx;
	struct job *j = &c->jobs[i];

	j->rc = fetch_part(j, &j->err);
	return j->rc;
}

static void crew_done(void *ctx, size_t i, int rc)
{
	struct crew *c = ctx;

	c->jobs[i].prog.state = rc ? PART_FAILED : PART_DONE;
}

static void report(void *ctx)
{
	struct crew *c = ctx;
	const struct install_opts *o = c->opts;
	struct part_progress *snap;

	if (!o->progress)
		return;
	snap = xmalloc(c->n * sizeof(*snap));
	pthread_mutex_lock(&c->w.lock);
	for (size_t i = 0; i < c->n; i++)
		snap[i] = c->jobs[i].prog;
	pthread_mutex_unlock(&c->w.lock);
	o->progress(o->progress_ctx, snap, c->n);
	free(snap);
}

static int run_jobs(struct crew *c, const struct install_opts *o,
		    struct cuenv_err *err)
{
	int e;

	c->opts = o;
	c->w.n = c->n;
	c->w.run = crew_run;
	c->w.done = crew_done;
	c->w.tick = report;
	c->w.ctx = c;
	/*
	 * Out of threads is the machine's state, not a bug: the workers
	 * already running do every job.
	 */
	e = workers_run(&c->w, o->jobs);
	if (e)
		return cuenv_fail(err, CUENV_E_FETCH,
				  "cannot start a download thread: %s",
				  strerror(e));
	for (size_t i = 0; i < c->n; i++) {
		if (c->jobs[i].rc) {
			cuenv_fail(err, c->jobs[i].rc, "%s",
				   c->jobs[i].err.msg.data);
			if (c->jobs[i].err.hint.len)
				cuenv_hint(err, "%s", c->jobs[i].err.hint.data);
			return err->rc;
		}
	}
	return CUENV_OK;
}

/* ---- assembling the version from pool trees ------------------------------- */

/*
 * Merge the pool trees of c's jobs into version_dir (core/store/assemble.h: never
 * outside it, whatever the archives hold together). An archive is named by
 * its file name in messages.
 */
static int assemble_version(const struct crew *c, const char *root,
			    const struct store_version *have,
			    const char *version_dir, struct cuenv_err *err)
{
	struct assemble *a = NULL;
	struct buf tree = BUF_INIT;
	int rc;

	rc = assemble_open(&a, version_dir, err);
	/* A version that grows: its files first, then the new ones. */
	if (!rc && have)
		rc = assemble_add(a, have->dir, have->dir, err);
	if (!rc && have) {
		buf_path(&tree, version_dir, RECEIPT_NAME);
		if (plat_unlink(tree.data))
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot remove '%s': %s", tree.data,
					strerror(errno));
	}
	for (size_t i = 0; i < c->n && !rc; i++) {
		const char *url = c->jobs[i].part->url;
		const char *base = strrchr(url, '/');

		buf_reset(&tree);
		buf_printf(&tree, "%s/pool/%s", root, c->jobs[i].key);
		rc = assemble_add(a, tree.data,
				  base && base[1] ? base + 1 : url, err);
	}
	assemble_free(a);
	buf_release(&tree);
	return rc;
}


/*
 * The linker names NVIDIA's archives carry and its wheels do not: in
 * lib/ and lib64/, libcublas.so -> libcublas.so.11 for each CUDA library
 * whose soname file is there and its plain name is not. A toolkit from
 * the package index then links as one from the archives does (nvcc
 * -lcublas), and the frameworks that dlopen the plain names (Paddle's
 * libcublas.so, libcudnn.so) find them in the selection rather than in
 * whatever the loader cache holds. Nothing there is replaced.
 */
static int add_linker_names(const char *version_dir, struct cuenv_err *err)
{
	static const char *const dirs[] = { "lib", "lib64" };
	struct buf dir = BUF_INIT, p = BUF_INIT;
	int rc = CUENV_OK;

	for (size_t i = 0; i < 2 && !rc; i++) {
		struct strv names = STRV_INIT;
		struct plat_dir *d;
		const char *ent;

		buf_reset(&dir);
		buf_path(&dir, version_dir, dirs[i]);
		if (!(d = plat_opendir(dir.data)))
			continue;
		while ((ent = plat_readdir(d)))
			strv_push(&names, ent);
		plat_closedir(d);
		strv_sort(&names);
		/* sorted: the shortest of libcupti.so.11.8, .11.8.87 first */
		for (size_t k = 0; k < names.n && !rc; k++) {
			const char *so = strstr(names.v[k], ".so.");
			struct buf plain = BUF_INIT;

			if (!so || strncmp(names.v[k], "lib", 3) ||
			    !nvlib_match_file(names.v[k], NULL))
				continue;
			buf_add(&plain, names.v[k],
				(size_t)(so - names.v[k]) + 3);
			if (strv_find(&names, plain.data) < 0) {
				buf_reset(&p);
				buf_path(&p, dir.data, plain.data);
				if (plat_symlink(names.v[k], p.data) &&
				    errno != EEXIST)
					rc = cuenv_fail(err, CUENV_E_STORE,
							"cannot link '%s': %s",
							p.data,
							strerror(errno));
				strv_push(&names, plain.data);
			}
			buf_release(&plain);
		}
		strv_release(&names);
	}
	BUF_RELEASE_EACH(&dir, &p);
	return rc;
}

/* ---- what a source offers ------------------------------------------------- */

/*
 * Does rel's source offer component comp? Every source offers what the
 * catalogue lists, but the package index: a component with no wheel, or
 * whose wheel pypi.tsv says holds less (the nvcc wheels of CUDA 12 hold
 * only bin/ptxas), is not offered; why then says so ("cuda_nvcc
 * (nvidia-cuda-nvcc-cu12 12.2.140 holds only bin/ptxas)"). Pure.
 */
static int install_source_offers(const struct release *rel, const char *comp,
				 struct buf *why)
{
	const struct part *p = release_part(rel, comp);
	char *proj;

	if (rel->source != SRC_PYPI)
		return 1;
	proj = pypi_wheel_project(comp, rel->cuda_major, rel->kind);
	if (!proj || !p) {
		buf_printf(why, "%s (no wheel)", comp);
		free(proj);
		return 0;
	}
	if (p->index_holds) {
		buf_printf(why, "%s (%s %s holds only %s)", comp, proj,
			   p->version, p->index_holds);
		free(proj);
		return 0;
	}
	free(proj);
	return 1;
}

/* names narrowed to what rel's source offers; the rest said in lacking. */
static void offered(const struct release *rel, struct strv *names,
		    struct buf *lacking)
{
	struct strv keep = STRV_INIT;
	struct buf why = BUF_INIT;

	for (size_t i = 0; i < names->n; i++) {
		buf_reset(&why);
		if (install_source_offers(rel, names->v[i], &why)) {
			strv_push(&keep, names->v[i]);
			continue;
		}
		buf_adds(lacking, lacking->len ? ", " : "");
		buf_adds(lacking, why.data);
	}
	strv_release(names);
	*names = keep;
	buf_release(&why);
}

void install_lacking(const struct release *rel, const struct plan_opts *plan,
		     struct buf *out)
{
	struct strv names = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	if (!plan_archives(rel, plan, &names, &err))
		offered(rel, &names, out);
	strv_release(&names);
	err_release(&err);
}

/* A part that is a wheel already (a lock's), not a component to look up. */
static int wheel_pinned(const struct part *p)
{
	size_t n = strlen(p->url);

	return n > 4 && !strcmp(p->url + n - 4, ".whl");
}

int install_resolve(const struct release *rel, const struct install_opts *o,
		    const struct strv *names, struct install_parts *ip,
		    struct cuenv_err *err)
{
	int rc = CUENV_OK;

	ip->v = xcalloc(names->n + 1, sizeof(*ip->v));
	if (rel->source == SRC_PYPI) {
		const char *index = o->pypi_index ? o->pypi_index
						  : "https://pypi.org/simple";

		ip->wheels = xcalloc(names->n, sizeof(*ip->wheels));
		for (size_t i = 0; i < names->n && !rc; i++) {
			const struct part *p = release_part(rel, names->v[i]);
			char *proj =
				pypi_wheel_project(names->v[i], rel->cuda_major,
						   rel->kind);

			if (p && wheel_pinned(p)) {
				/* a lock's wheel: its url and sha256 as pinned */
				ip->v[ip->n++] = p;
			} else if (p && proj && !p->index_holds) {
				rc = pypi_wheel_part(index, proj, names->v[i],
						     p->version, o->platform,
						     &o->fetch,
						     &ip->wheels[ip->nwheels],
						     err);
				if (!rc)
					ip->v[ip->n++] =
						&ip->wheels[ip->nwheels++];
			}
			free(proj);
		}
	} else if (rel->source == SRC_REDIST) {
		for (size_t i = 0; i < names->n; i++) {
			const struct part *p = release_part(rel, names->v[i]);

			if (p)
				ip->v[ip->n++] = p;
		}
	} else {
		ip->v[ip->n++] = &rel->parts[0];
	}
	return rc;
}

void install_parts_release(struct install_parts *ip)
{
	for (size_t i = 0; i < ip->nwheels; i++)
		part_release(&ip->wheels[i]);
	free(ip->wheels);
	free(ip->v);
	memset(ip, 0, sizeof(*ip));
}

/* ---- install ---------------------------------------------------------------- */

/* Jobs for the parts ip resolved: where each goes in the pool. */
static int make_jobs(const struct release *rel, const struct install_opts *o,
		     const struct strv *names, const struct install_parts *ip,
		     struct crew *c)
{
	const char *suffix = o->plan.runtime_only ? "-rt" : "";

	c->jobs = xcalloc(ip->n + 1, sizeof(*c->jobs));
	for (size_t i = 0; i < ip->n; i++)
		c->jobs[c->n++].part = ip->v[i];
	for (size_t i = 0; i < c->n; i++) {
		struct buf key = BUF_INIT;

		buf_adds(&key, c->jobs[i].part->sha256);
		if (rel->source == SRC_RUNFILE) {
			/* The pool tree holds a subset: name it by the subset. */
			char hex[DIGEST_HEX_LEN + 1];
			struct digest *d = digest_new();

			for (size_t k = 0; k < names->n; k++)
				digest_update(d, names->v[k],
					      strlen(names->v[k]) + 1);
			digest_final(d, hex);
			digest_free(d);
			buf_printf(&key, "-%.12s", hex);
		}
		buf_adds(&key, suffix);
		c->jobs[i].key = buf_detach(&key);
		c->jobs[i].prog.name = c->jobs[i].part->name;
		c->jobs[i].prog.total = c->jobs[i].part->size;
	}
	return CUENV_OK;
}

/*
 * Of names, those an installed version have lacks (its receipt's notes
 * name each component it holds), into missing. A registered toolkit is
 * the user's: what it holds is not ours to judge, nor to add to.
 */
static void missing_from(const struct store_version *have,
			 const struct release *rel, const struct strv *names,
			 struct strv *missing)
{
	if (rel->kind != KIT_CUDA || have->registered)
		return;
	for (size_t i = 0; i < names->n; i++) {
		size_t n = strlen(names->v[i]);
		int found = 0;

		for (size_t k = 0; k < have->notes.n && !found; k++)
			found = !strncmp(have->notes.v[k], names->v[i], n) &&
				have->notes.v[k][n] == ' ';
		if (!found)
			strv_push(missing, names->v[i]);
	}
}

/* Take the store's lock, shared with other installs, and make its folders. */
static int open_store(struct store *st, const struct release *rel,
		      const char *name, struct cuenv_err *err)
{
	static const char *const sub[] = { "cache", "pool", ".staging",
					   ".locks" };
	struct buf p = BUF_INIT;
	int rc;

	/* Shared with other installs; `cuenv gc` waits for all of them. */
	buf_printf(&p, "cuenv install %s %s", kit_kind_name(rel->kind), name);
	if (st->lock_fd < 0)
		store_lock_describe(st, p.data);
	rc = store_lock_shared(st, err);
	for (size_t i = 0; i < 4 && !rc; i++) {
		buf_reset(&p);
		buf_path(&p, st->root, sub[i]);
		rc = store_mkdir_p(p.data, err);
	}
	buf_release(&p);
	return rc;
}

/* One install of a version at a time; a second one waits. */
static int lock_version(const struct store *st, const struct release *rel,
			const char *name, const struct install_opts *opts,
			int *vlock, struct cuenv_err *err)
{
	struct buf p = BUF_INIT;
	int rc = CUENV_OK;

	buf_printf(&p, "%s/.locks/%s-%s.lock", st->root,
		   kit_kind_name(rel->kind), name);
	*vlock = lock_path(p.data, 1, 0);
	if (*vlock == -1) {
		if (opts->waiting)
			opts->waiting(opts->progress_ctx, name);
		*vlock = lock_path(p.data, 1, 1);
	}
	if (*vlock < 0)
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot lock '%s': %s",
				p.data, strerror(errno));
	buf_release(&p);
	return rc;
}

/*
 * The version as installed already, in *have: CUENV_NO when it holds
 * every one of names (or keep_partial), CUENV_OK when it is not
 * installed or lacks some (*adding set, names narrowed to those), or the
 * failure to read it.
 */
static int installed_already(const struct store *st, const struct release *rel,
			     const char *name, const struct install_opts *opts,
			     struct strv *names, struct store_version *have,
			     int *adding, struct cuenv_err *err)
{
	struct buf p = BUF_INIT;
	struct strv missing = STRV_INIT;
	int rc = CUENV_OK;

	buf_printf(&p, "%s/versions/%s/%s/" RECEIPT_NAME, st->root,
		   kit_kind_name(rel->kind), name);
	if (exists(p.data)) {
		buf_setlen(&p, p.len - strlen("/" RECEIPT_NAME));
		rc = store_read_receipt(p.data, have, err);
		if (!rc && !opts->keep_partial)
			missing_from(have, rel, names, &missing);
		if (!rc && !missing.n)
			rc = CUENV_NO;
		if (!rc) {
			*adding = 1;
			strv_release(names);
			*names = missing;
			missing = (struct strv)STRV_INIT;
		}
	}
	strv_release(&missing);
	buf_release(&p);
	return rc;
}

/*
 * Make this install's staging folder (its path into *staging) and hold
 * its lock (*slock). The lock exists and is held before the folder does,
 * so another install's sweep can never take a live folder for a dead
 * one's.
 */
static int make_staging(const char *root, struct buf *staging, int *slock,
			struct cuenv_err *err)
{
	struct buf p = BUF_INIT;
	int rc = CUENV_OK;

	buf_printf(&p, "%s/.staging/install-XXXXXX.lock", root);
	*slock = plat_mkstemps(p.data, 5);
	if (*slock >= 0 && lock_fd(*slock)) {
		plat_close(*slock);
		*slock = -1;
	}
	if (*slock < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s",
				p.data, strerror(errno));
		goto out;
	}
	buf_add(staging, p.data, p.len - 5);
	if (plat_mkdir(staging->data, 0755)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s",
				staging->data, strerror(errno));
		plat_unlink(p.data);
		buf_reset(staging);
	}
out:
	buf_release(&p);
	return rc;
}

/* What each job of c shares with the others. */
static void crew_setup(struct crew *c, const struct store *st,
		       const struct release *rel,
		       const struct install_opts *opts, const char *staging,
		       const struct strv *names)
{
	for (size_t i = 0; i < c->n; i++) {
		c->jobs[i].opts = opts;
		c->jobs[i].root = st->root;
		c->jobs[i].staging = staging;
		c->jobs[i].source = rel->source;
		c->jobs[i].names = names;
		c->jobs[i].lock = &c->w.lock;
		err_init(&c->jobs[i].err);
	}
}

/* The receipt's notes ("component version") and sources of c's archives. */
static void note_parts(const struct crew *c, const struct release *rel,
		       const struct strv *names, struct store_version *in)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct part *pt = c->jobs[i].part;
		struct buf line = BUF_INIT;

		if (rel->source == SRC_RUNFILE) {
			/* one archive, several components: name them all */
			for (size_t k = 0; k < names->n; k++) {
				buf_printf(&line, "%s %s", names->v[k],
					   rel->version);
				strv_push_take(&in->notes, buf_detach(&line));
			}
		} else {
			buf_printf(&line, "%s %s", pt->name, pt->version);
			strv_push_take(&in->notes, buf_detach(&line));
		}
		buf_printf(&line, "%s %s %s", pt->name, pt->sha256, pt->url);
		strv_push_take(&in->sources, buf_detach(&line));
		if (!strcmp(pt->name, "cuda_cupti")) {
			free(in->cupti_version);
			in->cupti_version = xstrdup(pt->version);
		}
	}
}

/*
 * Every archive verified and in the pool: assemble the version in
 * staging/version, describe it in *in, and commit it to the store.
 */
static int assemble_and_commit(struct store *st, const struct crew *c,
			       const struct release *rel,
			       const struct strv *names, const char *staging,
			       const struct store_version *have,
			       struct store_version *in, struct cuenv_err *err)
{
	struct buf version_dir = BUF_INIT, old = BUF_INIT;
	int rc;

	buf_path(&version_dir, staging, "version");
	buf_path(&old, staging, "old");
	if (plat_mkdir(version_dir.data, 0755))
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s",
				version_dir.data, strerror(errno));
	else
		rc = assemble_version(c, st->root, have, version_dir.data, err);
	if (!rc)
		rc = add_linker_names(version_dir.data, err);
	if (!rc) {
		if (have) { /* what it held stays in its receipt */
			for (size_t i = 0; i < have->notes.n; i++)
				strv_push(&in->notes, have->notes.v[i]);
			for (size_t i = 0; i < have->sources.n; i++)
				strv_push(&in->sources, have->sources.v[i]);
			if (have->cupti_version)
				in->cupti_version =
					xstrdup(have->cupti_version);
		}
		note_parts(c, rel, names, in);
		detect_layout(version_dir.data, in);
		if (!in->cupti_version && in->cupti.n && rel->kind != KIT_CUDNN)
			in->cupti_version = xstrdup(rel->version);
		rc = have ? store_commit_over(st, in, version_dir.data,
					      old.data, err)
			  : store_commit(st, in, version_dir.data, err);
	}
	BUF_RELEASE_EACH(&version_dir, &old);
	return rc;
}

/* Remove this install's staging folder and its lock file. */
static void remove_staging(const struct buf *staging)
{
	struct buf p = BUF_INIT;

	if (!staging->len || !exists(staging->data))
		return;
	store_remove_tree(staging->data);
	buf_printf(&p, "%s.lock", staging->data);
	plat_unlink(p.data);
	buf_release(&p);
}

static void crew_release(struct crew *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->jobs[i].key);
		err_release(&c->jobs[i].err);
	}
	free(c->jobs);
	workers_destroy(&c->w);
}

/* Tell the user, through opts, before anything is fetched. */
static void say(const struct install_opts *opts, const char *text)
{
	if (opts->say)
		opts->say(opts->progress_ctx, text);
}

/* What this install adds, and what its source lacks, said. */
static void say_plan(const struct install_opts *opts, const struct release *rel,
		     const char *name, const struct strv *names, int adding,
		     const struct buf *lacking)
{
	struct buf b = BUF_INIT;

	if (adding) {
		buf_printf(&b, "adding to %s %s:", kit_kind_name(rel->kind),
			   name);
		for (size_t i = 0; i < names->n; i++)
			buf_printf(&b, "%s %s", i ? "," : "", names->v[i]);
		say(opts, b.data);
		buf_reset(&b);
	}
	if (lacking->len) {
		buf_printf(&b, "%s has no %s", source_name(rel->source),
			   lacking->data);
		if (rel->source == SRC_PYPI)
			buf_printf(&b,
				   "; NVIDIA's archives have them: cuenv "
				   "install %s --source redist",
				   rel->version);
		say(opts, b.data);
	}
	buf_release(&b);
}

int install_run(struct store *st, const struct release *rel,
		const struct install_opts *opts, struct store_version *out,
		struct cuenv_err *err)
{
	struct buf staging = BUF_INIT, lacking = BUF_INIT;
	struct strv names = STRV_INIT;
	struct crew c = { 0 };
	struct install_parts ip = { 0 };
	struct store_version in, have;
	char *name = NULL;
	int vlock = -1, slock = -1, adding = 0, rc;

	store_version_init(&in, rel->kind);
	store_version_init(&have, rel->kind);
	store_version_init(out, rel->kind);
	workers_init(&c.w);
	in.version = xstrdup(rel->version);
	in.cuda_major = rel->cuda_major;
	name = store_version_make_name(&in);

	rc = open_store(st, rel, name, err);
	if (!rc)
		rc = lock_version(st, rel, name, opts, &vlock, err);
	/* Every install sweeps, one that finds its version done too: a
	 * dead add's old folder (killed after the swap) goes now. */
	if (!rc) {
		gc_sweep_staging(st->root); /* best effort */
		store_sweep_stamps(st->root);
	}
	if (!rc)
		rc = plan_archives(rel, &opts->plan, &names, err);
	if (!rc)
		offered(rel, &names, &lacking);
	if (!rc)
		rc = installed_already(st, rel, name, opts, &names, &have,
				       &adding, err);
	if (rc == CUENV_NO) {
		store_version_release(out);
		*out = have;
		store_version_init(&have, rel->kind);
	}
	if (!rc && !names.n)
		rc = cuenv_fail(err, CUENV_E_UNKNOWN,
				"%s has none of what was asked of %s %s (it "
				"has no %s)",
				source_name(rel->source),
				kit_kind_name(rel->kind), rel->version,
				lacking.data);
	if (rc)
		goto out;
	say_plan(opts, rel, name, &names, adding, &lacking);
	rc = make_staging(st->root, &staging, &slock, err);
	if (!rc)
		rc = install_resolve(rel, opts, &names, &ip, err);
	if (!rc)
		rc = make_jobs(rel, opts, &names, &ip, &c);
	if (rc)
		goto out;
	crew_setup(&c, st, rel, opts, staging.data, &names);
	rc = run_jobs(&c, opts, err);
	if (!rc)
		rc = assemble_and_commit(st, &c, rel, &names, staging.data,
					 adding ? &have : NULL, &in, err);
	if (!rc)
		rc = store_read_receipt(in.dir, out, err);
out:
	crew_release(&c);
	install_parts_release(&ip);
	remove_staging(&staging);
	if (slock >= 0)
		plat_close(slock);
	if (vlock >= 0)
		plat_close(vlock);
	store_version_release(&in);
	store_version_release(&have);
	strv_release(&names);
	free(name);
	BUF_RELEASE_EACH(&staging, &lacking);
	return rc;
}
