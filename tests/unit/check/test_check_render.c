#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "check/check_render.h"
#include "base/xalloc.h"

/* A report as cuenv-probe gives it: CUDA 12.4 and cuDNN on device 1,
 * the driver and runtime passed, the rest as each test sets. */
static void report(struct check_report *r)
{
	check_report_init(r);
	r->cuda = xstrdup("12.4.1");
	r->cudnn = xstrdup("9.1.0");
	r->device = 1;
	check_set(&r->layer[CHECK_DRIVER], CHECK_PASS, "driver 550 loaded");
	check_setstr(&r->layer[CHECK_DRIVER].version, "550.54.15");
	check_setstr(&r->layer[CHECK_DRIVER].file, "/usr/lib/libcuda.so.1");
	r->layer[CHECK_DRIVER].ms = 12.34;
	check_set(&r->layer[CHECK_RUNTIME], CHECK_PASS, "device 1: sm_90");
	check_setstr(&r->layer[CHECK_RUNTIME].soname, "libcudart.so.12");
}

static void render(const struct check_report *r, int rc, int first,
		   struct buf *out)
{
	struct selection sel;

	selection_init(&sel);
	sel.origin = SEL_FILE;
	sel.origin_path = xstrdup("/p/.cuenv");
	buf_reset(out);
	check_render_text(out, &sel, r, rc, first);
	selection_release(&sel);
}

static void test_check_render_layers_and_passes(void **state)
{
	struct check_report r;
	struct buf out = BUF_INIT;

	(void)state;
	report(&r);
	render(&r, 0, -1, &out);
	assert_string_equal(
	    out.data,
	    "cuda 12.4.1 + cudnn 9.1.0, device 1 (set by /p/.cuenv)\n"
	    "\n"
	    "driver   pass  550.54.15       12.3 ms  /usr/lib/libcuda.so.1\n"
	    "         driver 550 loaded\n"
	    "runtime  pass  -                0.0 ms  libcudart.so.12\n"
	    "         device 1: sm_90\n"
	    "kernel   skip  -                0.0 ms\n"
	    "cudnn    skip  -                0.0 ms\n"
	    "cupti    skip  -                0.0 ms\n"
	    "\n"
	    "ok: 2 of 5 layers passed, the others were not asked for\n");
	check_report_release(&r);
	buf_release(&out);
}

static void test_check_render_failure_names_the_layer(void **state)
{
	struct check_report r;
	struct check_layer *l;
	struct buf out = BUF_INIT;

	(void)state;
	report(&r);
	l = &r.layer[CHECK_CUPTI];
	check_set(l, CHECK_FAIL, "libcupti.so.12 is not the selection's");
	check_setstr(&l->file, "/opt/cupti/libcupti.so.12");
	l->foreign = true;
	check_fix(l, "unset LD_LIBRARY_PATH");
	check_setstr(&r.cupti, "12.6.0");
	render(&r, 14, CHECK_CUPTI, &out);
	assert_true(!strncmp(out.data,
			     "cuda 12.4.1 + cudnn 9.1.0 + cupti from 12.6.0, "
			     "device 1 (set by /p/.cuenv)\n",
			     strlen("cuda 12.4.1 + cudnn 9.1.0 + cupti from "
				    "12.6.0, device 1 (set by /p/.cuenv)\n")));
	assert_non_null(
	    strstr(out.data, "cupti    FAIL  -                0.0 ms  "
			     "/opt/cupti/libcupti.so.12  (not the "
			     "selection's)\n"
			     "         libcupti.so.12 is not the selection's\n"
			     "         fix: unset LD_LIBRARY_PATH\n"
			     "\n"
			     "failed: the cupti layer (exit 14)\n"));
	check_report_release(&r);
	buf_release(&out);
}

static void test_check_render_pass_shows_fix_only_with_warning(void **state)
{
	struct check_report r;
	struct check_layer *l;
	struct buf out = BUF_INIT;

	(void)state;
	report(&r);
	l = &r.layer[CHECK_DRIVER];
	check_fix(l, "update the driver");
	render(&r, 0, -1, &out);
	assert_null(strstr(out.data, "fix:"));
	check_warn(l, "minor version compatibility");
	render(&r, 0, -1, &out);
	assert_non_null(strstr(out.data,
			       "         driver 550 loaded\n"
			       "         warning: minor version compatibility\n"
			       "         fix: update the driver\n"
			       "runtime  "));
	check_report_release(&r);
	buf_release(&out);
}

static void test_check_render_all_passed(void **state)
{
	struct check_report r;
	struct buf out = BUF_INIT;

	(void)state;
	report(&r);
	for (int i = 0; i < CHECK_LAYERS; i++)
		check_set(&r.layer[i], CHECK_PASS, "ok");
	free(r.cuda);
	r.cuda = NULL;
	render(&r, 0, -1, &out);
	assert_true(!strncmp(out.data, "cuda ? + cudnn 9.1.0, device 1", 30));
	assert_non_null(strstr(out.data, "\n\nok: 5 of 5 layers passed\n"));
	check_report_release(&r);
	buf_release(&out);
}

static void test_check_render_json_or_text(void **state)
{
	struct check_report r;
	struct selection sel;
	struct buf out = BUF_INIT, want = BUF_INIT;

	(void)state;
	report(&r);
	selection_init(&sel);
	check_render(&out, &sel, &r, 0, -1, 0);
	check_render_text(&want, &sel, &r, 0, -1);
	assert_string_equal(out.data, want.data);
	buf_reset(&out);
	buf_reset(&want);
	check_render(&out, &sel, &r, 0, -1, 1);
	check_report_to_json(&r, &want);
	buf_addc(&want, '\n');
	assert_string_equal(out.data, want.data);
	assert_int_equal(out.data[0], '{');
	/* one line */
	assert_ptr_equal(strchr(out.data, '\n'), out.data + out.len - 1);
	selection_release(&sel);
	check_report_release(&r);
	buf_release(&out);
	buf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_check_render_layers_and_passes),
	    cmocka_unit_test(test_check_render_json_or_text),
	    cmocka_unit_test(test_check_render_failure_names_the_layer),
	    cmocka_unit_test(
		test_check_render_pass_shows_fix_only_with_warning),
	    cmocka_unit_test(test_check_render_all_passed),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
