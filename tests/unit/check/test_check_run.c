/*
 * cuenv check's children: cuenv-probe (here a shell script that answers
 * as the probe does, or dies as a broken one does) and --compile's nvcc
 * and program, run in the activated environment.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check_run.h"
#include "base/xalloc.h"

#define REAL_COMPAT CUENV_SRCDIR "/manifests/compat"

/* An activation of CUDA 12.4.1 at root/cu, its environment a minimal
 * PATH, as activation_compute leaves it. */
static void activation(const struct fixture *fx, struct activation *a)
{
	static const char *const vars[] = {"PATH=/usr/bin:/bin", NULL};
	char *prefix = fx_path(fx, "cu");
	struct store_version *cu =
	    fx_install_new(KIT_CUDA, "12.4.1", 12, prefix);

	activation_init(a);
	fx_mkdir(fx, "cu");
	fx_list_push(&a->cudas, cu);
	a->act.cuda = cu;
	a->ok = 1;
	fx_env(&a->after, vars);
	free(prefix);
}

/* root/rel: an executable shell script with body. */
static void script(const struct fixture *fx, const char *rel, const char *body)
{
	char *path = fx_path(fx, rel);
	struct buf text = BUF_INIT;

	buf_printf(&text, "#!/bin/sh\n%s", body);
	fx_write(fx, rel, text.data);
	assert_int_equal(chmod(path, 0755), 0);
	buf_release(&text);
	free(path);
}

/* ---- the plan ------------------------------------------------------------ */

static void test_check_plan_for_reads_the_drivers_minimum(void **state)
{
	struct fixture *fx = *state;
	struct activation a;
	struct check_plan pl = CHECK_PLAN_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	activation(fx, &a);
	assert_int_equal(
	    check_plan_for(&a.act, REAL_COMPAT, "/p", 0, &pl, &err), CUENV_OK);
	assert_true(strv_find(&pl.argv, "--driver-need") > 0);
	assert_true(strv_find(&pl.argv, "--driver-compat") > 0);
	check_plan_release(&pl);
	activation_release(&a);
	err_release(&err);
}

static void test_check_plan_for_without_tables_asks_no_driver(void **state)
{
	struct fixture *fx = *state;
	struct activation a;
	struct check_plan pl = CHECK_PLAN_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *dir = fx_path(fx, "c");

	activation(fx, &a);
	/* the caller found no tables: its own reason stands */
	assert_int_equal(check_plan_for(&a.act, NULL, "/p", 0, &pl, &err),
			 CUENV_NO);
	assert_int_equal(err.msg.len, 0);
	assert_int_equal(strv_find(&pl.argv, "--driver-need"), -1);
	assert_string_equal(pl.argv.v[0], "/p");
	check_plan_release(&pl);

	/* a broken table: named, and the plan still made */
	fx_write(fx, "c/cuda-driver.tsv", "h\n12.4.1\n");
	assert_int_equal(check_plan_for(&a.act, dir, "/p", 0, &pl, &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "cuda-driver.tsv"));
	assert_int_equal(strv_find(&pl.argv, "--driver-need"), -1);
	assert_string_equal(pl.runtime, "libcudart.so.12");
	check_plan_release(&pl);
	activation_release(&a);
	err_release(&err);
	free(dir);
}

/* ---- the probe ----------------------------------------------------------- */

/* Run the script at root/probe as the probe, with timeout seconds. */
static int probe(const struct fixture *fx, struct activation *a,
		 unsigned timeout, struct check_report *r,
		 struct cuenv_err *err)
{
	char *path = fx_path(fx, "probe");
	struct check_plan pl = CHECK_PLAN_INIT;
	int rc;

	check_plan_make(&a->act, path, 0, NULL, &pl);
	rc = check_run_probe(&pl, a, path, timeout, r, err);
	check_plan_release(&pl);
	free(path);
	return rc;
}

static void test_check_run_probe_reads_its_report(void **state)
{
	struct fixture *fx = *state;
	struct activation a;
	struct check_report want, r;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf json = BUF_INIT;

	activation(fx, &a);
	check_report_init(&want);
	check_report_init(&r);
	want.cuda = xstrdup("12.4.1");
	check_set(&want.layer[CHECK_DRIVER], CHECK_PASS, "driver loaded");
	check_report_to_json(&want, &json);
	buf_addc(&json, '\n');
	fx_write(fx, "report.json", json.data);
	script(fx, "probe",
	       "echo '{\"stage\":\"driver\"}'\n"
	       "cat \"$(dirname \"$0\")/report.json\"\n");
	assert_int_equal(probe(fx, &a, 10, &r, &err), CUENV_OK);
	assert_string_equal(r.cuda, "12.4.1");
	assert_int_equal(r.layer[CHECK_DRIVER].status, CHECK_PASS);
	assert_string_equal(r.layer[CHECK_DRIVER].message, "driver loaded");
	check_report_release(&want);
	check_report_release(&r);
	activation_release(&a);
	buf_release(&json);
	err_release(&err);
}

static void test_check_run_probe_crash_blames_its_step(void **state)
{
	struct fixture *fx = *state;
	struct activation a;
	struct check_report r;
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct check_layer *l = &r.layer[CHECK_RUNTIME];

	activation(fx, &a);
	check_report_init(&r);
	script(fx, "probe",
	       "echo '{\"stage\":\"driver\"}'\n"
	       "echo '{\"stage\":\"runtime\"}'\n"
	       "echo 'cudaGetDeviceCount: segfault' >&2\n"
	       "kill -SEGV $$\n");
	assert_int_equal(probe(fx, &a, 10, &r, &err), CUENV_OK);
	assert_int_equal(l->status, CHECK_FAIL);
	assert_non_null(strstr(l->message, "was killed by signal 11"));
	assert_non_null(strstr(l->message, "cudaGetDeviceCount: segfault"));
	assert_int_equal(r.layer[CHECK_KERNEL].status, CHECK_SKIP);
	check_report_release(&r);
	activation_release(&a);
	err_release(&err);
}

static void test_check_run_probe_hang_is_stopped(void **state)
{
	struct fixture *fx = *state;
	struct activation a;
	struct check_report r;
	struct cuenv_err err = CUENV_ERR_INIT;

	activation(fx, &a);
	check_report_init(&r);
	script(fx, "probe",
	       "echo '{\"stage\":\"kernel\"}'\n"
	       "exec sleep 30\n");
	assert_int_equal(probe(fx, &a, 1, &r, &err), CUENV_OK);
	assert_int_equal(r.layer[CHECK_KERNEL].status, CHECK_FAIL);
	assert_non_null(strstr(r.layer[CHECK_KERNEL].message,
			       "did not finish within 1 seconds"));
	check_report_release(&r);
	activation_release(&a);
	err_release(&err);
}

static void test_check_run_probe_dead_before_a_step_fails(void **state)
{
	struct fixture *fx = *state;
	struct activation a;
	struct check_report r;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "probe");
	struct buf want = BUF_INIT;

	activation(fx, &a);
	check_report_init(&r);
	script(fx, "probe", "echo one >&2\necho 'bad option' >&2\nexit 3\n");
	assert_int_equal(probe(fx, &a, 10, &r, &err), CUENV_E_GPU);
	buf_printf(&want,
		   "%s exited with status 3 before reporting: one\n"
		   "bad option",
		   path);
	assert_string_equal(err.msg.data, want.data);
	err_release(&err);

	/* one that cannot be started */
	fx_write(fx, "probe", "not a program\n");
	assert_int_equal(probe(fx, &a, 10, &r, &err), CUENV_E_GPU);
	check_report_release(&r);
	activation_release(&a);
	buf_release(&want);
	err_release(&err);
	free(path);
}

/* ---- --compile ----------------------------------------------------------- */

/* r with the driver and runtime (and the probe's kernel) passed. */
static void passed(struct check_report *r)
{
	check_report_init(r);
	check_set(&r->layer[CHECK_DRIVER], CHECK_PASS, "driver ok");
	check_set(&r->layer[CHECK_RUNTIME], CHECK_PASS, "runtime ok");
	check_set(&r->layer[CHECK_KERNEL], CHECK_PASS, "vector add ok");
}

static void compile(const struct fixture *fx, struct activation *a,
		    struct check_report *r)
{
	char *tmp = fx_path(fx, "tmp");

	fx_mkdir(fx, "tmp");
	check_run_compile(a, tmp, 0, 10, r);
	/* the folder it made is gone */
	assert_int_equal(fx_count_entries(fx, "tmp"), 0);
	free(tmp);
}

static void test_check_run_compile_without_nvcc_fails(void **state)
{
	struct fixture *fx = *state;
	struct activation a;
	struct check_report r;

	activation(fx, &a);
	passed(&r);
	compile(fx, &a, &r);
	assert_int_equal(r.layer[CHECK_KERNEL].status, CHECK_FAIL);
	assert_string_equal(
	    r.layer[CHECK_KERNEL].message,
	    "--compile: the selection (cuda 12.4.1) has no nvcc");
	check_report_release(&r);
	activation_release(&a);
}

static void test_check_run_compile_nvcc_error_says_why(void **state)
{
	struct fixture *fx = *state;
	struct activation a;
	struct check_report r;
	char *nvcc = fx_path(fx, "cu/bin/nvcc");
	struct buf want = BUF_INIT;

	activation(fx, &a);
	passed(&r);
	script(fx, "cu/bin/nvcc", "echo 'nvcc fatal: no g++' >&2\nexit 1\n");
	compile(fx, &a, &r);
	assert_int_equal(r.layer[CHECK_KERNEL].status, CHECK_FAIL);
	buf_printf(&want,
		   "%s could not build a small CUDA program (it exited "
		   "with an error): nvcc fatal: no g++",
		   nvcc);
	assert_string_equal(r.layer[CHECK_KERNEL].message, want.data);
	assert_string_equal(FX_DETAIL(&r.layer[CHECK_KERNEL], "nvcc"), nvcc);
	check_report_release(&r);
	activation_release(&a);
	buf_release(&want);
	free(nvcc);
}

static void test_check_run_compile_builds_and_runs(void **state)
{
	struct fixture *fx = *state;
	struct activation a;
	struct check_report r;

	activation(fx, &a);
	passed(&r);
	/* "nvcc -o EXE SRC": EXE prints what the real program prints */
	script(fx, "cu/bin/nvcc",
	       "test -s \"$3\" || exit 9\n"
	       "printf '#!/bin/sh\\necho \"cuenv-check-compiled: 1000 "
	       "elements, runtime 12040\"\\n' > \"$2\"\n"
	       "chmod +x \"$2\"\n");
	compile(fx, &a, &r);
	assert_int_equal(r.layer[CHECK_KERNEL].status, CHECK_PASS);
	assert_string_equal(FX_DETAIL(&r.layer[CHECK_KERNEL], "compiled_run"),
			    "ok");
	check_report_release(&r);

	/* the program printed the wrong thing */
	passed(&r);
	script(fx, "cu/bin/nvcc",
	       "printf '#!/bin/sh\\necho \"wrong: y[3] = 0\"\\nexit 1\\n' "
	       "> \"$2\"\n"
	       "chmod +x \"$2\"\n");
	compile(fx, &a, &r);
	assert_int_equal(r.layer[CHECK_KERNEL].status, CHECK_FAIL);
	assert_string_equal(r.layer[CHECK_KERNEL].message,
			    "the program nvcc built did not run right "
			    "(status 1): wrong: y[3] = 0");
	check_report_release(&r);
	activation_release(&a);
}

/* ---- the whole smoke test ------------------------------------------------ */

static void heard(void *ctx, const char *msg)
{
	buf_printf(ctx, "warning: %s\n", msg);
}

/* The probe at root/probe answers: the driver passed, the runtime
 * failed; nvcc at root/cu/bin/nvcc says where it builds into root/where. */
static void failing_probe(const struct fixture *fx)
{
	struct check_report want;
	struct buf json = BUF_INIT;

	check_report_init(&want);
	want.cuda = xstrdup("12.4.1");
	check_set(&want.layer[CHECK_DRIVER], CHECK_PASS, "driver loaded");
	check_set(&want.layer[CHECK_RUNTIME], CHECK_FAIL, "no device");
	check_fix(&want.layer[CHECK_RUNTIME], "check nvidia-smi");
	check_report_to_json(&want, &json);
	buf_addc(&json, '\n');
	fx_write(fx, "report.json", json.data);
	script(fx, "probe", "cat \"$(dirname \"$0\")/report.json\"\n");
	script(fx, "cu/bin/nvcc",
	       "dirname \"$2\" > \"$(dirname \"$0\")/../../where\"\nexit 1\n");
	check_report_release(&want);
	buf_release(&json);
}

static void test_check_run_check_without_probe_says_where(void **state)
{
	struct fixture *fx = *state;
	struct activation a;
	struct check_report r;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf warned = BUF_INIT;
	struct check_request c = {.tried = "/a/cuenv-probe, /b/cuenv-probe",
				  .warn = heard,
				  .ctx = &warned};
	int first = 7;

	activation(fx, &a);
	c.a = &a;
	check_report_init(&r);
	assert_int_equal(check_run_all(&c, &r, &first, &err), CUENV_E_USAGE);
	assert_int_equal(first, -1);
	assert_string_equal(err.msg.data,
			    "cuenv check needs cuenv-probe, which is not "
			    "installed (looked for /a/cuenv-probe, "
			    "/b/cuenv-probe)");
	assert_string_equal(err.hint.data,
			    "install both: make install PREFIX=...");
	assert_int_equal(warned.len, 0);
	check_report_release(&r);
	activation_release(&a);
	buf_release(&warned);
	err_release(&err);
}

static void test_check_run_check_runs_plan_probe_compile(void **state)
{
	struct fixture *fx = *state;
	struct activation a;
	struct check_report r;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf warned = BUF_INIT;
	char *path = fx_path(fx, "probe"), *tmp = fx_path(fx, "tmp"), *where;
	struct check_request c = {.probe = path,
				  .compat_why = "no tables here",
				  .timeout = 10,
				  .compile = 1,
				  .warn = heard,
				  .ctx = &warned};
	int first;

	activation(fx, &a);
	c.a = &a;
	failing_probe(fx);
	fx_mkdir(fx, "tmp");
	envmap_set(&a.after, "TMPDIR", tmp);
	check_report_init(&r);
	assert_int_equal(check_run_all(&c, &r, &first, &err),
			 check_layer_rc(CHECK_RUNTIME));
	assert_int_equal(first, CHECK_RUNTIME);
	assert_string_equal(warned.data, "warning: the driver's minimum for "
					 "CUDA 12.4.1 is unknown: no tables "
					 "here\n");
	/* --compile built in a folder under TMPDIR */
	where = fx_read(fx, "where");
	assert_true(!strncmp(where, tmp, strlen(tmp)));
	free(where);
	check_report_release(&r);

	/* the tables found: no warning; TMPDIR not absolute: /tmp */
	buf_reset(&warned);
	c.compat = REAL_COMPAT;
	envmap_set(&a.after, "TMPDIR", "tmp");
	check_report_init(&r);
	assert_int_equal(check_run_all(&c, &r, &first, &err),
			 check_layer_rc(CHECK_RUNTIME));
	assert_int_equal(warned.len, 0);
	where = fx_read(fx, "where");
	assert_true(!strncmp(where, "/tmp/", 5));
	free(where);
	check_report_release(&r);
	activation_release(&a);
	buf_release(&warned);
	err_release(&err);
	free(path);
	free(tmp);
}

static void test_check_run_fail_for_check_and_exec(void **state)
{
	struct check_report r;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	check_report_init(&r);
	check_set(&r.layer[CHECK_RUNTIME], CHECK_FAIL, "no device");
	check_fix(&r.layer[CHECK_RUNTIME], "check nvidia-smi");
	assert_int_equal(check_run_fail(&r, CHECK_RUNTIME, 11, NULL, &err), 11);
	assert_string_equal(err.msg.data, "runtime: no device");
	assert_string_equal(err.hint.data, "check nvidia-smi");
	err_release(&err);
	err_init(&err);
	assert_int_equal(check_run_fail(&r, CHECK_RUNTIME, 11, "python", &err),
			 11);
	assert_string_equal(err.msg.data, "exec --check: the runtime layer "
					  "failed (no device); not running "
					  "'python'");
	assert_string_equal(err.hint.data, "check nvidia-smi");
	err_release(&err);
	err_init(&err);
	/* a skipped layer, without a fix */
	assert_int_equal(check_run_fail(&r, CHECK_CUDNN, 13, NULL, &err), 13);
	assert_string_equal(err.msg.data, "cudnn: skipped");
	assert_int_equal(err.hint.len, 0);
	assert_int_equal(check_run_fail(&r, CHECK_CUDNN, 13, "x", &err), 13);
	assert_string_equal(err.msg.data, "exec --check: the cudnn layer "
					  "failed (skipped); not running 'x'");
	assert_string_equal(err.hint.data, "details: cuenv check");
	check_report_release(&r);
	err_release(&err);
}

#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_check_plan_for_reads_the_drivers_minimum),
	    T(test_check_plan_for_without_tables_asks_no_driver),
	    T(test_check_run_probe_reads_its_report),
	    T(test_check_run_probe_crash_blames_its_step),
	    T(test_check_run_probe_hang_is_stopped),
	    T(test_check_run_probe_dead_before_a_step_fails),
	    T(test_check_run_compile_without_nvcc_fails),
	    T(test_check_run_compile_nvcc_error_says_why),
	    T(test_check_run_compile_builds_and_runs),
	    T(test_check_run_check_without_probe_says_where),
	    T(test_check_run_check_runs_plan_probe_compile),
	    cmocka_unit_test(test_check_run_fail_for_check_and_exec),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
