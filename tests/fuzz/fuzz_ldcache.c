/*
 * fuzz_ldcache.c: libFuzzer target for the loader cache's parser
 * (ldcache_parse, core/artifact/ldcache.c), which reads /etc/ld.so.cache: data
 * from the disk. Aborts unless:
 *
 *   - a failure is CUENV_E_MANIFEST with a message, and leaves out as it
 *     was (one entry already there, untouched);
 *   - a success appends entries whose soname and path are strings of the
 *     input (each with its NUL lies inside the data), with this
 *     architecture's flags, and no more entries than the data can hold
 *     (12 bytes an entry at least);
 *   - parsing the same bytes again gives the same entries.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "artifact/ldcache.h"
#include "base/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void violation(const char *what)
{
	fprintf(stderr, "fuzz_ldcache: invariant broken: %s\n", what);
	abort();
}

static void seed(struct ldcache *c)
{
	c->v = xcalloc(1, sizeof(*c->v));
	c->v[0].soname = xstrdup("libseed.so.1");
	c->v[0].path = xstrdup("/seed/libseed.so.1");
	c->v[0].flags = 7;
	c->n = 1;
}

static int in_data(const uint8_t *data, size_t size, const char *s)
{
	return s && memmem(data, size, s, strlen(s) + 1) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ldcache c = { 0 }, again = { 0 };
	struct cuenv_err err = CUENV_ERR_INIT;
	unsigned native = ldcache_native_flags();
	int rc;

	seed(&c);
	rc = ldcache_parse(data, size, &c, &err);
	if (strcmp(c.v[0].soname, "libseed.so.1") ||
	    strcmp(c.v[0].path, "/seed/libseed.so.1") || c.v[0].flags != 7)
		violation("the entries already there are kept");
	if (rc) {
		if (rc != CUENV_E_MANIFEST || !err.msg.len)
			violation("a failure is E_MANIFEST, with a message");
		if (c.n != 1)
			violation("a failure appends nothing");
		goto out;
	}
	if (c.n - 1 > size / 12)
		violation("no more entries than the data holds");
	for (size_t i = 1; i < c.n; i++) {
		if (!in_data(data, size, c.v[i].soname) ||
		    !in_data(data, size, c.v[i].path))
			violation("soname and path are strings of the data");
		if (native && c.v[i].flags != native)
			violation("only this architecture's entries");
	}
	if (ldcache_parse(data, size, &again, &err) || again.n != c.n - 1)
		violation("the same bytes parse again to as many entries");
	for (size_t i = 0; i < again.n; i++)
		if (strcmp(again.v[i].soname, c.v[i + 1].soname) ||
		    strcmp(again.v[i].path, c.v[i + 1].path) ||
		    again.v[i].flags != c.v[i + 1].flags)
			violation("the same bytes parse to the same entries");
out:
	ldcache_release(&c);
	ldcache_release(&again);
	err_release(&err);
	return 0;
}
