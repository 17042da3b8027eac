/*
 * fuzz_check_json.c: libFuzzer target for reading cuenv-probe's report
 * (check_report_from_json, core/check/check_json.c): cuenv reads what a child
 * process wrote, in an environment that may be anything. Aborts unless:
 *
 *   - a failure is CUENV_E_GPU with a message;
 *   - a report read back is one check_report_to_json writes again as
 *     JSON that reads back (the same report: written once more, the
 *     same bytes);
 *   - every detail is "key=value" with a key without '=' (what
 *     check.c's detail lookup relies on), and a layer's status is one of three.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "check/check.h"
#include "base/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void violation(const char *what, const char *a, const char *b)
{
	fprintf(stderr, "fuzz_check_json: invariant broken: %s\n", what);
	if (a)
		fprintf(stderr, "  first:  %s\n", a);
	if (b)
		fprintf(stderr, "  second: %s\n", b);
	abort();
}

static void check(const struct check_report *r)
{
	for (size_t i = 0; i < CHECK_LAYERS; i++) {
		const struct check_layer *l = &r->layer[i];

		if (l->status != CHECK_SKIP && l->status != CHECK_PASS &&
		    l->status != CHECK_FAIL)
			violation("a status is skip, pass or fail", NULL, NULL);
		for (size_t k = 0; k < l->details.n; k++) {
			const char *eq = strchr(l->details.v[k], '=');

			if (!eq || eq == l->details.v[k])
				violation("a detail is key=value",
					  l->details.v[k], NULL);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct check_report r, again;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf one = BUF_INIT, two = BUF_INIT;
	char *text = xstrndup((const char *)data, size);
	int rc;

	check_report_init(&r);
	check_report_init(&again);
	rc = check_report_from_json(text, &r, &err);
	if (rc) {
		if (rc != CUENV_E_GPU || !err.msg.len)
			violation("a failure is E_GPU, with a message", text,
				  NULL);
		goto out;
	}
	check(&r);
	check_report_to_json(&r, &one);
	if (check_report_from_json(one.data, &again, &err))
		violation("what is written reads back", one.data, err.msg.data);
	check(&again);
	check_report_to_json(&again, &two);
	if (one.len != two.len || memcmp(one.data, two.data, one.len))
		violation("read back, the same report", one.data, two.data);
out:
	check_report_release(&r);
	check_report_release(&again);
	buf_release(&one);
	buf_release(&two);
	err_release(&err);
	free(text);
	return 0;
}
