/*
 * fuzz_pe.c: libFuzzer target for the PE reader behind `cuenv needs` on
 * Windows files (.dll, .pyd, .exe).
 *
 * Feeds arbitrary bytes to pe_parse() from a heap copy of exactly their
 * size (so that ASan sees a read one byte past the end) and checks what
 * `cuenv needs` relies on, aborting on any violation:
 *
 *   - a result is CUENV_OK, CUENV_NO (only without "MZ") or
 *     CUENV_E_MANIFEST with a one-line message;
 *   - on success, bits is 32 or 64, and every imported and delay-loaded
 *     DLL name and the export name are NUL-terminated strings found in
 *     the input, each import listed once;
 *   - every CUDA DLL name reported maps to a soname (nvlib_dll_soname),
 *     occurs in the input (ASCII or UTF-16LE), once, and is not the
 *     file's own name.
 *
 * The seeds in tests/fuzz/corpus/pe are the hand-built DLL of test_pe
 * (PE32+ and PE32), a truncated copy, and a file that is not PE.
 *
 *	make fuzz [FUZZ_SECONDS=60]
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/err.h"
#include "nvidia/nvlib.h"
#include "artifact/pe.h"

static void violation(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_pe: invariant broken: %s%s%s\n", what,
		detail ? ": " : "", detail ? detail : "");
	abort();
}

/* Is s, with its NUL, in data? */
static int in_data(const uint8_t *data, size_t size, const char *s)
{
	return memmem(data, size, s, strlen(s) + 1) != NULL;
}

/* Is s in data, in ASCII or UTF-16LE, any case? */
static int in_data_any(const uint8_t *data, size_t size, const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i + n <= size; i++)
		if (!strncasecmp((const char *)data + i, s, n))
			return 1;
	for (size_t i = 0; i + 2 * n <= size; i++) {
		size_t k;

		for (k = 0; k < n; k++)
			if ((data[i + 2 * k] | 0x20) != (s[k] | 0x20) ||
			    data[i + 2 * k + 1])
				break;
		if (k == n)
			return 1;
	}
	return 0;
}

static void check_list(const uint8_t *data, size_t size, const struct strv *v,
		       const char *what)
{
	for (size_t i = 0; i < v->n; i++) {
		if (!in_data(data, size, v->v[i]))
			violation(what, v->v[i]);
		for (size_t k = 0; k < i; k++)
			if (!strcasecmp(v->v[k], v->v[i]))
				violation("a name listed twice", v->v[i]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	struct pe_info p;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf so = BUF_INIT;
	int rc;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	pe_info_init(&p);
	rc = pe_parse(copy, size, "fuzz", &p, &err);
	if (rc == CUENV_NO) {
		if (pe_has_magic(data, size))
			violation("CUENV_NO for a file with MZ", NULL);
	} else if (rc == CUENV_E_MANIFEST) {
		if (!err.msg.len || strchr(err.msg.data, '\n'))
			violation("a failure without a one-line message",
				  err.msg.data);
	} else if (rc != CUENV_OK) {
		violation("an unexpected code", err.msg.data);
	} else {
		if (p.bits != 32 && p.bits != 64)
			violation("bits is 32 or 64", NULL);
		if (p.name && !in_data(data, size, p.name))
			violation("the export name is not in the file", p.name);
		check_list(data, size, &p.imports,
			   "an import is not in the file");
		check_list(data, size, &p.delay,
			   "a delay import is not in the file");
		for (size_t i = 0; i < p.cuda_named.n; i++) {
			const char *s = p.cuda_named.v[i];

			if (!nvlib_dll_soname(s, &so))
				violation("a reported name is no CUDA DLL", s);
			if (!in_data_any(data, size, s))
				violation("a reported name is not in the file",
					  s);
			if (p.name && !strcasecmp(p.name, s))
				violation("the own name is reported", s);
			for (size_t k = 0; k < i; k++)
				if (!strcasecmp(p.cuda_named.v[k], s))
					violation("a name reported twice", s);
		}
	}
	buf_release(&so);
	pe_info_release(&p);
	err_release(&err);
	free(copy);
	return 0;
}
