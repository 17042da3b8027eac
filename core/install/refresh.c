#include "install/refresh.h"

#include <stdlib.h>
#include <string.h>

#include "net/digest.h"
#include "base/kit.h"
#include "base/version.h"
#include "base/xalloc.h"

/* ---- NVIDIA's manifests ----------------------------------------------------- */

void refresh_listed(const char *listing, struct strv *versions)
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

int refresh_known(const struct catalog *cat, enum kit_kind kind,
		  const char *ver)
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

char *refresh_pin(const char *pins, const char *product, const char *ver)
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

int refresh_check_pin(const char *pin, const char *url, const void *body,
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

int refresh_accept(const char *pins, const char *url, const char *body,
		   size_t len, const char *platform, enum kit_kind kind,
		   const char *ver, struct cuenv_err *err)
{
	const char *k = kit_kind_name(kind);
	char *pin = pins ? refresh_pin(pins, k, ver) : NULL;
	struct catalog one = { 0 };
	int rc = refresh_check_pin(pin, url, body, len, err);

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

char *refresh_minor(const char *version)
{
	const char *dot = strchr(version, '.');

	dot = dot ? strchr(dot + 1, '.') : NULL;
	return dot ? xstrndup(version, (size_t)(dot - version))
		   : xstrdup(version);
}

void refresh_newest_per_minor(const struct index_file *files, size_t n,
			      const char *floor, struct strv *out)
{
	struct strv minors = STRV_INIT;

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
		m = refresh_minor(v);
		k = strv_find(&minors, m);
		if (k < 0) {
			strv_push(&minors, m);
			strv_push_take(out, v);
		} else if (version_cmp_str(v, out->v[k]) > 0) {
			free(out->v[k]);
			out->v[k] = v;
		} else {
			free(v);
		}
		free(m);
	}
	strv_release(&minors);
}
