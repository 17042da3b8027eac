#include "nvidia/catalog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "plat/file.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "plat/plat_sys.h"
#include "net/digest.h"
#include "base/kit.h"
#include "base/version.h"
#include "base/xalloc.h"

/* Catalogue files are small; anything larger is not one of ours. */
#define CATALOG_MAX_BYTES (16 << 20)

void part_release(struct part *p)
{
	FREE_EACH(p->name, p->version, p->url, p->sha256);
}

static void release_free(struct release *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nparts; i++)
		part_release(&r->parts[i]);
	FREE_EACH(r->parts, r->version, r->origin);
	free(r);
}

void catalog_release(struct catalog *cat)
{
	for (size_t i = 0; i < cat->n; i++)
		release_free(cat->v[i]);
	free(cat->v);
	cat->v = NULL;
	cat->n = 0;
	for (size_t i = 0; i < cat->nindex; i++)
		FREE_EACH(cat->index[i].release, cat->index[i].component,
			  cat->index[i].holds);
	free(cat->index);
	cat->index = NULL;
	cat->nindex = 0;
	free(cat->platform);
	cat->platform = NULL;
}

const char *catalog_platform_of(const struct catalog *cat)
{
	return cat->platform ? cat->platform : catalog_platform();
}

const char *const catalog_platforms[] = {
	"linux-x86_64",	 "linux-sbsa",	   "linux-aarch64",
	"linux-ppc64le", "windows-x86_64", NULL,
};

bool catalog_platform_known(const char *p)
{
	for (size_t i = 0; catalog_platforms[i]; i++)
		if (!strcmp(catalog_platforms[i], p))
			return true;
	return false;
}

const char *catalog_platform_machine(const char *p)
{
	if (!strcmp(p, "linux-sbsa") || !strcmp(p, "linux-aarch64"))
		return "aarch64";
	if (!strcmp(p, "linux-ppc64le"))
		return "ppc64le";
	return "x86_64";
}

const char *catalog_platform(void)
{
	return plat_sys_platform();
}

const char *source_name(enum source_kind s)
{
	static const char *const names[] = { "redist", "runfile", "tarball",
					     "pypi" };

	return names[s];
}

int source_parse(const char *s, enum source_kind *out)
{
	for (int i = 0; i <= SRC_PYPI; i++) {
		if (!strcmp(s, source_name((enum source_kind)i))) {
			*out = (enum source_kind)i;
			return 0;
		}
	}
	return -1;
}

static struct release *release_new(enum kit_kind kind, enum source_kind src,
				   const char *version, unsigned major,
				   const char *origin)
{
	struct release *r = xcalloc(1, sizeof(*r));

	r->kind = kind;
	r->source = src;
	r->version = xstrdup(version);
	r->cuda_major = major;
	r->origin = xstrdup(origin);
	/* until a pypi.tsv says otherwise (mark_index) */
	r->on_index = src == SRC_REDIST;
	return r;
}

static void add_part(struct release *r, const char *name, const char *version,
		     const char *url, const char *sha, uint64_t size)
{
	struct part *p;

	r->parts = xrealloc(r->parts, (r->nparts + 1) * sizeof(*r->parts));
	p = &r->parts[r->nparts++];
	p->name = xstrdup(name);
	p->version = xstrdup(version);
	p->url = xstrdup(url);
	p->sha256 = xstrdup(sha);
	p->size = size;
	p->index_holds = NULL;
}

static void push(struct catalog *cat, struct release *r)
{
	cat->v = xrealloc(cat->v, (cat->n + 1) * sizeof(*cat->v));
	cat->v[cat->n++] = r;
}

static int bad(struct cuenv_err *err, const char *name, const char *what,
	       const char *key)
{
	struct buf shown = BUF_INIT;

	buf_add_display(&shown, key ? key : "", 80);
	cuenv_fail(err, CUENV_E_MANIFEST, "bad catalogue file '%s': %s%s%s%s",
		   name, what, key ? " '" : "", shown.data, key ? "'" : "");
	buf_release(&shown);
	return err->rc;
}

bool catalog_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n <= CATALOG_NAME_MAX &&
	       strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789",
		      s[0]) &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789._-") == n;
}

/* A relative_path must stay on NVIDIA's redist tree. */
static int relpath_ok(const char *p)
{
	return p[0] && p[0] != '/' && !strstr(p, "..") && !strchr(p, '\\') &&
	       strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789._-+/") == strlen(p);
}

/*
 * A size in bytes: a non-negative integer, as a JSON string of digits
 * (NVIDIA writes "size": "1234") or a JSON integer. Anything else (a
 * sign, a fraction, an exponent, letters, more than 64 bits) is -1:
 * a size that wrapped or was ignored would turn the download's bound off.
 */
static int parse_size(json_t *v, uint64_t *out)
{
	const char *s = json_string_value(v);
	unsigned long long n;
	char *end;

	if (json_is_integer(v)) {
		if (json_integer_value(v) < 0)
			return -1;
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	if (!s || !*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = n;
	return 0;
}

/*
 * One platform entry {relative_path, sha256, size} at where (its path in
 * the JSON, "cuda_cudart.linux-x86_64"): check it and add it to r as a
 * part.
 */
static int read_entry(struct release *r, const char *name, const char *pkg,
		      const char *pkgver, json_t *entry, const char *where,
		      const char *base, struct cuenv_err *err)
{
	const char *rel =
		json_string_value(json_object_get(entry, "relative_path"));
	const char *sha = json_string_value(json_object_get(entry, "sha256"));
	json_t *size = json_object_get(entry, "size");
	struct buf url = BUF_INIT;
	uint64_t n = 0;

	if (!rel || !relpath_ok(rel))
		return bad(err, name, "bad relative_path for", pkg);
	if (!sha || !digest_hex_valid(sha))
		return bad(err, name, "bad sha256 for", pkg);
	if (size && parse_size(size, &n)) {
		struct buf key = BUF_INIT, shown = BUF_INIT;
		char *text = json_dumps(size, JSON_ENCODE_ANY | JSON_COMPACT);

		buf_printf(&key, "%s.size", where);
		buf_add_display(&shown, key.data, 120);
		buf_adds(&shown, "' must be a whole number of bytes, not ");
		buf_add_display(&shown, text ? text : "?", 40);
		cuenv_fail(err, CUENV_E_MANIFEST,
			   "bad catalogue file '%s': '%s", name, shown.data);
		free(text);
		buf_release(&key);
		buf_release(&shown);
		return err->rc;
	}
	buf_printf(&url, "%s/%s", base, rel);
	add_part(r, pkg, pkgver, url.data, sha, n);
	buf_release(&url);
	return CUENV_OK;
}

int catalog_parse_redist(struct catalog *cat, const char *name,
			 const char *json, size_t len, const char *platform,
			 const char *hint_product, const char *hint_label,
			 struct cuenv_err *err)
{
	json_error_t jerr;
	json_t *j = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
	const char *product, *label, *key;
	struct release *r = NULL;
	struct buf where = BUF_INIT;
	json_t *pkg;
	int rc = CUENV_OK;

	if (!j) {
		rc = cuenv_fail(err, CUENV_E_MANIFEST,
				"bad catalogue file '%s': %s (line %d)", name,
				jerr.text, jerr.line);
		goto out;
	}
	product = json_string_value(json_object_get(j, "release_product"));
	label = json_string_value(json_object_get(j, "release_label"));
	if (!product)
		product = hint_product;
	if (!label)
		label = hint_label;
	if (!json_is_object(j) || !product || !label ||
	    !version_is_valid(label) || !version_major(label)) {
		rc = bad(err, name, "no valid release_label/release_product",
			 NULL);
		goto out;
	}
	/* redistrib_12.4.json saying 12.4.99 would make 12.4 mean it. */
	if (hint_label && strcmp(label, hint_label)) {
		struct buf want = BUF_INIT;

		buf_printf(&want, "is not %s, as the file name says",
			   hint_label);
		rc = bad(err, name, "release_label", label);
		buf_adds(&err->msg, " ");
		buf_add_display(&err->msg, want.data, 120);
		buf_release(&want);
		goto out;
	}

	if (!strcmp(product, "cuda")) {
		size_t ncomp = 0; /* components, on any platform */

		r = release_new(KIT_CUDA, SRC_REDIST, label,
				version_major(label), name);
		json_object_foreach(j, key, pkg) {
			const char *v;
			json_t *e;

			if (!json_is_object(pkg))
				continue; /* release_date and friends */
			/* A component's name becomes a folder and a word in
			 * the mirror's index: checked on every platform. */
			if (!catalog_name_ok(key)) {
				rc = bad(err, name, "bad component name", key);
				goto out;
			}
			v = json_string_value(json_object_get(pkg, "version"));
			ncomp += v != NULL;
			e = json_object_get(pkg, platform);
			/* Entries split by CUDA variant (cuda_compat) skipped */
			if (!v || !json_is_object(e) ||
			    !json_object_get(e, "relative_path"))
				continue;
			buf_reset(&where);
			buf_printf(&where, "%s.%s", key, platform);
			rc = read_entry(r, name, key, v, e, where.data,
					NVIDIA_BASE "/compute/cuda/redist",
					err);
			if (rc)
				goto out;
		}
		/* Released, but not for this platform: CUDA 11.4's and
		 * 13's manifests have no linux-aarch64 (Jetson) archives. */
		if (ncomp && !r->nparts)
			goto out;
		if (!release_part(r, "cuda_cudart")) {
			rc = bad(err, name, "no cuda_cudart for", platform);
			goto out;
		}
		push(cat, r);
		r = NULL;
	} else if (!strcmp(product, "cudnn")) {
		json_t *cudnn = json_object_get(j, "cudnn"), *plat, *e;
		const char *v =
			json_string_value(json_object_get(cudnn, "version"));

		if (!v || !version_is_valid(v)) {
			rc = bad(err, name, "no valid cudnn version", NULL);
			goto out;
		}
		plat = json_object_get(cudnn, platform);
		json_object_foreach(plat, key, e) {
			unsigned major;

			/* "cuda12": one build per CUDA major */
			if (strncmp(key, "cuda", 4) || !json_is_object(e))
				continue;
			major = (unsigned)strtoul(key + 4, NULL, 10);
			if (!major || major > 99 || !key[4] ||
			    strspn(key + 4, "0123456789") != strlen(key + 4)) {
				rc = bad(err, name, "bad CUDA variant", key);
				goto out;
			}
			r = release_new(KIT_CUDNN, SRC_REDIST, v, major, name);
			buf_reset(&where);
			buf_printf(&where, "cudnn.%s.%s", platform, key);
			rc = read_entry(r, name, "cudnn", v, e, where.data,
					NVIDIA_BASE "/compute/cudnn/redist",
					err);
			if (rc)
				goto out;
			push(cat, r);
			r = NULL;
		}
	} else {
		rc = bad(err, name, "unknown release_product", product);
	}
out:
	release_free(r);
	json_decref(j);
	buf_release(&where);
	return rc;
}

/* ---- tables ------------------------------------------------------------- */

/* Split one line into at most max tab-separated fields (in place). */
static size_t fields(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

/*
 * On NVIDIA's hosts, with a path that relpath_ok() accepts: a mirror
 * (file:// included) replaces the host, so the path must not climb.
 */
static int url_ok(const char *u)
{
	if (!strncmp(u, "https://developer.download.nvidia.com/", 38))
		return relpath_ok(u + 38);
	if (!strncmp(u, "https://developer.nvidia.com/", 29))
		return relpath_ok(u + 29);
	return 0;
}

int catalog_parse_table(struct catalog *cat, enum kit_kind kind,
			const char *name, const char *text, size_t len,
			const char *platform, struct cuenv_err *err)
{
	char *copy = xstrndup(text, len);
	char *line = copy, *next;
	unsigned lineno = 0;
	int rc = CUENV_OK;

	if (memchr(text, '\0', len)) {
		free(copy);
		return bad(err, name, "binary data", NULL);
	}
	for (; line && *line; line = next) {
		char *f[8];
		size_t n;
		const char *ver, *plat, *url, *sha, *range = NULL;
		struct release *r;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (lineno == 1 || !*line || *line == '#')
			continue; /* header, blank, comment */
		n = fields(line, f, 8);
		if (kind == KIT_CUDA && n >= 4) {
			ver = f[0], plat = f[1], url = f[2], sha = f[3];
		} else if (kind == KIT_CUDNN && n >= 5) {
			ver = f[0], range = f[1], plat = f[2], url = f[3];
			sha = f[4];
		} else {
			rc = cuenv_fail(err, CUENV_E_MANIFEST,
					"bad catalogue file '%s': line %u has "
					"too few fields",
					name, lineno);
			break;
		}
		if (!version_is_valid(ver) || !version_major(ver) ||
		    !digest_hex_valid(sha) || !url_ok(url) ||
		    (range && !version_major(range))) {
			rc = cuenv_fail(err, CUENV_E_MANIFEST,
					"bad catalogue file '%s': line %u is "
					"malformed",
					name, lineno);
			break;
		}
		if (strcmp(plat, platform))
			continue;
		r = release_new(kind,
				kind == KIT_CUDA ? SRC_RUNFILE : SRC_TARBALL,
				ver, version_major(range ? range : ver), name);
		add_part(r, kind == KIT_CUDA ? "runfile" : "cudnn", ver, url,
			 sha, 0);
		push(cat, r);
	}
	free(copy);
	return rc;
}

/* A component name of the redist manifests, or "*". */
static int component_ok(const char *c)
{
	if (!strcmp(c, "*"))
		return 1;
	if (!*c)
		return 0;
	for (; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
		      *c == '_'))
			return 0;
	return 1;
}

/* Does row, a version or prefix, name release version? */
static int row_names(const struct index_row *row, const char *version)
{
	struct version v, p;

	return !version_parse(version, &v) &&
	       !version_parse(row->release, &p) && version_matches(&v, &p);
}

/* Each release's on_index and its parts' index_holds, from cat->index. */
static void mark_index(struct catalog *cat)
{
	for (size_t i = 0; i < cat->n; i++) {
		struct release *r = cat->v[i];

		r->on_index = r->source == SRC_REDIST &&
			      (r->kind != KIT_CUDA || !cat->nindex);
		for (size_t j = 0; j < r->nparts; j++)
			r->parts[j].index_holds = NULL;
		for (size_t k = 0; k < cat->nindex && r->kind == KIT_CUDA &&
				   r->source == SRC_REDIST;
		     k++) {
			const struct index_row *row = &cat->index[k];

			if (!row_names(row, r->version))
				continue;
			if (!strcmp(row->component, "*")) {
				r->on_index = true;
				continue;
			}
			for (size_t j = 0; j < r->nparts; j++)
				if (!strcmp(r->parts[j].name, row->component))
					r->parts[j].index_holds = row->holds;
		}
	}
}

int catalog_parse_index(struct catalog *cat, const char *name, const char *text,
			size_t len, struct cuenv_err *err)
{
	char *copy = xstrndup(text, len);
	char *line = copy, *next;
	unsigned lineno = 0;
	int rc = CUENV_OK;

	if (memchr(text, '\0', len)) {
		free(copy);
		return bad(err, name, "binary data", NULL);
	}
	for (; line && *line; line = next) {
		char *f[4];
		struct index_row *r;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (lineno == 1 || !*line || *line == '#')
			continue; /* header, blank, comment */
		if (fields(line, f, 4) < 4 || !version_is_valid(f[0]) ||
		    !component_ok(f[1]) || !*f[2] || !*f[3]) {
			rc = cuenv_fail(err, CUENV_E_MANIFEST,
					"bad catalogue file '%s': line %u is "
					"malformed",
					name, lineno);
			break;
		}
		cat->index = xrealloc(cat->index,
				      (cat->nindex + 1) * sizeof(*cat->index));
		r = &cat->index[cat->nindex++];
		r->release = xstrdup(f[0]);
		r->component = xstrdup(f[1]);
		r->holds = xstrdup(f[2]);
	}
	free(copy);
	mark_index(cat);
	return rc;
}

/* ---- loading -------------------------------------------------------------- */

static int load_file(struct catalog *cat, const char *path, int table,
		     enum kit_kind kind, const char *platform,
		     struct cuenv_err *err)
{
	/* .../cudnn/redistrib_9.1.0.json -> "cudnn", "9.1.0" */
	const char *base = plat_path_last(path);
	char *label = NULL;

	if (!strncmp(base, "redistrib_", 10) && strlen(base) > 15)
		label = xstrndup(base + 10, strlen(base) - 15);
	struct buf text = BUF_INIT;
	int rc = file_read(path, CATALOG_MAX_BYTES, FILE_MAY_BE_MISSING, &text,
			   err);

	if (rc == CUENV_NO && table)
		rc = CUENV_OK;
	else if (!rc && table)
		rc = catalog_parse_table(cat, kind, path, text.data, text.len,
					 platform, err);
	else if (!rc)
		rc = catalog_parse_redist(cat, path, text.data, text.len,
					  platform, kit_kind_name(kind), label,
					  err);
	if (rc == CUENV_E_STORE)
		rc = err->rc = CUENV_E_MANIFEST;
	buf_release(&text);
	free(label);
	return rc;
}

/* pypi.tsv, when there is one. */
static int load_index(struct catalog *cat, const char *path,
		      struct cuenv_err *err)
{
	struct buf text = BUF_INIT;
	int rc = file_read(path, CATALOG_MAX_BYTES, FILE_MAY_BE_MISSING, &text,
			   err);

	if (rc == CUENV_NO)
		rc = CUENV_OK;
	else if (!rc)
		rc = catalog_parse_index(cat, path, text.data, text.len, err);
	if (rc == CUENV_E_STORE)
		rc = err->rc = CUENV_E_MANIFEST;
	buf_release(&text);
	return rc;
}

static int load_dir(struct catalog *cat, const char *dir, enum kit_kind kind,
		    const char *platform, struct cuenv_err *err)
{
	struct buf path = BUF_INIT;
	struct strv names = STRV_INIT;
	struct plat_dir *dh = plat_opendir(dir);
	const char *name;
	int rc = CUENV_OK;

	/* in byte order, as scandir's alphasort gives it in the C locale */
	while (dh && (name = plat_readdir(dh)))
		strv_push(&names, name);
	plat_closedir(dh);
	strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		const char *d = names.v[i];
		size_t l = strlen(d);

		if (!rc && !strncmp(d, "redistrib_", 10) && l > 15 &&
		    !strcmp(d + l - 5, ".json")) {
			buf_reset(&path);
			buf_path(&path, dir, d);
			rc = load_file(cat, path.data, 0, kind, platform, err);
		}
	}
	strv_release(&names);
	buf_release(&path);
	return rc;
}

int catalog_load(struct catalog *cat, const char *dir, const char *platform,
		 struct cuenv_err *err)
{
	struct buf p = BUF_INIT;
	int rc;

	if (!cat->platform || strcmp(cat->platform, platform)) {
		free(cat->platform);
		cat->platform = xstrdup(platform);
	}
	buf_path(&p, dir, "cuda");
	rc = load_dir(cat, p.data, KIT_CUDA, platform, err);
	buf_reset(&p);
	buf_path(&p, dir, "cudnn");
	if (!rc)
		rc = load_dir(cat, p.data, KIT_CUDNN, platform, err);
	buf_reset(&p);
	buf_path(&p, dir, "cuda-runfiles.tsv");
	if (!rc)
		rc = load_file(cat, p.data, 1, KIT_CUDA, platform, err);
	buf_reset(&p);
	buf_path(&p, dir, "cudnn-tarballs.tsv");
	if (!rc)
		rc = load_file(cat, p.data, 1, KIT_CUDNN, platform, err);
	buf_reset(&p);
	buf_path(&p, dir, "pypi.tsv");
	if (!rc)
		rc = load_index(cat, p.data, err);
	if (!rc)
		mark_index(cat);
	buf_release(&p);
	return rc;
}

/* ---- queries --------------------------------------------------------------- */

const struct release *catalog_find(const struct catalog *cat,
				   enum kit_kind kind, const char *spec,
				   unsigned cuda_major, int source)
{
	const struct release *best = NULL;
	struct version vs;

	if (version_parse(spec, &vs))
		return NULL;
	for (size_t i = 0; i < cat->n; i++) {
		const struct release *r = cat->v[i];
		struct version v;
		int c;

		if (r->kind != kind || (source == SRC_PYPI && !r->on_index) ||
		    (source >= 0 && source != SRC_PYPI &&
		     (int)r->source != source))
			continue;
		if (cuda_major && r->cuda_major != cuda_major)
			continue;
		if (version_parse(r->version, &v) || !version_matches(&v, &vs))
			continue;
		if (!best) {
			best = r;
			continue;
		}
		c = version_cmp_str(r->version, best->version);
		/* Newest; at equal versions redist wins over the others. */
		if (c > 0 || (c == 0 && r->source == SRC_REDIST &&
			      best->source != SRC_REDIST))
			best = r;
	}
	return best;
}

/* Where to look next when the catalogue lacks a release. */
#define HINT_UPDATE "newer releases from NVIDIA: cuenv update"

static int cmp_version(const void *a, const void *b)
{
	return version_cmp_str(*(char *const *)a, *(char *const *)b);
}

void catalog_index_releases(const struct catalog *cat, struct buf *out)
{
	struct strv seen = STRV_INIT;

	for (size_t i = 0; i < cat->n; i++)
		if (cat->v[i]->kind == KIT_CUDA && cat->v[i]->on_index &&
		    strv_find(&seen, cat->v[i]->version) < 0)
			strv_push(&seen, cat->v[i]->version);
	if (seen.n)
		qsort(seen.v, seen.n, sizeof(*seen.v), cmp_version);
	for (size_t i = 0; i < seen.n; i++)
		buf_printf(out, "%s%s", i ? ", " : "", seen.v[i]);
	strv_release(&seen);
}

/*
 * For a CUDA the index lacks: what it has, and the command that installs
 * the newest release of the same major there.
 */
static int index_hint(const struct catalog *cat, const char *cuda,
		      struct cuenv_err *err)
{
	struct buf has = BUF_INIT, major = BUF_INIT;
	const struct release *near, *nv;

	buf_printf(&major, "%lu", (unsigned long)version_major(cuda));
	near = catalog_find(cat, KIT_CUDA, major.data, 0, SRC_PYPI);
	nv = catalog_find(cat, KIT_CUDA, cuda, 0, -1);
	catalog_index_releases(cat, &has);
	if (!has.len)
		buf_adds(&has, "no release this catalogue knows");
	if (near)
		cuenv_hint(err,
			   "the package index has CUDA %s; its newest CUDA "
			   "%s: cuenv install %s --source pypi",
			   has.data, major.data, near->version);
	else if (nv)
		cuenv_hint(err,
			   "the package index has CUDA %s; from NVIDIA: "
			   "cuenv install %s --source %s",
			   has.data, nv->version, source_name(nv->source));
	else
		cuenv_hint(err, "the package index has CUDA %s", has.data);
	BUF_RELEASE_EACH(&has, &major);
	return err->rc;
}

int catalog_resolve(const struct catalog *cat, const char *cuda,
		    const char *cudnn, const char *cupti, int source,
		    struct catalog_choice *out, struct cuenv_err *err)
{
	out->cuda = catalog_find(cat, KIT_CUDA, cuda, 0, source);
	out->cudnn = NULL;
	out->cupti = NULL;
	if (!out->cuda) {
		cuenv_fail(err, CUENV_E_UNKNOWN,
			   "no CUDA %s%s%s in the catalogue", cuda,
			   source >= 0 ? " from " : "",
			   source >= 0 ? source_name((enum source_kind)source)
				       : "");
		if (source == SRC_PYPI)
			return index_hint(cat, cuda, err);
		return cuenv_hint(err,
				  "see: cuenv list-remote cuda; " HINT_UPDATE);
	}
	if (cudnn) {
		out->cudnn = catalog_find(cat, KIT_CUDNN, cudnn,
					  out->cuda->cuda_major,
					  source == SRC_PYPI ? SRC_PYPI : -1);
		if (!out->cudnn) {
			cuenv_fail(err, CUENV_E_UNKNOWN,
				   "no cuDNN %s for CUDA %u in the catalogue",
				   cudnn, out->cuda->cuda_major);
			return cuenv_hint(
				err,
				"see: cuenv list-remote cudnn; " HINT_UPDATE);
		}
	}
	if (cupti) {
		out->cupti = catalog_find(cat, KIT_CUDA, cupti, 0, source);
		if (!out->cupti) {
			cuenv_fail(err, CUENV_E_UNKNOWN,
				   "no CUDA %s (for its CUPTI) in the catalogue",
				   cupti);
			return cuenv_hint(
				err,
				"see: cuenv list-remote cuda; " HINT_UPDATE);
		}
	}
	return CUENV_OK;
}

const struct part *release_part(const struct release *rel, const char *name)
{
	for (size_t i = 0; i < rel->nparts; i++)
		if (!strcmp(rel->parts[i].name, name))
			return &rel->parts[i];
	return NULL;
}
