/*
 * fuzz_elf.c: libFuzzer target for the ELF reader behind `cuenv needs`.
 *
 * Feeds arbitrary bytes to elf_parse() from a heap copy of exactly their
 * size (so that ASan sees a read one byte past the end) and checks what
 * `cuenv needs` relies on, aborting on any violation:
 *
 *   - a result is CUENV_OK, CUENV_NO (only without the ELF magic) or
 *     CUENV_E_MANIFEST with a message;
 *   - on success, bits is 32 or 64, and every DT_NEEDED entry and the
 *     soname are strings found in the input;
 *   - every CUDA soname reported parses with elf_cuda_soname() and occurs
 *     in the input, once, and is not the file's own soname;
 *   - elf_parse_symvers() (the loader model's symbol versions) on the
 *     same bytes answers with the same codes, and every version and
 *     symbol name it reports is a string found in the input.
 *
 * The seeds in tests/fuzz/corpus/elf are small shared objects built with
 * cc and clang (32- and 64-bit, both byte orders), truncated copies, and
 * crafted ones: verneed-records-share-one-chain (16 DT_VERNEED records
 * pointing at one chain of 64 versions, more than its 1,893 bytes hold:
 * refused).
 *
 *	make fuzz [FUZZ_SECONDS=60]
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifact/elf.h"
#include "base/err.h"

static void violation(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_elf: invariant broken: %s%s%s\n", what,
		detail ? ": " : "", detail ? detail : "");
	abort();
}

/* Is s, with its NUL (names are read only when terminated), in data? */
static int in_data(const uint8_t *data, size_t size, const char *s)
{
	return memmem(data, size, s, strlen(s) + 1) != NULL;
}

static void check_symvers(const uint8_t *data, size_t size)
{
	struct elf_symvers v;
	struct cuenv_err err = CUENV_ERR_INIT;
	int rc;

	elf_symvers_init(&v);
	rc = elf_parse_symvers(data, size, "fuzz", &v, &err);
	if (rc != CUENV_OK && rc != CUENV_NO && rc != CUENV_E_MANIFEST)
		violation("symvers: an unexpected code", err.msg.data);
	if (rc == CUENV_E_MANIFEST && !err.msg.len)
		violation("symvers: a failure without a message", NULL);
	for (size_t i = 0; i < v.nrefs; i++)
		if (!in_data(data, size, v.refs[i].file) ||
		    !in_data(data, size, v.refs[i].version))
			violation("symvers: a needed version not in the file",
				  v.refs[i].version);
	for (size_t i = 0; i < v.nundef; i++)
		if (!in_data(data, size, v.undef[i].name))
			violation("symvers: a symbol not in the file",
				  v.undef[i].name);
	for (size_t i = 0; i < v.defined_versions.n; i++)
		if (!in_data(data, size, v.defined_versions.v[i]))
			violation("symvers: a defined version not in the file",
				  v.defined_versions.v[i]);
	elf_symvers_release(&v);
	err_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	struct elf_info e;
	struct cuenv_err err = CUENV_ERR_INIT;
	int rc;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	elf_info_init(&e);
	rc = elf_parse(copy, size, "fuzz", &e, &err);
	if (rc == CUENV_NO) {
		if (elf_has_magic(data, size))
			violation("CUENV_NO for a file with the ELF magic",
				  NULL);
	} else if (rc == CUENV_E_MANIFEST) {
		if (!err.msg.len)
			violation("a failure without a message", NULL);
	} else if (rc != CUENV_OK) {
		violation("an unexpected code", err.msg.data);
	} else {
		if (e.bits != 32 && e.bits != 64)
			violation("bits is 32 or 64", NULL);
		if (e.soname && !in_data(data, size, e.soname))
			violation("the soname is not in the file", e.soname);
		for (size_t i = 0; i < e.needed.n; i++)
			if (!in_data(data, size, e.needed.v[i]))
				violation("a DT_NEEDED entry is not in the file",
					  e.needed.v[i]);
		for (size_t i = 0; i < e.cuda_named.n; i++) {
			const char *s = e.cuda_named.v[i], *v;
			enum nvlib_id lib;

			if (!elf_cuda_soname(s, &lib, &v))
				violation("a reported name is no CUDA soname",
					  s);
			if (!memmem(data, size, s, strlen(s)))
				violation("a reported name is not in the file",
					  s);
			if (e.soname && !strcmp(e.soname, s))
				violation("the own soname is reported", s);
			for (size_t k = 0; k < i; k++)
				if (!strcmp(e.cuda_named.v[k], s))
					violation("a name reported twice", s);
		}
	}
	elf_info_release(&e);
	check_symvers(copy, size);
	err_release(&err);
	free(copy);
	return 0;
}
