#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "check/check.h"
#include "check/check_plan.h"
#include "fakes/fixture.h"

/* A report whose every layer passed. */
static void all_pass(struct check_report *r)
{
	check_report_init(r);
	check_setstr(&r->cuda, "12.4.1");
	for (int i = 0; i < CHECK_LAYERS; i++)
		check_set(&r->layer[i], CHECK_PASS, "fine");
}

/* ---- the model ----------------------------------------------------------- */

static void test_check_layers_are_in_order_with_their_codes(void **state)
{
	static const char *const names[] = {"driver", "runtime", "kernel",
					    "cudnn", "cupti"};

	(void)state;
	for (int i = 0; i < CHECK_LAYERS; i++) {
		assert_string_equal(check_layer_name(i), names[i]);
		assert_int_equal(check_layer_rc(i), 10 + i);
	}
	assert_int_equal(check_layer_rc(CHECK_DRIVER), CUENV_E_DRIVER);
	assert_int_equal(check_layer_rc(CHECK_CUPTI), CUENV_E_CUPTI);
}

static void test_check_status_names_round_trip(void **state)
{
	enum check_status st;

	(void)state;
	for (int s = CHECK_SKIP; s <= CHECK_FAIL; s++) {
		assert_int_equal(check_status_parse(check_status_name(s), &st),
				 0);
		assert_int_equal(st, s);
	}
	assert_int_equal(check_status_parse("passed", &st), -1);
	assert_int_equal(check_status_parse("", &st), -1);
}

static void test_check_detail_replaces_a_key(void **state)
{
	struct check_report r;
	struct check_layer *l;

	(void)state;
	check_report_init(&r);
	l = &r.layer[CHECK_RUNTIME];
	check_detail(l, "devices", "%d", 1);
	check_detail(l, "device", "%d", 0);
	check_detail(l, "devices", "%d", 2);
	assert_int_equal(l->details.n, 2);
	assert_string_equal(FX_DETAIL(l, "devices"), "2");
	assert_string_equal(FX_DETAIL(l, "device"), "0");
	assert_null(FX_DETAIL(l, "dev"));
	check_report_release(&r);
}

static void test_check_new_report_asks_for_every_layer(void **state)
{
	struct check_report r;

	(void)state;
	check_report_init(&r);
	for (int i = 0; i < CHECK_LAYERS; i++) {
		assert_true(r.layer[i].asked);
		assert_int_equal(r.layer[i].status, CHECK_SKIP);
	}
	check_report_release(&r);
}

/* ---- rules --------------------------------------------------------------- */

static void test_check_all_passed_exits_0(void **state)
{
	struct check_report r;
	int first = 7;

	(void)state;
	all_pass(&r);
	check_report_finish(&r);
	assert_int_equal(check_report_rc(&r, &first), CUENV_OK);
	assert_int_equal(first, -1);
	check_report_release(&r);
}

static void test_check_skip_not_asked_for_still_exits_0(void **state)
{
	struct check_report r;

	(void)state;
	all_pass(&r);
	r.layer[CHECK_CUDNN].asked = false;
	check_set(&r.layer[CHECK_CUDNN], CHECK_SKIP, "no cuDNN selected");
	check_report_finish(&r);
	assert_int_equal(check_report_rc(&r, NULL), CUENV_OK);
	check_report_release(&r);
}

static void test_check_asked_for_skip_is_not_success(void **state)
{
	struct check_report r;
	int first;

	(void)state;
	all_pass(&r);
	check_set(&r.layer[CHECK_CUDNN], CHECK_SKIP, "nothing ran");
	assert_int_equal(check_report_rc(&r, &first), CUENV_E_CUDNN);
	assert_int_equal(first, CHECK_CUDNN);
	check_report_release(&r);
}

static void test_check_first_failure_gives_the_code(void **state)
{
	struct check_report r;
	int first;

	(void)state;
	all_pass(&r);
	check_set(&r.layer[CHECK_CUPTI], CHECK_FAIL, "no trace");
	check_set(&r.layer[CHECK_CUDNN], CHECK_FAIL, "built for CUDA 11");
	check_report_finish(&r);
	assert_int_equal(check_report_rc(&r, &first), CUENV_E_CUDNN);
	assert_int_equal(first, CHECK_CUDNN);
	check_report_release(&r);
}

static void test_check_failed_driver_never_leaves_a_pass(void **state)
{
	struct check_report r;
	int first;

	(void)state;
	all_pass(&r);
	check_set(&r.layer[CHECK_DRIVER], CHECK_FAIL, "no driver");
	check_report_finish(&r);
	for (int i = CHECK_RUNTIME; i < CHECK_LAYERS; i++) {
		assert_int_equal(r.layer[i].status, CHECK_SKIP);
		assert_non_null(
		    strstr(r.layer[i].message, "the driver layer failed"));
	}
	assert_int_equal(check_report_rc(&r, &first), CUENV_E_DRIVER);
	assert_int_equal(first, CHECK_DRIVER);
	check_report_release(&r);
}

static void test_check_failed_kernel_skips_only_cupti(void **state)
{
	struct check_report r;

	(void)state;
	all_pass(&r);
	check_set(&r.layer[CHECK_KERNEL], CHECK_FAIL, "wrong result");
	check_report_finish(&r);
	assert_int_equal(r.layer[CHECK_DRIVER].status, CHECK_PASS);
	assert_int_equal(r.layer[CHECK_RUNTIME].status, CHECK_PASS);
	assert_int_equal(r.layer[CHECK_CUDNN].status, CHECK_PASS);
	assert_int_equal(r.layer[CHECK_CUPTI].status, CHECK_SKIP);
	assert_non_null(strstr(r.layer[CHECK_CUPTI].message, "fine; "));
	assert_non_null(
	    strstr(r.layer[CHECK_CUPTI].message, "the kernel layer failed"));
	assert_int_equal(check_report_rc(&r, NULL), CUENV_E_KERNEL);
	check_report_release(&r);
}

static void test_check_failure_after_a_failure_stays_a_failure(void **state)
{
	struct check_report r;

	(void)state;
	all_pass(&r);
	check_set(&r.layer[CHECK_DRIVER], CHECK_FAIL, "no driver");
	check_set(&r.layer[CHECK_CUDNN], CHECK_FAIL, "built for CUDA 11");
	check_report_finish(&r);
	assert_int_equal(r.layer[CHECK_CUDNN].status, CHECK_FAIL);
	assert_int_equal(check_report_rc(&r, NULL), CUENV_E_DRIVER);
	check_report_release(&r);
}

static void test_check_finish_is_idempotent(void **state)
{
	struct check_report r;
	char *once;

	(void)state;
	all_pass(&r);
	check_set(&r.layer[CHECK_RUNTIME], CHECK_FAIL, "no device");
	check_report_finish(&r);
	once = strdup(r.layer[CHECK_KERNEL].message);
	check_report_finish(&r);
	assert_string_equal(r.layer[CHECK_KERNEL].message, once);
	free(once);
	check_report_release(&r);
}

/* ---- the driver ---------------------------------------------------------- */

static void judge(struct check_layer *l, const char *module, int dcuda)
{
	check_judge_driver(l, "12.4.1", module, dcuda, "550.54.15", "525");
}

static void test_check_driver_new_enough_passes(void **state)
{
	struct check_report r;
	struct check_layer *l;

	(void)state;
	check_report_init(&r);
	l = &r.layer[CHECK_DRIVER];
	judge(l, "550.54.15", 12040);
	assert_int_equal(l->status, CHECK_PASS);
	assert_int_equal(l->warnings.n, 0);
	judge(l, "560.35.03", 12060);
	assert_int_equal(l->status, CHECK_PASS);
	assert_int_equal(l->warnings.n, 0);
	check_report_release(&r);
}

static void test_check_driver_too_old_fails_naming_fixes(void **state)
{
	struct check_report r;
	struct check_layer *l;

	(void)state;
	check_report_init(&r);
	l = &r.layer[CHECK_DRIVER];
	judge(l, "470.82.01", 11040);
	assert_int_equal(l->status, CHECK_FAIL);
	assert_non_null(strstr(l->message, "470.82.01 is too old"));
	assert_non_null(strstr(l->message, "550.54.15"));
	assert_non_null(strstr(l->message, "525"));
	assert_non_null(
	    strstr(l->fix, "install an NVIDIA driver >= 550.54.15"));
	assert_non_null(strstr(l->fix, "cuda-compat-12-4"));
	check_report_release(&r);
}

static void test_check_driver_minor_compat_passes_with_warning(void **state)
{
	struct check_report r;
	struct check_layer *l;

	(void)state;
	check_report_init(&r);
	l = &r.layer[CHECK_DRIVER];
	judge(l, "535.104.05", 12020);
	assert_int_equal(l->status, CHECK_PASS);
	assert_non_null(strstr(l->message, "minor version compatibility"));
	assert_int_equal(l->warnings.n, 1);
	assert_non_null(strstr(l->warnings.v[0], "550.54.15"));
	assert_non_null(strstr(l->fix, ">= 550.54.15"));
	check_report_release(&r);
}

static void test_check_driver_below_compat_min_fails(void **state)
{
	struct check_report r;
	struct check_layer *l;

	(void)state;
	check_report_init(&r);
	l = &r.layer[CHECK_DRIVER];
	/* a 12.x libcuda over a module older than 12.x's 525 */
	judge(l, "520.61.05", 12000);
	assert_int_equal(l->status, CHECK_FAIL);
	assert_non_null(strstr(l->fix, "cuda-compat-12-4"));
	check_report_release(&r);
}

static void test_check_driver_forward_compat_passes(void **state)
{
	struct check_report r;
	struct check_layer *l;

	(void)state;
	check_report_init(&r);
	l = &r.layer[CHECK_DRIVER];
	/* libcuda.so.1 from cuda-compat-12-4 over a 470 kernel module */
	judge(l, "470.82.01", 12040);
	assert_int_equal(l->status, CHECK_PASS);
	assert_non_null(strstr(l->message, "forward compatibility"));
	check_report_release(&r);
}

static void test_check_driver_old_libcuda_over_new_module_fails(void **state)
{
	struct check_report r;
	struct check_layer *l;

	(void)state;
	check_report_init(&r);
	l = &r.layer[CHECK_DRIVER];
	check_setstr(&l->file, "/opt/old/libcuda.so.1");
	judge(l, "550.54.15", 11040);
	assert_int_equal(l->status, CHECK_FAIL);
	assert_non_null(strstr(l->message, "not the driver's own"));
	assert_non_null(strstr(l->fix, "/opt/old/libcuda.so.1"));
	check_report_release(&r);
}

static void test_check_driver_without_module_uses_libcuda(void **state)
{
	struct check_report r;
	struct check_layer *l;

	(void)state;
	check_report_init(&r);
	l = &r.layer[CHECK_DRIVER];
	judge(l, NULL, 12040);
	assert_int_equal(l->status, CHECK_PASS);
	judge(l, NULL, 11080);
	assert_int_equal(l->status, CHECK_FAIL);
	assert_non_null(strstr(l->message, "supports CUDA 11.8"));
	check_report_release(&r);
}

static void test_check_driver_without_table_row(void **state)
{
	struct check_report r;
	struct check_layer *l;

	(void)state;
	check_report_init(&r);
	l = &r.layer[CHECK_DRIVER];
	check_judge_driver(l, "12.4.1", "550.54.15", 12040, NULL, NULL);
	assert_int_equal(l->status, CHECK_PASS);
	check_judge_driver(l, "12.4.1", NULL, 11040, NULL, NULL);
	assert_int_equal(l->status, CHECK_FAIL);
	assert_non_null(strstr(l->fix, "driver for CUDA 12.4"));
	check_report_release(&r);
}

/* ---- versions ------------------------------------------------------------ */

static void test_check_versions_read_as_people_write_them(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	check_cuda_version(12040, &b);
	assert_string_equal(b.data, "12.4");
	buf_reset(&b);
	check_cuda_version(11080, &b);
	assert_string_equal(b.data, "11.8");
	buf_reset(&b);
	check_cudnn_version(8907, &b);
	assert_string_equal(b.data, "8.9.7");
	buf_reset(&b);
	check_cudnn_version(90100, &b);
	assert_string_equal(b.data, "9.1.0");
	buf_reset(&b);
	check_cudnn_version(91900, &b);
	assert_string_equal(b.data, "9.19.0");
	buf_reset(&b);
	check_cupti_version(22, &b);
	assert_string_equal(b.data, "22");
	buf_reset(&b);
	check_cupti_version(130001, &b);
	assert_string_equal(b.data, "13.0.1");
	buf_release(&b);
}

static void test_check_module_version_from_sys(void **state)
{
	struct fixture *fx = *state;
	struct buf v = BUF_INIT, src = BUF_INIT;

	fx_write(fx, "sys/module/nvidia/version", "550.54.15\n");
	fx_write(fx, "proc/driver/nvidia/version",
		 "NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.1  x\n");
	assert_true(check_module_version(fx->root, &v, &src));
	assert_string_equal(v.data, "550.54.15");
	assert_string_equal(src.data, "/sys/module/nvidia/version");
	buf_release(&v);
	buf_release(&src);
}

static void test_check_module_version_from_proc(void **state)
{
	struct fixture *fx = *state;
	struct buf v = BUF_INIT, src = BUF_INIT;

	fx_write(fx, "proc/driver/nvidia/version",
		 "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
		 "535.104.05  Release Build  (dvs-builder@U16)  Thu Aug 24\n"
		 "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n");
	assert_true(check_module_version(fx->root, &v, &src));
	assert_string_equal(v.data, "535.104.05");
	assert_string_equal(src.data, "/proc/driver/nvidia/version");
	buf_release(&v);
	buf_release(&src);
}

static void test_check_module_version_none(void **state)
{
	struct fixture *fx = *state;
	struct buf v = BUF_INIT, src = BUF_INIT;

	assert_false(check_module_version(fx->root, &v, &src));
	fx_write(fx, "sys/module/nvidia/version", "garbage\n");
	assert_false(check_module_version(fx->root, &v, &src));
	buf_release(&v);
	buf_release(&src);
}

/* A FIFO in the sys file's place is passed over at once, for proc's. */
static void test_check_module_version_fifo_passed_over(void **state)
{
	struct fixture *fx = *state;
	struct buf v = BUF_INIT, src = BUF_INIT;
	char *fifo;

	fx_mkdir(fx, "sys/module/nvidia");
	fifo = fx_path(fx, "sys/module/nvidia/version");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	fx_write(
	    fx, "proc/driver/nvidia/version",
	    "NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.1.2  x\n");
	alarm(5); /* a hang fails the test instead of stalling the run */
	assert_true(check_module_version(fx->root, &v, &src));
	alarm(0);
	assert_string_equal(v.data, "470.1.2");
	assert_string_equal(src.data, "/proc/driver/nvidia/version");
	buf_release(&v);
	buf_release(&src);
	free(fifo);
}

/* ---- files and sonames --------------------------------------------------- */

static void test_check_find_soname_takes_the_shortest(void **state)
{
	struct fixture *fx = *state;
	struct strv dirs = STRV_INIT;
	char *lib = fx_path(fx, "lib64"), *s;

	fx_touch(fx, "lib64/libcudart.so.11.8.89");
	fx_symlink(fx, "libcudart.so.11.8.89", "lib64/libcudart.so.11.0");
	fx_symlink(fx, "libcudart.so.11.0", "lib64/libcudart.so");
	fx_touch(fx, "lib64/libcupti.so.2022.3.0");
	fx_symlink(fx, "libcupti.so.2022.3.0", "lib64/libcupti.so.11.8");
	fx_symlink(fx, "missing", "lib64/libcudnn.so.8");
	fx_touch(fx, "lib64/libcudnn.so.8.x");
	strv_push(&dirs, lib);
	s = check_find_soname(&dirs, "libcudart.so");
	assert_string_equal(s, "libcudart.so.11.0");
	free(s);
	s = check_find_soname(&dirs, "libcupti.so");
	assert_string_equal(s, "libcupti.so.11.8");
	free(s);
	/* a dangling link and a non-numeric suffix do not count */
	assert_null(check_find_soname(&dirs, "libcudnn.so"));
	free(lib);
	strv_release(&dirs);
}

static void test_check_file_is_own_through_links(void **state)
{
	struct fixture *fx = *state;
	struct strv own = STRV_INIT;
	char *lib = fx_path(fx, "cuda/lib"), *lib64 = fx_path(fx, "cuda/lib64");
	char *file = fx_path(fx, "cuda/lib/libcupti.so.12");
	char *other = fx_path(fx, "other/libcupti.so.12"), *provided;

	fx_touch(fx, "cuda/lib/libcupti.so.12.4.127");
	fx_symlink(fx, "libcupti.so.12.4.127", "cuda/lib/libcupti.so.12");
	fx_symlink(fx, "lib", "cuda/lib64");
	fx_touch(fx, "other/libcupti.so.12");
	strv_push(&own, lib64);
	/* the loader's name goes through lib, the selection lists lib64 */
	assert_true(check_file_is_own(file, "libcupti.so.12", &own, NULL));
	assert_false(
	    check_file_is_own(other, "libcupti.so.12", &own, &provided));
	assert_non_null(provided);
	assert_non_null(strstr(provided, "cuda/lib64/libcupti.so.12"));
	free(provided);
	assert_false(
	    check_file_is_own(other, "libcupti.so.11.2", &own, &provided));
	assert_null(provided);
	free(lib);
	free(lib64);
	free(file);
	free(other);
	strv_release(&own);
}

/* ---- JSON writing -------------------------------------------------------- */

static void test_check_json_has_the_documented_fields(void **state)
{
	struct check_report r;
	struct buf b = BUF_INIT;

	(void)state;
	all_pass(&r);
	check_set(&r.layer[CHECK_CUPTI], CHECK_FAIL, "no \"trace\"\n");
	check_fix(&r.layer[CHECK_CUPTI], "cuenv install 12.4 --cupti 12.4");
	check_setstr(&r.layer[CHECK_CUPTI].file, "/x/libcupti.so.12");
	check_detail(&r.layer[CHECK_CUPTI], "api", "22");
	check_report_to_json(&r, &b);
	assert_non_null(strstr(b.data, "\"schema\":1"));
	assert_non_null(strstr(b.data, "\"exit\":14"));
	assert_non_null(strstr(b.data, "\"failed\":\"cupti\""));
	assert_non_null(strstr(b.data, "\"message\":\"no \\\"trace\\\"\\n\""));
	assert_non_null(strstr(b.data, "\"details\":{\"api\":\"22\"}"));
	assert_non_null(strstr(b.data, "\"file\":\"/x/libcupti.so.12\""));
	assert_null(strchr(b.data, '\n'));
	buf_release(&b);
	check_report_release(&r);
}

static void test_check_json_replaces_bad_utf8(void **state)
{
	struct check_report r;
	struct buf b = BUF_INIT;

	(void)state;
	check_report_init(&r);
	check_setstr(&r.layer[0].file, "/opt/\xff\xc3(/libcuda.so.1");
	check_setstr(&r.layer[0].message, "caf\xc3\xa9 \x01");
	check_report_to_json(&r, &b);
	assert_non_null(strstr(b.data, "/opt/\\ufffd\\ufffd(/libcuda.so.1"));
	assert_non_null(strstr(b.data, "caf\xc3\xa9 \\u0001"));
	buf_release(&b);
	check_report_release(&r);
}

/* ---- cuenv-probe's command line ----------------------------------------- */

/* check_probe_args on the NULL-terminated args after "cuenv-probe". */
static int probe_args(struct check_probe *p, const char *const *args)
{
	char *argv[32] = {"cuenv-probe"};
	int argc = 1;

	memset(p, 0, sizeof(*p));
	while (*args)
		argv[argc++] = (char *)*args++;
	return check_probe_args(p, argc, argv);
}

static void test_check_probe_args_read_what_the_plan_writes(void **state)
{
	struct store_version *cu = fx_install_new(KIT_CUDA, "12.4.1", 12, "/c");
	struct store_version *dn = fx_install_new(KIT_CUDNN, "9.1.0", 12, "/d");
	struct active act = {.cuda = cu, .cudnn = dn};
	struct driver_req req = {.release = "550.54.15", .compat = "525"};
	struct check_plan pl = CHECK_PLAN_INIT;
	struct check_probe p = {0};

	(void)state;
	check_plan_make(&act, "/bin/cuenv-probe", 3, &req, &pl);
	assert_int_equal(check_probe_args(&p, (int)pl.argv.n, pl.argv.v), 0);
	assert_string_equal(p.cuda, "12.4.1");
	assert_string_equal(p.cudnn, "9.1.0");
	assert_null(p.cupti);
	assert_int_equal(p.device, 3);
	assert_string_equal(p.driver_need, "550.54.15");
	assert_string_equal(p.driver_compat, "525");
	assert_string_equal(p.runtime_lib, pl.runtime);
	assert_string_equal(p.cupti_lib, pl.cupti);
	assert_string_equal(p.cudnn_lib, pl.cudnn);
	assert_int_equal(p.own.n, pl.own.n);
	for (size_t i = 0; i < p.own.n; i++)
		assert_string_equal(p.own.v[i], pl.own.v[i]);
	strv_release(&p.own);
	check_plan_release(&pl);
	store_version_free(cu);
	store_version_free(dn);
}

static void test_check_probe_args_forms_as_getopt_long(void **state)
{
	static const char *const forms[] = {
	    "--cuda=11.8", "--runt", "libcudart.so.11.0", "--cupti-lib", "--x",
	    "--own",	   "/a",     "--own=/b",	  "--dev=0",	 "--",
	    NULL};
	struct check_probe p;

	(void)state;
	assert_int_equal(probe_args(&p, forms), 0);
	assert_string_equal(p.cuda, "11.8");
	assert_string_equal(p.runtime_lib, "libcudart.so.11.0");
	assert_string_equal(p.cupti_lib, "--x"); /* the value, whatever */
	assert_int_equal(p.own.n, 2);
	assert_string_equal(p.own.v[1], "/b");
	assert_int_equal(p.device, 0);
	strv_release(&p.own);
}

static void test_check_probe_args_refusals(void **state)
{
#define BASE "--cuda", "12.4", "--runtime", "r", "--cupti-lib", "c"
	static const char *const ok[] = {BASE, NULL};
	static const char *const refused[][10] = {
	    {"--runtime", "r", "--cupti-lib", "c", NULL}, /* no --cuda */
	    {"--cuda", "12.4", "--cupti-lib", "c", NULL}, /* no --runtime */
	    {"--cuda", "12.4", "--runtime", "r", NULL},	  /* no --cupti-lib */
	    {BASE, "--device", "-1", NULL},
	    {BASE, "--device", "2x", NULL},
	    {BASE, "--device=", NULL},
	    {BASE, "--cud", "x", NULL}, /* cuda, cudnn, cudnn-lib */
	    {BASE, "--cudnn-libs", "x", NULL},
	    {BASE, "-c", "x", NULL},
	    {BASE, "extra", NULL},
	    {BASE, "--", "extra", NULL},
	    {BASE, "--own", NULL}, /* no value */
	};
	struct check_probe p;

	(void)state;
	assert_int_equal(probe_args(&p, ok), 0);
	strv_release(&p.own);
	for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++) {
		if (probe_args(&p, refused[i]) != -1)
			fail_msg("refused[%zu] was taken", i);
		strv_release(&p.own);
	}
	/* an exact name wins over the longer ones it begins */
	{
		static const char *const exact[] = {BASE, "--cudnn", "9", NULL};

		assert_int_equal(probe_args(&p, exact), 0);
		assert_string_equal(p.cudnn, "9");
		assert_null(p.cudnn_lib);
	}
	assert_non_null(strstr(check_probe_usage, "usage: cuenv-probe --cuda"));
#undef BASE
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_check_layers_are_in_order_with_their_codes),
	    cmocka_unit_test(test_check_status_names_round_trip),
	    cmocka_unit_test(test_check_detail_replaces_a_key),
	    cmocka_unit_test(test_check_new_report_asks_for_every_layer),
	    cmocka_unit_test(test_check_all_passed_exits_0),
	    cmocka_unit_test(test_check_skip_not_asked_for_still_exits_0),
	    cmocka_unit_test(test_check_asked_for_skip_is_not_success),
	    cmocka_unit_test(test_check_first_failure_gives_the_code),
	    cmocka_unit_test(test_check_failed_driver_never_leaves_a_pass),
	    cmocka_unit_test(test_check_failed_kernel_skips_only_cupti),
	    cmocka_unit_test(
		test_check_failure_after_a_failure_stays_a_failure),
	    cmocka_unit_test(test_check_finish_is_idempotent),
	    cmocka_unit_test(test_check_driver_new_enough_passes),
	    cmocka_unit_test(test_check_driver_too_old_fails_naming_fixes),
	    cmocka_unit_test(
		test_check_driver_minor_compat_passes_with_warning),
	    cmocka_unit_test(test_check_driver_below_compat_min_fails),
	    cmocka_unit_test(test_check_driver_forward_compat_passes),
	    cmocka_unit_test(
		test_check_driver_old_libcuda_over_new_module_fails),
	    cmocka_unit_test(test_check_driver_without_module_uses_libcuda),
	    cmocka_unit_test(test_check_driver_without_table_row),
	    cmocka_unit_test(test_check_versions_read_as_people_write_them),
	    cmocka_unit_test_setup_teardown(test_check_module_version_from_sys,
					    fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(test_check_module_version_from_proc,
					    fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(test_check_module_version_none,
					    fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_check_module_version_fifo_passed_over, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_check_find_soname_takes_the_shortest, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_check_file_is_own_through_links, fx_setup, fx_teardown),
	    cmocka_unit_test(test_check_json_has_the_documented_fields),
	    cmocka_unit_test(test_check_json_replaces_bad_utf8),
	    cmocka_unit_test(test_check_probe_args_read_what_the_plan_writes),
	    cmocka_unit_test(test_check_probe_args_forms_as_getopt_long),
	    cmocka_unit_test(test_check_probe_args_refusals),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
