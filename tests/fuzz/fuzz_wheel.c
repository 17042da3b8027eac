/*
 * fuzz_wheel.c: libFuzzer target for the zip reader `cuenv needs` uses on
 * remote wheels (core/needs/wheel.c): the end record (wheel_zip_end_parse) and
 * the central directory (wheel_zip_directory), both from a server.
 *
 * The first byte says how much of the end of the file the tail holds
 * (0: 22 + 65535 bytes, as wheel_remote_each fetches; n: 8n bytes), the
 * rest is the file. Aborts unless:
 *
 *   - a failure is CUENV_E_UNPACK with a message (and, for the
 *     directory, no members);
 *   - an end record read gives a directory inside the file;
 *   - a directory read has members that fit in it: 46 bytes and the
 *     name's at least each, names no longer than the directory, no two
 *     of one name.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "needs/wheel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void violation(const char *what)
{
	fprintf(stderr, "fuzz_wheel: invariant broken: %s\n", what);
	abort();
}

static void directory(const uint8_t *cd, size_t len)
{
	struct wheel_zip_member *v = (void *)1;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t n = 1, used = 0;
	int rc = wheel_zip_directory(cd, len, &v, &n, &err);

	if (rc) {
		if (rc != CUENV_E_UNPACK || !err.msg.len || v || n)
			violation("a failure is E_UNPACK, with a message and "
				  "no members");
		err_release(&err);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (!v[i].name || strlen(v[i].name) > len)
			violation("a member has a name from the directory");
		used += 46 + strlen(v[i].name);
	}
	if (used > len)
		violation("the members fit in the directory");
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(v[i].name, v[j].name))
				violation("no two members have one name");
	wheel_zip_members_free(v, n);
	err_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wheel_zip_end end;
	struct cuenv_err err = CUENV_ERR_INIT;
	const uint8_t *zip = data + 1;
	size_t zsize, tail;
	int rc;

	if (!size)
		return 0;
	zsize = size - 1;
	tail = data[0] ? (size_t)data[0] * 8 : 22 + 65535;
	if (tail > zsize)
		tail = zsize;
	rc = wheel_zip_end_parse(zip + zsize - tail, tail, zsize, &end, &err);
	if (rc) {
		if (rc != CUENV_E_UNPACK || !err.msg.len)
			violation("a failure is E_UNPACK, with a message");
	} else {
		if (end.cd_offset > zsize ||
		    end.cd_size > zsize - end.cd_offset)
			violation("the directory lies inside the file");
		directory(zip + end.cd_offset, (size_t)end.cd_size);
	}
	directory(zip, zsize);
	err_release(&err);
	return 0;
}
