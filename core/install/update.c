/*
 * update.c: `cuenv update`: what it decides, then its downloading and
 * writing (see update.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nvidia/compat.h"
#include "plat/file.h"
#include "install/install_request.h"
#include "needs/needs.h"
#include "plat/plat_fs.h"
#include "nvidia/pypi.h"
#include "install/update.h"
#include "base/version.h"
#include "needs/wheel.h"
#include "net/digest.h"
#include "base/kit.h"
#include "base/xalloc.h"

/* ---- NVIDIA's manifests ----------------------------------------------------- */

void update_listed(const char *listing, struct strv *versions)
{
	const char *p = listing;

	while ((p = strstr(p, "redistrib_"))) {
		const char *v = p + 10;
		size_t n = strspn(v, "0123456789.");
		char *ver;

		p = v;
		if (n < 2 || strncmp(v + n - 1, ".json", 5))
			continue;
		ver = xstrndup(v, n - 1); /* the '.' of ".json" went too */
		if (version_is_valid(ver) && strv_find(versions, ver) < 0)
			strv_push(versions, ver);
		free(ver);
	}
}

int update_known(const struct catalog *cat, enum kit_kind kind, const char *ver)
{
	struct buf name = BUF_INIT;
	int have = 0;

	buf_printf(&name, "/%s/redistrib_%s.json", kit_kind_name(kind), ver);
	for (size_t i = 0; i < cat->n && !have; i++) {
		const char *o = cat->v[i]->origin;
		size_t n = strlen(o);

		have = cat->v[i]->source == SRC_REDIST && n >= name.len &&
		       !strcmp(o + n - name.len, name.data);
	}
	buf_release(&name);
	return have;
}

char *update_pin(const char *pins, const char *product, const char *ver)
{
	struct buf key = BUF_INIT;
	char *sha = NULL;
	const char *hit, *f;

	buf_printf(&key, "\n%s\t%s\t", product, ver);
	/* product, version, url, sha256 */
	hit = strstr(pins, key.data);
	f = hit ? strchr(hit + key.len, '\t') : NULL;
	if (f && strlen(f + 1) >= DIGEST_HEX_LEN) {
		sha = xstrndup(f + 1, DIGEST_HEX_LEN);
		if (!digest_hex_valid(sha)) {
			free(sha);
			sha = NULL;
		}
	}
	buf_release(&key);
	return sha;
}

int update_check_pin(const char *pin, const char *url, const void *body,
		     size_t len, struct cuenv_err *err)
{
	char hex[DIGEST_HEX_LEN + 1];
	struct digest *d;

	if (!pin)
		return CUENV_OK;
	d = digest_new();
	digest_update(d, body, len);
	digest_final(d, hex);
	digest_free(d);
	if (strcmp(hex, pin))
		return cuenv_fail(
			err, CUENV_E_INTEGRITY,
			"sha256 mismatch for '%s': expected %s, got %s", url,
			pin, hex);
	return CUENV_OK;
}

int update_accept(const char *pins, const char *url, const char *body,
		  size_t len, const char *platform, enum kit_kind kind,
		  const char *ver, struct cuenv_err *err)
{
	const char *k = kit_kind_name(kind);
	char *pin = pins ? update_pin(pins, k, ver) : NULL;
	struct catalog one = { 0 };
	int rc = update_check_pin(pin, url, body, len, err);

	/* Only a manifest cuenv can read is kept. */
	if (!rc)
		rc = catalog_parse_redist(&one, url, body, len, platform, k,
					  ver, err);
	if (!rc && memchr(body, '\0', len))
		rc = cuenv_fail(err, CUENV_E_MANIFEST, "'%s' holds binary data",
				url);
	catalog_release(&one);
	free(pin);
	return rc;
}

/* ---- the framework table ---------------------------------------------------- */

char *update_minor(const char *version)
{
	const char *dot = strchr(version, '.');

	dot = dot ? strchr(dot + 1, '.') : NULL;
	return dot ? xstrndup(version, (size_t)(dot - version))
		   : xstrdup(version);
}

void update_newest_per_minor(const struct index_file *files, size_t n,
			     const char *floor, struct strv *out)
{
	struct strv minors = STRV_INIT, best = STRV_INIT; /* in step */

	for (size_t i = 0; i < n; i++) {
		const char *name = files[i].name, *d1 = strchr(name, '-'), *d2;
		char *v, *m;
		long k;

		if (!d1 || !strstr(name, "linux") || !strstr(name, "x86_64"))
			continue;
		d2 = strchr(d1 + 1, '-');
		if (!d2)
			continue;
		v = xstrndup(d1 + 1, (size_t)(d2 - d1 - 1));
		if (!version_is_valid(v) || version_cmp_str(v, floor) < 0) {
			free(v);
			continue;
		}
		m = update_minor(v);
		k = strv_find(&minors, m);
		if (k < 0 || (size_t)k >= best.n) {
			strv_push(&minors, m);
			strv_push_take(&best, v);
		} else if (version_cmp_str(v, best.v[k]) > 0) {
			free(best.v[k]);
			best.v[k] = v;
		} else {
			free(v);
		}
		free(m);
	}
	for (size_t i = 0; i < best.n; i++)
		strv_push(out, best.v[i]);
	strv_release(&minors);
	strv_release(&best);
}

/* ---- the redist manifests ------------------------------------------------- */

/* The listing of url: a mirror folder on disk gives its names, one a
 * line; elsewhere the page the server gives. */
static int read_listing(const char *url, const struct fetch_opts *fo,
			struct buf *out, struct cuenv_err *err)
{
	struct plat_dir *d;
	const char *name;

	if (strncmp(url, "file://", 7))
		return fetch_to_buf(url, fo, 8 << 20, out, err);
	d = plat_opendir(url + 7);
	if (!d)
		return cuenv_fail(err, CUENV_E_FETCH, "cannot read '%s': %s",
				  url, strerror(errno));
	while ((name = plat_readdir(d)))
		buf_printf(out, "%s\n", name);
	plat_closedir(d);
	return CUENV_OK;
}

int update_redist(const char *root, const char *base,
		  const struct fetch_opts *fo, enum kit_kind kind,
		  const struct catalog *known, const char *pins,
		  struct strv *added, struct cuenv_err *err)
{
	const char *k = kit_kind_name(kind);
	struct buf url = BUF_INIT, html = BUF_INIT, body = BUF_INIT,
		   dir = BUF_INIT, path = BUF_INIT;
	struct strv versions = STRV_INIT;
	struct plat_stat st;
	int rc;

	buf_printf(&url, "%s/compute/%s/redist/", base, k);
	rc = read_listing(url.data, fo, &html, err);
	if (rc)
		goto out;
	update_listed(html.data, &versions);
	buf_printf(&dir, "%s/manifests", root);
	plat_mkdir(dir.data, 0755);
	buf_printf(&dir, "/%s", k);
	plat_mkdir(dir.data, 0755);
	for (size_t i = 0; i < versions.n; i++) {
		const char *v = versions.v[i];

		buf_reset(&path);
		buf_printf(&path, "%s/redistrib_%s.json", dir.data, v);
		if (update_known(known, kind, v) || !plat_stat(path.data, &st))
			continue;
		buf_reset(&url);
		buf_printf(&url, "%s/compute/%s/redist/redistrib_%s.json", base,
			   k, v);
		rc = fetch_to_buf(url.data, fo, 16 << 20, &body, err);
		if (!rc)
			rc = update_accept(pins, url.data, body.data, body.len,
					   catalog_platform_of(known), kind, v,
					   err);
		if (!rc)
			rc = file_write(path.data, body.data, body.len,
					FILE_MODE_KEEP, err);
		if (rc)
			goto out;
		strv_push(added, v);
	}
out:
	strv_release(&versions);
	buf_release(&url);
	buf_release(&html);
	buf_release(&body);
	buf_release(&dir);
	buf_release(&path);
	return rc;
}

/* ---- the framework table, from the package index ------------------------ */

/* Projects on the index, the table's name for each, and the oldest minor
 * release read (older wheels carry no build_info.py or pins). */
static const struct {
	const char *project, *table, *floor;
} fw_projects[] = {
	{ "torch", "pytorch", "2.0" },
	{ "tensorflow", "tensorflow", "2.4" },
};

static int by_version(const void *a, const void *b)
{
	return version_cmp_str(*(char *const *)a, *(char *const *)b);
}

void update_table_init(struct update_table *t)
{
	memset(t, 0, sizeof(*t));
	buf_init(&t->path);
}

void update_table_release(struct update_table *t)
{
	buf_release(&t->path);
	strv_release(&t->skipped);
	update_table_init(t);
}

/* The minor releases of project p the index lists, oldest first; a
 * project it cannot list goes to t->skipped. */
static void project_versions(const char *index, size_t p,
			     const struct fetch_opts *fo,
			     struct update_table *t, struct strv *vers)
{
	struct index_file *files = NULL;
	struct buf page = BUF_INIT;
	struct cuenv_err own = CUENV_ERR_INIT;
	size_t nf = 0;

	if (pypi_index_files(index, fw_projects[p].project, fo, &page, &files,
			     &nf, &own)) {
		buf_reset(&page);
		buf_printf(&page, "%s: %s", fw_projects[p].project,
			   own.msg.data);
		strv_push(&t->skipped, page.data);
	} else {
		update_newest_per_minor(files, nf, fw_projects[p].floor, vers);
	}
	err_release(&own);
	pypi_index_files_free(files, nf);
	buf_release(&page);
	if (vers->n)
		qsort(vers->v, vers->n, sizeof(*vers->v), by_version);
}

/* Scan project p's release v from the index; a row for table when its
 * wheel says the CUDA it was built with. */
static int table_row(const char *index, size_t p, const char *v,
		     const struct fetch_opts *fo, struct update_table *t,
		     struct buf *table, struct cuenv_err *err)
{
	struct needs_scan s;
	struct wheel_requirement r;
	struct buf req = BUF_INIT, src = BUF_INIT;
	const char *cuda, *dnn;
	char *m = update_minor(v);
	int rc;

	needs_scan_init(&s);
	buf_printf(&req, "%s==%s", fw_projects[p].project, v);
	rc = wheel_requirement_scan(&s, req.data, index, NULL, fo, &r, err);
	t->bytes += r.st.bytes;
	cuda = needs_newest_report(&s, NULL, 0);
	dnn = needs_newest_report(&s, NULL, 1);
	if (!rc && cuda) {
		buf_printf(&src, "PyPI %s, read by cuenv update from %s",
			   r.wheel, index);
		rc = compat_row_add(table,
				    (const char *const[]){
					    fw_projects[p].table, m, cuda,
					    dnn ? dnn : "-", src.data,
					    "PyPI default wheel" },
				    6, "frameworks.tsv", err);
		t->rows += !rc;
	}
	free(m);
	buf_release(&req);
	buf_release(&src);
	wheel_requirement_release(&r);
	needs_scan_release(&s);
	return rc;
}

int update_frameworks(const char *root, const char *index,
		      const struct fetch_opts *fetch, struct update_table *t,
		      struct cuenv_err *err)
{
	static const char *const head[] = { "framework", "version", "cuda",
					    "cudnn",	 "source",  "notes" };
	struct fetch_opts fo = *fetch;
	struct buf table = BUF_INIT;
	int rc;

	fo.allow_http |= !strncmp(index, "http://", 7); /* the user asked */
	fo.allow_file |= !strncmp(index, "file://", 7);
	rc = compat_row_add(&table, head, 6, "frameworks.tsv", err);
	for (size_t p = 0;
	     !rc && p < sizeof(fw_projects) / sizeof(*fw_projects); p++) {
		struct strv vers = STRV_INIT;

		project_versions(index, p, &fo, t, &vers);
		for (size_t i = vers.n; !rc && i-- > 0;)
			rc = table_row(index, p, vers.v[i], &fo, t, &table,
				       err);
		strv_release(&vers);
	}
	if (!rc && !t->rows)
		rc = cuenv_fail(err, CUENV_E_FETCH,
				"no framework release read from '%s'", index);
	if (rc)
		goto out;
	buf_printf(&t->path, "%s/manifests", root);
	plat_mkdir(t->path.data, 0755);
	buf_adds(&t->path, "/compat");
	plat_mkdir(t->path.data, 0755);
	buf_adds(&t->path, "/frameworks.tsv");
	rc = file_write(t->path.data, table.data, table.len, FILE_MODE_KEEP,
			err);
out:
	buf_release(&table);
	return rc;
}

/* ---- what `cuenv update` runs and says ------------------------------------ */

int update_base(const char *mirror, struct fetch_opts *fo, struct buf *base,
		struct cuenv_err *err)
{
	int rc;

	if (!mirror || !*mirror) {
		buf_adds(base, NVIDIA_BASE);
		return CUENV_OK;
	}
	rc = install_request_mirror_url("update", mirror, fo, err);
	if (rc)
		return rc;
	buf_adds(base, mirror);
	while (base->len && base->data[base->len - 1] == '/')
		buf_setlen(base, base->len - 1);
	return CUENV_OK;
}

int update_read_pins(const char *manifests, const char *data_dir,
		     struct buf *pins)
{
	struct buf path = BUF_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	const char *dir = manifests && *manifests ? manifests : data_dir;
	int found = 0;

	if (dir) {
		buf_printf(&path, "%s/redistrib-json-sha256.tsv", dir);
		found = !file_read(path.data, 1 << 20, FILE_MAY_BE_MISSING,
				   pins, &e);
	}
	err_release(&e);
	buf_release(&path);
	return found;
}

int update_all(const char *root, const char *base, const struct fetch_opts *fo,
	       const struct catalog *known, const char *pins, struct buf *said,
	       struct cuenv_err *err)
{
	unsigned added = 0;
	int rc = CUENV_OK;

	for (int k = KIT_CUDA; !rc && k <= KIT_CUDNN; k++) {
		struct strv got = STRV_INIT;

		rc = update_redist(root, base, fo, (enum kit_kind)k, known,
				   pins, &got, err);
		for (size_t i = 0; i < got.n; i++)
			buf_printf(said, "added %s %s\n",
				   kit_kind_name((enum kit_kind)k), got.v[i]);
		added += (unsigned)got.n;
		strv_release(&got);
	}
	if (!rc && added)
		buf_printf(said, "%u new manifest%s\n", added,
			   added == 1 ? "" : "s");
	else if (!rc)
		buf_adds(said, "the catalogue is up to date\n");
	return rc;
}

void update_table_render(const struct update_table *t, const char *index,
			 struct buf *out)
{
	buf_printf(out,
		   "%u framework releases read from %s (%llu bytes of their "
		   "wheels) into %s\n",
		   t->rows, index, (unsigned long long)t->bytes, t->path.data);
}
