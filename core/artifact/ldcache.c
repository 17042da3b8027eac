#include "artifact/ldcache.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "plat/file.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "base/xalloc.h"

/* A cache is a few hundred KiB; anything far bigger is not one. */
#define CACHE_MAX (64u << 20)
#define CONF_MAX (1u << 20)
#define CONF_DEPTH 8

/* glibc's sysdeps/generic/dl-cache.h */
#define OLD_MAGIC "ld.so-1.7.0"
#define OLD_HEADER 16 /* magic[11], padding, uint32 nlibs */
#define OLD_ENTRY 12  /* int32 flags, uint32 key, uint32 value */
#define NEW_MAGIC "glibc-ld.so.cache1.1"
#define NEW_HEADER 48 /* magic+version[20], nlibs, len_strings, flags... */
#define NEW_ENTRY 24  /* flags, key, value, osversion, uint64 hwcap */
#define NEW_ALIGN 8   /* __alignof__ (struct cache_file_new) */

/* cache_file_new.flags: the byte order it was written in */
#define ENDIAN_UNSET 0
#define ENDIAN_LITTLE 2
#define ENDIAN_BIG 3

void ldcache_release(struct ldcache *c)
{
	for (size_t i = 0; i < c->n; i++)
		FREE_EACH(c->v[i].soname, c->v[i].path);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

unsigned ldcache_native_flags(void)
{
	/* FLAG_ELF_LIBC6 | the 64-bit library flag of the architecture */
#if defined(__x86_64__) && !defined(__ILP32__)
	return 0x0303;
#elif defined(__aarch64__)
	return 0x0a03;
#elif defined(__powerpc64__)
	return 0x0503;
#else
	return 0;
#endif
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static int host_endian(void)
{
	const uint16_t one = 1;
	unsigned char b;

	memcpy(&b, &one, 1);
	return b ? ENDIAN_LITTLE : ENDIAN_BIG;
}

/*
 * The NUL-terminated string at offset off of the table [base, base+size),
 * or NULL when it does not lie wholly inside.
 */
static const char *string_at(const unsigned char *base, size_t size,
			     uint32_t off)
{
	if (off >= size || !memchr(base + off, '\0', size - off))
		return NULL;
	return (const char *)base + off;
}

static void push(struct ldcache *out, const char *soname, const char *path,
		 unsigned flags)
{
	out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
	out->v[out->n].soname = xstrdup(soname);
	out->v[out->n].path = xstrdup(path);
	out->v[out->n].flags = flags;
	out->n++;
}

static int keep(unsigned flags)
{
	unsigned native = ldcache_native_flags();

	return !native || flags == native;
}

/*
 * The entries of a table of n entries of size esize at data+at, with
 * strings at offsets from strings (strings_size bytes long).
 */
static int read_entries(const unsigned char *data, size_t len, size_t at,
			uint32_t n, size_t esize, const unsigned char *strings,
			size_t strings_size, struct ldcache *out,
			struct cuenv_err *err)
{
	if (n > (len - at) / esize)
		return cuenv_fail(err, CUENV_E_MANIFEST,
				  "damaged loader cache: %lu entries do not "
				  "fit in %zu bytes",
				  (unsigned long)n, len);
	for (uint32_t i = 0; i < n; i++) {
		const unsigned char *e = data + at + (size_t)i * esize;
		const char *key =
			string_at(strings, strings_size, get32(e + 4));
		const char *value =
			string_at(strings, strings_size, get32(e + 8));

		if (!key || !value)
			return cuenv_fail(err, CUENV_E_MANIFEST,
					  "damaged loader cache: entry %lu "
					  "points outside the file",
					  (unsigned long)i);
		if (keep(get32(e)))
			push(out, key, value, get32(e));
	}
	return CUENV_OK;
}

/* A new-format table at data+at (len bytes in all). */
static int parse_new(const unsigned char *data, size_t len, size_t at,
		     struct ldcache *out, struct cuenv_err *err)
{
	const unsigned char *h = data + at;
	unsigned endian = h[28];

	if (endian != ENDIAN_UNSET && (int)endian != host_endian())
		return cuenv_fail(err, CUENV_E_MANIFEST,
				  "loader cache of another byte order");
	/* String offsets count from the new header. */
	return read_entries(data, len, at + NEW_HEADER, get32(h + 20),
			    NEW_ENTRY, h, len - at, out, err);
}

int ldcache_parse(const void *image, size_t len, struct ldcache *out,
		  struct cuenv_err *err)
{
	const unsigned char *data = image;
	size_t nm = strlen(NEW_MAGIC), om = strlen(OLD_MAGIC);
	struct ldcache got = { 0 };
	int rc;

	if (len >= NEW_HEADER && !memcmp(data, NEW_MAGIC, nm)) {
		rc = parse_new(data, len, 0, &got, err);
	} else if (len >= OLD_HEADER && !memcmp(data, OLD_MAGIC, om)) {
		uint32_t n = get32(data + 12);
		size_t end, at;

		if (n > (len - OLD_HEADER) / OLD_ENTRY) {
			rc = cuenv_fail(err, CUENV_E_MANIFEST,
					"damaged loader cache: %lu entries do "
					"not fit in %zu bytes",
					(unsigned long)n, len);
			goto out;
		}
		end = OLD_HEADER + (size_t)n * OLD_ENTRY;
		at = (end + NEW_ALIGN - 1) & ~(size_t)(NEW_ALIGN - 1);
		if (at <= len && len - at >= NEW_HEADER &&
		    !memcmp(data + at, NEW_MAGIC, nm))
			rc = parse_new(data, len, at, &got, err);
		else
			/* Old strings count from the end of the table. */
			rc = read_entries(data, len, OLD_HEADER, n, OLD_ENTRY,
					  data + end, len - end, &got, err);
	} else {
		rc = cuenv_fail(err, CUENV_E_MANIFEST,
				"not a loader cache (no glibc-ld.so.cache1.1 "
				"or ld.so-1.7.0 header)");
	}
out:
	if (!rc) {
		for (size_t i = 0; i < got.n; i++)
			push(out, got.v[i].soname, got.v[i].path,
			     got.v[i].flags);
	}
	ldcache_release(&got);
	return rc;
}

int ldcache_read(const char *path, struct ldcache *out, struct cuenv_err *err)
{
	struct buf data = BUF_INIT;
	int rc = file_read(path, CACHE_MAX, FILE_MAY_BE_MISSING, &data, err);

	if (!rc) {
		rc = ldcache_parse(data.data, data.len, out, err);
		if (rc) {
			struct buf msg = BUF_INIT;

			buf_printf(&msg, "'%s': %s", path, err->msg.data);
			buf_sets(&err->msg, msg.data);
			buf_release(&msg);
		}
	} else if (rc != CUENV_NO) {
		err->rc = rc = CUENV_E_STORE;
	}
	buf_release(&data);
	return rc;
}

/* ---- configuration ------------------------------------------------------ */

void ldconf_release(struct ldconf *c)
{
	for (size_t i = 0; i < c->n; i++)
		FREE_EACH(c->v[i].dir, c->v[i].file);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static void conf_push(struct ldconf *c, const char *dir, size_t n,
		      const char *file)
{
	/* Old syntax "dir=TYPE" names a library type after the folder. */
	const char *eq = memchr(dir, '=', n);

	if (eq)
		n = (size_t)(eq - dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (!n || dir[0] != '/')
		return;
	c->v = xrealloc(c->v, (c->n + 1) * sizeof(*c->v));
	c->v[c->n].dir = xstrndup(dir, n);
	c->v[c->n].file = xstrdup(file);
	c->n++;
}

static void read_conf(const char *path, struct ldconf *out, int depth);

static void include(const char *from, const char *pattern, struct ldconf *out,
		    int depth)
{
	struct buf full = BUF_INIT;
	struct strv paths = STRV_INIT;

	if (pattern[0] != '/') {
		char *dir = plat_path_parent(plat_path_native(), from);

		if (dir)
			buf_adds(&full, dir);
		free(dir);
		buf_path(&full, full.data, pattern);
	} else {
		buf_adds(&full, pattern);
	}
	plat_glob(full.data, &paths);
	for (size_t i = 0; i < paths.n; i++)
		read_conf(paths.v[i], out, depth + 1);
	strv_release(&paths);
	buf_release(&full);
}

static void read_conf(const char *path, struct ldconf *out, int depth)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	struct strv lines = STRV_INIT;
	static const char ws[] = " \t\r:,";

	if (depth > CONF_DEPTH ||
	    file_read(path, CONF_MAX, FILE_MAY_BE_MISSING, &text, &err))
		goto out;
	strv_split(&lines, text.data, '\n');
	for (size_t i = 0; i < lines.n; i++) {
		char *l = lines.v[i], *hash = strchr(l, '#');

		if (hash)
			*hash = '\0';
		l += strspn(l, " \t\r");
		if (!strncmp(l, "include", 7) &&
		    (l[7] == ' ' || l[7] == '\t')) {
			for (char *p = l + 7; *(p += strspn(p, " \t\r"));) {
				size_t n = strcspn(p, " \t\r");
				char *word = xstrndup(p, n);

				include(path, word, out, depth);
				free(word);
				p += n;
			}
			continue;
		}
		if (!strncmp(l, "hwcap", 5) && (l[5] == ' ' || l[5] == '\t'))
			continue;
		for (char *p = l; *(p += strspn(p, ws));) {
			size_t n = strcspn(p, ws);

			conf_push(out, p, n, path);
			p += n;
		}
	}
out:
	strv_release(&lines);
	buf_release(&text);
	err_release(&err);
}

void ldconf_read(const char *path, struct ldconf *out)
{
	read_conf(path, out, 0);
}

const char *ldconf_file_for(const struct ldconf *c, const char *dir)
{
	char *real = plat_realpath(dir);
	const char *found = NULL;

	for (size_t i = 0; i < c->n && !found; i++)
		if (!strcmp(c->v[i].dir, dir))
			found = c->v[i].file;
	for (size_t i = 0; i < c->n && !found && real; i++) {
		char *r = plat_realpath(c->v[i].dir);

		if (r && !strcmp(r, real))
			found = c->v[i].file;
		free(r);
	}
	free(real);
	return found;
}
