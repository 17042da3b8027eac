/*
 * fuzz_needs_python.c: libFuzzer target for reading what the frameworks
 * said (needs_python_parse, core/needs/needs_scan.c): the output of `python -c
 * needs_python_script`, run in the user's environment, where any import
 * may print or crash. py starts as an earlier answer read. Aborts unless:
 *
 *   - a failure (-1) leaves py exactly as it was;
 *   - after a success, each framework is absent (a reason, and the same
 *     reason as its problem exactly when the import raised something
 *     other than ModuleNotFoundError: there and broken) or present (a
 *     version, "?" at least), and its cuda and cudnn are valid versions
 *     or NULL;
 *   - reading the same answer again changes nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "needs/needs.h"
#include "base/version.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char earlier[] =
	"{\"python\": \"3.11.4\", \"frameworks\": {\"torch\": {\"version\": "
	"\"2.1.0\", \"cuda\": \"12.1\", \"cudnn\": \"8.9.2\"}, \"jax\": "
	"{\"absent\": \"ModuleNotFoundError: No module named 'jax'\"}}}";

static void violation(const char *what)
{
	fprintf(stderr, "fuzz_needs_python: invariant broken: %s\n", what);
	abort();
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same(const struct needs_python *a, const struct needs_python *b)
{
	if (!same_str(a->version, b->version))
		return 0;
	for (int i = 0; i < NEEDS_FRAMEWORKS; i++) {
		const struct needs_framework *x = &a->fw[i], *y = &b->fw[i];

		if (!same_str(x->version, y->version) ||
		    !same_str(x->cuda, y->cuda) ||
		    !same_str(x->cudnn, y->cudnn) ||
		    !same_str(x->absent, y->absent) ||
		    !same_str(x->problem, y->problem))
			return 0;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct needs_python py, before, again;
	const char *text = (const char *)data;

	needs_python_init(&py, "python3");
	needs_python_init(&before, "python3");
	if (needs_python_parse(&py, earlier, strlen(earlier)) ||
	    needs_python_parse(&before, earlier, strlen(earlier)))
		violation("the earlier answer reads");
	if (needs_python_parse(&py, text, size)) {
		if (!same(&py, &before))
			violation("a failure leaves py as it was");
		goto out;
	}
	for (int i = 0; i < NEEDS_FRAMEWORKS; i++) {
		const struct needs_framework *f = &py.fw[i];

		if (f->absent && (f->version || f->cuda || f->cudnn))
			violation("an absent framework has only its reason");
		if (f->absent &&
		    !strncmp(f->absent, "ModuleNotFoundError: ", 21) !=
			    !f->problem)
			violation("a problem exactly when the import broke");
		if (f->absent && f->problem && strcmp(f->absent, f->problem))
			violation("a broken import's problem is its reason");
		if (!f->absent && f->version && !*f->version)
			violation("a version is not empty");
		if ((f->cuda && !version_is_valid(f->cuda)) ||
		    (f->cudnn && !version_is_valid(f->cudnn)))
			violation("cuda and cudnn are versions or NULL");
	}
	needs_python_init(&again, "python3");
	if (needs_python_parse(&again, earlier, strlen(earlier)) ||
	    needs_python_parse(&again, text, size) ||
	    needs_python_parse(&again, text, size) || !same(&py, &again))
		violation("reading the same answer again changes nothing");
	needs_python_release(&again);
out:
	needs_python_release(&py);
	needs_python_release(&before);
	return 0;
}
