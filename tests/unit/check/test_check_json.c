#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check/check.h"
#include "fakes/fixture.h"

/* A report with something in every field. */
static void sample(struct check_report *r)
{
	check_report_init(r);
	check_setstr(&r->cuda, "12.4.1");
	check_setstr(&r->cudnn, "9.1.0.70");
	check_setstr(&r->cupti, "11.2");
	r->device = 1;
	for (int i = 0; i < CHECK_LAYERS; i++) {
		struct check_layer *l = &r->layer[i];

		check_set(l, CHECK_PASS, "layer %d: \"quoted\", tab\there", i);
		check_setstr(&l->version, "1.2.3");
		check_setstr(&l->soname, "libx.so.1");
		check_setstr(&l->file, "/opt/caf\xc3\xa9/libx.so.1");
		l->ms = 1.25 * (i + 1);
		check_detail(l, "key", "value %d", i);
		check_detail(l, "other", "x=y");
	}
	r->layer[CHECK_CUDNN].asked = false;
	check_set(&r->layer[CHECK_CUDNN], CHECK_SKIP, "no cuDNN selected");
	check_set(&r->layer[CHECK_CUPTI], CHECK_FAIL, "foreign");
	r->layer[CHECK_CUPTI].foreign = true;
	check_fix(&r->layer[CHECK_CUPTI], "cuenv local 12.4 --isolate");
	check_warn(&r->layer[CHECK_DRIVER], "old driver");
}

static void assert_layers_equal(const struct check_layer *a,
				const struct check_layer *b)
{
	assert_int_equal(a->status, b->status);
	assert_int_equal(a->asked, b->asked);
	assert_int_equal(a->foreign, b->foreign);
	assert_string_equal(a->version, b->version);
	assert_string_equal(a->soname, b->soname);
	assert_string_equal(a->file, b->file);
	assert_string_equal(a->message, b->message);
	if (a->fix || b->fix)
		assert_string_equal(a->fix, b->fix);
	assert_true(a->ms - b->ms < 0.001 && b->ms - a->ms < 0.001);
	assert_int_equal(a->details.n, b->details.n);
	for (size_t i = 0; i < a->details.n; i++)
		assert_string_equal(a->details.v[i], b->details.v[i]);
	assert_int_equal(a->warnings.n, b->warnings.n);
	for (size_t i = 0; i < a->warnings.n; i++)
		assert_string_equal(a->warnings.v[i], b->warnings.v[i]);
}

static void test_check_json_round_trip(void **state)
{
	struct check_report a, b;
	struct buf text = BUF_INIT, again = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	sample(&a);
	check_report_init(&b);
	check_report_to_json(&a, &text);
	assert_int_equal(check_report_from_json(text.data, &b, &err), CUENV_OK);
	assert_string_equal(b.cuda, "12.4.1");
	assert_string_equal(b.cudnn, "9.1.0.70");
	assert_string_equal(b.cupti, "11.2");
	assert_int_equal(b.device, 1);
	for (int i = 0; i < CHECK_LAYERS; i++)
		assert_layers_equal(&a.layer[i], &b.layer[i]);
	assert_int_equal(check_report_rc(&b, NULL), CUENV_E_CUPTI);
	/* and the same text again */
	check_report_to_json(&b, &again);
	assert_string_equal(text.data, again.data);
	buf_release(&text);
	buf_release(&again);
	check_report_release(&a);
	check_report_release(&b);
	err_release(&err);
}

static void test_check_json_nulls_stay_null(void **state)
{
	struct check_report a, b;
	struct buf text = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	check_report_init(&a);
	check_report_init(&b);
	check_report_to_json(&a, &text);
	assert_non_null(strstr(text.data, "\"cuda\":null"));
	assert_int_equal(check_report_from_json(text.data, &b, &err), CUENV_OK);
	assert_null(b.cuda);
	assert_null(b.layer[CHECK_DRIVER].file);
	assert_null(b.layer[CHECK_DRIVER].fix);
	buf_release(&text);
	check_report_release(&a);
	check_report_release(&b);
	err_release(&err);
}

/* A detail with an empty key (found by fuzz_check_json) is dropped: a
 * detail is "key=value" with a key, as check.c reads it. */
static void test_check_json_drops_a_detail_without_key(void **state)
{
	struct check_report a, b;
	struct buf text = BUF_INIT, edited = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *at;

	(void)state;
	check_report_init(&a);
	check_report_init(&b);
	check_detail(&a.layer[CHECK_DRIVER], "module", "%s", "550.54.15");
	check_report_to_json(&a, &text);
	at = strstr(text.data, "\"details\":{");
	assert_non_null(at);
	at += strlen("\"details\":{");
	buf_add(&edited, text.data, (size_t)(at - text.data));
	buf_adds(&edited, "\"\":\"11.8\",");
	buf_adds(&edited, at);
	assert_int_equal(check_report_from_json(edited.data, &b, &err),
			 CUENV_OK);
	assert_int_equal(b.layer[CHECK_DRIVER].details.n, 1);
	assert_string_equal(FX_DETAIL(&b.layer[CHECK_DRIVER], "module"),
			    "550.54.15");
	buf_release(&text);
	buf_release(&edited);
	check_report_release(&a);
	check_report_release(&b);
	err_release(&err);
}

static void test_check_json_replaces_an_old_report(void **state)
{
	struct check_report r;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	sample(&r);
	assert_int_equal(
	    check_report_from_json(
		"{\"layers\":[{\"name\":\"driver\",\"status\":\"fail\","
		"\"message\":\"no driver\"},{\"name\":\"future\","
		"\"status\":\"pass\"}]}",
		&r, &err),
	    CUENV_OK);
	assert_null(r.cuda);
	assert_int_equal(r.layer[CHECK_DRIVER].status, CHECK_FAIL);
	assert_string_equal(r.layer[CHECK_DRIVER].message, "no driver");
	assert_int_equal(r.layer[CHECK_DRIVER].warnings.n, 0);
	/* layers it does not name are skips */
	assert_int_equal(r.layer[CHECK_CUPTI].status, CHECK_SKIP);
	assert_null(r.layer[CHECK_CUPTI].message);
	check_report_release(&r);
	err_release(&err);
}

static void test_check_json_rejects_what_is_not_a_report(void **state)
{
	static const char *const bad[] = {
	    "",
	    "not json",
	    "[1,2]",
	    "{\"schema\":1}",
	    "{\"layers\":{}}",
	    "{\"layers\":[{\"name\":\"driver\"}]}",
	    "{\"layers\":[{\"name\":\"driver\",\"status\":\"passed\"}]}",
	};
	struct check_report r;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	check_report_init(&r);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		assert_int_equal(check_report_from_json(bad[i], &r, &err),
				 CUENV_E_GPU);
		assert_non_null(strstr(err.msg.data, "cuenv-probe"));
	}
	check_report_release(&r);
	err_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_check_json_round_trip),
	    cmocka_unit_test(test_check_json_nulls_stay_null),
	    cmocka_unit_test(test_check_json_drops_a_detail_without_key),
	    cmocka_unit_test(test_check_json_replaces_an_old_report),
	    cmocka_unit_test(test_check_json_rejects_what_is_not_a_report),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
