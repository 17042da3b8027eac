/*
 * pypi.c: pypi.h, the package index: project pages (PEP 691 JSON, PEP 503
 * HTML, PEP 658/714 metadata attributes) and the wheel of a component for
 * this machine, fetched (the names alone: pypi_names.c).
 */
#include "nvidia/pypi.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "net/digest.h"
#include "base/xalloc.h"

/*
 * The files a page lists, as they are found: the array grows by half
 * again each time it is full, so a page of n files costs n copies, not
 * n * n / 2.
 */
struct found {
	struct index_file *v;
	size_t n, cap;
};

/* A new file at the end of f, filled in, with no metadata yet. */
static struct index_file *wheel_add(struct found *f, const char *name,
				    size_t name_len, const char *url,
				    size_t url_len, const char *sha,
				    uint64_t size)
{
	struct index_file *w;

	if (f->n == f->cap) {
		f->cap = f->cap < 16 ? 16 : f->cap + f->cap / 2;
		f->v = xrealloc(f->v, f->cap * sizeof(*f->v));
	}
	w = &f->v[f->n++];
	w->name = xstrndup(name, name_len);
	w->url = xstrndup(url, url_len);
	w->sha256 = xstrdup(sha);
	w->size = size;
	w->metadata = false;
	w->metadata_sha256 = NULL;
	return w;
}

/*
 * PEP 658's value, as HTML writes it: "true", or "sha256=HEX" (another
 * hash name counts as served without a sha256). Fills f.
 */
static void metadata_attr(struct index_file *f, const char *v, size_t n)
{
	if (n == 7 + DIGEST_HEX_LEN && !strncmp(v, "sha256=", 7)) {
		char *sha = xstrndup(v + 7, DIGEST_HEX_LEN);

		f->metadata = digest_hex_valid(sha);
		if (f->metadata)
			f->metadata_sha256 = sha;
		else
			free(sha);
	} else if ((n == 4 && !strncmp(v, "true", 4)) ||
		   (n > 0 && memchr(v, '=', n))) {
		f->metadata = true;
	}
}

/* PEP 691's value: true, false, or {"sha256": HEX, ...}. */
static void metadata_json(struct index_file *f, const json_t *file)
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

/* No wheel comes near this; PyPI refuses files a thousand times smaller. */
#define INDEX_SIZE_MAX ((json_int_t)1 << 40)

/*
 * A file's "size" as the index gives it, or 0 (unknown) when it gives
 * none, or one that is no size: not an integer, negative (some proxies
 * write -1), or past INDEX_SIZE_MAX. Read as unsigned, -1 was 16 EiB
 * ("18446744073.7 GB") and the offset of the ranges asked for.
 */
static uint64_t index_size(const json_t *v)
{
	json_int_t n = json_integer_value(v);

	return n > 0 && n <= INDEX_SIZE_MAX ? (uint64_t)n : 0;
}

/* A PEP 691 JSON page: {"files": [{filename, url, hashes: {sha256}}]}. */
static int wheels_from_json(const struct buf *body, struct found *out)
{
	json_t *j = json_loadb(body->data, body->len, 0, NULL), *f;
	size_t i;

	if (!json_is_array(json_object_get(j, "files"))) {
		json_decref(j);
		return -1;
	}
	json_array_foreach(json_object_get(j, "files"), i, f) {
		const char *name =
			json_string_value(json_object_get(f, "filename"));
		const char *url = json_string_value(json_object_get(f, "url"));
		const char *sha = json_string_value(
			json_object_get(json_object_get(f, "hashes"),
					"sha256"));
		json_t *y = json_object_get(f, "yanked");

		if (!name || !url || !sha || !digest_hex_valid(sha) ||
		    json_is_true(y) || json_is_string(y))
			continue;
		metadata_json(wheel_add(out, name, strlen(name), url,
					strlen(url), sha,
					index_size(json_object_get(f, "size"))),
			      f);
	}
	json_decref(j);
	return 0;
}

/* The first needle in [p, end), or NULL: a search that stops where the
 * caller's bound does, never at the page's end. */
static const char *find(const char *p, const char *end, const char *needle)
{
	return mem_find(p, (size_t)(end - p), needle, strlen(needle));
}

/* The PEP 658 attribute within the tag from p to end, if any. */
static void html_metadata(struct index_file *f, const char *p, const char *end)
{
	static const char *const attrs[] = { "data-core-metadata=\"",
					     "data-dist-info-metadata=\"" };

	for (size_t i = 0; i < 2; i++) {
		const char *a = find(p, end, attrs[i]), *q;

		if (!a)
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
 * The link of the tag [p, end) ("<a ...", its '>' at end): its href's
 * URL into [*url, *hash) and its sha256 (hex, at *hash + 8). False when
 * the tag has no href, no "#sha256=" of the right length in it, or is
 * yanked (data-yanked of this tag only: a later yanked file must not
 * hide this one). Looks at the tag's bytes only.
 */
static bool html_link(const char *p, const char *end, const char **url,
		      const char **hash)
{
	const char *href = find(p, end, "href=\""), *q;

	if (!href)
		return false;
	href += 6;
	q = memchr(href, '"', (size_t)(end - href));
	*url = href;
	*hash = q ? find(href, q, "#sha256=") : NULL;
	return *hash && (size_t)(q - *hash - 8) == DIGEST_HEX_LEN &&
	       !find(p, end, "data-yanked");
}

/*
 * A PEP 503 HTML page, as proxies and older indexes serve:
 * <a href="URL#sha256=HEX" ...>FILENAME</a>. Links without a sha256 are
 * of no use: nothing could be checked. Linear in the page's length:
 * every search runs within one tag or from where the last one stopped,
 * and each byte is passed over a bounded number of times (a page of
 * "<a x>" repeated, or of links without metadata, rescanned the rest of
 * the page for each tag: 56 s for 800 KB).
 */
static void wheels_from_html(const struct buf *body, struct found *out)
{
	const char *p = body->data, *end = body->data + body->len;

	while ((p = find(p, end, "<a "))) {
		const char *tag_end = memchr(p, '>', (size_t)(end - p)), *close;
		const char *url, *hash;
		char sha[DIGEST_HEX_LEN + 1];

		if (!tag_end)
			break;
		if (!html_link(p, tag_end, &url, &hash)) {
			p = tag_end;
			continue;
		}
		/* none: no later link has one either */
		close = find(tag_end, end, "</a>");
		if (!close)
			break;
		memcpy(sha, hash + 8, DIGEST_HEX_LEN);
		sha[DIGEST_HEX_LEN] = '\0';
		if (digest_hex_valid(sha))
			html_metadata(wheel_add(out, tag_end + 1,
						(size_t)(close - tag_end - 1),
						url, (size_t)(hash - url), sha,
						0),
				      p, tag_end);
		p = close;
	}
}

void pypi_index_parse(const struct buf *body, struct index_file **v, size_t *n)
{
	struct found f = { NULL, 0, 0 };

	if (wheels_from_json(body, &f))
		wheels_from_html(body, &f);
	*v = f.v;
	*n = f.n;
}

int pypi_index_files(const char *index, const char *project,
		     const struct fetch_opts *fetch, struct buf *page,
		     struct index_file **v, size_t *n, struct cuenv_err *err)
{
	struct fetch_opts fo = *fetch;
	struct buf body = BUF_INIT;
	int rc;

	buf_reset(page);
	buf_adds(page, index);
	while (page->len && page->data[page->len - 1] == '/')
		buf_setlen(page, page->len - 1);
	buf_printf(page, "/%s/", project);
	/* A folder over file:// (a cuenv mirror's pypi/simple) is not
	 * served as a page: its index.html is. */
	if (!strncmp(page->data, "file:", 5))
		buf_adds(page, "index.html");
	fo.accept = "application/vnd.pypi.simple.v1+json, "
		    "text/html;q=0.1";
	*v = NULL;
	*n = 0;
	rc = fetch_to_buf(page->data, &fo, 64 << 20, &body, err);
	if (!rc) {
		pypi_index_parse(&body, v, n);
		for (size_t i = 0; i < *n; i++) {
			char *u = fetch_resolve_url(page->data, (*v)[i].url);

			free((*v)[i].url);
			(*v)[i].url = u;
		}
	}
	buf_release(&body);
	return rc;
}

void pypi_index_files_free(struct index_file *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].url);
		free(v[i].sha256);
		free(v[i].metadata_sha256);
	}
	free(v);
}

/* The versions a failure lists: the first SEEN_MAX, each once (a page
 * of 400k releases must not cost 400k searches of a growing list). */
#define SEEN_MAX 32

static void seen_add(struct strv *seen, bool *more, const char *ver)
{
	if (strv_find(seen, ver) >= 0)
		return;
	if (seen->n < SEEN_MAX)
		strv_push(seen, ver);
	else
		*more = true;
}

int pypi_wheel_part(const char *index, const char *project, const char *comp,
		    const char *version, const char *platform,
		    const struct fetch_opts *fetch, struct part *out,
		    struct cuenv_err *err)
{
	struct buf page = BUF_INIT, shown = BUF_INIT;
	struct strv seen = STRV_INIT;
	struct index_file *files = NULL;
	size_t nfiles = 0;
	long best = -1;
	size_t off = 0;
	bool more = false;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = pypi_index_files(index, project, fetch, &page, &files, &nfiles,
			      err);
	if (rc)
		goto out;
	rc = CUENV_E_FETCH;
	if (!platform)
		platform = catalog_platform();
	for (size_t i = 0; i < nfiles; i++) {
		const char *name = files[i].name, *dash1, *dash2;
		char *ver;
		long post;

		/* a page lists its own project's files only: another's,
		 * however new, is not this component */
		if (!pypi_wheel_fits(name, platform) ||
		    !pypi_wheel_is_of(name, project))
			continue;
		/* nor a file on another host than the index's: what is
		 * fetched, stored or pinned comes from the index in force */
		if (!pypi_url_on_index(files[i].url, index)) {
			off++;
			continue;
		}
		dash1 = strchr(name, '-');
		dash2 = dash1 ? strchr(dash1 + 1, '-') : NULL;
		if (!dash2)
			continue;
		ver = xstrndup(dash1 + 1, (size_t)(dash2 - dash1 - 1));
		seen_add(&seen, &more, ver);
		post = pypi_release_post(ver, version);
		if (post > best) {
			best = post;
			part_release(out);
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
	if (rc) {
		for (size_t i = 0; i < seen.n; i++)
			buf_printf(&shown, "%s%s", i ? ", " : "", seen.v[i]);
		cuenv_fail(err, CUENV_E_FETCH,
			   "no %s wheel %s for %s on '%s' (found: %s%s%s)",
			   project, version, platform, page.data,
			   seen.n ? shown.data : "none", more ? ", ..." : "",
			   off ? "; files on another host than the index's "
				 "are not taken"
			       : "");
	}
out:
	pypi_index_files_free(files, nfiles);
	buf_release(&page);
	buf_release(&shown);
	strv_release(&seen);
	return rc;
}
