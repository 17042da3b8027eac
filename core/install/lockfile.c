#include "install/lockfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "nvidia/pypi.h"
#include "plat/file.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "base/version.h"
#include "base/xalloc.h"

/* ---- the lock in memory ------------------------------------------------ */

void lock_init(struct lockfile *lk)
{
	memset(lk, 0, sizeof(*lk));
}

static void part_free(struct lock_part *p)
{
	FREE_EACH(p->release, p->name, p->version, p->platform, p->url,
		  p->sha256);
}

void lock_release(struct lockfile *lk)
{
	FREE_EACH(lk->cuda, lk->cudnn, lk->cupti, lk->platform);
	strv_release(&lk->components);
	for (size_t i = 0; i < lk->nparts; i++)
		part_free(&lk->parts[i]);
	free(lk->parts);
	lock_init(lk);
}

static char *dup0(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct lock_part *add_part(struct lockfile *lk)
{
	lk->parts = xrealloc(lk->parts, (lk->nparts + 1) * sizeof(*lk->parts));
	memset(&lk->parts[lk->nparts], 0, sizeof(*lk->parts));
	return &lk->parts[lk->nparts++];
}

/* The archives of rel (installed as kind) that asked selects, into lk. */
static int add_release(struct lockfile *lk, const struct release *rel,
		       enum kit_kind kind, const struct plan_opts *asked,
		       const char *platform, struct cuenv_err *err)
{
	struct release r = *rel;
	struct plan_opts o = plan_opts_for(kind, asked);
	struct strv names = STRV_INIT;
	int rc;

	r.kind = kind;
	rc = plan_archives(&r, &o, &names, err);
	for (size_t i = 0; !rc && i < rel->nparts; i++) {
		const struct part *pt = &rel->parts[i];
		struct lock_part *lp;

		/* Redist CUDA: the planned components; else every archive. */
		if (kind != KIT_CUDNN && rel->source == SRC_REDIST &&
		    strv_find(&names, pt->name) < 0)
			continue;
		lp = add_part(lk);
		lp->kind = kind;
		lp->source = rel->source;
		lp->release = xstrdup(rel->version);
		lp->cuda_major = rel->cuda_major;
		lp->name = xstrdup(pt->name);
		lp->version = xstrdup(pt->version ? pt->version : rel->version);
		lp->platform = xstrdup(platform);
		lp->url = xstrdup(pt->url);
		lp->sha256 = xstrdup(pt->sha256);
		lp->size = pt->size;
	}
	strv_release(&names);
	return rc;
}

int lock_build(struct lockfile *lk, const struct catalog *cat, const char *cuda,
	       const char *cudnn, const char *cupti, int source,
	       const struct plan_opts *opts, const char *platform,
	       struct cuenv_err *err)
{
	struct catalog_choice ch;
	int rc;

	/* What install would fetch: the same resolution. */
	rc = catalog_resolve(cat, cuda, cudnn, cupti, source, &ch, err);
	if (rc)
		return rc;
	lk->cuda = xstrdup(cuda);
	lk->cudnn = dup0(cudnn);
	lk->cupti = dup0(cupti);
	lk->platform = xstrdup(platform);
	lk->runtime_only = opts->runtime_only;
	if (opts->components)
		for (size_t i = 0; i < opts->components->n; i++)
			strv_push(&lk->components, opts->components->v[i]);
	rc = add_release(lk, ch.cuda, KIT_CUDA, opts, platform, err);
	if (!rc && ch.cudnn)
		rc = add_release(lk, ch.cudnn, KIT_CUDNN, opts, platform, err);
	if (!rc && ch.cupti)
		rc = add_release(lk, ch.cupti, KIT_CUPTI, opts, platform, err);
	return rc;
}

/* ---- what is installed ---------------------------------------------------- */

static int is_wheel(const char *url)
{
	size_t n = strlen(url);

	return n > 4 && !strcmp(url + n - 4, ".whl");
}

/* The version a receipt's notes give component name, or NULL. */
static const char *noted_version(const struct store_version *in,
				 const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < in->notes.n; i++)
		if (!strncmp(in->notes.v[i], name, n) &&
		    in->notes.v[i][n] == ' ')
			return in->notes.v[i] + n + 1;
	return NULL;
}

/* Does the receipt name a wheel of the package index? */
static int has_wheel(const struct store_version *in)
{
	for (size_t i = 0; i < in->sources.n; i++) {
		const char *url = strrchr(in->sources.v[i], ' ');

		if (url && is_wheel(url + 1))
			return 1;
	}
	return 0;
}

/*
 * lk's parts of kind, first (a template: release, major, platform), made
 * from the receipt in: a wheel as installed (pypi, its url and sha256);
 * another archive as the catalogue's part of that name and sha256 that
 * lk had (NVIDIA's url, not a mirror's), else dropped.
 */
static void take_receipt(struct lockfile *lk, enum kit_kind kind,
			 const struct store_version *in)
{
	struct lockfile old = *lk;
	const struct lock_part *t = NULL;

	lk->parts = NULL;
	lk->nparts = 0;
	for (size_t i = 0; i < old.nparts && !t; i++)
		if (old.parts[i].kind == kind)
			t = &old.parts[i];
	for (size_t i = 0; i < old.nparts; i++)
		if (old.parts[i].kind != kind) {
			*add_part(lk) = old.parts[i];
			memset(&old.parts[i], 0, sizeof(old.parts[i]));
		}
	for (size_t i = 0; i < in->sources.n; i++) {
		char *line = xstrdup(in->sources.v[i]);
		char *sha = strchr(line, ' '), *url;
		const struct lock_part *cp = NULL;
		const char *v;
		struct lock_part *lp;

		if (!sha || !(url = strchr(sha + 1, ' '))) {
			free(line);
			continue;
		}
		*sha++ = '\0';
		*url++ = '\0';
		for (size_t k = 0; k < old.nparts && !cp; k++)
			if (old.parts[k].name && old.parts[k].kind == kind &&
			    !strcmp(old.parts[k].name, line) &&
			    !strcmp(old.parts[k].sha256, sha))
				cp = &old.parts[k];
		if (!is_wheel(url) && !cp) {
			free(line);
			continue;
		}
		lp = add_part(lk);
		lp->kind = kind;
		lp->source = cp ? cp->source : SRC_PYPI;
		lp->release = xstrdup(t->release);
		lp->cuda_major = t->cuda_major;
		lp->name = xstrdup(line);
		v = noted_version(in, line);
		lp->version = xstrdup(cp ? cp->version : v ? v : t->release);
		lp->platform = xstrdup(t->platform);
		lp->url = xstrdup(cp ? cp->url : url);
		lp->sha256 = xstrdup(sha);
		lp->size = cp ? cp->size : 0;
		free(line);
	}
	for (size_t i = 0; i < old.nparts; i++)
		part_free(&old.parts[i]);
	free(old.parts);
}

/*
 * What is installed, as lk's parts: for each release lk pins that root's
 * store holds installed from the package index (wholly or partly: its
 * receipt names a wheel), lk's parts of that kind become the receipt's
 * archives: each wheel with source pypi, its url and sha256 as
 * installed (size 0: the receipt does not say); each other archive as
 * the catalogue's (NVIDIA's url, never a mirror's). With source SRC_PYPI,
 * a release not installed so is CUENV_E_USAGE with the command that
 * installs it (the wheels' urls and hashes are the index's, known only
 * once fetched). Reads receipts; writes nothing.
 */
static int lock_take_installed(struct lockfile *lk, const char *root,
			       int source, struct cuenv_err *err)
{
	static const enum kit_kind kinds[] = { KIT_CUDA, KIT_CUDNN, KIT_CUPTI };
	int rc = CUENV_OK;

	for (size_t k = 0; k < 3 && !rc; k++) {
		const struct lock_part *t = NULL;
		struct store_version in;
		struct cuenv_err rerr = CUENV_ERR_INIT;
		struct buf dir = BUF_INIT;
		char *name;
		int got;

		for (size_t i = 0; i < lk->nparts && !t; i++)
			if (lk->parts[i].kind == kinds[k])
				t = &lk->parts[i];
		if (!t)
			continue;
		store_version_init(&in, kinds[k]);
		in.version = xstrdup(t->release);
		in.cuda_major = t->cuda_major;
		name = store_version_make_name(&in);
		store_version_release(&in);
		buf_printf(&dir, "%s/versions/%s/%s", root,
			   kit_kind_name(kinds[k]), name);
		got = !store_read_receipt(dir.data, &in, &rerr) &&
		      !in.registered && has_wheel(&in);
		if (got) {
			take_receipt(lk, kinds[k], &in);
		} else if (source == SRC_PYPI) {
			rc = cuenv_fail(err, CUENV_E_USAGE,
					"lock: %s %s is not installed from the "
					"package index",
					kit_kind_name(kinds[k]), name);
			cuenv_hint(err,
				   "install it from there first: cuenv "
				   "install %s%s%s --source pypi",
				   lk->cuda, lk->cudnn ? " --cudnn " : "",
				   lk->cudnn ? lk->cudnn : "");
		}
		store_version_release(&in);
		err_release(&rerr);
		buf_release(&dir);
		free(name);
	}
	return rc;
}

/* ---- writing ------------------------------------------------------------- */

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

void lock_format(const struct lockfile *lk, struct buf *out)
{
	json_t *root = json_object(), *sel = json_object(), *o = json_object(),
	       *parts = json_array();
	char *text;

	json_object_set_new(root, "schema", json_integer(LOCK_SCHEMA));
	json_object_set_new(sel, "cuda", str_or_null(lk->cuda));
	json_object_set_new(sel, "cudnn", str_or_null(lk->cudnn));
	json_object_set_new(sel, "cupti", str_or_null(lk->cupti));
	json_object_set_new(root, "selection", sel);
	json_object_set_new(o, "runtime_only", json_boolean(lk->runtime_only));
	if (lk->components.n) {
		json_t *c = json_array();

		for (size_t i = 0; i < lk->components.n; i++)
			json_array_append_new(c,
					      json_string(lk->components.v[i]));
		json_object_set_new(o, "components", c);
	} else {
		json_object_set_new(o, "components", json_null());
	}
	json_object_set_new(root, "options", o);
	json_object_set_new(root, "platform", str_or_null(lk->platform));
	for (size_t i = 0; i < lk->nparts; i++) {
		const struct lock_part *p = &lk->parts[i];
		json_t *j = json_object();

		json_object_set_new(j, "kind",
				    json_string(kit_kind_name(p->kind)));
		json_object_set_new(j, "source",
				    json_string(source_name(p->source)));
		json_object_set_new(j, "release", json_string(p->release));
		json_object_set_new(j, "cuda_major",
				    json_integer((json_int_t)p->cuda_major));
		json_object_set_new(j, "name", json_string(p->name));
		json_object_set_new(j, "version", json_string(p->version));
		json_object_set_new(j, "platform", json_string(p->platform));
		json_object_set_new(j, "url", json_string(p->url));
		json_object_set_new(j, "sha256", json_string(p->sha256));
		json_object_set_new(j, "size",
				    json_integer((json_int_t)p->size));
		json_array_append_new(parts, j);
	}
	json_object_set_new(root, "components", parts);
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	buf_reset(out);
	if (text) {
		buf_adds(out, text);
		buf_addc(out, '\n');
	}
	free(text);
	json_decref(root);
}

/* ---- reading ------------------------------------------------------------- */

static int is_sha256(const char *s)
{
	return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

/* On NVIDIA's host, and no path segment is "..". */
static int url_ok(const char *u)
{
	static const char *const hosts[] = {
		NVIDIA_BASE "/",
		"https://developer.nvidia.com/",
	};
	const char *path = NULL;

	for (size_t i = 0; i < 2 && !path; i++)
		if (!strncmp(u, hosts[i], strlen(hosts[i])))
			path = u + strlen(hosts[i]) - 1;
	if (!path || strpbrk(u, " \t\r\n\\?#%"))
		return 0;
	while (*path) {
		size_t n;

		path++; /* the '/' */
		n = strcspn(path, "/");
		if ((n == 2 && !strncmp(path, "..", 2)) ||
		    (n == 1 && path[0] == '.'))
			return 0;
		path += n;
	}
	return 1;
}

/* A wheel's url from a package index: http(s), a .whl, no '..' segment. */
static int wheel_url_ok(const char *u)
{
	const char *path = NULL;
	size_t n = strlen(u);

	if (!strncmp(u, "https://", 8))
		path = u + 8;
	else if (!strncmp(u, "http://", 7))
		path = u + 7;
	if (!path || n < 5 || strcmp(u + n - 4, ".whl") ||
	    strpbrk(u, " \t\r\n\\?#") || strstr(path, "/../") ||
	    strstr(path, "/./"))
		return 0;
	return 1;
}

static int bad(struct cuenv_err *err, const char *name, const char *fmt,
	       const char *what, size_t i)
{
	struct buf b = BUF_INIT;
	int rc;

	buf_printf(&b, fmt, what);
	(void)i;
	rc = cuenv_fail(err, CUENV_E_MANIFEST, "bad lock file '%s': %s", name,
			b.data);
	buf_release(&b);
	cuenv_hint(err, "write it again with: cuenv lock");
	return rc;
}

/* A string member (optional: NULL allowed for null or absent). */
static int get_str(json_t *o, const char *key, int optional, char **out)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v)) {
		*out = NULL;
		return optional ? 0 : -1;
	}
	if (!json_is_string(v) || !*json_string_value(v))
		return -1;
	*out = xstrdup(json_string_value(v));
	return 0;
}

static int parse_part(const char *name, json_t *j, struct lock_part *p,
		      struct cuenv_err *err)
{
	static const char *const keys[] = { "kind", "source",  "release",
					    "name", "version", "platform",
					    "url",  "sha256" };
	char **dst[] = { NULL,	      NULL,	    &p->release, &p->name,
			 &p->version, &p->platform, &p->url,	 &p->sha256 };
	json_t *v;
	char *kind = NULL, *source = NULL;
	int rc = CUENV_OK;

	dst[0] = &kind;
	dst[1] = &source;
	if (!json_is_object(j))
		return bad(err, name, "%s", "a component is not an object",
			   (size_t)-1);
	for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++)
		if (get_str(j, keys[k], 0, dst[k])) {
			rc = bad(err, name, "'%s' missing or not a string",
				 keys[k], 0);
			goto out;
		}
	if (kit_kind_parse(kind, &p->kind)) {
		rc = bad(err, name, "unknown kind '%s'", kind, 0);
		goto out;
	}
	if (source_parse(source, &p->source)) {
		rc = bad(err, name, "unknown source '%s'", source, 0);
		goto out;
	}
	if (strspn(p->name, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
	    strlen(p->name)) {
		rc = bad(err, name, "bad component name '%s'", p->name, 0);
		goto out;
	}
	if (!version_is_valid(p->release)) {
		rc = bad(err, name, "bad release version '%s'", p->release, 0);
		goto out;
	}
	if (!is_sha256(p->sha256)) {
		rc = bad(err, name,
			 "sha256 of %s is not 64 lowercase hex digits", p->name,
			 0);
		goto out;
	}
	if (p->source == SRC_PYPI ? !wheel_url_ok(p->url) : !url_ok(p->url)) {
		rc = bad(err, name,
			 p->source == SRC_PYPI
				 ? "url of %s is not a wheel's (http or https, "
				   "no '..')"
				 : "url of %s is not on NVIDIA's host or climbs "
				   "with '..'",
			 p->name, 0);
		goto out;
	}
	v = json_object_get(j, "size");
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		rc = bad(err, name, "size of %s is not a number", p->name, 0);
		goto out;
	}
	p->size = (uint64_t)json_integer_value(v);
	v = json_object_get(j, "cuda_major");
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > 1000) {
		rc = bad(err, name, "cuda_major of %s is not a number", p->name,
			 0);
		goto out;
	}
	p->cuda_major = (unsigned)json_integer_value(v);
out:
	free(kind);
	free(source);
	return rc;
}

int lock_parse(const char *name, const char *text, size_t len,
	       struct lockfile *lk, struct cuenv_err *err)
{
	json_error_t jerr;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	json_t *sel, *o, *parts, *v;
	struct lockfile l;
	int rc = CUENV_OK;

	lock_init(&l);
	if (!root) {
		rc = cuenv_fail(err, CUENV_E_MANIFEST,
				"bad lock file '%s': line %d: %s", name,
				jerr.line, jerr.text);
		cuenv_hint(err, "write it again with: cuenv lock");
		return rc;
	}
	v = json_object_get(root, "schema");
	if (!json_is_integer(v) || json_integer_value(v) != LOCK_SCHEMA) {
		rc = bad(err, name, "%s",
			 "no schema 1 (written by another "
			 "version of cuenv?)",
			 (size_t)-1);
		goto out;
	}
	sel = json_object_get(root, "selection");
	if (!json_is_object(sel) || get_str(sel, "cuda", 0, &l.cuda) ||
	    get_str(sel, "cudnn", 1, &l.cudnn) ||
	    get_str(sel, "cupti", 1, &l.cupti) || !version_is_valid(l.cuda) ||
	    (l.cudnn && !version_is_valid(l.cudnn)) ||
	    (l.cupti && !version_is_valid(l.cupti))) {
		rc = bad(err, name, "%s", "bad or missing selection",
			 (size_t)-1);
		goto out;
	}
	if (get_str(root, "platform", 0, &l.platform)) {
		rc = bad(err, name, "%s", "no platform", (size_t)-1);
		goto out;
	}
	o = json_object_get(root, "options");
	if (o) {
		json_t *c = json_object_get(o, "components");

		if (!json_is_object(o)) {
			rc = bad(err, name, "%s", "bad options", (size_t)-1);
			goto out;
		}
		l.runtime_only =
			json_is_true(json_object_get(o, "runtime_only"));
		if (json_is_array(c)) {
			for (size_t i = 0; i < json_array_size(c); i++) {
				json_t *s = json_array_get(c, i);

				if (!json_is_string(s)) {
					rc = bad(err, name, "%s",
						 "bad options.components",
						 (size_t)-1);
					goto out;
				}
				strv_push(&l.components, json_string_value(s));
			}
		}
	}
	parts = json_object_get(root, "components");
	if (!json_is_array(parts) || !json_array_size(parts)) {
		rc = bad(err, name, "%s", "no components", (size_t)-1);
		goto out;
	}
	if (json_array_size(parts) > LOCK_MAX_PARTS) {
		rc = bad(err, name, "%s",
			 "more components than any release has", (size_t)-1);
		goto out;
	}
	for (size_t i = 0; i < json_array_size(parts) && !rc; i++)
		rc = parse_part(name, json_array_get(parts, i), add_part(&l),
				err);
	/* At most LOCK_MAX_PARTS: the pairs are few. */
	for (size_t i = 0; i < l.nparts && !rc; i++)
		for (size_t j = 0; j < i && !rc; j++)
			if (l.parts[i].kind == l.parts[j].kind &&
			    !strcmp(l.parts[i].name, l.parts[j].name))
				rc = bad(err, name, "%s pinned twice",
					 l.parts[i].name, 0);
out:
	json_decref(root);
	if (rc) {
		lock_release(&l);
		return rc;
	}
	lock_release(lk);
	*lk = l;
	return CUENV_OK;
}

int lock_read(const char *path, struct lockfile *lk, struct cuenv_err *err)
{
	struct buf text = BUF_INIT;
	int rc = file_read(path, LOCK_MAX_BYTES, FILE_MAY_BE_MISSING, &text,
			   err);

	if (!rc)
		rc = lock_parse(path, text.data ? text.data : "", text.len, lk,
				err);
	buf_release(&text);
	return rc;
}

int lock_find(const char *cwd, struct buf *out)
{
	struct buf dir = BUF_INIT;
	struct plat_stat st;

	buf_sets(&dir, cwd);
	for (;;) {
		buf_reset(out);
		buf_path(out, dir.data, LOCK_NAME);
		if (!plat_stat(out->data, &st) && st.type == PLAT_F_REG) {
			buf_release(&dir);
			return CUENV_OK;
		}
		if (!plat_path_up(&dir))
			break;
	}
	buf_release(&dir);
	buf_reset(out);
	return CUENV_NO;
}

/* ---- comparing ----------------------------------------------------------- */

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static const struct lock_part *find_part(const struct lockfile *lk,
					 enum kit_kind kind, const char *name)
{
	for (size_t i = 0; i < lk->nparts; i++)
		if (lk->parts[i].kind == kind &&
		    !strcmp(lk->parts[i].name, name))
			return &lk->parts[i];
	return NULL;
}

int lock_compare(const struct lockfile *have, const struct lockfile *want,
		 struct buf *why)
{
	static const char *const keys[] = { "cuda", "cudnn", "cupti" };
	const char *h[] = { have->cuda, have->cudnn, have->cupti };
	const char *w[] = { want->cuda, want->cudnn, want->cupti };

	buf_reset(why);
	for (size_t i = 0; i < 3; i++)
		if (!same(h[i], w[i])) {
			buf_printf(why,
				   "the .cuenv asks for %s %s but the lock "
				   "was made for %s %s",
				   keys[i], w[i] ? w[i] : "(none)", keys[i],
				   h[i] ? h[i] : "(none)");
			return 1;
		}
	if (!same(have->platform, want->platform)) {
		buf_printf(why, "the lock is for %s, this machine is %s",
			   have->platform, want->platform);
		return 1;
	}
	for (size_t i = 0; i < want->nparts; i++) {
		const struct lock_part *wp = &want->parts[i];
		const struct lock_part *hp =
			find_part(have, wp->kind, wp->name);
		const char *k = kit_kind_name(wp->kind);

		if (!hp) {
			buf_printf(why, "the lock lacks %s %s %s", k,
				   wp->release, wp->name);
			return 1;
		}
		if (strcmp(hp->release, wp->release)) {
			buf_printf(why,
				   "the catalogue now resolves %s to %s %s, "
				   "the lock has %s",
				   k, k, wp->release, hp->release);
			return 1;
		}
		if (strcmp(hp->url, wp->url) ||
		    strcmp(hp->sha256, wp->sha256) ||
		    strcmp(hp->version, wp->version) || hp->size != wp->size) {
			buf_printf(why,
				   "%s %s %s differs between the lock and "
				   "the catalogue",
				   k, wp->release, wp->name);
			return 1;
		}
	}
	for (size_t i = 0; i < have->nparts; i++) {
		const struct lock_part *hp = &have->parts[i];

		if (!find_part(want, hp->kind, hp->name)) {
			buf_printf(why,
				   "the lock has %s %s %s, which would no "
				   "longer be installed",
				   kit_kind_name(hp->kind), hp->release,
				   hp->name);
			return 1;
		}
	}
	return 0;
}

/* The catalogue's release that p came from, or NULL. */
static const struct release *cat_release(const struct catalog *cat,
					 const struct lock_part *p)
{
	enum kit_kind k = p->kind == KIT_CUPTI ? KIT_CUDA : p->kind;

	for (size_t i = 0; i < cat->n; i++) {
		const struct release *r = cat->v[i];

		/* The index's releases are the catalogue's it has. */
		if (r->kind == k &&
		    (p->source == SRC_PYPI ? r->on_index
					   : r->source == p->source) &&
		    !strcmp(r->version, p->release) &&
		    (k != KIT_CUDNN || r->cuda_major == p->cuda_major))
			return r;
	}
	return NULL;
}

/*
 * A wheel the lock pins for p (of the catalogue's release r, whose part
 * is cp): the index's project for that component and CUDA major, at the
 * catalogue's version of it, for the lock's platform, on the index in
 * force (pypi_pin_check); and the lock's own version and major the
 * catalogue's. Its sha256 is the lock's: what is fetched must have it.
 */
static int verify_wheel(const struct lock_part *p, const struct release *r,
			const struct part *cp, const char *index,
			struct cuenv_err *err)
{
	const char *k = kit_kind_name(p->kind);
	const char *v = cp->version ? cp->version : r->version;
	char *proj = pypi_wheel_project(p->name, r->cuda_major, r->kind);
	int rc = CUENV_OK;

	if (!proj)
		rc = cuenv_fail(err, CUENV_E_INTEGRITY,
				"the lock pins a wheel for %s %s %s, which "
				"the package index does not have",
				k, p->release, p->name);
	else if (p->cuda_major != r->cuda_major)
		rc = cuenv_fail(err, CUENV_E_INTEGRITY,
				"the lock says %s %s %s is for CUDA %u; the "
				"catalogue says CUDA %u",
				k, p->release, p->name, p->cuda_major,
				r->cuda_major);
	else if (pypi_release_post(p->version, v) < 0)
		rc = cuenv_fail(err, CUENV_E_INTEGRITY,
				"the lock says %s %s %s is version %s; the "
				"catalogue says %s",
				k, p->release, p->name, p->version, v);
	else
		rc = pypi_pin_check(p->url, index, proj, v, p->platform, err);
	free(proj);
	return rc;
}

int lock_verify(const struct lockfile *lk, const struct catalog *cat,
		const char *index, struct cuenv_err *err)
{
	for (size_t i = 0; i < lk->nparts; i++) {
		const struct lock_part *p = &lk->parts[i];
		const struct release *r = cat_release(cat, p);
		const struct part *cp = r ? release_part(r, p->name) : NULL;
		const char *k = kit_kind_name(p->kind);
		int rc;

		const char *spec = p->kind == KIT_CUDA	  ? lk->cuda
				   : p->kind == KIT_CUDNN ? lk->cudnn
							  : NULL;

		if (p->kind != KIT_CUPTI &&
		    (!spec || !version_matches_str(p->release, spec))) {
			cuenv_fail(err, CUENV_E_INTEGRITY,
				   "the lock pins %s %s, which its selection "
				   "(%s %s) does not ask for",
				   k, p->release, k, spec ? spec : "none");
			return cuenv_hint(err, "lock again: cuenv lock");
		}
		if (!r || !cp) {
			cuenv_fail(err, CUENV_E_UNKNOWN,
				   "the catalogue no longer has %s %s %s (%s) "
				   "that the lock pins",
				   k, p->release, p->name,
				   source_name(p->source));
			return cuenv_hint(err, "refresh it with: cuenv update, "
					       "or lock again: cuenv lock");
		}
		if (p->source == SRC_PYPI) {
			rc = verify_wheel(p, r, cp, index, err);
			if (rc)
				return cuenv_hint(err,
						  "lock again from the index "
						  "in force: cuenv install "
						  "--source pypi, then cuenv "
						  "lock --source pypi");
			continue;
		}
		if (strcmp(cp->version ? cp->version : r->version, p->version))
			return cuenv_fail(err, CUENV_E_INTEGRITY,
					  "lock and catalogue disagree on the "
					  "version of %s %s %s (lock %s, "
					  "catalogue %s)",
					  k, p->release, p->name, p->version,
					  cp->version ? cp->version
						      : r->version);
		if (strcmp(cp->sha256, p->sha256))
			return cuenv_fail(err, CUENV_E_INTEGRITY,
					  "lock and catalogue disagree on "
					  "sha256 of %s %s %s (lock %s, "
					  "catalogue %s)",
					  k, p->release, p->name, p->sha256,
					  cp->sha256);
		if (strcmp(cp->url, p->url))
			return cuenv_fail(err, CUENV_E_INTEGRITY,
					  "lock and catalogue disagree on the "
					  "url of %s %s %s",
					  k, p->release, p->name);
	}
	return CUENV_OK;
}

int lock_to_release(const struct lockfile *lk, enum kit_kind kind,
		    struct release *rel)
{
	memset(rel, 0, sizeof(*rel));
	for (size_t i = 0; i < lk->nparts; i++) {
		const struct lock_part *p = &lk->parts[i];
		struct part *np;

		if (p->kind != kind)
			continue;
		if (!rel->nparts) {
			rel->kind = kind;
			rel->source = p->source;
			rel->version = p->release;
			rel->cuda_major = p->cuda_major;
			rel->origin = (char *)LOCK_NAME;
		}
		rel->parts = xrealloc(rel->parts,
				      (rel->nparts + 1) * sizeof(*rel->parts));
		np = &rel->parts[rel->nparts++];
		np->name = p->name;
		np->version = p->version;
		np->url = p->url;
		np->sha256 = p->sha256;
		np->size = p->size;
		np->index_holds = NULL;
	}
	return rel->nparts ? CUENV_OK : CUENV_NO;
}

/* ---- cuenv lock ---------------------------------------------------------- */

int lock_path_for(const struct selection *sel, int check, struct buf *path,
		  struct cuenv_err *err)
{
	if (sel->origin != SEL_FILE || !selection_active(sel)) {
		cuenv_fail(err, check ? CUENV_NO : CUENV_E_USAGE,
			   "lock: no .cuenv selecting a CUDA version here");
		return cuenv_hint(err,
				  "write one with: cuenv local 12.4 --force");
	}
	buf_reset(path);
	buf_printf(path, "%s.lock", sel->origin_path);
	return CUENV_OK;
}

int lock_read_for_check(const char *path, struct lockfile *have,
			struct plan_opts *o, struct cuenv_err *err)
{
	int rc = lock_read(path, have, err);

	if (rc == CUENV_NO) {
		cuenv_fail(err, CUENV_NO, "lock: no lock file '%s'", path);
		return cuenv_hint(err, "write it with: cuenv lock");
	}
	if (rc)
		return rc;
	/* Resolve again with the options the lock was made with. */
	o->runtime_only = have->runtime_only;
	o->components = have->components.n ? &have->components : NULL;
	return CUENV_OK;
}

int lock_check(const struct lockfile *have, const struct lockfile *want,
	       const char *path, struct cuenv_err *err)
{
	struct buf why = BUF_INIT;

	if (!lock_compare(have, want, &why)) {
		buf_release(&why);
		return CUENV_OK;
	}
	cuenv_fail(err, CUENV_NO, "lock: '%s' is out of date: %s", path,
		   why.data);
	buf_release(&why);
	return cuenv_hint(err, "update it with: cuenv lock");
}

size_t lock_steps(const struct lockfile *lk, const struct plan_opts *asked,
		  struct plan_step steps[KIT_KINDS],
		  struct strv names[KIT_KINDS])
{
	static const enum kit_kind kinds[] = { KIT_CUDA, KIT_CUDNN, KIT_CUPTI };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++) {
		struct plan_step *st = &steps[n];

		if (lock_to_release(lk, kinds[i], &st->rel))
			continue;
		names[n] = (struct strv)STRV_INIT;
		st->opts =
			plan_locked_opts(&st->rel, kinds[i], asked, &names[n]);
		st->keep_partial = 0;
		n++;
	}
	return n;
}

void lock_steps_release(struct plan_step *steps, struct strv *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(steps[i].rel.parts);
		strv_release(&names[i]);
	}
}

/* ---- `cuenv lock` ----------------------------------------------------------- */

int lock_prepare(const char *cwd, const char *root, int check,
		 struct selection *sel, struct buf *path, struct lockfile *have,
		 struct plan_opts *o, struct cuenv_err *err)
{
	/* The .cuenv only: a shell's `cuenv use` is not the project's. */
	struct select_in in = { .cwd = cwd, .root = root };
	int rc = select_find(&in, sel, err);

	if (!rc)
		rc = lock_path_for(sel, check, path, err);
	if (!rc && check)
		rc = lock_read_for_check(path->data, have, o, err);
	return rc;
}

int lock_settle(const struct selection *sel, const struct catalog *cat,
		const struct plan_opts *o, const char *platform,
		const struct lock_from *from, int check, const char *path,
		const struct lockfile *have, struct buf *said,
		struct cuenv_err *err)
{
	struct lockfile want;
	struct buf text = BUF_INIT;
	int rc;

	lock_init(&want);
	rc = lock_build(&want, cat, sel->cuda, sel->cudnn, sel->cupti,
			from->source, o, platform, err);
	if (!rc && from->root)
		rc = lock_take_installed(&want, from->root, from->source, err);
	if (rc) {
		if (check)
			rc = CUENV_NO;
	} else if (check) {
		/* A lock edited to pin what the catalogue and the index do
		 * not give is no match, whatever is installed (a lock for
		 * another platform is none either: lock_check says so). */
		if (same(have->platform, want.platform))
			rc = lock_verify(have, cat, from->index, err);
		if (!rc)
			rc = lock_check(have, &want, path, err);
		if (!rc)
			buf_printf(said, "%s matches %s\n", path,
				   sel->origin_path);
	} else {
		lock_format(&want, &text);
		rc = file_write(path, text.data, text.len, FILE_MODE_KEEP, err);
		if (!rc)
			buf_printf(said, "wrote %s (%zu components)\n", path,
				   want.nparts);
	}
	lock_release(&want);
	buf_release(&text);
	return rc;
}
