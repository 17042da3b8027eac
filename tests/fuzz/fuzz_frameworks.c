/*
 * fuzz_frameworks.c: libFuzzer target for the writer of the framework
 * table that `cuenv update --frameworks` fills from the package index
 * (core/nvidia/compat.c: compat_row_add), read back the way the tables are read
 * (lines, then compat_row_field).
 *
 * The input is cut at NUL bytes into fields, six to a row (the table's
 * columns), each row added in turn. Aborts unless:
 *
 *   - a refused row is CUENV_E_MANIFEST with a one-line message, and
 *     leaves the table as it was;
 *   - the table read back holds exactly the rows accepted, in order,
 *     each field as it was given, and nothing more.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "nvidia/compat.h"
#include "base/err.h"

#define COLUMNS 6

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void violation(const char *what)
{
	fprintf(stderr, "fuzz_frameworks: invariant broken: %s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strv fields = STRV_INIT, kept = STRV_INIT, lines = STRV_INIT;
	struct buf table = BUF_INIT, one = BUF_INIT, f = BUF_INIT;
	size_t rows = 0;

	/* the fields: the input cut at NUL bytes */
	for (size_t i = 0; i <= size; i++) {
		if (i < size && data[i]) {
			buf_add(&one, &data[i], 1);
			continue;
		}
		strv_push(&fields, one.data);
		buf_reset(&one);
	}
	for (size_t r = 0; r + COLUMNS <= fields.n; r += COLUMNS) {
		struct cuenv_err err = CUENV_ERR_INIT;
		size_t before = table.len;
		int rc = compat_row_add(&table,
					(const char *const *)fields.v + r,
					COLUMNS, "frameworks.tsv", &err);

		if (rc) {
			if (rc != CUENV_E_MANIFEST || !err.msg.len ||
			    strchr(err.msg.data, '\n'))
				violation("a refusal is E_MANIFEST, one line");
			if (table.len != before)
				violation("a refused row leaves the table");
		} else {
			for (size_t c = 0; c < COLUMNS; c++)
				strv_push(&kept, fields.v[r + c]);
			rows++;
		}
		err_release(&err);
	}
	/* read back: one line per row, then the empty end */
	strv_split(&lines, table.data, '\n');
	if (lines.n != rows + 1 || *lines.v[rows])
		violation("one line per row accepted");
	for (size_t r = 0; r < rows; r++) {
		for (size_t c = 0; c < COLUMNS; c++)
			if (!compat_row_field(lines.v[r], c, &f) ||
			    strcmp(f.data, kept.v[r * COLUMNS + c]))
				violation("each field reads back as written");
		if (compat_row_field(lines.v[r], COLUMNS, &f))
			violation("no field more than written");
	}
	strv_release(&fields);
	strv_release(&kept);
	strv_release(&lines);
	buf_release(&table);
	buf_release(&one);
	buf_release(&f);
	return 0;
}
