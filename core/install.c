#include "install.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "assemble.h"
#include "detect.h"
#include "digest.h"
#include "file.h"
#include "unpack.h"
#include "version.h"
#include "xalloc.h"

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

/* ---- small filesystem helpers -------------------------------------------- */

static int exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
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

/* ---- cleaning up after dead installs and uninstalls --------------------- */

/* What a sweep or gc did, and the first thing it could not do. */
struct gc {
	struct gc_report *r;
	unsigned failed;
	struct buf first; /* "'path': reason" */
};

static void gc_failed(struct gc *g, const char *path, int e)
{
	if (!g->failed++)
		buf_printf(&g->first, "'%s': %s", path, strerror(e));
}

/* An hour: no live install's folder goes without its lock that old. */
#define LOCKLESS_AGE 3600

static int older_than(const char *path, time_t age)
{
	struct stat st;

	return !lstat(path, &st) && time(NULL) - st.st_mtime > age;
}

/*
 * Each install locks .staging/install-X.lock first, then makes
 * .staging/install-X/; each uninstall does the same with trash-X (see
 * store_delete). A folder whose lock can be taken belongs to a process
 * that died. The sweep never creates a lock file. A folder without one:
 * install-X (a cuenv older than this rule, or a crash between the two
 * steps) goes only once it is an hour old, as installs run side by side;
 * trash-X and register-X go at once, as only writers holding the store's
 * lock alone make them and the sweeper holds it (shared or alone). A lock
 * file whose folder is gone goes once it is an hour old and free (a
 * younger one may be between its creation and its lock).
 */
static void sweep_staging(const char *root, struct gc *g)
{
	struct buf dir = BUF_INIT, p = BUF_INIT;
	struct tree_stats ts;
	struct dirent *de;
	DIR *d;

	buf_path(&dir, root, ".staging");
	d = opendir(dir.data);
	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		int is_lock = n > 5 && !strcmp(de->d_name + n - 5, ".lock");
		int lockless_ok, fd;

		if (!strncmp(de->d_name, "install-", 8))
			lockless_ok = 0;
		else if (!strncmp(de->d_name, "trash-", 6) ||
			 !strncmp(de->d_name, "register-", 9))
			lockless_ok = 1;
		else
			continue;
		buf_reset(&p);
		buf_path(&p, dir.data, de->d_name);
		if (is_lock) {
			buf_setlen(&p, p.len - 5);
			if (!exists(p.data)) {
				buf_adds(&p, ".lock");
				fd = older_than(p.data, LOCKLESS_AGE)
					     ? open(p.data, O_RDWR | O_CLOEXEC)
					     : -1;
				if (fd >= 0 && !store_lock_now(fd))
					unlink(p.data);
				if (fd >= 0)
					close(fd);
			}
			continue;
		}
		buf_adds(&p, ".lock");
		fd = open(p.data, O_RDWR | O_CLOEXEC);
		buf_setlen(&p, p.len - 5);
		if (fd < 0 && errno != ENOENT)
			continue;
		if (fd < 0 && !lockless_ok && !older_than(p.data, LOCKLESS_AGE))
			continue;
		if (fd >= 0 && store_lock_now(fd)) {
			close(fd);
			continue; /* alive */
		}
		if (store_remove_tree_stats(p.data, &ts)) {
			gc_failed(g, p.data, errno);
		} else {
			g->r->leftovers++;
			buf_adds(&p, ".lock");
			if (fd >= 0)
				unlink(p.data);
		}
		g->r->leftover_bytes += ts.bytes;
		if (fd >= 0)
			close(fd);
	}
	if (d)
		closedir(d);
	buf_release(&dir);
	buf_release(&p);
}

/* ---- sources: network or cache, hashed, teed into the cache ---------------- */

struct job;

struct src {
	struct job *job;
	struct digest *sha;
	int file;	    /* reading the cache (complete or .part), or -1 */
	int file_is_part;   /* ... a partial download: network follows */
	int tee;	    /* appending downloaded bytes to the .part, or -1 */
	struct fetch *net;
	char *url;
	uint64_t pos;	    /* bytes delivered (and hashed) */
	int eof;	    /* the end was reached: stays there */
	int from_cache;	    /* reading a complete file from the cache */
	const char *tee_path; /* the .part file downloaded bytes go to */
	char *buf;	    /* for file reads */
	/* runfile: the payload starts after a shell header */
	int skip_header;
	int header_done;
	uint64_t payload;   /* offset of the payload, once known */
	struct buf head;    /* header bytes read while looking for it */
};

struct job {
	const struct part *part;
	const struct install_opts *opts;
	const char *root;
	const char *staging;
	enum source_kind source;
	const struct strv *names; /* components to keep from a runfile */
	char *key;		   /* pool/<key> */
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

#define FILE_BLOCK (1 << 20)

/* The raw bytes of the archive, each hashed once. */
static ssize_t raw_read(struct src *s, const void **out, struct cuenv_err *err)
{
	ssize_t n;

	if (s->eof)
		return 0;
	if (s->file >= 0) {
		n = file_read_full(s->file, s->buf, FILE_BLOCK);
		if (n < 0)
			return cuenv_fail(err, CUENV_E_STORE,
					  "cannot read the cache for '%s': %s",
					  s->url, strerror(errno)),
			       -1;
		if (n > 0) {
			digest_update(s->sha, s->buf, (size_t)n);
			s->pos += (uint64_t)n;
			job_progress(s->job, s->pos);
			*out = s->buf;
			return n;
		}
		close(s->file);
		s->file = -1;
		/* A .part as long as the catalogue says is whole: no request. */
		if (!s->file_is_part ||
		    (s->job->part->size && s->pos == s->job->part->size)) {
			s->eof = 1;
			return 0;
		}
		/* The rest of a partial download comes from the network. */
	}
	if (!s->net)
		s->net = fetch_open(s->url, s->pos, s->job->part->size,
				    &s->job->opts->fetch);
	n = fetch_read(s->net, out, err);
	if (n == 0)
		s->eof = 1;
	if (n <= 0)
		return n;
	/* Hashed is consumed: a failed write below leaves pos true. */
	digest_update(s->sha, *out, (size_t)n);
	s->pos += (uint64_t)n;
	job_progress(s->job, s->pos);
	if (s->tee >= 0 && file_write_full(s->tee, *out, (size_t)n))
		return cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				  s->tee_path, strerror(errno)),
		       -1;
	return n;
}

/* What the unpacker reads: the raw bytes, past a runfile's header. */
static ssize_t src_read(void *ctx, const void **out, struct cuenv_err *err)
{
	struct src *s = ctx;
	const void *p;
	ssize_t n;

	if (!s->skip_header || s->header_done)
		return raw_read(s, out, err);
	/* A makeself header is a few hundred lines: read 64 KiB (or all). */
	while (s->head.len < 65536) {
		n = raw_read(s, &p, err);
		if (n < 0)
			return -1;
		if (!n)
			break;
		buf_add(&s->head, p, (size_t)n);
	}
	if (unpack_makeself_offset(s->head.data, s->head.len, &s->payload,
				   err))
		return -1;
	s->header_done = 1;
	if (s->payload < s->head.len) {
		*out = s->head.data + s->payload;
		return (ssize_t)(s->head.len - s->payload);
	}
	return raw_read(s, out, err);
}

/* ---- mapping archive paths ------------------------------------------------ */

static int is_runtime_lib(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	/* lib/stubs/libcuda.so is for linking without a driver, not loading */
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

static int open_cache(struct job *j, struct src *s, const char *cache,
		      const char *part, struct cuenv_err *err)
{
	struct stat st;

	if (j->opts->no_cache) {
		/* A wheel (a zip) is read from a file even then. */
		if (j->source == SRC_PYPI) {
			s->tee_path = part;
			s->tee = open(part, O_WRONLY | O_CREAT | O_TRUNC |
						    O_CLOEXEC,
				      0644);
			if (s->tee < 0)
				return cuenv_fail(err, CUENV_E_STORE,
						  "cannot write '%s': %s", part,
						  strerror(errno));
		}
		return CUENV_OK;
	}
	s->file = open(cache, O_RDONLY | O_CLOEXEC);
	if (s->file >= 0) {
		s->from_cache = 1;
		pthread_mutex_lock(j->lock);
		j->prog.cached = 1;
		pthread_mutex_unlock(j->lock);
		return CUENV_OK;
	}
	s->tee_path = part;
	s->tee = open(part, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (s->tee < 0)
		return cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				  part, strerror(errno));
	if (fstat(s->tee, &st))
		return cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
				  part, strerror(errno));
	if (j->part->size && (uint64_t)st.st_size > j->part->size) {
		/* Longer than the file can be: nothing in it to keep. */
		if (ftruncate(s->tee, 0))
			return cuenv_fail(err, CUENV_E_STORE,
					  "cannot write '%s': %s", part,
					  strerror(errno));
		st.st_size = 0;
	}
	if (st.st_size > 0) {
		/* Resume: re-read (and hash) what an earlier run got. */
		s->file = open(part, O_RDONLY | O_CLOEXEC);
		s->file_is_part = 1;
		if (s->file < 0)
			return cuenv_fail(err, CUENV_E_STORE,
					  "cannot read '%s': %s", part,
					  strerror(errno));
	}
	return CUENV_OK;
}

static int finish_hash(struct job *j, struct src *s, const char *partfile,
		       struct cuenv_err *err)
{
	char hex[DIGEST_HEX_LEN + 1];
	const void *p;
	ssize_t n;

	/* The archive may end before the file does: hash the rest. */
	while ((n = raw_read(s, &p, err)) > 0)
		;
	if (n < 0)
		return err->rc;
	digest_final(s->sha, hex);
	if (j->part->size && s->pos != j->part->size) {
		unlink(partfile);
		return cuenv_fail(err, CUENV_E_INTEGRITY,
				  "size mismatch for '%s': expected %llu bytes, "
				  "got %llu",
				  s->url, (unsigned long long)j->part->size,
				  (unsigned long long)s->pos);
	}
	if (strcmp(hex, j->part->sha256)) {
		/* Those bytes are bad: never resume from them. */
		unlink(partfile);
		return cuenv_fail(err, CUENV_E_INTEGRITY,
				  "sha256 mismatch for '%s': expected %s, got %s",
				  s->url, j->part->sha256, hex);
	}
	return CUENV_OK;
}

/* Rename a verified tree into the pool; another install may have won. */
static int to_pool(const char *tmp, const char *pool, struct cuenv_err *err)
{
	if (!rename(tmp, pool))
		return CUENV_OK;
	if (errno == EEXIST || errno == ENOTEMPTY) {
		store_remove_tree(tmp);
		return CUENV_OK;
	}
	return cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s", pool,
			  strerror(errno));
}

static int fetch_part(struct job *j, struct cuenv_err *err)
{
	struct buf pool = BUF_INIT, tmp = BUF_INIT, cache = BUF_INIT,
		   partfile = BUF_INIT, lockfile = BUF_INIT;
	struct src s = { .file = -1, .tee = -1 };
	struct unpack_opts uo = { 0 };
	struct unpack_stats stats = { 0 };
	struct unpack_source us = { src_read, &s };
	int lockfd = -1, rc = CUENV_OK;

	buf_printf(&pool, "%s/pool/%s", j->root, j->key);
	if (exists(pool.data))
		goto cached;
	buf_printf(&cache, "%s/cache/%s", j->root, j->part->sha256);
	buf_printf(&partfile, "%s.part", cache.data);
	buf_printf(&lockfile, "%s/.locks/%s.lock", j->root, j->part->sha256);
	/* One process at a time downloads one archive. */
	lockfd = lock_path(lockfile.data, 1, 1);
	if (lockfd < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot lock '%s': %s",
				lockfile.data, strerror(errno));
		goto out;
	}
	if (exists(pool.data))
		goto cached;

	s.job = j;
	s.sha = digest_new();
	s.buf = xmalloc(FILE_BLOCK);
	s.url = install_mirror_url(j->part->url, j->opts->mirror);
	rc = open_cache(j, &s, cache.data, partfile.data, err);
	if (rc)
		goto out;
	pthread_mutex_lock(j->lock);
	j->prog.state = PART_FETCHING;
	pthread_mutex_unlock(j->lock);

	buf_printf(&tmp, "%s/%s", j->staging, j->key);
	rc = store_mkdir_p(tmp.data, err);
	if (rc)
		goto out;
	if (j->source == SRC_PYPI) {
		/* A zip needs its end first: whole file, then extract. */
		const void *p;
		ssize_t n;

		while ((n = raw_read(&s, &p, err)) > 0)
			;
		rc = n < 0 ? err->rc : finish_hash(j, &s, partfile.data, err);
		if (!rc && s.tee >= 0 && close(s.tee)) {
			s.tee = -1;
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot write '%s': %s", partfile.data,
					strerror(errno));
		}
		s.tee = -1;
		if (!rc && !j->opts->no_cache && !j->prog.cached &&
		    rename(partfile.data, cache.data))
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot write '%s': %s", cache.data,
					strerror(errno));
		uo.map = map_wheel;
		if (j->part->size && j->opts->expand_ratio)
			uo.max_bytes = j->part->size * j->opts->expand_ratio;
		if (!rc)
			rc = unpack_file(tmp.data,
					 j->opts->no_cache ? partfile.data
							   : cache.data,
					 &uo, &stats, err);
		if (!rc)
			rc = to_pool(tmp.data, pool.data, err);
		goto out;
	}
	if (j->source == SRC_RUNFILE) {
		s.skip_header = 1;
		uo.map = map_runfile;
		uo.map_ctx = j;
	} else {
		uo.strip = 1; /* "<name>-archive/", or "cuda/" in old tarballs */
		if (j->opts->plan.runtime_only)
			uo.map = map_runtime;
	}
	if (j->part->size && j->opts->expand_ratio)
		uo.max_bytes = j->part->size * j->opts->expand_ratio;
	rc = unpack_stream(tmp.data, &us, &uo, &stats, err);
	if (rc && rc != CUENV_E_FETCH) {
		/*
		 * Bad bytes usually show first as a decoder error, a refused
		 * entry, the expansion bound or a full disk: finish the hash
		 * (without keeping the bytes), and if it is wrong, say so:
		 * that is the cause.
		 */
		struct cuenv_err e2 = CUENV_ERR_INIT;

		if (s.tee >= 0) {
			close(s.tee);
			s.tee = -1;
			unlink(partfile.data);
		}
		if (finish_hash(j, &s, partfile.data, &e2) ==
		    CUENV_E_INTEGRITY) {
			err_release(err);
			err_init(err);
			rc = cuenv_fail(err, CUENV_E_INTEGRITY, "%s",
					e2.msg.data);
		} else if (stats.bounded) {
			cuenv_hint(err, "to allow more: --max-expansion RATIO "
					"(now %u), or CUENV_UNPACK_MAX_RATIO",
				   j->opts->expand_ratio);
		}
		err_release(&e2);
	} else if (!rc) {
		rc = finish_hash(j, &s, partfile.data, err);
	}
	if (rc == CUENV_E_INTEGRITY && s.from_cache) {
		/* A damaged cache file would fail every later install. */
		unlink(cache.data);
		cuenv_hint(err, "the damaged copy in the cache was removed; "
				"run the install again to download it afresh");
	}
	if (rc)
		goto out;
	if (s.tee >= 0) {
		if (fsync(s.tee) || close(s.tee)) {
			s.tee = -1;
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot write '%s': %s", partfile.data,
					strerror(errno));
			goto out;
		}
		s.tee = -1;
		if (rename(partfile.data, cache.data)) {
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot write '%s': %s", cache.data,
					strerror(errno));
			goto out;
		}
	}
	rc = to_pool(tmp.data, pool.data, err);
	goto out;
cached:
	pthread_mutex_lock(j->lock);
	j->prog.cached = 1;
	pthread_mutex_unlock(j->lock);
out:
	/*
	 * Only a network failure leaves the .part to resume from: bytes that
	 * failed to unpack or verify, ran past the size bound, or met a full
	 * disk are not kept. A job that never got the archive's lock touches
	 * no file of it: another install holds them.
	 */
	if (lockfd < 0)
		buf_reset(&partfile);
	if (rc && partfile.len &&
	    (rc != CUENV_E_FETCH || fetch_too_long(s.net)))
		unlink(partfile.data);
	/* A download that failed before its first byte leaves no trace. */
	if (rc && partfile.len) {
		struct stat pst;

		if (!stat(partfile.data, &pst) && !pst.st_size)
			unlink(partfile.data);
	}
	if (s.file >= 0)
		close(s.file);
	if (s.tee >= 0)
		close(s.tee);
	if (j->opts->no_cache && partfile.len)
		unlink(partfile.data);
	fetch_close(s.net);
	digest_free(s.sha);
	free(s.buf);
	free(s.url);
	buf_release(&s.head);
	if (lockfd >= 0)
		close(lockfd);
	buf_release(&pool);
	buf_release(&tmp);
	buf_release(&cache);
	buf_release(&partfile);
	buf_release(&lockfile);
	return rc;
}

/* ---- running the jobs ---------------------------------------------------- */

struct crew {
	struct job *jobs;
	size_t n;
	size_t next;
	size_t running;
	int failed;
	pthread_mutex_t lock;
	pthread_cond_t changed;
};

static void *worker(void *arg)
{
	struct crew *c = arg;

	for (;;) {
		struct job *j;

		pthread_mutex_lock(&c->lock);
		if (c->next >= c->n || c->failed) {
			c->running--;
			pthread_cond_broadcast(&c->changed);
			pthread_mutex_unlock(&c->lock);
			return NULL;
		}
		j = &c->jobs[c->next++];
		pthread_mutex_unlock(&c->lock);

		j->rc = fetch_part(j, &j->err);

		pthread_mutex_lock(&c->lock);
		j->prog.state = j->rc ? PART_FAILED : PART_DONE;
		if (j->rc)
			c->failed = 1;
		pthread_cond_broadcast(&c->changed);
		pthread_mutex_unlock(&c->lock);
	}
}

static void report(struct crew *c, const struct install_opts *o)
{
	struct part_progress *snap;

	if (!o->progress)
		return;
	snap = xmalloc(c->n * sizeof(*snap));
	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < c->n; i++)
		snap[i] = c->jobs[i].prog;
	pthread_mutex_unlock(&c->lock);
	o->progress(o->progress_ctx, snap, c->n);
	free(snap);
}

static int run_jobs(struct crew *c, const struct install_opts *o,
		    struct cuenv_err *err)
{
	unsigned jobs = o->jobs;
	pthread_t *t;
	size_t started = 0;

	if (!jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = n > 0 ? (unsigned)n : 1;
	}
	if (jobs > c->n)
		jobs = (unsigned)c->n;
	t = xcalloc(jobs, sizeof(*t));
	pthread_mutex_lock(&c->lock);
	c->running = jobs;
	pthread_mutex_unlock(&c->lock);
	for (unsigned i = 0; i < jobs; i++) {
		int e = pthread_create(&t[i], NULL, worker, c);

		if (e) {
			/*
			 * Out of threads is the machine's state, not a bug:
			 * the workers already running do every job.
			 */
			pthread_mutex_lock(&c->lock);
			c->running -= jobs - i;
			pthread_mutex_unlock(&c->lock);
			if (!started) {
				free(t);
				return cuenv_fail(err, CUENV_E_FETCH,
						  "cannot start a download "
						  "thread: %s",
						  strerror(e));
			}
			break;
		}
		started++;
	}
	pthread_mutex_lock(&c->lock);
	while (c->running) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 200000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&c->changed, &c->lock, &ts);
		pthread_mutex_unlock(&c->lock);
		report(c, o);
		pthread_mutex_lock(&c->lock);
	}
	pthread_mutex_unlock(&c->lock);
	for (size_t i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	free(t);
	report(c, o);
	for (size_t i = 0; i < c->n; i++) {
		if (c->jobs[i].rc) {
			cuenv_fail(err, c->jobs[i].rc, "%s",
				   c->jobs[i].err.msg.data);
			if (c->jobs[i].err.hint.len)
				cuenv_hint(err, "%s",
					   c->jobs[i].err.hint.data);
			return err->rc;
		}
	}
	return CUENV_OK;
}

/* ---- assembling the version from pool trees ------------------------------- */

/*
 * Merge the pool trees of c's jobs into version_dir (core/assemble.h: never
 * outside it, whatever the archives hold together). An archive is named by
 * its file name in messages.
 */
static int assemble_version(const struct crew *c, const char *root,
			    const char *version_dir, struct cuenv_err *err)
{
	struct assemble *a = NULL;
	struct buf tree = BUF_INIT;
	int rc;

	rc = assemble_open(&a, version_dir, err);
	for (size_t i = 0; i < c->n && !rc; i++) {
		const char *url = c->jobs[i].part->url;
		const char *base = strrchr(url, '/');

		buf_reset(&tree);
		buf_printf(&tree, "%s/pool/%s", root, c->jobs[i].key);
		rc = assemble_add(a, tree.data, base && base[1] ? base + 1 : url,
				  err);
	}
	assemble_free(a);
	buf_release(&tree);
	return rc;
}

/* ---- the package index (--source pypi) ---------------------------------- */

/* NVIDIA's wheel for a redist component ("cuda_cudart" for CUDA 12). */
static char *wheel_project(const char *comp, unsigned major, enum kit_kind k)
{
	static const char *const map[][2] = {
		{ "cuda_cudart", "cuda-runtime" }, { "cuda_cupti", "cuda-cupti" },
		{ "cuda_nvcc", "cuda-nvcc" },	   { "cuda_nvrtc", "cuda-nvrtc" },
		{ "cuda_cccl", "cuda-cccl" },	   { "cuda_nvtx", "nvtx" },
		{ "libcublas", "cublas" },	   { "libcufft", "cufft" },
		{ "libcurand", "curand" },	   { "libcusolver", "cusolver" },
		{ "libcusparse", "cusparse" },	   { "libnvjitlink", "nvjitlink" },
		{ "cudnn", "cudnn" },
	};
	struct buf b = BUF_INIT;

	for (size_t i = 0; i < sizeof(map) / sizeof(*map); i++) {
		if (strcmp(comp, map[i][0]))
			continue;
		buf_printf(&b, "nvidia-%s", map[i][1]);
		/* CUDA 13's wheels dropped the suffix; cuDNN's kept it. */
		if (major < 13 || k == KIT_CUDNN)
			buf_printf(&b, "-cu%u", major);
		return buf_detach(&b);
	}
	return NULL;
}

/* Does a wheel file name fit this machine? */
static int wheel_fits(const char *name, const char *platform)
{
	const char *arch = !strcmp(platform, "linux-sbsa")	  ? "aarch64"
			   : !strcmp(platform, "linux-ppc64le") ? "ppc64le"
								: "x86_64";
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".whl") &&
	       strstr(name, "linux") && strstr(name, arch);
}

#define wheel_file index_file

static void wheel_add(struct wheel_file **v, size_t *n, const char *name,
		      size_t name_len, const char *url, size_t url_len,
		      const char *sha, uint64_t size)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].name = xstrndup(name, name_len);
	(*v)[*n].url = xstrndup(url, url_len);
	(*v)[*n].sha256 = xstrdup(sha);
	(*v)[*n].size = size;
	(*v)[*n].metadata = false;
	(*v)[*n].metadata_sha256 = NULL;
	(*n)++;
}

/*
 * PEP 658's value, as HTML writes it: "true", or "sha256=HEX" (another
 * hash name counts as served without a sha256). Fills f.
 */
static void metadata_attr(struct wheel_file *f, const char *v, size_t n)
{
	if (n == 4 && !strncmp(v, "true", 4)) {
		f->metadata = true;
	} else if (n == 7 + DIGEST_HEX_LEN && !strncmp(v, "sha256=", 7)) {
		char *sha = xstrndup(v + 7, DIGEST_HEX_LEN);

		f->metadata = digest_hex_valid(sha);
		if (f->metadata)
			f->metadata_sha256 = sha;
		else
			free(sha);
	} else if (n > 0 && memchr(v, '=', n)) {
		f->metadata = true;
	}
}

/* PEP 691's value: true, false, or {"sha256": HEX, ...}. */
static void metadata_json(struct wheel_file *f, const json_t *file)
{
	const json_t *m = json_object_get(file, "core-metadata");
	const char *sha;

	if (!m)
		m = json_object_get(file, "data-dist-info-metadata");
	if (json_is_true(m)) {
		f->metadata = true;
	} else if (json_is_object(m)) {
		f->metadata = true;
		sha = json_string_value(json_object_get(m, "sha256"));
		if (sha && digest_hex_valid(sha))
			f->metadata_sha256 = xstrdup(sha);
	}
}

/* A PEP 691 JSON page: {"files": [{filename, url, hashes: {sha256}}]}. */
static int wheels_from_json(const struct buf *body, struct wheel_file **v,
			    size_t *n)
{
	json_t *j = json_loadb(body->data, body->len, 0, NULL), *f;
	size_t i;

	if (!json_is_array(json_object_get(j, "files"))) {
		json_decref(j);
		return -1;
	}
	json_array_foreach(json_object_get(j, "files"), i, f) {
		const char *name = json_string_value(json_object_get(f, "filename"));
		const char *url = json_string_value(json_object_get(f, "url"));
		const char *sha = json_string_value(
			json_object_get(json_object_get(f, "hashes"), "sha256"));
		json_t *y = json_object_get(f, "yanked");

		if (!name || !url || !sha || !digest_hex_valid(sha) ||
		    json_is_true(y) || json_is_string(y))
			continue;
		wheel_add(v, n, name, strlen(name), url, strlen(url), sha,
			  (uint64_t)json_integer_value(json_object_get(f, "size")));
		metadata_json(&(*v)[*n - 1], f);
	}
	json_decref(j);
	return 0;
}

/* The PEP 658 attribute within the tag from p to end, if any. */
static void html_metadata(struct wheel_file *f, const char *p,
			  const char *end)
{
	static const char *const attrs[] = { "data-core-metadata=\"",
					     "data-dist-info-metadata=\"" };

	for (size_t i = 0; i < 2; i++) {
		const char *a = strstr(p, attrs[i]), *q;

		if (!a || a > end)
			continue;
		a += strlen(attrs[i]);
		q = memchr(a, '"', (size_t)(end - a));
		if (!q)
			continue;
		/* HTML may escape '=' in an attribute: sha256&#61;HEX */
		if (q - a > 11 && !strncmp(a, "sha256&#61;", 11)) {
			struct buf b = BUF_INIT;

			buf_adds(&b, "sha256=");
			buf_add(&b, a + 11, (size_t)(q - a - 11));
			metadata_attr(f, b.data, b.len);
			buf_release(&b);
		} else {
			metadata_attr(f, a, (size_t)(q - a));
		}
		return;
	}
}

/*
 * A PEP 503 HTML page, as proxies and older indexes serve:
 * <a href="URL#sha256=HEX" ...>FILENAME</a>. Links without a sha256 are
 * of no use: nothing could be checked.
 */
static void wheels_from_html(const struct buf *body, struct wheel_file **v,
			     size_t *n)
{
	const char *p = body->data;

	while ((p = strstr(p, "<a "))) {
		const char *tag_end = strchr(p, '>'), *href, *q, *close, *hash;

		if (!tag_end)
			break;
		href = strstr(p, "href=\"");
		close = strstr(tag_end, "</a>");
		if (!href || href > tag_end || !close) {
			p = tag_end;
			continue;
		}
		href += 6;
		q = strchr(href, '"');
		hash = q ? strstr(href, "#sha256=") : NULL;
		if (q && hash && hash < q && (size_t)(q - hash - 8) == DIGEST_HEX_LEN &&
		    !strstr(p, "data-yanked") ) {
			char sha[DIGEST_HEX_LEN + 1];

			memcpy(sha, hash + 8, DIGEST_HEX_LEN);
			sha[DIGEST_HEX_LEN] = '\0';
			if (digest_hex_valid(sha)) {
				wheel_add(v, n, tag_end + 1,
					  (size_t)(close - tag_end - 1), href,
					  (size_t)(hash - href), sha, 0);
				html_metadata(&(*v)[*n - 1], p, tag_end);
			}
		}
		p = close;
	}
}

void install_index_parse(const struct buf *body, struct index_file **v,
			 size_t *n)
{
	*v = NULL;
	*n = 0;
	if (wheels_from_json(body, v, n))
		wheels_from_html(body, v, n);
}

int install_index_files(const char *index, const char *project,
			const struct fetch_opts *fetch, struct buf *page,
			struct index_file **v, size_t *n,
			struct cuenv_err *err)
{
	struct fetch_opts fo = *fetch;
	struct buf body = BUF_INIT;
	int rc;

	buf_reset(page);
	buf_adds(page, index);
	while (page->len && page->data[page->len - 1] == '/')
		buf_setlen(page, page->len - 1);
	buf_printf(page, "/%s/", project);
	fo.accept = "application/vnd.pypi.simple.v1+json, "
		    "text/html;q=0.1";
	*v = NULL;
	*n = 0;
	rc = fetch_to_buf(page->data, &fo, 64 << 20, &body, err);
	if (!rc) {
		install_index_parse(&body, v, n);
		for (size_t i = 0; i < *n; i++) {
			char *u = fetch_resolve_url(page->data, (*v)[i].url);

			free((*v)[i].url);
			(*v)[i].url = u;
		}
	}
	buf_release(&body);
	return rc;
}

void install_index_files_free(struct index_file *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].url);
		free(v[i].sha256);
		free(v[i].metadata_sha256);
	}
	free(v);
}

/*
 * Find the wheel of project at version on the index and describe it as a
 * part (the index's sha256 is the one checked).
 */
static int wheel_part(const char *index, const char *project,
		      const char *comp, const char *version,
		      const struct install_opts *o, struct part *out,
		      struct cuenv_err *err)
{
	struct buf page = BUF_INIT, seen = BUF_INIT;
	struct wheel_file *files = NULL;
	size_t nfiles = 0;
	int rc;

	rc = install_index_files(index, project, &o->fetch, &page, &files,
				 &nfiles, err);
	if (rc)
		goto out;
	rc = CUENV_E_FETCH;
	for (size_t i = 0; i < nfiles && rc; i++) {
		const char *name = files[i].name, *dash1, *dash2;
		char *ver;

		if (!wheel_fits(name, catalog_platform()))
			continue;
		dash1 = strchr(name, '-');
		dash2 = dash1 ? strchr(dash1 + 1, '-') : NULL;
		if (!dash2)
			continue;
		ver = xstrndup(dash1 + 1, (size_t)(dash2 - dash1 - 1));
		if (!strstr(seen.data, ver)) {
			buf_adds(&seen, seen.len ? ", " : "");
			buf_adds(&seen, ver);
		}
		if (!strcmp(ver, version)) {
			out->name = xstrdup(comp);
			out->version = ver;
			out->url = xstrdup(files[i].url);
			out->sha256 = xstrdup(files[i].sha256);
			out->size = files[i].size;
			rc = CUENV_OK;
			continue;
		}
		free(ver);
	}
	if (rc)
		cuenv_fail(err, CUENV_E_FETCH,
			   "no %s wheel %s for this machine on '%s' (found: %s)",
			   project, version, page.data,
			   seen.len ? seen.data : "none");
out:
	install_index_files_free(files, nfiles);
	buf_release(&page);
	buf_release(&seen);
	return rc;
}

/* ---- install ---------------------------------------------------------------- */

/* Jobs for rel: the archives to fetch and where they go in the pool. */
static int make_jobs(const struct release *rel, const struct install_opts *o,
		     const struct strv *names, struct part **wheels,
		     size_t *nwheels, struct crew *c, struct cuenv_err *err)
{
	const char *suffix = o->plan.runtime_only ? "-rt" : "";
	int rc = CUENV_OK;

	c->jobs = xcalloc(names->n + 1, sizeof(*c->jobs));
	if (rel->source == SRC_PYPI) {
		const char *index = o->pypi_index ? o->pypi_index
						  : "https://pypi.org/simple";

		*wheels = xcalloc(names->n, sizeof(**wheels));
		for (size_t i = 0; i < names->n; i++) {
			const struct part *p = release_part(rel, names->v[i]);
			char *proj = wheel_project(names->v[i], rel->cuda_major,
						   rel->kind);

			if (!p || !proj) {
				free(proj);
				continue; /* no wheel for that component */
			}
			rc = wheel_part(index, proj, names->v[i], p->version, o,
					&(*wheels)[*nwheels], err);
			free(proj);
			if (rc)
				return rc;
			c->jobs[c->n++].part = &(*wheels)[(*nwheels)++];
		}
	} else if (rel->source == SRC_REDIST) {
		for (size_t i = 0; i < names->n; i++) {
			const struct part *p = release_part(rel, names->v[i]);

			if (p)
				c->jobs[c->n++].part = p;
		}
	} else {
		c->jobs[c->n++].part = &rel->parts[0];
	}
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
	return rc;
}

static void release_wheels(struct part *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(w[i].name);
		free(w[i].version);
		free(w[i].url);
		free(w[i].sha256);
	}
	free(w);
}

/*
 * An installed version that lacks components asked for now (it was
 * installed with --runtime-only or --components): say so, rather than
 * "already installed".
 */
static int check_complete(const struct install *have, const struct release *rel,
			  const struct strv *names, struct cuenv_err *err)
{
	struct buf missing = BUF_INIT;
	int rc = CUENV_OK;

	/* A registered toolkit is the user's: what it holds is not ours to
	 * judge, and --cupti / --cudnn beside it still install. */
	if (rel->kind != KIT_CUDA || have->registered)
		return CUENV_OK;
	for (size_t i = 0; i < names->n; i++) {
		size_t n = strlen(names->v[i]);
		int found = 0;

		for (size_t k = 0; k < have->notes.n && !found; k++)
			found = !strncmp(have->notes.v[k], names->v[i], n) &&
				have->notes.v[k][n] == ' ';
		if (!found) {
			buf_adds(&missing, missing.len ? ", " : "");
			buf_adds(&missing, names->v[i]);
		}
	}
	if (missing.len) {
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"cuda %s is installed without %s", have->name,
				missing.data);
		cuenv_hint(err, "to replace it: cuenv uninstall cuda %s, then "
				"install it again",
			   have->name);
	}
	buf_release(&missing);
	return rc;
}

int install_run(struct store *st, const struct release *rel,
		    const struct install_opts *opts, struct install *out,
		    struct cuenv_err *err)
{
	struct buf p = BUF_INIT, staging = BUF_INIT, version_dir = BUF_INIT;
	struct strv names = STRV_INIT;
	struct crew c = { 0 };
	struct part *wheels = NULL;
	size_t nwheels = 0;
	struct install in;
	char *name = NULL;
	int vlock = -1, slock = -1, rc;

	install_init(&in, rel->kind);
	install_init(out, rel->kind);
	pthread_mutex_init(&c.lock, NULL);
	pthread_cond_init(&c.changed, NULL);
	in.version = xstrdup(rel->version);
	in.cuda_major = rel->cuda_major;
	name = install_make_name(&in);

	/* Shared with other installs; `cuenv gc` waits for all of them. */
	buf_printf(&p, "cuenv install %s %s", kit_kind_name(rel->kind), name);
	if (st->lock_fd < 0)
		store_lock_describe(st, p.data);
	rc = store_lock_shared(st, err);
	if (rc)
		goto out;
	for (size_t i = 0; i < 4; i++) {
		static const char *const sub[] = { "cache", "pool", ".staging",
						   ".locks" };

		buf_reset(&p);
		buf_path(&p, st->root, sub[i]);
		rc = store_mkdir_p(p.data, err);
		if (rc)
			goto out;
	}
	/* One install of a version at a time; a second one waits. */
	buf_reset(&p);
	buf_printf(&p, "%s/.locks/%s-%s.lock", st->root,
		   kit_kind_name(rel->kind), name);
	vlock = lock_path(p.data, 1, 0);
	if (vlock == -1) {
		if (opts->waiting)
			opts->waiting(opts->progress_ctx, name);
		vlock = lock_path(p.data, 1, 1);
	}
	if (vlock < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot lock '%s': %s",
				p.data, strerror(errno));
		goto out;
	}
	buf_reset(&p);
	buf_printf(&p, "%s/versions/%s/%s/" RECEIPT_NAME, st->root,
		   kit_kind_name(rel->kind), name);
	rc = plan_archives(rel, &opts->plan, &names, err);
	if (rc)
		goto out;
	if (exists(p.data)) {
		buf_setlen(&p, p.len - strlen("/" RECEIPT_NAME));
		rc = store_read_receipt(p.data, out, err);
		if (!rc && !opts->keep_partial)
			rc = check_complete(out, rel, &names, err);
		if (!rc)
			rc = CUENV_NO;
		goto out;
	}
	{
		struct gc_report unused = { 0 };
		struct gc g = { &unused, 0, BUF_INIT };

		sweep_staging(st->root, &g); /* best effort */
		buf_release(&g.first);
	}

	/*
	 * The staging folder's lock exists and is held before the folder
	 * does, so another install's sweep can never take a live folder
	 * for a dead one's.
	 */
	buf_reset(&p);
	buf_printf(&p, "%s/.staging/install-XXXXXX.lock", st->root);
	slock = mkstemps(p.data, 5);
	if (slock >= 0 && lock_fd(slock)) {
		close(slock);
		slock = -1;
	}
	if (slock < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s",
				p.data, strerror(errno));
		goto out;
	}
	buf_add(&staging, p.data, p.len - 5);
	if (mkdir(staging.data, 0755)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s",
				staging.data, strerror(errno));
		unlink(p.data);
		buf_reset(&staging);
		goto out;
	}

	rc = make_jobs(rel, opts, &names, &wheels, &nwheels, &c, err);
	if (rc)
		goto out;
	for (size_t i = 0; i < c.n; i++) {
		c.jobs[i].opts = opts;
		c.jobs[i].root = st->root;
		c.jobs[i].staging = staging.data;
		c.jobs[i].source = rel->source;
		c.jobs[i].names = &names;
		c.jobs[i].lock = &c.lock;
		err_init(&c.jobs[i].err);
	}
	rc = run_jobs(&c, opts, err);
	if (rc)
		goto out;

	/* Every archive verified and in the pool: assemble the version. */
	buf_path(&version_dir, staging.data, "version");
	if (mkdir(version_dir.data, 0755)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s",
				version_dir.data, strerror(errno));
		goto out;
	}
	rc = assemble_version(&c, st->root, version_dir.data, err);
	for (size_t i = 0; i < c.n && !rc; i++) {
		const struct part *pt = c.jobs[i].part;
		struct buf line = BUF_INIT;

		if (rel->source == SRC_RUNFILE) {
			/* one archive, several components: name them all */
			for (size_t k = 0; k < names.n; k++) {
				buf_printf(&line, "%s %s", names.v[k],
					   rel->version);
				strv_push_take(&in.notes, buf_detach(&line));
			}
		} else {
			buf_printf(&line, "%s %s", pt->name, pt->version);
			strv_push_take(&in.notes, buf_detach(&line));
		}
		buf_printf(&line, "%s %s %s", pt->name, pt->sha256, pt->url);
		strv_push_take(&in.sources, buf_detach(&line));
		if (!strcmp(pt->name, "cuda_cupti"))
			in.cupti_version = xstrdup(pt->version);
	}
	if (rc)
		goto out;
	detect_layout(version_dir.data, &in);
	if (!in.cupti_version && in.cupti.n && rel->kind != KIT_CUDNN)
		in.cupti_version = xstrdup(rel->version);
	rc = store_commit(st, &in, version_dir.data, err);
	if (!rc) {
		rc = store_read_receipt(in.dir, out, err);
	}
out:
	for (size_t i = 0; i < c.n; i++) {
		free(c.jobs[i].key);
		err_release(&c.jobs[i].err);
	}
	free(c.jobs);
	release_wheels(wheels, nwheels);
	if (staging.len && exists(staging.data)) {
		store_remove_tree(staging.data);
		buf_reset(&p);
		buf_printf(&p, "%s.lock", staging.data);
		unlink(p.data);
	}
	if (slock >= 0)
		close(slock);
	if (vlock >= 0)
		close(vlock);
	pthread_mutex_destroy(&c.lock);
	pthread_cond_destroy(&c.changed);
	install_release(&in);
	strv_release(&names);
	free(name);
	buf_release(&p);
	buf_release(&staging);
	buf_release(&version_dir);
	return rc;
}

/* ---- gc ------------------------------------------------------------------------ */

static int is_sha_name(const char *name, int *part)
{
	size_t n = strspn(name, "0123456789abcdef");

	*part = n == DIGEST_HEX_LEN && !strcmp(name + n, ".part");
	return n == DIGEST_HEX_LEN && (!name[n] || *part);
}

/*
 * The download cache: partial downloads untouched for o->part_age
 * seconds always go (a download that died on a full disk leaves a large
 * one), and with o->cache everything. An archive whose lock
 * (.locks/<sha>.lock) someone holds is a running install's: it stays.
 */
static void prune_cache(const char *root, const struct gc_opts *o,
			struct gc *g)
{
	struct buf dir = BUF_INIT, p = BUF_INIT;
	struct dirent *de;
	time_t now = time(NULL);
	DIR *d;

	buf_path(&dir, root, "cache");
	d = opendir(dir.data);
	if (!d && errno != ENOENT)
		gc_failed(g, dir.data, errno);
	while (d && (de = readdir(d))) {
		struct stat sb;
		int part, fd;

		if (!is_sha_name(de->d_name, &part) ||
		    fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(sb.st_mode))
			continue;
		if (!o->cache && !(part && now - sb.st_mtime > o->part_age))
			continue;
		buf_reset(&p);
		buf_printf(&p, "%s/.locks/%.*s.lock", root, DIGEST_HEX_LEN,
			   de->d_name);
		fd = open(p.data, O_RDWR | O_CLOEXEC);
		if (fd >= 0 && store_lock_now(fd)) {
			g->r->busy++;
			close(fd);
			continue;
		}
		buf_reset(&p);
		buf_path(&p, dir.data, de->d_name);
		if (unlinkat(dirfd(d), de->d_name, 0)) {
			gc_failed(g, p.data, errno);
		} else {
			uint64_t freed = sb.st_nlink == 1 ? (uint64_t)sb.st_size
							  : 0;

			if (part) {
				g->r->parts++;
				g->r->part_bytes += freed;
			} else {
				g->r->archives++;
				g->r->archive_bytes += freed;
			}
		}
		if (fd >= 0)
			close(fd);
	}
	if (d)
		closedir(d);
	buf_release(&dir);
	buf_release(&p);
}

/* Pool trees no version links to. */
static void prune_pool(const char *root, struct gc *g)
{
	struct buf dir = BUF_INIT, p = BUF_INIT;
	struct tree_stats ts;
	struct dirent *de;
	DIR *d;

	buf_path(&dir, root, "pool");
	d = opendir(dir.data);
	if (!d && errno != ENOENT)
		gc_failed(g, dir.data, errno);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		buf_reset(&p);
		buf_path(&p, dir.data, de->d_name);
		if (store_measure_tree(p.data, &ts)) {
			gc_failed(g, p.data, errno);
			continue;
		}
		if (ts.linked)
			continue; /* a version uses it */
		if (store_remove_tree_stats(p.data, &ts))
			gc_failed(g, p.data, errno);
		else
			g->r->trees++;
		g->r->tree_bytes += ts.bytes;
	}
	if (d)
		closedir(d);
	buf_release(&dir);
	buf_release(&p);
}

int install_gc(struct store *st, const struct gc_opts *o, struct gc_report *r,
	       struct cuenv_err *err)
{
	struct gc g = { r, 0, BUF_INIT };
	int rc;

	memset(r, 0, sizeof(*r));
	rc = store_lock(st, err);
	if (rc)
		return rc;
	/* Trash first: its links keep pool trees in use. */
	sweep_staging(st->root, &g);
	prune_pool(st->root, &g);
	prune_cache(st->root, o, &g);
	if (g.failed) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot remove %s",
				g.first.data);
		if (g.failed > 1)
			cuenv_hint(err, "%u other removals failed too",
				   g.failed - 1);
	}
	buf_release(&g.first);
	return rc;
}
