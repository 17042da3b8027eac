/*
 * fuzz_dotfile.c: libFuzzer target for the `.cuenv` parser.
 *
 * Feeds arbitrary bytes to dotfile_parse(). When it accepts them, checks
 * what the rest of cuenv relies on, and aborts on any violation:
 *
 *   - every version returned passes version_is_valid(), or is "system"
 *     (cuda only): no parsed value can ever name a path;
 *   - dotfile_rewrite() of the input with the parsed values produces a file
 *     that parses again, to the same values (what `cuenv local` does);
 *   - dotfile_rewrite() with unset produces a file that parses to nothing.
 *
 * A failure must be CUENV_E_MANIFEST with a message, and leave df alone.
 * Everything is released, so LeakSanitizer reports only real leaks.
 *
 *	make fuzz [FUZZ_SECONDS=60]
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "select/dotfile.h"
#include "base/err.h"
#include "base/version.h"

#define NAME ".cuenv"

static void violation(const char *what, const uint8_t *data, size_t size,
		      const struct buf *text, const struct cuenv_err *err)
{
	struct buf raw = BUF_INIT, shown = BUF_INIT;

	buf_add(&raw, data, size);
	buf_add_display(&shown, raw.data, 512);
	buf_release(&raw);
	fprintf(stderr, "fuzz_dotfile: invariant broken: %s\n", what);
	fprintf(stderr, "  input:     '%s'\n", shown.data);
	if (text) {
		buf_reset(&shown);
		buf_add_display(&shown, text->data, 512);
		fprintf(stderr, "  rewritten: '%s'\n", shown.data);
	}
	if (err && err->msg.len)
		fprintf(stderr, "  error:     %s\n", err->msg.data);
	buf_release(&shown);
	abort();
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same(const struct dotfile *a, const struct dotfile *b)
{
	return same_str(a->cuda, b->cuda) && same_str(a->cudnn, b->cudnn) &&
	       same_str(a->cupti, b->cupti) && a->isolate == b->isolate &&
	       same_str(a->source, b->source);
}

static int valid_or_null(const char *v)
{
	return !v || version_is_valid(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dotfile df, again;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	const char *in = (const char *)data;
	int rc;

	if (size > DOTFILE_MAX_BYTES)
		return -1; /* dotfile_read never passes more; keep it out */
	dotfile_init(&df);
	dotfile_init(&again);
	rc = dotfile_parse(NAME, in, size, &df, &err);
	if (rc != CUENV_OK) {
		if (rc != CUENV_E_MANIFEST || !err.msg.len)
			violation("a failure is E_MANIFEST, with a message",
				  data, size, NULL, &err);
		if (!dotfile_is_empty(&df))
			violation("a failure leaves df untouched", data, size,
				  NULL, &err);
		goto out;
	}
	if (!(df.cuda && !strcmp(df.cuda, DOTFILE_SYSTEM)) &&
	    !valid_or_null(df.cuda))
		violation("cuda is a version or 'system'", data, size, NULL,
			  NULL);
	if (!valid_or_null(df.cudnn) || !valid_or_null(df.cupti))
		violation("cudnn and cupti are versions", data, size, NULL,
			  NULL);
	if (df.source && strcmp(df.source, "redist") &&
	    strcmp(df.source, "runfile") && strcmp(df.source, "pypi"))
		violation("source is redist, runfile or pypi", data, size, NULL,
			  NULL);
	if (df.isolate < -1 || df.isolate > 1)
		violation("isolate is -1, 0 or 1", data, size, NULL, NULL);
	if (!df.cuda && !dotfile_is_empty(&df))
		violation("cudnn, cupti, isolate and source come with cuda",
			  data, size, NULL, NULL);

	dotfile_rewrite(in, size, &df, 0, &text);
	rc = dotfile_parse(NAME, text.data, text.len, &again, &err);
	if (rc != CUENV_OK)
		violation("the rewritten file parses", data, size, &text, &err);
	if (!same(&df, &again))
		violation("the rewritten file gives the same values", data,
			  size, &text, NULL);
	dotfile_release(&again);

	dotfile_rewrite(in, size, &df, 1, &text);
	rc = dotfile_parse(NAME, text.data, text.len, &again, &err);
	if (rc != CUENV_OK)
		violation("the unset file parses", data, size, &text, &err);
	if (!dotfile_is_empty(&again))
		violation("the unset file names nothing", data, size, &text,
			  NULL);
out:
	dotfile_release(&again);
	dotfile_release(&df);
	buf_release(&text);
	err_release(&err);
	return 0;
}
