#include "mirror.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "compat.h"
#include "digest.h"
#include "file.h"
#include "plat_fs.h"
#include "plat_path.h"
#include "store.h"
#include "xalloc.h"

#define STATE ".cuenv-mirror"
#define INDEX "cuenv-mirror.json"
#define CATALOGUE "cuenv-catalogue"
#define INDEX_SCHEMA 1
/* The largest index, stamp file, table or manifest read. */
#define TEXT_MAX (64u << 20)

/* ---- the plan ------------------------------------------------------------- */

void mirror_plan_init(struct mirror_plan *p)
{
	memset(p, 0, sizeof(*p));
}

static void file_release(struct mirror_file *f)
{
	FREE_EACH(f->path, f->url, f->sha256, f->origin);
}

static void entry_release(struct mirror_entry *e)
{
	FREE_EACH(e->version, e->platform, e->components);
}

void mirror_plan_release(struct mirror_plan *p)
{
	for (size_t i = 0; i < p->nfiles; i++)
		file_release(&p->files[i]);
	for (size_t i = 0; i < p->nentries; i++)
		entry_release(&p->entries[i]);
	free(p->files);
	free(p->entries);
	strv_release(&p->tables);
	mirror_plan_init(p);
}

char *mirror_path(const char *url)
{
	static const char *const hosts[] = {
		"https://developer.download.nvidia.com/",
		"https://developer.nvidia.com/",
	};

	for (size_t i = 0; i < 2; i++) {
		size_t n = strlen(hosts[i]);
		const char *p = url + n, *s;

		if (strncmp(url, hosts[i], n))
			continue;
		/* Plain segments only: it becomes a path below DIR. */
		for (s = p; *s; s++)
			if ((unsigned char)*s <= ' ' || *s == '\\' ||
			    *s == '%' || *s == '?' || *s == '#' || *s == 0x7f)
				return NULL;
		for (s = p;;) {
			size_t k = strcspn(s, "/");

			if (!k || (k == 1 && s[0] == '.') ||
			    (k == 2 && s[0] == '.' && s[1] == '.'))
				return NULL;
			if (!s[k])
				break;
			s += k + 1;
		}
		return xstrdup(p);
	}
	return NULL;
}

static struct mirror_file *find_file(const struct mirror_plan *p,
				     const char *path)
{
	for (size_t i = 0; i < p->nfiles; i++)
		if (!strcmp(p->files[i].path, path))
			return &p->files[i];
	return NULL;
}

/* Add a file (taking path), unless planned; the same path with another
 * sha256 is a catalogue that contradicts itself. */
static int add_file(struct mirror_plan *p, char *path, const char *url,
		    const char *sha, uint64_t size, const char *origin,
		    struct cuenv_err *err)
{
	struct mirror_file *f = find_file(p, path);

	if (f) {
		int same = !strcmp(f->sha256, sha);

		if (!same)
			cuenv_fail(err, CUENV_E_MANIFEST,
				   "the catalogue gives '%s' two sha256: %s "
				   "and %s",
				   path, f->sha256, sha);
		free(path);
		return same ? CUENV_OK : err->rc;
	}
	p->files = xrealloc(p->files, (p->nfiles + 1) * sizeof(*p->files));
	f = &p->files[p->nfiles++];
	f->path = path;
	f->url = xstrdup(url);
	f->sha256 = xstrdup(sha);
	f->size = size;
	f->origin = origin ? xstrdup(origin) : NULL;
	return CUENV_OK;
}

static int add_archive(struct mirror_plan *p, const struct part *pt,
		       struct cuenv_err *err)
{
	char *path = mirror_path(pt->url);

	if (!path)
		return cuenv_fail(err, CUENV_E_MANIFEST,
				  "cannot mirror '%s': not a plain path on "
				  "NVIDIA's host",
				  pt->url);
	return add_file(p, path, pt->url, pt->sha256, pt->size, NULL, err);
}

/* A redist release's manifest, verbatim, where NVIDIA keeps it. */
static int add_manifest(struct mirror_plan *p, const struct release *rel,
			struct cuenv_err *err)
{
	const char *base = plat_path_last(rel->origin);
	const char *k =
		kit_kind_name(rel->kind == KIT_CUDNN ? KIT_CUDNN : KIT_CUDA);
	char hex[DIGEST_HEX_LEN + 1];
	struct buf path = BUF_INIT, url = BUF_INIT;
	struct plat_stat st;
	int rc;

	buf_printf(&path, "compute/%s/redist/%s", k, base);
	buf_printf(&url, "%s/%s", NVIDIA_BASE, path.data);
	if (strncmp(base, "redistrib_", 10) || plat_stat(rel->origin, &st)) {
		rc = cuenv_fail(err, CUENV_E_MANIFEST,
				"cannot mirror the manifest '%s'", rel->origin);
		goto out;
	}
	rc = digest_file(rel->origin, hex, err);
	if (!rc)
		rc = add_file(p, buf_detach(&path), url.data, hex, st.size,
			      rel->origin, err);
out:
	buf_release(&path);
	buf_release(&url);
	return rc;
}

int mirror_plan_add(struct mirror_plan *p, const struct release *rel,
		    enum kit_kind kind, const struct plan_opts *opts,
		    const char *platform, struct cuenv_err *err)
{
	struct release r = *rel;
	struct plan_opts o = plan_opts_for(kind, opts);
	struct strv names = STRV_INIT;
	struct buf comps = BUF_INIT;
	struct mirror_entry *e;
	int rc;

	r.kind = kind;
	rc = plan_archives(&r, &o, &names, err);
	if (rc)
		goto out;
	if (rel->source == SRC_REDIST) {
		for (size_t i = 0; i < names.n && !rc; i++) {
			const struct part *pt = release_part(rel, names.v[i]);

			if (!pt)
				continue;
			rc = add_archive(p, pt, err);
			buf_printf(&comps, "%s%s", comps.len ? ", " : "",
				   pt->name);
		}
		if (!rc)
			rc = add_manifest(p, rel, err);
	} else if (rel->nparts) {
		rc = add_archive(p, &rel->parts[0], err);
		buf_adds(&comps, rel->parts[0].name);
		if (strv_find(&p->tables, rel->origin) < 0)
			strv_push(&p->tables, rel->origin);
	}
	if (rc)
		goto out;
	for (size_t i = 0; i < p->nentries; i++) {
		e = &p->entries[i];
		if (e->kind == kind && e->source == rel->source &&
		    e->cuda_major == rel->cuda_major &&
		    !strcmp(e->version, rel->version) &&
		    !strcmp(e->platform, platform) &&
		    !strcmp(e->components, comps.data))
			goto out;
	}
	p->entries =
		xrealloc(p->entries, (p->nentries + 1) * sizeof(*p->entries));
	e = &p->entries[p->nentries++];
	e->kind = kind;
	e->source = rel->source;
	e->version = xstrdup(rel->version);
	e->cuda_major = rel->cuda_major;
	e->platform = xstrdup(platform);
	e->components = buf_detach(&comps);
out:
	strv_release(&names);
	buf_release(&comps);
	return rc;
}

int mirror_plan_request(struct mirror_plan *p, const struct catalog *cat,
			const char *cuda, const char *cudnn, const char *cupti,
			int source, const char *platform,
			const struct plan_opts *opts, struct cuenv_err *err)
{
	struct catalog_choice ch;
	int rc;

	rc = catalog_resolve(cat, cuda, cudnn, cupti, source, &ch, err);
	if (rc) {
		/* Another machine's platform: say which. */
		if (strcmp(platform, catalog_platform()))
			buf_printf(&err->msg, " for %s", platform);
		return rc;
	}
	rc = mirror_plan_add(p, ch.cuda, KIT_CUDA, opts, platform, err);
	if (!rc && ch.cudnn)
		rc = mirror_plan_add(p, ch.cudnn, KIT_CUDNN, opts, platform,
				     err);
	if (!rc && ch.cupti)
		rc = mirror_plan_add(p, ch.cupti, KIT_CUPTI, opts, platform,
				     err);
	return rc;
}

/* One CUDA spec with its cuDNN (NULL: none), as asked or picked. */
struct mirror_want {
	const char *cuda, *cudnn;
};

int mirror_plan_all(struct mirror_plan *p, const struct mirror_asked *q,
		    const struct mirror_sources *src, struct cuenv_err *err)
{
	struct mirror_want *want =
		xcalloc((size_t)q->nspecs + q->fors.n + 1, sizeof(*want));
	struct framework_builds *fws = xcalloc(q->fors.n + 1, sizeof(*fws));
	size_t n = 0;
	int rc = CUENV_OK;

	for (int i = 0; i < q->nspecs; i++)
		want[n++] = (struct mirror_want){ q->specs[i], q->cudnn };
	for (size_t pl = 0; pl < q->plats.n && !rc; pl++) {
		struct catalog cat = { 0 };

		rc = src->catalog(src->ctx, q->plats.v[pl], &cat, err);
		/* --for picks with the first platform's catalogue. */
		for (size_t i = 0; !rc && pl == 0 && i < q->fors.n; i++) {
			rc = src->framework(src->ctx, q->fors.v[i], &cat,
					    q->cudnn, q->source, q->quiet,
					    &fws[i], err);
			if (!rc)
				want[n++] = (struct mirror_want){
					fws[i].v[0].cuda,
					q->cudnn ? q->cudnn : fws[i].v[0].cudnn
				};
		}
		for (size_t i = 0; !rc && i < n; i++)
			rc = mirror_plan_request(p, &cat, want[i].cuda,
						 want[i].cudnn, q->cupti,
						 q->source, q->plats.v[pl],
						 q->io, err);
		catalog_release(&cat);
	}
	for (size_t i = 0; i < q->fors.n; i++)
		framework_builds_release(&fws[i]);
	free(fws);
	free(want);
	return rc;
}

/* ---- stamps: files already hashed ----------------------------------------- */

struct stamp {
	char *path;
	char sha[DIGEST_HEX_LEN + 1];
	uint64_t size;
	long long sec, nsec;
	unsigned long long ino;
	/*
	 * When the stamp was saved (0: not yet). File times are coarse (a
	 * clock tick), so a file changed in the same tick as it was stamped
	 * would look unchanged: a stamp taken within a second of the file's
	 * mtime is not trusted, and the file is hashed again (as git treats
	 * "racily clean" index entries).
	 */
	long long taken;
};

struct stamps {
	struct stamp *v;
	size_t n;
};

static void stamps_release(struct stamps *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].path);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

static struct stamp *stamp_find(const struct stamps *s, const char *path)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].path, path))
			return &s->v[i];
	return NULL;
}

static void stamp_set(struct stamps *s, const char *path, const char *sha,
		      const struct plat_stat *st)
{
	struct stamp *t = stamp_find(s, path);

	if (!t) {
		s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
		t = &s->v[s->n++];
		t->path = xstrdup(path);
	}
	memcpy(t->sha, sha, DIGEST_HEX_LEN + 1);
	t->size = st->size;
	t->sec = (long long)st->mtime;
	t->nsec = (long long)st->mtime_ns;
	t->ino = (unsigned long long)st->id.ino;
	t->taken = 0;
}

static void stamp_drop(struct stamps *s, const char *path)
{
	struct stamp *t = stamp_find(s, path);

	if (!t)
		return;
	free(t->path);
	/* t is one of s->v's n entries: s->v is not NULL. */
	*t = s->v[--s->n]; /* NOLINT(clang-analyzer-core.NullDereference) */
}

static int stamp_matches(const struct stamps *s, const char *path,
			 const char *sha, const struct plat_stat *st)
{
	const struct stamp *t = stamp_find(s, path);

	return t && !strcmp(t->sha, sha) && t->size == st->size &&
	       t->sec == (long long)st->mtime &&
	       t->nsec == (long long)st->mtime_ns &&
	       t->ino == (unsigned long long)st->id.ino &&
	       t->taken > t->sec + 1;
}

/* "sha size sec nsec ino taken path" per line; a line that does not parse is
 * dropped (the file is hashed again). */
static void stamps_load(struct stamps *s, const char *file)
{
	struct cuenv_err e = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *line, *next;

	if (file_read(file, TEXT_MAX, FILE_MAY_BE_MISSING, &text, &e))
		goto out;
	for (line = text.data; *line; line = next) {
		struct stamp t = { 0 };
		char sha[DIGEST_HEX_LEN + 1];
		unsigned long long size;
		int at = 0;

		next = strchr(line, '\n');
		if (!next)
			break;
		*next++ = '\0';
		if (sscanf(line, "%64s %llu %lld %lld %llu %lld %n", sha, &size,
			   &t.sec, &t.nsec, &t.ino, &t.taken, &at) != 6 ||
		    !at || !line[at] || !digest_hex_valid(sha))
			continue;
		s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
		t.path = xstrdup(line + at);
		memcpy(t.sha, sha, sizeof(sha));
		t.size = size;
		s->v[s->n++] = t;
	}
out:
	err_release(&e);
	buf_release(&text);
}

static int stamps_save(struct stamps *s, const char *file,
		       struct cuenv_err *err)
{
	struct buf text = BUF_INIT;
	struct timespec now;
	int rc;

	clock_gettime(CLOCK_REALTIME, &now);
	for (size_t i = 0; i < s->n; i++) {
		if (!s->v[i].taken)
			s->v[i].taken = (long long)now.tv_sec;
		buf_printf(&text, "%s %llu %lld %lld %llu %lld %s\n",
			   s->v[i].sha, (unsigned long long)s->v[i].size,
			   s->v[i].sec, s->v[i].nsec, s->v[i].ino,
			   s->v[i].taken, s->v[i].path);
	}
	/* No stamps: the file is left as it is. */
	rc = s->n ? file_write(file, text.data, text.len, FILE_MODE_KEEP, err)
		  : CUENV_OK;
	buf_release(&text);
	return rc;
}

/* ---- moving bytes ------------------------------------------------------- */

#define BLOCK (1 << 20)

/*
 * Append the file at src to fd (when fd >= 0), hashing it into d; bytes
 * read into *n. CUENV_OK or CUENV_E_STORE naming src or dst.
 */
static int copy_hashed(const char *src, int fd, const char *dst,
		       struct digest *d, uint64_t *n, struct cuenv_err *err)
{
	char *buf = xmalloc(BLOCK);
	int in = plat_open(src, PLAT_O_READ, 0), rc = CUENV_OK;
	ssize_t r;

	if (in < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s", src,
				strerror(errno));
		goto out;
	}
	for (;;) {
		r = file_read_full(in, buf, BLOCK);
		if (r < 0) {
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot read '%s': %s", src,
					strerror(errno));
			goto out;
		}
		if (!r)
			break;
		digest_update(d, buf, (size_t)r);
		*n += (uint64_t)r;
		if (fd >= 0 && file_write_full(fd, buf, (size_t)r)) {
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot write '%s': %s", dst,
					strerror(errno));
			goto out;
		}
	}
out:
	if (in >= 0)
		plat_close(in);
	free(buf);
	return rc;
}

/* Compare what was read with what f must be; name says where from. */
static int check_bytes(const struct mirror_file *f, struct digest *d,
		       uint64_t n, const char *name, struct cuenv_err *err)
{
	char hex[DIGEST_HEX_LEN + 1];

	digest_final(d, hex);
	if (f->size && n != f->size)
		return cuenv_fail(err, CUENV_E_INTEGRITY,
				  "size mismatch for '%s': expected %llu "
				  "bytes, got %llu",
				  name, (unsigned long long)f->size,
				  (unsigned long long)n);
	if (strcmp(hex, f->sha256))
		return cuenv_fail(
			err, CUENV_E_INTEGRITY,
			"sha256 mismatch for '%s': expected %s, got %s", name,
			f->sha256, hex);
	return CUENV_OK;
}

/*
 * The end of writing f's bytes to tmp through fd: unless rc already says
 * it failed, check them (n bytes hashed into d, from name), then make them
 * durable. Closes fd in every case; returns the outcome.
 */
static int finish_checked(const struct mirror_file *f, struct digest *d,
			  uint64_t n, const char *name, int rc, int fd,
			  const char *tmp, struct cuenv_err *err)
{
	if (!rc)
		rc = check_bytes(f, d, n, name, err);
	if (!rc && plat_fsync(fd))
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				tmp, strerror(errno));
	if (plat_close(fd) && !rc)
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				tmp, strerror(errno));
	return rc;
}

/* Copy a local file (a manifest, a cached archive) to tmp, checked. */
static int copy_checked(const struct mirror_file *f, const char *src,
			const char *tmp, uint64_t *n, struct cuenv_err *err)
{
	struct digest *d = digest_new();
	int fd = plat_open(tmp, PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_TRUNC,
			   0644);
	int rc;

	*n = 0;
	if (fd < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				tmp, strerror(errno));
		goto out;
	}
	rc = copy_hashed(src, fd, tmp, d, n, err);
	rc = finish_checked(f, d, *n, src, rc, fd, tmp, err);
	fd = -1;
out:
	if (fd >= 0)
		plat_close(fd);
	if (rc)
		plat_unlink(tmp);
	digest_free(d);
	return rc;
}

/*
 * Download f into tmp, resuming from the bytes a failed run left there.
 * Only a network failure keeps them; *n: bytes that came over the network.
 */
static int download(const struct mirror_file *f, const struct mirror_opts *o,
		    const char *tmp, uint64_t *n, struct cuenv_err *err)
{
	struct digest *d = digest_new();
	char *url = install_mirror_url(f->url, o->upstream);
	struct fetch *net = NULL;
	uint64_t have = 0;
	struct plat_stat st;
	int fd, rc = CUENV_OK, keep = 0;

	*n = 0;
	fd = plat_open(tmp, PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_APPEND, 0644);
	if (fd < 0 || plat_fstat(fd, &st)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				tmp, strerror(errno));
		goto out;
	}
	if (f->size && st.size > f->size && plat_ftruncate(fd, 0)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				tmp, strerror(errno));
		goto out;
	}
	/* What an earlier run got is hashed, then the rest is asked for. */
	rc = copy_hashed(tmp, -1, tmp, d, &have, err);
	if (rc)
		goto out;
	if (!f->size || have < f->size) {
		const void *p;
		ssize_t r;

		net = fetch_open(url, have, f->size, &o->fetch);
		while ((r = fetch_read(net, &p, err)) > 0) {
			digest_update(d, p, (size_t)r);
			have += (uint64_t)r;
			*n += (uint64_t)r;
			if (file_write_full(fd, p, (size_t)r)) {
				rc = cuenv_fail(err, CUENV_E_STORE,
						"cannot write '%s': %s", tmp,
						strerror(errno));
				goto out;
			}
		}
		if (r < 0) {
			rc = err->rc;
			keep = !fetch_too_long(net);
			goto out;
		}
	}
	rc = finish_checked(f, d, have, url, CUENV_OK, fd, tmp, err);
	fd = -1;
out:
	if (fd >= 0)
		plat_close(fd);
	if (rc && !keep)
		plat_unlink(tmp);
	fetch_close(net);
	digest_free(d);
	free(url);
	return rc;
}

/* ---- one file ------------------------------------------------------------ */

struct run {
	const struct mirror_opts *o;
	struct mirror_report *r;
	struct stamps stamps;
};

/* Is DIR/f->path there with the right bytes? 1 yes, 0 no (absent or
 * damaged: *damaged), or an error. */
static int verified(struct run *run, const struct mirror_file *f,
		    const char *dest, int *damaged, struct cuenv_err *err)
{
	char hex[DIGEST_HEX_LEN + 1];
	struct plat_stat st;

	*damaged = 0;
	if (plat_lstat(dest, &st)) {
		if (errno == ENOENT)
			return 0;
		return cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
				  dest, strerror(errno));
	}
	if (st.type != PLAT_F_REG)
		return cuenv_fail(err, CUENV_E_STORE,
				  "'%s' is not a plain file", dest);
	if (!run->o->verify &&
	    stamp_matches(&run->stamps, f->path, f->sha256, &st))
		return 1;
	*damaged = 1;
	if (f->size && st.size != f->size)
		return 0;
	if (digest_file(dest, hex, err))
		return -1;
	if (strcmp(hex, f->sha256))
		return 0;
	*damaged = 0;
	stamp_set(&run->stamps, f->path, hex, &st);
	return 1;
}

static int ensure_file(struct run *run, const struct mirror_file *f,
		       struct cuenv_err *err)
{
	const struct mirror_opts *o = run->o;
	struct buf dest = BUF_INIT, tmp = BUF_INIT, cached = BUF_INIT;
	enum mirror_how how;
	uint64_t n = 0;
	struct plat_stat st;
	int rc = CUENV_OK, damaged, ok;
	char *parent;

	buf_path(&dest, o->dir, f->path);
	ok = verified(run, f, dest.data, &damaged, err);
	if (ok < 0) {
		rc = err->rc;
		goto out;
	}
	if (ok) {
		run->r->had++;
		run->r->had_bytes += f->size;
		if (o->on_file)
			o->on_file(o->ctx, f, MIRROR_HAD, 0);
		goto out;
	}
	stamp_drop(&run->stamps, f->path);
	/* Wrong bytes never stay under the final name, fetched or not. */
	if (damaged && plat_unlink(dest.data) && errno != ENOENT) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot remove '%s': %s",
				dest.data, strerror(errno));
		goto out;
	}
	buf_printf(&tmp, "%s/" STATE "/tmp/%s.part", o->dir, f->sha256);
	if (o->cache)
		buf_printf(&cached, "%s/%s", o->cache, f->sha256);
	if (f->origin) {
		how = MIRROR_COPIED;
		rc = copy_checked(f, f->origin, tmp.data, &n, err);
	} else if (cached.len && !plat_stat(cached.data, &st) &&
		   st.type == PLAT_F_REG) {
		struct cuenv_err e = CUENV_ERR_INIT;

		how = MIRROR_CACHED;
		/* A damaged cache file: the network has the truth. */
		if (copy_checked(f, cached.data, tmp.data, &n, &e)) {
			how = MIRROR_FETCHED;
			rc = download(f, o, tmp.data, &n, err);
		}
		err_release(&e);
	} else {
		how = MIRROR_FETCHED;
		rc = download(f, o, tmp.data, &n, err);
	}
	if (rc)
		goto out;
	parent = plat_path_parent(plat_path_native(), dest.data);
	rc = parent ? store_mkdir_p(parent, err) : CUENV_OK;
	free(parent);
	if (!rc && plat_rename(tmp.data, dest.data))
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s",
				dest.data, strerror(errno));
	if (!rc && !plat_stat(dest.data, &st))
		stamp_set(&run->stamps, f->path, f->sha256, &st);
	if (rc) {
		plat_unlink(tmp.data);
		goto out;
	}
	if (how == MIRROR_FETCHED) {
		run->r->fetched++;
		run->r->fetched_bytes += n;
	} else if (how == MIRROR_CACHED) {
		run->r->cached++;
		run->r->cached_bytes += n;
	} else {
		run->r->copied++;
	}
	if (damaged) {
		run->r->repaired++;
		how = MIRROR_REPAIRED;
	}
	if (o->on_file)
		o->on_file(o->ctx, f, how, n);
out:
	buf_release(&dest);
	buf_release(&tmp);
	buf_release(&cached);
	return rc;
}

/* ---- the index ------------------------------------------------------------ */

static int parse_index(const char *name, const struct buf *text,
		       struct mirror_plan *all, struct cuenv_err *err)
{
	json_error_t je;
	json_t *root = json_loadb(text->data, text->len, 0, &je);
	json_t *v, *files, *rels;
	size_t i;
	int rc = CUENV_OK;

	files = json_object_get(root, "files");
	rels = json_object_get(root, "releases");
	if (!json_is_object(root) || !json_is_array(files) ||
	    !json_is_array(rels)) {
		rc = cuenv_fail(err, CUENV_E_MANIFEST,
				"bad mirror index '%s': not a cuenv mirror's "
				"index",
				name);
		goto out;
	}
	json_array_foreach(files, i, v) {
		const char *path =
			json_string_value(json_object_get(v, "path"));
		const char *url = json_string_value(json_object_get(v, "url"));
		const char *sha =
			json_string_value(json_object_get(v, "sha256"));
		json_t *size = json_object_get(v, "size");
		char *mp = url ? mirror_path(url) : NULL;

		if (!path || !mp || strcmp(mp, path) || !sha ||
		    !digest_hex_valid(sha) || !json_is_integer(size) ||
		    json_integer_value(size) < 0) {
			free(mp);
			rc = cuenv_fail(err, CUENV_E_MANIFEST,
					"bad mirror index '%s': bad file "
					"entry %zu",
					name, i);
			goto out;
		}
		rc = add_file(all, mp, url, sha,
			      (uint64_t)json_integer_value(size), NULL, err);
		if (rc)
			goto out;
	}
	json_array_foreach(rels, i, v) {
		const char *kind =
			json_string_value(json_object_get(v, "kind"));
		const char *src =
			json_string_value(json_object_get(v, "source"));
		const char *ver =
			json_string_value(json_object_get(v, "version"));
		const char *plat =
			json_string_value(json_object_get(v, "platform"));
		const char *comps =
			json_string_value(json_object_get(v, "components"));
		json_t *major = json_object_get(v, "cuda_major");
		struct mirror_entry *e;
		enum kit_kind k;
		enum source_kind s;

		if (!kind || kit_kind_parse(kind, &k) || !src ||
		    source_parse(src, &s) || !ver || !plat || !comps ||
		    !json_is_integer(major)) {
			rc = cuenv_fail(err, CUENV_E_MANIFEST,
					"bad mirror index '%s': bad release "
					"entry %zu",
					name, i);
			goto out;
		}
		all->entries =
			xrealloc(all->entries,
				 (all->nentries + 1) * sizeof(*all->entries));
		e = &all->entries[all->nentries++];
		e->kind = k;
		e->source = s;
		e->version = xstrdup(ver);
		e->cuda_major = (unsigned)json_integer_value(major);
		e->platform = xstrdup(plat);
		e->components = xstrdup(comps);
	}
out:
	json_decref(root);
	return rc;
}

/* Merge p into all: entries not there yet, files by path. */
static int merge(struct mirror_plan *all, const struct mirror_plan *p,
		 struct cuenv_err *err)
{
	for (size_t i = 0; i < p->nfiles; i++) {
		const struct mirror_file *f = &p->files[i];
		struct mirror_file *have = find_file(all, f->path);
		int rc;

		if (have) {
			/* This run's catalogue wins (it verified the bytes). */
			free(have->sha256);
			have->sha256 = xstrdup(f->sha256);
			have->size = f->size;
			continue;
		}
		rc = add_file(all, xstrdup(f->path), f->url, f->sha256, f->size,
			      NULL, err);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < p->nentries; i++) {
		const struct mirror_entry *e = &p->entries[i], *h;
		size_t k;

		for (k = 0; k < all->nentries; k++) {
			h = &all->entries[k];
			if (h->kind == e->kind && h->source == e->source &&
			    h->cuda_major == e->cuda_major &&
			    !strcmp(h->version, e->version) &&
			    !strcmp(h->platform, e->platform) &&
			    !strcmp(h->components, e->components))
				break;
		}
		if (k < all->nentries)
			continue;
		all->entries =
			xrealloc(all->entries,
				 (all->nentries + 1) * sizeof(*all->entries));
		all->entries[all->nentries++] = (struct mirror_entry){
			e->kind,
			e->source,
			xstrdup(e->version),
			e->cuda_major,
			xstrdup(e->platform),
			xstrdup(e->components),
		};
	}
	return CUENV_OK;
}

static void format_index(const struct mirror_plan *all, struct buf *out)
{
	json_t *root = json_object(), *files = json_array(),
	       *rels = json_array();
	char *text;

	json_object_set_new(root, "schema", json_integer(INDEX_SCHEMA));
	for (size_t i = 0; i < all->nentries; i++) {
		const struct mirror_entry *e = &all->entries[i];

		json_array_append_new(
			rels,
			json_pack("{s:s, s:s, s:s, s:i, s:s, s:s}", "kind",
				  kit_kind_name(e->kind), "source",
				  source_name(e->source), "version", e->version,
				  "cuda_major", (int)e->cuda_major, "platform",
				  e->platform, "components", e->components));
	}
	for (size_t i = 0; i < all->nfiles; i++) {
		const struct mirror_file *f = &all->files[i];

		json_array_append_new(files,
				      json_pack("{s:s, s:s, s:s, s:I}", "path",
						f->path, "url", f->url,
						"sha256", f->sha256, "size",
						(json_int_t)f->size));
	}
	json_object_set_new(root, "releases", rels);
	json_object_set_new(root, "files", files);
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	buf_adds(out, text);
	buf_addc(out, '\n');
	free(text);
	json_decref(root);
}

/* ---- README.txt ----------------------------------------------------------- */

static void format_readme(const struct mirror_plan *all,
			  const struct mirror_opts *o, const char *abs,
			  struct buf *out)
{
	uint64_t bytes = 0;
	int cuda_shown = 0;

	for (size_t i = 0; i < all->nfiles; i++)
		bytes += all->files[i].size;
	buf_printf(out,
		   "A cuenv mirror: NVIDIA's CUDA, cuDNN and CUPTI archives "
		   "for installs that\nreach nothing else, laid out as on "
		   "developer.download.nvidia.com.\n\n");
	if (o->command)
		buf_printf(out, "Last added to by: %s\n\n", o->command);
	buf_printf(out,
		   "It holds %zu files (%llu bytes; %s lists them "
		   "with their sha256):\n\n",
		   all->nfiles, (unsigned long long)bytes, INDEX);
	for (size_t i = 0; i < all->nentries; i++) {
		const struct mirror_entry *e = &all->entries[i];

		buf_printf(out, "  %s %s", kit_kind_name(e->kind), e->version);
		if (e->kind == KIT_CUDNN)
			buf_printf(out, " for CUDA %u", e->cuda_major);
		buf_printf(out, " (%s, %s): %s\n", source_name(e->source),
			   e->platform, e->components);
	}
	buf_printf(out, "\nOn a node that sees this folder (a shared "
			"filesystem):\n\n");
	for (size_t i = 0; i < all->nentries; i++) {
		const struct mirror_entry *e = &all->entries[i];

		if (e->kind != KIT_CUDA || cuda_shown++ >= 4)
			continue;
		buf_printf(out, "  cuenv install --mirror file://%s %s\n", abs,
			   e->version);
	}
	for (size_t i = 0; i < all->nentries; i++) {
		const struct mirror_entry *e = &all->entries[i];

		if (e->kind == KIT_CUDNN) {
			buf_printf(out,
				   "  cuenv install --mirror file://%s "
				   "SPEC --cudnn %s\n",
				   abs, e->version);
			break;
		}
	}
	buf_printf(
		out,
		"\nOr served by any static HTTP server, for example:\n\n"
		"  python3 -m http.server --directory %s 8080\n"
		"  cuenv install --mirror http://HOST:8080 SPEC\n\n"
		"A mirror made with --runtime-only or --components holds those "
		"archives only:\ninstall with the same option. Where the "
		"node's cuenv does not know a release,\nuse the mirror's "
		"catalogue:\n\n"
		"  CUENV_MANIFESTS=%s/" CATALOGUE " cuenv install --mirror "
		"file://%s SPEC\n\n"
		"or add its manifests to the node's catalogue: cuenv update "
		"--mirror file://%s\n\n"
		"Run cuenv mirror again to add releases: files already here "
		"and verified are\nnot fetched again; --verify hashes every "
		"one again.\n",
		abs, abs, abs, abs);
}

/* ---- the catalogue folder ------------------------------------------------- */

/*
 * Write text to path (atomically) unless it already says that; an empty
 * text removes the file.
 */
static int put(const char *path, const char *text, struct cuenv_err *err)
{
	struct cuenv_err e = CUENV_ERR_INIT;
	struct buf old = BUF_INIT;
	int rc = CUENV_OK;

	if (file_read(path, TEXT_MAX, FILE_MAY_BE_MISSING, &old, &e) ||
	    strcmp(old.data, text))
		rc = *text ? file_write(path, text, strlen(text),
					FILE_MODE_KEEP, err)
			   : file_remove(path, err);
	err_release(&e);
	buf_release(&old);
	return rc;
}

/* Is s the url field of a row (tab-separated) of the table? */
static int row_has_url(const char *row, const struct mirror_plan *all)
{
	for (size_t i = 0; i < all->nfiles; i++) {
		const char *u = all->files[i].url, *hit = strstr(row, u);
		size_t n = strlen(u);

		if (hit && hit > row && hit[-1] == '\t' &&
		    (hit[n] == '\t' || hit[n] == '\0'))
			return 1;
	}
	return 0;
}

/*
 * DIR/cuenv-catalogue/NAME: its header, and the rows (of the tables p
 * read, and of the table already there) whose url DIR holds.
 */
static int write_table(const char *dir, const char *name,
		       const struct mirror_plan *p,
		       const struct mirror_plan *all, struct cuenv_err *err)
{
	struct buf out = BUF_INIT, path = BUF_INIT, text = BUF_INIT;
	struct strv rows = STRV_INIT, srcs = STRV_INIT;
	int rc = CUENV_OK;

	buf_printf(&path, "%s/" CATALOGUE "/%s", dir, name);
	strv_push(&srcs, path.data);
	for (size_t i = 0; i < p->tables.n; i++) {
		if (!strcmp(plat_path_last(p->tables.v[i]), name))
			strv_push(&srcs, p->tables.v[i]);
	}
	for (size_t s = 0; s < srcs.n; s++) {
		struct cuenv_err e = CUENV_ERR_INIT;
		char *line, *next;

		buf_reset(&text);
		if (file_read(srcs.v[s], TEXT_MAX, FILE_MAY_BE_MISSING, &text,
			      &e)) {
			err_release(&e);
			continue;
		}
		err_release(&e);
		for (line = text.data; *line; line = next) {
			next = line + strcspn(line, "\n");
			if (*next)
				*next++ = '\0';
			if (line == text.data) { /* a header: the first one */
				if (!out.len)
					buf_printf(&out, "%s\n", line);
				continue;
			}
			if (row_has_url(line, all) &&
			    strv_find(&rows, line) < 0)
				strv_push(&rows, line);
		}
	}
	for (size_t i = 0; i < rows.n; i++)
		buf_printf(&out, "%s\n", rows.v[i]);
	if (rows.n)
		rc = put(path.data, out.data, err);
	strv_release(&rows);
	strv_release(&srcs);
	buf_release(&out);
	buf_release(&path);
	buf_release(&text);
	return rc;
}

/* Copy a (verified) file of DIR, or a compat table, into the catalogue. */
static int copy_text(const char *src, const char *dst, struct cuenv_err *err)
{
	struct buf text = BUF_INIT;
	int rc = file_read(src, TEXT_MAX, FILE_MAY_BE_MISSING, &text, err);

	if (!rc)
		rc = put(dst, text.data, err);
	buf_release(&text);
	return rc;
}

static int write_catalogue(const struct mirror_plan *p,
			   const struct mirror_plan *all,
			   const struct mirror_opts *o, struct cuenv_err *err)
{
	struct buf dir = BUF_INIT, src = BUF_INIT, dst = BUF_INIT;
	struct plat_stat sst;
	int rc;

	buf_printf(&dir, "%s/" CATALOGUE "/cuda", o->dir);
	rc = store_mkdir_p(dir.data, err);
	buf_reset(&dir);
	buf_printf(&dir, "%s/" CATALOGUE "/cudnn", o->dir);
	if (!rc)
		rc = store_mkdir_p(dir.data, err);
	for (size_t i = 0; !rc && i < all->nfiles; i++) {
		const char *path = all->files[i].path, *kind;
		const char *base = strrchr(path, '/') + 1;

		if (!strncmp(path, "compute/cuda/redist/redistrib_", 30))
			kind = "cuda";
		else if (!strncmp(path, "compute/cudnn/redist/redistrib_", 31))
			kind = "cudnn";
		else
			continue;
		if (strchr(path + 8 + strlen(kind) + 8, '/'))
			continue; /* only redist/redistrib_*.json */
		buf_reset(&src);
		buf_reset(&dst);
		buf_path(&src, o->dir, path);
		buf_printf(&dst, "%s/" CATALOGUE "/%s/%s", o->dir, kind, base);
		/* One an earlier run listed and someone removed since: gone. */
		if (plat_stat(src.data, &sst) && errno == ENOENT)
			continue;
		rc = copy_text(src.data, dst.data, err);
	}
	if (!rc)
		rc = write_table(o->dir, "cuda-runfiles.tsv", p, all, err);
	if (!rc)
		rc = write_table(o->dir, "cudnn-tarballs.tsv", p, all, err);
	if (!rc && o->compat) {
		struct plat_dir *d = plat_opendir(o->compat);
		const char *name;

		buf_reset(&dir);
		buf_printf(&dir, "%s/" CATALOGUE "/compat", o->dir);
		rc = d ? store_mkdir_p(dir.data, err) : CUENV_OK;
		while (!rc && d && (name = plat_readdir(d))) {
			size_t n = strlen(name);

			if (name[0] == '.' || n < 5 ||
			    strcmp(name + n - 4, ".tsv"))
				continue;
			buf_reset(&src);
			buf_reset(&dst);
			buf_path(&src, o->compat, name);
			buf_path(&dst, dir.data, name);
			rc = copy_text(src.data, dst.data, err);
		}
		if (d)
			plat_closedir(d);
	}
	buf_release(&dir);
	buf_release(&src);
	buf_release(&dst);
	return rc;
}

/* ---- the run ---------------------------------------------------------------- */

/* The folders a run makes before its first file, outermost first. */
static const char *const run_dirs[] = {
	"",
	STATE,
	STATE "/tmp",
	"compute",
	"compute/cuda",
	"compute/cuda/redist",
	"compute/cudnn",
	"compute/cudnn/redist",
};
#define RUN_DIRS (sizeof(run_dirs) / sizeof(*run_dirs))

/* Which of run_dirs under dir are not there yet: bit i for run_dirs[i]. */
static unsigned missing_dirs(const char *dir)
{
	struct buf p = BUF_INIT;
	struct plat_stat st;
	unsigned made = 0;

	for (size_t i = 0; i < RUN_DIRS; i++) {
		buf_reset(&p);
		buf_path(&p, dir, run_dirs[i]);
		if (plat_stat(p.data, &st))
			made |= 1u << i;
	}
	buf_release(&p);
	return made;
}

/*
 * After a failed run: its empty .part files go (nothing to resume), and
 * when no file landed, its lock and the folders it made, deepest first
 * (each only if empty). A run that fetched something keeps it all for
 * the next one to resume.
 */
static void undo_failed_run(const char *dir, unsigned made, int landed)
{
	struct buf p = BUF_INIT;
	struct plat_dir *d;
	const char *name;

	buf_printf(&p, "%s/" STATE "/tmp", dir);
	d = plat_opendir(p.data);
	while (d && (name = plat_readdir(d))) {
		size_t n = strlen(name);
		struct plat_stat st;

		if (n < 6 || strcmp(name + n - 5, ".part"))
			continue;
		buf_reset(&p);
		buf_printf(&p, "%s/" STATE "/tmp/%s", dir, name);
		if (!plat_lstat(p.data, &st) && st.type == PLAT_F_REG &&
		    !st.size)
			plat_unlink(p.data);
	}
	if (d)
		plat_closedir(d);
	if (!landed && (made & 2u)) {
		buf_reset(&p);
		buf_printf(&p, "%s/" STATE "/lock", dir);
		plat_unlink(p.data);
	}
	for (size_t i = RUN_DIRS; !landed && i-- > 0;) {
		if (!(made & (1u << i)))
			continue;
		buf_reset(&p);
		buf_path(&p, dir, run_dirs[i]);
		plat_rmdir(p.data);
	}
	buf_release(&p);
}

int mirror_run(const struct mirror_plan *p, const struct mirror_opts *o,
	       struct mirror_report *r, struct cuenv_err *err)
{
	struct run run = { .o = o, .r = r };
	struct buf path = BUF_INIT, text = BUF_INIT;
	struct mirror_plan all;
	struct plat_stat ist;
	char *abs = NULL;
	unsigned made = missing_dirs(o->dir);
	int lockfd = -1, rc;

	memset(r, 0, sizeof(*r));
	mirror_plan_init(&all);
	buf_printf(&path, "%s/" STATE "/tmp", o->dir);
	rc = store_mkdir_p(path.data, err);
	if (rc)
		goto out;
	buf_reset(&path);
	buf_printf(&path, "%s/" STATE "/lock", o->dir);
	lockfd = store_lock_path(path.data, 1, 0);
	if (lockfd == -1) {
		if (o->waiting)
			o->waiting(o->ctx, o->dir);
		lockfd = store_lock_path(path.data, 1, 1);
	}
	if (lockfd < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot lock '%s': %s",
				path.data, strerror(errno));
		goto out;
	}
	/*
	 * Both redist folders, even empty: `cuenv update --mirror` lists
	 * each, and a 404 for one would fail it.
	 */
	for (int k = 0; k < 2; k++) {
		buf_reset(&path);
		buf_printf(&path, "%s/compute/%s/redist", o->dir,
			   k ? "cudnn" : "cuda");
		rc = store_mkdir_p(path.data, err);
		if (rc)
			goto out;
	}
	/* The index first: a damaged one stops the run before any work. */
	buf_reset(&path);
	buf_path(&path, o->dir, INDEX);
	if (!plat_stat(path.data, &ist)) {
		rc = file_read(path.data, TEXT_MAX, FILE_MAY_BE_MISSING, &text,
			       err);
		if (!rc)
			rc = parse_index(path.data, &text, &all, err);
		if (rc)
			goto out;
	}
	buf_reset(&path);
	buf_printf(&path, "%s/" STATE "/verified", o->dir);
	stamps_load(&run.stamps, path.data);
	for (size_t i = 0; i < p->nfiles && !rc; i++)
		rc = ensure_file(&run, &p->files[i], err);
	/* Whatever was verified stays known, also after a failure. */
	if (rc) {
		struct cuenv_err e = CUENV_ERR_INIT;

		stamps_save(&run.stamps, path.data, &e);
		err_release(&e);
		goto out;
	}
	rc = stamps_save(&run.stamps, path.data, err);
	if (!rc)
		rc = merge(&all, p, err);
	if (!rc)
		rc = write_catalogue(p, &all, o, err);
	if (rc)
		goto out;
	buf_reset(&text);
	format_index(&all, &text);
	buf_reset(&path);
	buf_path(&path, o->dir, INDEX);
	rc = put(path.data, text.data, err);
	if (rc)
		goto out;
	abs = plat_realpath(o->dir);
	buf_reset(&text);
	format_readme(&all, o, abs ? abs : o->dir, &text);
	buf_reset(&path);
	buf_path(&path, o->dir, "README.txt");
	rc = put(path.data, text.data, err);
out:
	if (rc && lockfd >= 0)
		undo_failed_run(o->dir, made,
				r->fetched + r->cached + r->copied > 0);
	if (lockfd >= 0)
		plat_close(lockfd);
	stamps_release(&run.stamps);
	mirror_plan_release(&all);
	buf_release(&path);
	buf_release(&text);
	free(abs);
	return rc;
}
