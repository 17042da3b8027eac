#include "install/mirror.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "install/download.h"
#include "nvidia/compat.h"
#include "net/digest.h"
#include "plat/file.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "store/store.h"
#include "base/version.h"
#include "base/xalloc.h"

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

/* The mirror's entry for rel's kind from source, once; comps is taken. */
static void add_entry(struct mirror_plan *p, enum kit_kind kind,
		      enum source_kind source, const struct release *rel,
		      const char *platform, struct buf *comps)
{
	struct mirror_entry *e;

	for (size_t i = 0; i < p->nentries; i++) {
		e = &p->entries[i];
		if (e->kind == kind && e->source == source &&
		    e->cuda_major == rel->cuda_major &&
		    !strcmp(e->version, rel->version) &&
		    !strcmp(e->platform, platform) &&
		    !strcmp(e->components, comps->data))
			return;
	}
	p->entries =
		xrealloc(p->entries, (p->nentries + 1) * sizeof(*p->entries));
	e = &p->entries[p->nentries++];
	e->kind = kind;
	e->source = source;
	e->version = xstrdup(rel->version);
	e->cuda_major = rel->cuda_major;
	e->platform = xstrdup(platform);
	e->components = buf_detach(comps);
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
	add_entry(p, kind, rel->source, rel, platform, &comps);
out:
	strv_release(&names);
	buf_release(&comps);
	return rc;
}

/* A wheel's url into its path in a mirror: pypi/packages/<file name>;
 * NULL when it is no wheel or its name is not a plain one. */
static char *wheel_path(const char *url)
{
	const char *base = strrchr(url, '/');
	size_t n;
	struct buf b = BUF_INIT;

	if (!base || strncmp(url, "http", 4))
		return NULL;
	base++;
	n = strlen(base);
	if (n < 5 || strcmp(base + n - 4, ".whl") || base[0] == '.' ||
	    strspn(base, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789._-+") != n)
		return NULL;
	buf_printf(&b, "pypi/packages/%s", base);
	return buf_detach(&b);
}

/* Where a file of url sits in a mirror: NVIDIA's path, or a wheel's. */
static char *file_path(const char *url)
{
	char *path = mirror_path(url);

	return path ? path : wheel_path(url);
}

/* The catalogue folder a release came from: its origin's grandparent. */
static void catalogue_dir(const struct release *rel, struct buf *out)
{
	const char *o = rel->origin, *end = o ? strrchr(o, '/') : NULL;

	buf_reset(out);
	while (end && end > o && end[-1] != '/')
		end--; /* the kind's folder's start */
	if (end && end > o)
		buf_add(out, o, (size_t)(end - o - 1));
}

/*
 * Add to p what `cuenv install --source pypi` fetches for rel installed
 * as kind for platform (linux-sbsa's wheels are manylinux aarch64): each
 * component's wheel as install_resolve finds it on p->pypi_index (network
 * I/O), as pypi/packages/<file name>, the release's manifest (for the
 * mirror's catalogue) and the catalogue's pypi.tsv. Returns CUENV_OK or
 * install_resolve's failure.
 */
static int mirror_plan_add_wheels(struct mirror_plan *p,
				  const struct release *rel, enum kit_kind kind,
				  const struct plan_opts *opts,
				  const char *platform, struct cuenv_err *err)
{
	struct release r = *rel;
	struct install_opts io = { 0 };
	struct install_parts ip = { 0 };
	struct strv names = STRV_INIT;
	struct buf comps = BUF_INIT, tsv = BUF_INIT;
	struct plat_stat st;
	int rc;

	r.kind = kind;
	r.source = SRC_PYPI;
	io.plan = plan_opts_for(kind, opts);
	io.pypi_index = p->pypi_index;
	io.platform = platform; /* as install under CUENV_PLATFORM */
	if (p->pypi_fetch)
		io.fetch = *p->pypi_fetch;
	rc = plan_archives(&r, &io.plan, &names, err);
	if (!rc)
		rc = install_resolve(&r, &io, &names, &ip, err);
	for (size_t i = 0; !rc && i < ip.n; i++) {
		const struct part *w = ip.v[i];
		char *path = wheel_path(w->url);

		if (!path) {
			rc = cuenv_fail(err, CUENV_E_MANIFEST,
					"cannot mirror '%s': not a wheel's "
					"plain name",
					w->url);
			break;
		}
		rc = add_file(p, path, w->url, w->sha256, w->size, NULL, err);
		buf_printf(&comps, "%s%s", comps.len ? ", " : "", w->name);
	}
	if (!rc && rel->source == SRC_REDIST)
		rc = add_manifest(p, rel, err);
	catalogue_dir(rel, &tsv);
	if (tsv.len) {
		buf_adds(&tsv, "/pypi.tsv");
		if (!plat_stat(tsv.data, &st) &&
		    strv_find(&p->tables, tsv.data) < 0)
			strv_push(&p->tables, tsv.data);
	}
	if (rc)
		goto out;
	add_entry(p, kind, SRC_PYPI, rel, platform, &comps);
out:
	install_parts_release(&ip);
	strv_release(&names);
	buf_release(&comps);
	buf_release(&tsv);
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
	if (source == SRC_PYPI) {
		rc = mirror_plan_add_wheels(p, ch.cuda, KIT_CUDA, opts,
					    platform, err);
		if (!rc && ch.cudnn)
			rc = mirror_plan_add_wheels(p, ch.cudnn, KIT_CUDNN,
						    opts, platform, err);
		if (!rc && ch.cupti)
			rc = mirror_plan_add_wheels(p, ch.cupti, KIT_CUPTI,
						    opts, platform, err);
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

/* ---- DIR, one name at a time ------------------------------------------------ */

/*
 * Every file and folder below DIR is reached from DIR's descriptor one
 * name at a time, never through a link, as the store's walks do: a link
 * at DIR/compute (or .cuenv-mirror, cuenv-catalogue, a component's
 * folder) pointing elsewhere is refused, so that nothing outside DIR is
 * created, replaced or read as the mirror's.
 */
#define DIR_FLAGS (PLAT_O_READ | PLAT_O_DIR | PLAT_O_NOFOLLOW)

/* Why the folder name (in dir; shown: its path) could not be had. */
static int no_folder(int dir, const char *name, const char *shown,
		     const char *verb, int eno, struct cuenv_err *err)
{
	struct plat_stat st;

	if (!plat_stat_at(dir, name, 1, &st) && st.type != PLAT_F_DIR)
		return cuenv_fail(err, CUENV_E_STORE,
				  "'%s' is %s, not a folder: cuenv does not "
				  "write through it",
				  shown, file_type_name(st.type));
	return cuenv_fail(err, CUENV_E_STORE, "cannot %s '%s': %s", verb, shown,
			  strerror(eno));
}

/*
 * Open the folder rel ("compute/cuda/redist"; "": DIR itself) below DIR
 * (open at root; dir: its path, for messages), each name opened from the
 * one before without following a link, and made when missing if create.
 * *out: the open folder, the caller's to close. CUENV_OK; CUENV_NO when
 * a folder is missing and !create; CUENV_E_STORE naming the path at
 * fault (a link, a file where a folder should be).
 */
static int open_below(int root, const char *dir, const char *rel, int create,
		      int *out, struct cuenv_err *err)
{
	struct buf shown = BUF_INIT, name = BUF_INIT;
	const char *p = rel;
	int fd = plat_open_at(root, ".", DIR_FLAGS, 0), rc = CUENV_OK;

	buf_adds(&shown, dir);
	if (fd < 0)
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s", dir,
				strerror(errno));
	while (!rc && *p) {
		size_t n = strcspn(p, "/");
		int next;

		buf_reset(&name);
		buf_add(&name, p, n);
		buf_printf(&shown, "/%s", name.data);
		p += n + (p[n] == '/');
		if (create && plat_mkdir_at(fd, name.data, 0755) &&
		    errno != EEXIST) {
			rc = no_folder(fd, name.data, shown.data, "create",
				       errno, err);
			break;
		}
		next = plat_open_at(fd, name.data, DIR_FLAGS, 0);
		if (next < 0 && !create && errno == ENOENT)
			rc = CUENV_NO;
		else if (next < 0)
			rc = no_folder(fd, name.data, shown.data, "open", errno,
				       err);
		plat_close(fd);
		fd = next;
	}
	if (rc && fd >= 0) {
		plat_close(fd);
		fd = -1;
	}
	*out = fd;
	buf_release(&shown);
	buf_release(&name);
	return rc;
}

/*
 * The folder holding rel (a file's path below DIR) by open_below, into
 * *dir, and rel's last name into *leaf (a pointer into rel).
 */
static int parent_below(int root, const char *top, const char *rel, int create,
			int *dir, const char **leaf, struct cuenv_err *err)
{
	const char *slash = strrchr(rel, '/');
	char *folder = slash ? xstrndup(rel, (size_t)(slash - rel)) : NULL;
	int rc = open_below(root, top, folder ? folder : "", create, dir, err);

	*leaf = slash ? slash + 1 : rel;
	free(folder);
	return rc;
}

/*
 * The regular file name in the folder open at dir (shown: its path) into
 * out, at most TEXT_MAX bytes, never through a link nor from a FIFO.
 * CUENV_OK; CUENV_NO when there is none (err untouched); CUENV_E_STORE
 * naming shown.
 */
static int read_at(int dir, const char *name, const char *shown,
		   struct buf *out, struct cuenv_err *err)
{
	struct plat_stat st;
	int fd = file_open_read(dir, name, FILE_NOFOLLOW, &st), rc = CUENV_OK;

	buf_reset(out);
	if (fd == FILE_NOT_REGULAR)
		return cuenv_fail(err, CUENV_E_STORE, "'%s' is %s, not a file",
				  shown, file_type_name(st.type));
	if (fd < 0 && errno == ENOENT)
		return CUENV_NO;
	if (fd < 0 && errno == ELOOP)
		return cuenv_fail(err, CUENV_E_STORE,
				  "'%s' is a symbolic link: cuenv does not "
				  "read through it",
				  shown);
	if (fd < 0)
		return cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				  shown, strerror(errno));
	if (file_read_fd(fd, TEXT_MAX, out))
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
				shown, strerror(errno));
	plat_close(fd);
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
static void stamps_load(struct stamps *s, int state, const char *shown)
{
	struct cuenv_err e = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *line, *next;

	if (read_at(state, "verified", shown, &text, &e))
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

static int stamps_save(struct stamps *s, int state, const char *shown,
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
	rc = s->n ? file_write_at(state, "verified", shown, text.data, text.len,
				  FILE_MODE_KEEP, err)
		  : CUENV_OK;
	buf_release(&text);
	return rc;
}

/* ---- moving bytes ------------------------------------------------------- */

#define BLOCK (1 << 20)

/*
 * Hash what is left of in (src names it) into d; bytes read into *n.
 * CUENV_OK or CUENV_E_STORE naming src.
 */
static int hash_rest(int in, const char *src, struct digest *d, uint64_t *n,
		     struct cuenv_err *err)
{
	char *buf = xmalloc(BLOCK);
	int rc = CUENV_OK;
	ssize_t r;

	for (;;) {
		r = file_read_full(in, buf, BLOCK);
		if (r < 0) {
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot read '%s': %s", src,
					strerror(errno));
			break;
		}
		if (!r)
			break;
		digest_update(d, buf, (size_t)r);
		*n += (uint64_t)r;
	}
	free(buf);
	return rc;
}

/* A file the mirror writes: its folder's descriptor, its name there, and
 * its path for messages. */
struct spot {
	int dir;
	const char *name;
	const char *shown;
};

/* Open the regular file src from outside DIR (a manifest of the
 * catalogue, a cached archive) for reading, never waiting on a FIFO. */
static int open_source(const char *src, int *fd, struct cuenv_err *err)
{
	struct plat_stat st;

	*fd = file_open_read(PLAT_AT_CWD, src, 0, &st);
	if (*fd == FILE_NOT_REGULAR)
		return cuenv_fail(err, CUENV_E_STORE, "'%s' is %s, not a file",
				  src, file_type_name(st.type));
	if (*fd < 0)
		return cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
				  src, strerror(errno));
	return CUENV_OK;
}

/* The .part below tmp/ is the mirror's: never a link followed, never a
 * FIFO waited on. */
#define PART_FLAGS (PLAT_O_NOFOLLOW | PLAT_O_NONBLOCK)

/*
 * Copy a local file (a manifest, a cached archive) to tmp, verified (d
 * names src in a mismatch); on failure d is released and tmp removed.
 */
static int copy_checked(struct download *d, const char *src,
			const struct spot *tmp, struct cuenv_err *err)
{
	int in = -1, rc;

	rc = open_source(src, &in, err);
	if (!rc)
		rc = download_restart(d, tmp->dir, tmp->name, tmp->shown,
				      PART_FLAGS, err);
	if (!rc) {
		download_from_fd_take(d, in, src);
		in = -1;
		d->name = src;
		rc = download_verify(d, err);
	}
	if (in >= 0)
		plat_close(in);
	if (rc) {
		download_release(d);
		plat_unlink_at(tmp->dir, tmp->name);
	}
	return rc;
}

/*
 * Download d's file into tmp, verified, resuming from the bytes a failed
 * run left there. On failure d is released, and only a network failure
 * keeps those bytes.
 */
static int fetch_checked(struct download *d, const struct spot *tmp,
			 struct cuenv_err *err)
{
	int rc, keep;

	rc = download_resume(d, tmp->dir, tmp->name, tmp->shown, PART_FLAGS,
			     err);
	if (!rc)
		rc = download_verify(d, err);
	if (rc) {
		keep = download_resumable(d, rc);
		download_release(d);
		if (!keep)
			plat_unlink_at(tmp->dir, tmp->name);
	}
	return rc;
}

/* ---- one file ------------------------------------------------------------ */

struct run {
	const struct mirror_opts *o;
	struct mirror_report *r;
	struct stamps stamps;
	int root;  /* DIR */
	int state; /* DIR/.cuenv-mirror */
	int tmp;   /* DIR/.cuenv-mirror/tmp */
};

/* What verified found at a file's place in DIR. */
enum found {
	FOUND_NONE,    /* nothing */
	FOUND_GOOD,    /* the file, verified */
	FOUND_DAMAGED, /* a file with wrong bytes, or a link: replaced */
};

/*
 * Is f (at its place: dest) there with the right bytes? *found says; a
 * regular file only, hashed now (verify, or no stamp of this mirror's
 * that matches it) or stamped by an earlier run. A link is never
 * followed (it is replaced); a folder, a FIFO or a device is refused.
 * Returns CUENV_OK, or CUENV_E_STORE naming dest.
 */
static int verified(struct run *run, const struct mirror_file *f,
		    const struct spot *dest, enum found *found,
		    struct cuenv_err *err)
{
	char hex[DIGEST_HEX_LEN + 1];
	struct digest *d = NULL;
	struct plat_stat st;
	uint64_t n = 0;
	int fd = -1, rc = CUENV_OK;

	*found = FOUND_NONE;
	if (plat_stat_at(dest->dir, dest->name, 1, &st)) {
		if (errno == ENOENT)
			return CUENV_OK;
		return cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
				  dest->shown, strerror(errno));
	}
	if (st.type == PLAT_F_LINK) {
		*found = FOUND_DAMAGED;
		return CUENV_OK;
	}
	if (st.type != PLAT_F_REG)
		return cuenv_fail(err, CUENV_E_STORE,
				  "'%s' is %s where the mirror keeps a file: "
				  "cuenv does not replace it",
				  dest->shown, file_type_name(st.type));
	if (!run->o->verify &&
	    stamp_matches(&run->stamps, f->path, f->sha256, &st)) {
		*found = FOUND_GOOD;
		return CUENV_OK;
	}
	*found = FOUND_DAMAGED;
	if (f->size && st.size != f->size)
		return CUENV_OK;
	fd = file_open_read(dest->dir, dest->name, FILE_NOFOLLOW, &st);
	if (fd < 0) /* changed since: looked at again on the next run */
		return cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
				  dest->shown,
				  fd == FILE_NOT_REGULAR ? "not a regular file"
							 : strerror(errno));
	d = digest_new();
	rc = hash_rest(fd, dest->shown, d, &n, err);
	plat_close(fd);
	if (!rc) {
		digest_final(d, hex);
		if (!strcmp(hex, f->sha256)) {
			*found = FOUND_GOOD;
			stamp_set(&run->stamps, f->path, hex, &st);
		}
	}
	digest_free(d);
	return rc;
}

static int ensure_file(struct run *run, const struct mirror_file *f,
		       struct cuenv_err *err)
{
	const struct mirror_opts *o = run->o;
	struct buf shown = BUF_INIT, tname = BUF_INIT, tshown = BUF_INIT,
		   cached = BUF_INIT;
	struct spot dest = { -1, NULL, NULL }, tmp;
	struct download d;
	char *url = install_mirror_url(f->url, o->upstream);
	enum mirror_how how;
	enum found found;
	uint64_t n = 0;
	struct plat_stat st;
	int rc;

	download_init(&d, url, f->sha256, f->size, &o->fetch);
	buf_path(&shown, o->dir, f->path);
	dest.shown = shown.data;
	/* Its folders are made once it is here (a failed download of
	 * another platform's archive leaves no folder named for it). */
	found = FOUND_NONE;
	rc = parent_below(run->root, o->dir, f->path, 0, &dest.dir, &dest.name,
			  err);
	if (!rc)
		rc = verified(run, f, &dest, &found, err);
	else if (rc == CUENV_NO)
		rc = CUENV_OK;
	if (rc)
		goto out;
	if (found == FOUND_GOOD) {
		run->r->had++;
		run->r->had_bytes += f->size;
		if (o->on_file)
			o->on_file(o->ctx, f, MIRROR_HAD, 0);
		goto out;
	}
	stamp_drop(&run->stamps, f->path);
	/* Wrong bytes never stay under the final name, fetched or not; a
	 * link goes itself (never what it points to). */
	if (found == FOUND_DAMAGED && plat_unlink_at(dest.dir, dest.name) &&
	    errno != ENOENT) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot remove '%s': %s",
				dest.shown, strerror(errno));
		goto out;
	}
	buf_printf(&tname, "%s.part", f->sha256);
	buf_printf(&tshown, "%s/" STATE "/tmp/%s", o->dir, tname.data);
	tmp = (struct spot){ run->tmp, tname.data, tshown.data };
	if (o->cache)
		buf_printf(&cached, "%s/%s", o->cache, f->sha256);
	if (f->origin) {
		how = MIRROR_COPIED;
		rc = copy_checked(&d, f->origin, &tmp, err);
	} else if (cached.len && !plat_stat(cached.data, &st) &&
		   st.type == PLAT_F_REG) {
		struct cuenv_err e = CUENV_ERR_INIT;

		how = MIRROR_CACHED;
		/* A damaged cache file: the network has the truth. */
		if (copy_checked(&d, cached.data, &tmp, &e)) {
			how = MIRROR_FETCHED;
			download_init(&d, url, f->sha256, f->size, &o->fetch);
			rc = fetch_checked(&d, &tmp, err);
		}
		err_release(&e);
	} else {
		how = MIRROR_FETCHED;
		rc = fetch_checked(&d, &tmp, err);
	}
	if (rc)
		goto out; /* fetch_checked kept what a broken transfer got */
	/* Counted: the network's bytes, or all that were copied. */
	n = how == MIRROR_FETCHED ? d.fetched : d.pos;
	if (dest.dir < 0)
		rc = parent_below(run->root, o->dir, f->path, 1, &dest.dir,
				  &dest.name, err);
	if (!rc)
		rc = download_keep(&d, dest.dir, dest.name, dest.shown, err);
	if (rc) {
		download_release(&d);
		plat_unlink_at(tmp.dir, tmp.name);
		goto out;
	}
	if (!plat_stat_at(dest.dir, dest.name, 1, &st))
		stamp_set(&run->stamps, f->path, f->sha256, &st);
	if (how == MIRROR_FETCHED) {
		run->r->fetched++;
		run->r->fetched_bytes += n;
	} else if (how == MIRROR_CACHED) {
		run->r->cached++;
		run->r->cached_bytes += n;
	} else {
		run->r->copied++;
	}
	if (found == FOUND_DAMAGED) {
		run->r->repaired++;
		how = MIRROR_REPAIRED;
	}
	if (o->on_file)
		o->on_file(o->ctx, f, how, n);
out:
	download_release(&d);
	free(url);
	if (dest.dir >= 0)
		plat_close(dest.dir);
	buf_release(&shown);
	buf_release(&tname);
	buf_release(&tshown);
	buf_release(&cached);
	return rc;
}

/* ---- the index ------------------------------------------------------------ */

/* An index entry's components: names (catalog_name_ok), ", " between;
 * none for CUPTI from a release without cuda_cupti (its manifest only). */
static int components_ok(const char *comps)
{
	char *copy = xstrdup(comps), *p = copy;
	int ok = 1;

	if (!*comps) {
		free(copy);
		return 1;
	}
	for (;;) {
		char *end = strstr(p, ", ");

		if (end)
			*end = '\0';
		ok = ok && catalog_name_ok(p);
		if (!end)
			break;
		p = end + 2;
	}
	free(copy);
	return ok;
}

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
		char *mp = url ? file_path(url) : NULL;

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
		    source_parse(src, &s) || !ver || !version_is_valid(ver) ||
		    !plat || !catalog_platform_known(plat) || !comps ||
		    !components_ok(comps) || !json_is_integer(major)) {
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
	for (size_t i = 0; i < all->nentries; i++) {
		const struct mirror_entry *e = &all->entries[i];

		if (e->kind == KIT_CUDA && e->source == SRC_PYPI) {
			buf_printf(out,
				   "  cuenv install --mirror file://%s %s "
				   "--source pypi    (its wheels)\n",
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
 * Write text to name in the folder open at dir (shown: its path),
 * atomically, unless it already says that; an empty text removes it.
 */
static int put(int dir, const char *name, const char *shown, const char *text,
	       struct cuenv_err *err)
{
	struct cuenv_err e = CUENV_ERR_INIT;
	struct buf old = BUF_INIT;
	int rc = CUENV_OK;

	if (read_at(dir, name, shown, &old, &e) || strcmp(old.data, text)) {
		if (*text)
			rc = file_write_at(dir, name, shown, text, strlen(text),
					   FILE_MODE_KEEP, err);
		else if (plat_unlink_at(dir, name) && errno != ENOENT)
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot remove '%s': %s", shown,
					strerror(errno));
	}
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
 * DIR/cuenv-catalogue/NAME (cat: that folder): its header, and the rows
 * (of the tables p read, and of the table already there) whose url DIR
 * holds.
 */
static int write_table(const struct run *run, int cat, const char *name,
		       const struct mirror_plan *p,
		       const struct mirror_plan *all, struct cuenv_err *err)
{
	struct buf out = BUF_INIT, path = BUF_INIT, text = BUF_INIT;
	struct strv rows = STRV_INIT;
	int rc = CUENV_OK;

	buf_printf(&path, "%s/" CATALOGUE "/%s", run->o->dir, name);
	/* The table already there first (-1), then those p read. */
	for (size_t s = 0; s <= p->tables.n; s++) {
		struct cuenv_err e = CUENV_ERR_INIT;
		char *line, *next;
		int got;

		if (!s)
			got = read_at(cat, name, path.data, &text, &e);
		else if (strcmp(plat_path_last(p->tables.v[s - 1]), name))
			continue;
		else
			got = file_read(p->tables.v[s - 1], TEXT_MAX,
					FILE_MAY_BE_MISSING, &text, &e);
		err_release(&e);
		if (got)
			continue;
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
		rc = put(cat, name, path.data, out.data, err);
	strv_release(&rows);
	buf_release(&out);
	buf_release(&path);
	buf_release(&text);
	return rc;
}

/*
 * Copy DIR's verified manifest at path (below DIR) to base in the
 * catalogue folder open at to (shown: its path). One an earlier run
 * listed and someone removed since is left out.
 */
static int copy_manifest(const struct run *run, const char *path, int to,
			 const char *base, const char *shown,
			 struct cuenv_err *err)
{
	struct buf src = BUF_INIT, text = BUF_INIT;
	const char *leaf;
	int dir = -1, rc;

	buf_path(&src, run->o->dir, path);
	rc = parent_below(run->root, run->o->dir, path, 0, &dir, &leaf, err);
	if (!rc)
		rc = read_at(dir, leaf, src.data, &text, err);
	if (!rc)
		rc = put(to, base, shown, text.data, err);
	else if (rc == CUENV_NO)
		rc = CUENV_OK;
	if (dir >= 0)
		plat_close(dir);
	buf_release(&src);
	buf_release(&text);
	return rc;
}

/* Copy the compat/ tables (*.tsv) of o->compat into the catalogue. */
static int copy_compat(const struct run *run, struct cuenv_err *err)
{
	const struct mirror_opts *o = run->o;
	struct plat_dir *d = plat_opendir(o->compat);
	struct buf src = BUF_INIT, dst = BUF_INIT, text = BUF_INIT;
	const char *name;
	int to = -1, rc = CUENV_OK;

	if (d)
		rc = open_below(run->root, o->dir, CATALOGUE "/compat", 1, &to,
				err);
	while (!rc && d && (name = plat_readdir(d))) {
		size_t n = strlen(name);

		if (name[0] == '.' || n < 5 || strcmp(name + n - 4, ".tsv"))
			continue;
		buf_reset(&src);
		buf_reset(&dst);
		buf_path(&src, o->compat, name);
		buf_printf(&dst, "%s/" CATALOGUE "/compat/%s", o->dir, name);
		rc = file_read(src.data, TEXT_MAX, FILE_MAY_BE_MISSING, &text,
			       err);
		if (!rc)
			rc = put(to, name, dst.data, text.data, err);
	}
	if (d)
		plat_closedir(d);
	if (to >= 0)
		plat_close(to);
	buf_release(&src);
	buf_release(&dst);
	buf_release(&text);
	return rc;
}

static int write_catalogue(const struct run *run, const struct mirror_plan *p,
			   const struct mirror_plan *all, struct cuenv_err *err)
{
	const struct mirror_opts *o = run->o;
	struct buf dst = BUF_INIT;
	int cat = -1, kinds[2] = { -1, -1 }, rc;

	rc = open_below(run->root, o->dir, CATALOGUE "/cuda", 1, &kinds[0],
			err);
	if (!rc)
		rc = open_below(run->root, o->dir, CATALOGUE "/cudnn", 1,
				&kinds[1], err);
	if (!rc)
		rc = open_below(run->root, o->dir, CATALOGUE, 0, &cat, err);
	for (size_t i = 0; !rc && i < all->nfiles; i++) {
		const char *path = all->files[i].path;
		const char *base = strrchr(path, '/') + 1;
		int k = !strncmp(path, "compute/cudnn/redist/redistrib_", 31);
		const char *kind = k ? "cudnn" : "cuda";

		if (!k && strncmp(path, "compute/cuda/redist/redistrib_", 30))
			continue;
		if (strchr(path + 8 + strlen(kind) + 8, '/'))
			continue; /* only redist/redistrib_*.json */
		buf_reset(&dst);
		buf_printf(&dst, "%s/" CATALOGUE "/%s/%s", o->dir, kind, base);
		rc = copy_manifest(run, path, kinds[k], base, dst.data, err);
	}
	if (!rc)
		rc = write_table(run, cat, "cuda-runfiles.tsv", p, all, err);
	if (!rc)
		rc = write_table(run, cat, "cudnn-tarballs.tsv", p, all, err);
	/* What the index holds (pypi.tsv), verbatim, for wheels' sake. */
	for (size_t i = 0; !rc && i < p->tables.n; i++) {
		struct buf text = BUF_INIT;

		if (strcmp(plat_path_last(p->tables.v[i]), "pypi.tsv"))
			continue;
		buf_reset(&dst);
		buf_printf(&dst, "%s/" CATALOGUE "/pypi.tsv", o->dir);
		rc = file_read(p->tables.v[i], TEXT_MAX, 0, &text, err);
		if (!rc)
			rc = put(cat, "pypi.tsv", dst.data, text.data, err);
		buf_release(&text);
	}
	if (!rc && o->compat)
		rc = copy_compat(run, err);
	for (int k = 0; k < 2; k++)
		if (kinds[k] >= 0)
			plat_close(kinds[k]);
	if (cat >= 0)
		plat_close(cat);
	buf_release(&dst);
	return rc;
}

/* ---- the package index's pages -------------------------------------------- */

/* A wheel file name's project, normalised as PEP 503 says. */
static void wheel_project(const char *file, struct buf *out)
{
	buf_reset(out);
	for (const char *c = file; *c && *c != '-'; c++) {
		char ch = *c;

		if (ch == '_' || ch == '.')
			ch = '-';
		else if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		buf_addc(out, ch);
	}
}

/*
 * DIR/pypi/simple/<project>/index.html for each project with wheels in
 * all: a PEP 503 page linking each (relative, with its sha256), so that
 * DIR/pypi/simple is an index, over HTTP or file://.
 */
static int write_pages(const struct run *run, const struct mirror_plan *all,
		       struct cuenv_err *err)
{
	static const char pre[] = "pypi/packages/";
	struct strv done = STRV_INIT;
	struct buf proj = BUF_INIT, other = BUF_INIT, page = BUF_INIT,
		   rel = BUF_INIT, shown = BUF_INIT;
	int rc = CUENV_OK;

	for (size_t i = 0; !rc && i < all->nfiles; i++) {
		const char *path = all->files[i].path;
		int fd = -1;

		if (strncmp(path, pre, sizeof(pre) - 1))
			continue;
		wheel_project(path + sizeof(pre) - 1, &proj);
		if (!proj.len || strv_find(&done, proj.data) >= 0)
			continue;
		strv_push(&done, proj.data);
		buf_reset(&page);
		buf_printf(&page,
			   "<!DOCTYPE html>\n<html><body>\n"
			   "<h1>Links for %s</h1>\n",
			   proj.data);
		for (size_t k = i; k < all->nfiles; k++) {
			const struct mirror_file *f = &all->files[k];
			const char *file = f->path + sizeof(pre) - 1;

			if (strncmp(f->path, pre, sizeof(pre) - 1))
				continue;
			wheel_project(file, &other);
			if (strcmp(other.data, proj.data))
				continue;
			buf_printf(&page,
				   "<a href=\"../../packages/%s#sha256=%s\">"
				   "%s</a><br>\n",
				   file, f->sha256, file);
		}
		buf_adds(&page, "</body></html>\n");
		buf_reset(&rel);
		buf_printf(&rel, "pypi/simple/%s", proj.data);
		rc = open_below(run->root, run->o->dir, rel.data, 1, &fd, err);
		buf_reset(&shown);
		buf_printf(&shown, "%s/%s/index.html", run->o->dir, rel.data);
		if (!rc)
			rc = put(fd, "index.html", shown.data, page.data, err);
		if (fd >= 0)
			plat_close(fd);
	}
	strv_release(&done);
	BUF_RELEASE_EACH(&proj, &other, &page, &rel, &shown);
	return rc;
}

/* ---- the run ---------------------------------------------------------------- */

/* The folders a run makes before its first file, outermost first. */
static const char *const run_dirs[] = {
	"",
	STATE,
	(STATE "/tmp"), /* one name: parenthesised for clang-tidy */
	"compute",
	"compute/cuda",
	"compute/cuda/redist",
	"compute/cudnn",
	"compute/cudnn/redist",
	"pypi",
	"pypi/packages",
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

/* Take DIR's lock (.cuenv-mirror/lock), waiting for another run. */
static int lock_dir(const struct run *run, int *fd, struct cuenv_err *err)
{
	const struct mirror_opts *o = run->o;
	int r;

	*fd = plat_open_at(run->state, "lock",
			   PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_NOFOLLOW |
				   PLAT_O_NONBLOCK,
			   0644);
	r = *fd < 0 ? -2 : store_lock_fd(*fd, 1, 0);
	if (r == -1) {
		if (o->waiting)
			o->waiting(o->ctx, o->dir);
		r = store_lock_fd(*fd, 1, 1);
	}
	if (r)
		return cuenv_fail(err, CUENV_E_STORE,
				  "cannot lock '%s/" STATE "/lock': %s", o->dir,
				  strerror(errno));
	return CUENV_OK;
}

int mirror_run(const struct mirror_plan *p, const struct mirror_opts *o,
	       struct mirror_report *r, struct cuenv_err *err)
{
	struct run run = { .o = o, .r = r, .root = -1, .state = -1, .tmp = -1 };
	struct buf path = BUF_INIT, text = BUF_INIT;
	struct mirror_plan all;
	char *abs = NULL;
	unsigned made = missing_dirs(o->dir);
	int lockfd = -1, rc;

	memset(r, 0, sizeof(*r));
	mirror_plan_init(&all);
	rc = store_mkdir_p(o->dir, err);
	if (rc)
		goto out;
	/* DIR itself is the user's to name (a link to a big disk is fine);
	 * nothing below it is reached through a link. */
	run.root = plat_open(o->dir, PLAT_O_READ | PLAT_O_DIR, 0);
	if (run.root < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				o->dir, strerror(errno));
		goto out;
	}
	rc = open_below(run.root, o->dir, STATE "/tmp", 1, &run.tmp, err);
	if (!rc)
		rc = open_below(run.root, o->dir, STATE, 0, &run.state, err);
	if (!rc)
		rc = lock_dir(&run, &lockfd, err);
	/*
	 * Both redist folders, even empty: `cuenv update --mirror` lists
	 * each, and a 404 for one would fail it.
	 */
	for (int k = 0; !rc && k < 2; k++) {
		int fd = -1;

		buf_reset(&path);
		buf_printf(&path, "compute/%s/redist", k ? "cudnn" : "cuda");
		rc = open_below(run.root, o->dir, path.data, 1, &fd, err);
		if (fd >= 0)
			plat_close(fd);
	}
	if (rc)
		goto out;
	/* The index first: a damaged one stops the run before any work. */
	buf_reset(&path);
	buf_path(&path, o->dir, INDEX);
	rc = read_at(run.root, INDEX, path.data, &text, err);
	if (!rc)
		rc = parse_index(path.data, &text, &all, err);
	else if (rc == CUENV_NO)
		rc = CUENV_OK;
	if (rc)
		goto out;
	buf_reset(&path);
	buf_printf(&path, "%s/" STATE "/verified", o->dir);
	stamps_load(&run.stamps, run.state, path.data);
	for (size_t i = 0; i < p->nfiles && !rc; i++)
		rc = ensure_file(&run, &p->files[i], err);
	/* Whatever was verified stays known, also after a failure. */
	if (rc) {
		struct cuenv_err e = CUENV_ERR_INIT;

		stamps_save(&run.stamps, run.state, path.data, &e);
		err_release(&e);
		goto out;
	}
	rc = stamps_save(&run.stamps, run.state, path.data, err);
	if (!rc)
		rc = merge(&all, p, err);
	if (!rc)
		rc = write_catalogue(&run, p, &all, err);
	if (!rc)
		rc = write_pages(&run, &all, err);
	if (rc)
		goto out;
	buf_reset(&text);
	format_index(&all, &text);
	buf_reset(&path);
	buf_path(&path, o->dir, INDEX);
	rc = put(run.root, INDEX, path.data, text.data, err);
	if (rc)
		goto out;
	abs = plat_realpath(o->dir);
	buf_reset(&text);
	format_readme(&all, o, abs ? abs : o->dir, &text);
	buf_reset(&path);
	buf_path(&path, o->dir, "README.txt");
	rc = put(run.root, "README.txt", path.data, text.data, err);
out:
	if (rc && lockfd >= 0)
		undo_failed_run(o->dir, made,
				r->fetched + r->cached + r->copied > 0);
	if (lockfd >= 0)
		plat_close(lockfd);
	if (run.tmp >= 0)
		plat_close(run.tmp);
	if (run.state >= 0)
		plat_close(run.state);
	if (run.root >= 0)
		plat_close(run.root);
	stamps_release(&run.stamps);
	mirror_plan_release(&all);
	buf_release(&path);
	buf_release(&text);
	free(abs);
	return rc;
}
