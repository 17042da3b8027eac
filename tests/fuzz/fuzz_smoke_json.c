/*
 * fuzz_smoke_json.c: libFuzzer target for reading cuenv-probe's report
 * (smoke_report_from_json, core/check/check_json.c): cuenv reads what a child
 * process wrote, in an environment that may be anything. Aborts unless:
 *
 *   - a failure is CUENV_E_GPU with a message;
 *   - a report read back is one smoke_report_to_json writes again as
 *     JSON that reads back (the same report: written once more, the
 *     same bytes);
 *   - every detail is "key=value" with a key without '=' (what
 *     smoke_detail_get relies on), and a layer's status is one of three.
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
	fprintf(stderr, "fuzz_smoke_json: invariant broken: %s\n", what);
	if (a)
		fprintf(stderr, "  first:  %s\n", a);
	if (b)
		fprintf(stderr, "  second: %s\n", b);
	abort();
}

static void check(const struct smoke_report *r)
{
	for (size_t i = 0; i < SMOKE_LAYERS; i++) {
		const struct smoke_layer *l = &r->layer[i];

		if (l->status != SMOKE_SKIP && l->status != SMOKE_PASS &&
		    l->status != SMOKE_FAIL)
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
	struct smoke_report r, again;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf one = BUF_INIT, two = BUF_INIT;
	char *text = xstrndup((const char *)data, size);
	int rc;

	smoke_report_init(&r);
	smoke_report_init(&again);
	rc = smoke_report_from_json(text, &r, &err);
	if (rc) {
		if (rc != CUENV_E_GPU || !err.msg.len)
			violation("a failure is E_GPU, with a message", text,
				  NULL);
		goto out;
	}
	check(&r);
	smoke_report_to_json(&r, &one);
	if (smoke_report_from_json(one.data, &again, &err))
		violation("what is written reads back", one.data, err.msg.data);
	check(&again);
	smoke_report_to_json(&again, &two);
	if (one.len != two.len || memcmp(one.data, two.data, one.len))
		violation("read back, the same report", one.data, two.data);
out:
	smoke_report_release(&r);
	smoke_report_release(&again);
	buf_release(&one);
	buf_release(&two);
	err_release(&err);
	free(text);
	return 0;
}
