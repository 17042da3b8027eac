/*
 * cuenv check's command line for cuenv-probe: versions, device, the
 * driver the toolkit needs, each library's soname (from the selection's
 * folders, else NVIDIA's for that release) and the folders it owns.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "check/check_plan.h"

/* pl's command line, one string, words separated by spaces */
static char *joined(const struct check_plan *pl)
{
	struct buf b = BUF_INIT;

	for (size_t i = 0; i < pl->argv.n; i++)
		buf_printf(&b, "%s%s", i ? " " : "", pl->argv.v[i]);
	return buf_detach(&b);
}

static void test_check_plan_names_release_sonames_when_absent(void **state)
{
	struct store_version *cu =
	    fx_install_new(KIT_CUDA, "12.4.1", 12, "/t/cu");
	struct active act = {.cuda = cu};
	struct driver_req req = {.release = "550.54.15", .compat = "525"};
	struct check_plan pl = CHECK_PLAN_INIT;
	char *line;

	(void)state;
	check_plan_make(&act, "/x/cuenv-probe", 1, &req, &pl);
	line = joined(&pl);
	assert_string_equal(line,
			    "/x/cuenv-probe --cuda 12.4.1 --device 1 "
			    "--driver-need 550.54.15 --driver-compat 525 "
			    "--runtime libcudart.so.12 "
			    "--cupti-lib libcupti.so.12 "
			    "--own /t/cu/lib64 --own /t/cu/extras/CUPTI/lib64");
	/* no cuDNN selected, none in the toolkit: not asked for */
	assert_null(pl.cudnn);
	free(line);
	check_plan_release(&pl);
	store_version_free(cu);
}

static void test_check_plan_cuda_11_runtime_soname(void **state)
{
	struct store_version *cu =
	    fx_install_new(KIT_CUDA, "11.8.0", 11, "/t/cu");
	struct active act = {.cuda = cu};
	struct check_plan pl = CHECK_PLAN_INIT;

	(void)state;
	/* the driver's minimum unknown: the probe is told none */
	check_plan_make(&act, "p", 0, NULL, &pl);
	assert_string_equal(pl.runtime, "libcudart.so.11.0");
	assert_int_equal(strv_find(&pl.argv, "--driver-need"), -1);
	assert_int_equal(strv_find(&pl.argv, "--driver-compat"), -1);
	check_plan_release(&pl);
	store_version_free(cu);
}

static void test_check_plan_takes_sonames_from_the_selection(void **state)
{
	struct fixture *fx = *state;
	char *pc = fx_path(fx, "cu"), *pd = fx_path(fx, "dnn"),
	     *pt = fx_path(fx, "cupti");
	struct store_version *cu = fx_install_new(KIT_CUDA, "12.4.1", 12, pc),
			     *dnn =
				 fx_install_new(KIT_CUDNN, "9.1.0.70", 12, pd),
			     *cupti =
				 fx_install_new(KIT_CUPTI, "12.6.3", 12, pt);
	struct active act = {.cuda = cu, .cudnn = dnn, .cupti = cupti};
	struct check_plan pl = CHECK_PLAN_INIT;
	struct buf want = BUF_INIT;
	char *line;

	fx_touch(fx, "cu/lib64/libcudart.so.12.4.127");
	fx_touch(fx, "cu/lib64/libcudart.so.12");
	/* the toolkit's CUPTI is not the one selected */
	fx_touch(fx, "cu/extras/CUPTI/lib64/libcupti.so.12");
	fx_touch(fx, "cupti/lib/libcupti.so.2024.3.2");
	fx_touch(fx, "cupti/lib/libcupti.so.13");
	fx_touch(fx, "dnn/lib/libcudnn.so.9.1.0");
	fx_touch(fx, "dnn/lib/libcudnn.so.9");
	check_plan_make(&act, "p", 0, NULL, &pl);
	buf_printf(&want,
		   "p --cuda 12.4.1 --cudnn 9.1.0.70 --cupti 12.6.3 "
		   "--device 0 --runtime libcudart.so.12 "
		   "--cupti-lib libcupti.so.13 --cudnn-lib libcudnn.so.9 "
		   "--own %s/lib --own %s/lib64 --own %s/extras/CUPTI/lib64 "
		   "--own %s/lib",
		   pd, pc, pc, pt);
	line = joined(&pl);
	assert_string_equal(line, want.data);
	assert_int_equal(pl.own.n, 4);
	free(line);
	buf_release(&want);
	check_plan_release(&pl);
	store_version_free(cu);
	store_version_free(dnn);
	store_version_free(cupti);
	free(pc);
	free(pd);
	free(pt);
}

static void test_check_plan_asks_for_a_toolkits_own_cudnn(void **state)
{
	struct fixture *fx = *state;
	char *pc = fx_path(fx, "wheels");
	struct store_version *cu = fx_install_new(KIT_CUDA, "12.4.1", 12, pc);
	struct active act = {.cuda = cu};
	struct check_plan pl = CHECK_PLAN_INIT;

	/* nvidia-cudnn-cu12 beside the toolkit's wheels */
	fx_touch(fx, "wheels/lib64/libcudnn.so.9");
	check_plan_make(&act, "p", 0, NULL, &pl);
	assert_non_null(pl.cudnn);
	assert_string_equal(pl.cudnn, "libcudnn.so.9");
	assert_true(strv_find(&pl.argv, "--cudnn-lib") >= 0);
	assert_int_equal(strv_find(&pl.argv, "--cudnn"), -1);
	check_plan_release(&pl);
	store_version_free(cu);
	free(pc);
}

/* ---- when the probe dies ------------------------------------------------- */

static void test_check_step_layer_maps_every_step(void **state)
{
	(void)state;
	assert_int_equal(check_step_layer("driver"), CHECK_DRIVER);
	assert_int_equal(check_step_layer("runtime"), CHECK_RUNTIME);
	assert_int_equal(check_step_layer("kernel"), CHECK_KERNEL);
	assert_int_equal(check_step_layer("cudnn"), CHECK_CUDNN);
	assert_int_equal(check_step_layer("cupti"), CHECK_CUPTI);
	assert_int_equal(check_step_layer("cupti-trace"), CHECK_CUPTI);
	assert_int_equal(check_step_layer(""), -1);
	assert_int_equal(check_step_layer("Driver"), -1);
}

static void test_check_plan_blame_fails_the_step_and_skips_others(void **state)
{
	struct store_version *cu = fx_install_new(KIT_CUDA, "12.4.1", 12,
						  "/t/cu"),
			     *dnn = fx_install_new(KIT_CUDNN, "9.1.0.70", 12,
						   "/t/d");
	struct active act = {.cuda = cu, .cudnn = dnn};
	struct check_plan pl = CHECK_PLAN_INIT;
	struct check_report r;

	(void)state;
	check_plan_make(&act, "p", 0, NULL, &pl);
	check_report_init(&r);
	check_plan_blame(&pl, &act, CHECK_CUDNN, "cudnn",
			 "was killed by signal 11 (Segmentation fault)",
			 "free(): invalid pointer", &r);
	assert_string_equal(r.cuda, "12.4.1");
	assert_string_equal(r.cudnn, "9.1.0.70");
	assert_null(r.cupti);
	assert_string_equal(r.layer[CHECK_DRIVER].soname, "libcuda.so.1");
	assert_string_equal(r.layer[CHECK_RUNTIME].soname, "libcudart.so.12");
	assert_string_equal(r.layer[CHECK_CUDNN].soname, "libcudnn.so.9");
	assert_true(r.layer[CHECK_CUDNN].asked);
	assert_int_equal(r.layer[CHECK_CUDNN].status, CHECK_FAIL);
	assert_string_equal(r.layer[CHECK_CUDNN].message,
			    "cuenv-probe was killed by signal 11 "
			    "(Segmentation fault) in its cudnn step: the "
			    "library that layer loads crashed or hung: "
			    "free(): invalid pointer");
	assert_string_equal(r.layer[CHECK_CUDNN].fix,
			    "install cuDNN again: cuenv install 12.4.1 "
			    "--cudnn 9.1.0.70");
	assert_int_equal(r.layer[CHECK_DRIVER].status, CHECK_SKIP);
	assert_string_equal(r.layer[CHECK_KERNEL].message,
			    "not known: cuenv-probe was killed by signal 11 "
			    "(Segmentation fault) during the cudnn layer");
	check_report_release(&r);
	check_plan_release(&pl);
	store_version_free(cu);
	store_version_free(dnn);
}

static void test_check_plan_blame_fix_for_each_layer(void **state)
{
	struct store_version *cu =
	    fx_install_new(KIT_CUDA, "12.4.1", 12, "/t/cu");
	struct active act = {.cuda = cu};
	struct check_plan pl = CHECK_PLAN_INIT;
	struct check_report r;

	(void)state;
	check_plan_make(&act, "p", 0, NULL, &pl);
	check_report_init(&r);
	check_plan_blame(&pl, &act, CHECK_DRIVER, "driver",
			 "did not finish within 300 seconds", "", &r);
	assert_string_equal(r.layer[CHECK_DRIVER].message,
			    "cuenv-probe did not finish within 300 seconds in "
			    "its driver step: the library that layer loads "
			    "crashed or hung");
	assert_non_null(strstr(r.layer[CHECK_DRIVER].fix, "reinstall the "
							  "driver"));
	/* nothing asked of cuDNN: not a layer to pass */
	assert_false(r.layer[CHECK_CUDNN].asked);
	check_report_release(&r);
	check_report_init(&r);
	check_plan_blame(&pl, &act, CHECK_CUPTI, "cupti-trace", "x", "", &r);
	/* no CUPTI selected: the toolkit's own */
	assert_string_equal(r.layer[CHECK_CUPTI].fix,
			    "install CUPTI again: cuenv install 12.4.1 "
			    "--cupti 12.4.1");
	check_report_release(&r);
	check_report_init(&r);
	check_plan_blame(&pl, &act, CHECK_KERNEL, "kernel", "x", "", &r);
	assert_string_equal(r.layer[CHECK_KERNEL].fix,
			    "install the toolkit again (cuenv install 12.4.1), "
			    "and check nvidia-smi and the kernel log (dmesg)");
	check_report_release(&r);
	check_plan_release(&pl);
	store_version_free(cu);
}

/* ---- --compile ----------------------------------------------------------- */

static void test_check_compile_program_prints_what_is_checked(void **state)
{
	(void)state;
	/* the program scales 1000 floats and says so */
	assert_non_null(strstr(check_compile_src, "const int n = 1000;"));
	assert_non_null(
	    strstr(check_compile_src,
		   "cuenv-check-compiled: %d elements, runtime %d"));
	assert_true(check_compile_output_ok(
	    "cuenv-check-compiled: 1000 elements, runtime 12040\n"));
	assert_false(check_compile_output_ok("wrong: y[3] = 0\n"));
	assert_false(check_compile_output_ok(
	    "cuenv-check-compiled: 999 elements, runtime 12040\n"));
	assert_false(check_compile_output_ok(""));
}

static void test_check_compile_no_nvcc_fix_depends_on_ownership(void **state)
{
	struct store_version *cu =
	    fx_install_new(KIT_CUDA, "12.4.1", 12, "/t/cu");
	struct check_report r;
	struct check_layer *l = &r.layer[CHECK_KERNEL];

	(void)state;
	check_report_init(&r);
	check_compile_no_nvcc(l, cu);
	assert_int_equal(l->status, CHECK_FAIL);
	assert_string_equal(
	    l->message, "--compile: the selection (cuda 12.4.1) has no nvcc");
	assert_string_equal(l->fix, "register a whole toolkit instead: cuenv "
				    "remove 12.4.1, then cuenv add cuda PATH");
	cu->registered = false;
	check_compile_no_nvcc(l, cu);
	assert_string_equal(l->fix,
			    "install the whole toolkit, not "
			    "--runtime-only: cuenv uninstall --force cuda "
			    "12.4.1 && cuenv install 12.4.1");
	check_report_release(&r);
	store_version_free(cu);
}

static void test_check_compile_build_failure_says_why(void **state)
{
	struct check_report r;
	struct check_layer *l = &r.layer[CHECK_KERNEL];

	(void)state;
	check_report_init(&r);
	check_compile_not_built(l, "/t/nvcc", true, "nvcc: killed");
	assert_int_equal(l->status, CHECK_FAIL);
	assert_string_equal(l->message, "/t/nvcc could not build a small CUDA "
					"program (timed out): nvcc: killed");
	assert_non_null(strstr(l->fix, "cuenv exec -- nvcc --version"));
	check_compile_not_built(l, "/t/nvcc", false, "no g++");
	assert_string_equal(l->message, "/t/nvcc could not build a small CUDA "
					"program (it exited with an error): "
					"no g++");
	check_report_release(&r);
}

static void test_check_compile_runs_only_with_driver_and_runtime(void **state)
{
	struct check_report r;
	struct check_layer *l = &r.layer[CHECK_KERNEL];

	(void)state;
	check_report_init(&r);
	check_set(&r.layer[CHECK_DRIVER], CHECK_PASS, "driver ok");
	check_set(&r.layer[CHECK_RUNTIME], CHECK_PASS, "runtime ok");
	check_set(l, CHECK_PASS, "vector add ok");
	assert_true(check_compile_built(&r, "/t/nvcc"));
	assert_string_equal(FX_DETAIL(l, "compile"), "ok");
	assert_string_equal(l->message, "vector add ok");
	check_report_release(&r);

	check_report_init(&r);
	check_set(&r.layer[CHECK_DRIVER], CHECK_FAIL, "no driver");
	check_set(l, CHECK_SKIP, "needs the driver");
	assert_false(check_compile_built(&r, "/t/nvcc"));
	assert_int_equal(l->status, CHECK_SKIP);
	assert_string_equal(l->message, "/t/nvcc built the test program; "
					"running it needs the driver and "
					"runtime layers");
	check_report_release(&r);
}

static void test_check_compile_run_verdicts(void **state)
{
	struct check_report r;
	struct check_layer *l = &r.layer[CHECK_KERNEL];

	(void)state;
	check_report_init(&r);
	check_set(l, CHECK_PASS, "vector add ok");
	check_compile_ran(l, "/t/nvcc");
	assert_int_equal(l->status, CHECK_PASS);
	assert_string_equal(l->message, "vector add ok; and a program built "
					"by /t/nvcc ran right");
	assert_string_equal(FX_DETAIL(l, "compiled_run"), "ok");
	check_compile_run_failed(l, 1, "wrong: y[3] = 0");
	assert_int_equal(l->status, CHECK_FAIL);
	assert_string_equal(l->message, "the program nvcc built did not run "
					"right (status 1): wrong: y[3] = 0");
	/* a failed layer stays failed */
	check_compile_ran(l, "/t/nvcc");
	assert_int_equal(l->status, CHECK_FAIL);
	assert_string_equal(l->message, "the program nvcc built did not run "
					"right (status 1): wrong: y[3] = 0");
	check_report_release(&r);
}

#define FS_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_check_plan_names_release_sonames_when_absent),
	    cmocka_unit_test(test_check_plan_cuda_11_runtime_soname),
	    FS_TEST(test_check_plan_takes_sonames_from_the_selection),
	    FS_TEST(test_check_plan_asks_for_a_toolkits_own_cudnn),
	    cmocka_unit_test(test_check_step_layer_maps_every_step),
	    cmocka_unit_test(
		test_check_plan_blame_fails_the_step_and_skips_others),
	    cmocka_unit_test(test_check_plan_blame_fix_for_each_layer),
	    cmocka_unit_test(test_check_compile_program_prints_what_is_checked),
	    cmocka_unit_test(
		test_check_compile_no_nvcc_fix_depends_on_ownership),
	    cmocka_unit_test(test_check_compile_build_failure_says_why),
	    cmocka_unit_test(
		test_check_compile_runs_only_with_driver_and_runtime),
	    cmocka_unit_test(test_check_compile_run_verdicts),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
