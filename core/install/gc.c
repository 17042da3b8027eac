/*
 * gc.c: gc.h, the store's garbage collection: the sweep of dead staging
 * folders (which each install also runs), pool trees no version uses,
 * and the download cache.
 */
#include "install/gc.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "plat/plat_path.h"
#include "net/digest.h"
#include "plat/plat_fs.h"

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

/* An entry of a folder gc looks through: dfd is open on dir. */
typedef void gc_entry_fn(struct gc *g, int dfd, const char *dir,
			 const char *name, void *ctx);

/*
 * Call fn for each entry of root/sub. A folder that cannot be opened
 * (other than a missing one) is a failure when report_open says so.
 */
static void gc_each_entry(struct gc *g, const char *root, const char *sub,
			  int report_open, gc_entry_fn *fn, void *ctx)
{
	struct buf dir = BUF_INIT;
	struct plat_dir *d = NULL;
	const char *name;
	int dfd;

	buf_path(&dir, root, sub);
	dfd = plat_open(dir.data, PLAT_O_READ | PLAT_O_DIR, 0);
	if (dfd >= 0)
		d = plat_fdopendir(dfd);
	if (!d && report_open && errno != ENOENT)
		gc_failed(g, dir.data, errno);
	while (d && (name = plat_readdir(d)))
		fn(g, dfd, dir.data, name, ctx);
	plat_closedir(d);
	if (dfd >= 0)
		plat_close(dfd);
	buf_release(&dir);
}

/* ---- cleaning up after dead installs and uninstalls --------------------- */

static int exists(const char *path)
{
	struct plat_stat st;

	return !plat_lstat(path, &st);
}

/* An hour: no live install's folder goes without its lock that old. */
#define LOCKLESS_AGE 3600

static int older_than(const char *path, time_t age)
{
	struct plat_stat st;

	return !plat_lstat(path, &st) && time(NULL) - st.mtime > age;
}

/* p: a lock file "X.lock"; it goes when X is gone and it is old and free. */
static void sweep_lock(struct buf *p)
{
	int fd;

	buf_setlen(p, p->len - 5);
	if (exists(p->data))
		return;
	buf_adds(p, ".lock");
	fd = older_than(p->data, LOCKLESS_AGE)
		     ? plat_open(p->data, PLAT_O_WRITE, 0)
		     : -1;
	if (fd >= 0 && !store_lock_now(fd))
		plat_unlink(p->data);
	if (fd >= 0)
		plat_close(fd);
}

/* p: a staging folder; it goes when its lock is free (or, see above). */
static void sweep_folder(struct gc *g, struct buf *p, int lockless_ok)
{
	struct tree_stats ts;
	int fd;

	buf_adds(p, ".lock");
	fd = plat_open(p->data, PLAT_O_WRITE, 0);
	buf_setlen(p, p->len - 5);
	if (fd < 0 && errno != ENOENT)
		return;
	if (fd < 0 && !lockless_ok && !older_than(p->data, LOCKLESS_AGE))
		return;
	if (fd >= 0 && store_lock_now(fd)) {
		plat_close(fd);
		return; /* alive */
	}
	if (store_remove_tree_stats(p->data, &ts)) {
		gc_failed(g, p->data, errno);
	} else {
		g->r->leftovers++;
		buf_adds(p, ".lock");
		if (fd >= 0)
			plat_unlink(p->data);
	}
	g->r->leftover_bytes += ts.bytes;
	if (fd >= 0)
		plat_close(fd);
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
static void sweep_entry(struct gc *g, int d, const char *dir, const char *name,
			void *ctx)
{
	struct buf p = BUF_INIT;
	size_t n = strlen(name);
	int is_lock = n > 5 && !strcmp(name + n - 5, ".lock");
	int lockless_ok;

	(void)d;
	(void)ctx;
	if (!strncmp(name, "install-", 8))
		lockless_ok = 0;
	else if (!strncmp(name, "trash-", 6) || !strncmp(name, "register-", 9))
		lockless_ok = 1;
	else
		return;
	buf_path(&p, dir, name);
	if (is_lock)
		sweep_lock(&p);
	else
		sweep_folder(g, &p, lockless_ok);
	buf_release(&p);
}

static void sweep_staging(const char *root, struct gc *g)
{
	gc_each_entry(g, root, ".staging", 0, sweep_entry, NULL);
}

void gc_sweep_staging(const char *root)
{
	struct gc_report unused = { 0 };
	struct gc g = { &unused, 0, BUF_INIT };

	sweep_staging(root, &g);
	buf_release(&g.first);
}

/* ---- the download cache and the pool ------------------------------------ */

static int is_sha_name(const char *name, int *part)
{
	size_t n = strspn(name, "0123456789abcdef");

	*part = n == DIGEST_HEX_LEN && !strcmp(name + n, ".part");
	return n == DIGEST_HEX_LEN && (!name[n] || *part);
}

/*
 * The store's record of what it made in pool/ and cache/: an install
 * creates .locks/<sha256>.lock before it writes anything of that archive
 * (cache/<sha256>[.part], pool/<sha256>[-subset][-rt]); only gc
 * removes it, once none of those is left. An entry without one is not cuenv's (a root made over an
 * existing folder): gc leaves it. name starts with the sha256. Opens the
 * record for writing (to try its lock): the fd, or -1 when there is none.
 */
static int open_record(const char *root, const char *name)
{
	struct buf p = BUF_INIT;
	int fd;

	buf_printf(&p, "%s/.locks/%.*s.lock", root, DIGEST_HEX_LEN, name);
	fd = plat_open(p.data, PLAT_O_WRITE | PLAT_O_NOFOLLOW, 0);
	buf_release(&p);
	return fd;
}

struct prune_cache {
	const char *root;
	const struct gc_opts *o;
	time_t now;
};

static void prune_cache_entry(struct gc *g, int d, const char *dir,
			      const char *name, void *ctx)
{
	const struct prune_cache *pc = ctx;
	struct buf p = BUF_INIT;
	struct plat_stat sb;
	int part, fd;

	if (!is_sha_name(name, &part) || plat_stat_at(d, name, 1, &sb) ||
	    sb.type != PLAT_F_REG)
		return;
	if (!pc->o->cache && !(part && pc->now - sb.mtime > pc->o->part_age))
		return;
	fd = open_record(pc->root, name);
	if (fd < 0)
		return; /* not the store's */
	if (store_lock_now(fd)) {
		g->r->busy++;
		plat_close(fd);
		return;
	}
	buf_path(&p, dir, name);
	if (plat_unlink_at(d, name)) {
		gc_failed(g, p.data, errno);
	} else {
		uint64_t freed = sb.nlink == 1 ? sb.size : 0;

		if (part) {
			g->r->parts++;
			g->r->part_bytes += freed;
		} else {
			g->r->archives++;
			g->r->archive_bytes += freed;
		}
	}
	plat_close(fd);
	buf_release(&p);
}

/*
 * The download cache: partial downloads untouched for o->part_age
 * seconds always go (a download that died on a full disk leaves a large
 * one), and with o->cache everything. An archive whose lock
 * (.locks/<sha>.lock) someone holds is a running install's: it stays.
 */
static void prune_cache(const char *root, const struct gc_opts *o, struct gc *g)
{
	struct prune_cache pc = { root, o, time(NULL) };

	gc_each_entry(g, root, "cache", 1, prune_cache_entry, &pc);
}

static void prune_pool_entry(struct gc *g, int d, const char *dir,
			     const char *name, void *ctx)
{
	const char *root = ctx;
	struct buf p = BUF_INIT;
	struct tree_stats ts;
	size_t n = strspn(name, "0123456789abcdef");
	int fd;

	(void)d;
	if (n != DIGEST_HEX_LEN || (name[n] && name[n] != '-'))
		return; /* not a pool tree's name: not the store's */
	fd = open_record(root, name);
	if (fd < 0)
		return;
	plat_close(fd);
	buf_path(&p, dir, name);
	if (store_measure_tree(p.data, &ts)) {
		gc_failed(g, p.data, errno);
	} else if (!ts.linked) { /* else a version uses it */
		if (store_remove_tree_stats(p.data, &ts))
			gc_failed(g, p.data, errno);
		else
			g->r->trees++;
		g->r->tree_bytes += ts.bytes;
	}
	buf_release(&p);
}

/* Pool trees no version links to, of those the store's records name. */
static void prune_pool(const char *root, struct gc *g)
{
	gc_each_entry(g, root, "pool", 1, prune_pool_entry, (void *)root);
}

static void count_cache_entry(struct gc *g, int d, const char *dir,
			      const char *name, void *ctx)
{
	uint64_t *bytes = ctx;
	struct plat_stat sb;
	int part;

	(void)g;
	(void)dir;
	if (is_sha_name(name, &part) && !plat_stat_at(d, name, 1, &sb) &&
	    sb.type == PLAT_F_REG && sb.nlink == 1)
		*bytes += sb.size;
}

uint64_t gc_cache_bytes(const char *root)
{
	struct gc_report unused = { 0 };
	struct gc g = { &unused, 0, BUF_INIT };
	uint64_t bytes = 0;

	gc_each_entry(&g, root, "cache", 0, count_cache_entry, &bytes);
	buf_release(&g.first);
	return bytes;
}

/* ---- lock files ------------------------------------------------------------ */

struct sweep_locks {
	const char *root;
	struct strv pool; /* pool/'s names, read once */
};

static void list_pool_entry(struct gc *g, int d, const char *dir,
			    const char *name, void *ctx)
{
	struct sweep_locks *sl = ctx;

	(void)g;
	(void)d;
	(void)dir;
	strv_push(&sl->pool, name);
}

/* Does the store still hold something of the archive sha names? */
static int archive_kept(const struct sweep_locks *sl, const char *sha)
{
	struct buf p = BUF_INIT;
	int kept = 0;

	for (int part = 0; part < 2 && !kept; part++) {
		buf_reset(&p);
		buf_printf(&p, "%s/cache/%.*s%s", sl->root, DIGEST_HEX_LEN, sha,
			   part ? ".part" : "");
		kept = exists(p.data);
	}
	for (size_t i = 0; i < sl->pool.n && !kept; i++)
		kept = !strncmp(sl->pool.v[i], sha, DIGEST_HEX_LEN) &&
		       (!sl->pool.v[i][DIGEST_HEX_LEN] ||
			sl->pool.v[i][DIGEST_HEX_LEN] == '-');
	buf_release(&p);
	return kept;
}

/*
 * .locks/<kind>-<name>.lock (an install's of that version) goes when the
 * version is not installed; .locks/<sha256>.lock (the record of an
 * archive's pool tree and cache files) when none of those is left. Only
 * a holder of the store's lock alone may: every install holds it shared
 * while it has any of these open.
 */
static void sweep_lock_entry(struct gc *g, int d, const char *dir,
			     const char *name, void *ctx)
{
	const struct sweep_locks *sl = ctx;
	static const char *const kinds[] = { "cuda-", "cudnn-", "cupti-" };
	size_t n = strlen(name), hex = strspn(name, "0123456789abcdef");
	struct buf p = BUF_INIT;
	int gone = 0;

	(void)dir;
	if (n <= 5 || strcmp(name + n - 5, ".lock"))
		return;
	if (hex == DIGEST_HEX_LEN && n == DIGEST_HEX_LEN + 5) {
		gone = !archive_kept(sl, name);
	} else {
		for (size_t k = 0; k < sizeof(kinds) / sizeof(*kinds); k++) {
			size_t kl = strlen(kinds[k]);

			if (strncmp(name, kinds[k], kl) || n - 5 <= kl)
				continue;
			buf_printf(&p, "%s/versions/%.*s/%.*s", sl->root,
				   (int)kl - 1, name, (int)(n - 5 - kl),
				   name + kl);
			gone = !exists(p.data);
			break;
		}
	}
	if (gone && plat_unlink_at(d, name) && errno != ENOENT) {
		buf_reset(&p);
		buf_printf(&p, "%s/%s", dir, name);
		gc_failed(g, p.data, errno);
	}
	buf_release(&p);
}

static void sweep_locks(const char *root, struct gc *g)
{
	struct sweep_locks sl = { root, STRV_INIT };

	gc_each_entry(g, root, "pool", 0, list_pool_entry, &sl);
	gc_each_entry(g, root, ".locks", 1, sweep_lock_entry, &sl);
	strv_release(&sl.pool);
}

int gc_run(struct store *st, const struct gc_opts *o, struct gc_report *r,
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
	sweep_locks(st->root, &g);
	store_sweep_stamps(st->root);
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

/* ---- what gc says --------------------------------------------------------- */

static double mb(uint64_t bytes)
{
	return (double)bytes / 1e6;
}

/*
 * "VERB N NOUN[s]REST", and " (X MB)" unless bytes is NULL: one line of
 * what gc did, for a count.
 */
static void said(struct buf *out, const char *verb, uint64_t n,
		 const char *noun, const char *rest, const uint64_t *bytes)
{
	buf_printf(out, "%s %llu %s%s%s", verb, (unsigned long long)n, noun,
		   n == 1 ? "" : "s", rest);
	if (bytes)
		buf_printf(out, " (%.1f MB)", mb(*bytes));
	buf_addc(out, '\n');
}

void gc_render(const struct gc_report *r, int cache, struct buf *out)
{
	said(out, "removed", r->trees, "unused component", "", &r->tree_bytes);
	if (r->leftovers)
		said(out, "removed", r->leftovers, "folder",
		     " left by interrupted installs or uninstalls",
		     &r->leftover_bytes);
	if (cache)
		said(out, "removed", r->archives, "cached archive", "",
		     &r->archive_bytes);
	if (r->parts)
		said(out, "removed", r->parts, "partial download", "",
		     &r->part_bytes);
	if (r->busy)
		said(out, "kept", r->busy, "cached file",
		     " a running install is using", NULL);
}
