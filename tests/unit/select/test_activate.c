#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plat/plat_path.h"
#include "select/activate.h"

/*
 * The store at root/store holds CUDA 12.4.1 (files at root/cuda-12.4),
 * CUDA 11.8.0 (root/cuda-11.8) and cuDNN 9.1.0.70 for CUDA 12
 * (root/cudnn-9.1), all registered with store_register. Projects live
 * under root/proj; root/elsewhere has no .cuenv.
 */
struct world {
	struct fixture *fx;
	char *root;   /* CUENV_ROOT */
	char *cuda;   /* prefix of 12.4.1 */
	char *cuda11; /* prefix of 11.8.0 */
	char *cudnn;  /* prefix of 9.1.0.70 */
	struct envmap start;
	struct activation a;
	struct cuenv_err err;
};

static int world_setup(void **state)
{
	static const char *const vars[] = {
	    "PATH=/usr/bin:/bin", "HOME=/home/u",
	    "CPATH=", "CUDA_HOME=/usr/local/cuda", NULL};
	struct cuenv_err err = CUENV_ERR_INIT;
	void *fx_state = NULL;
	struct fixture *fx;
	struct world *w;
	struct store st;

	if (fx_setup(&fx_state))
		return -1;
	fx = fx_state;
	w = calloc(1, sizeof(*w));
	w->fx = fx;
	*state = w;
	w->root = fx_path(fx, "store");
	w->cuda = fx_path(fx, "cuda-12.4");
	w->cuda11 = fx_path(fx, "cuda-11.8");
	w->cudnn = fx_path(fx, "cudnn-9.1");
	fake_cuda_classic(fx, "cuda-12.4", 12);
	fake_cuda_classic(fx, "cuda-11.8", 11);
	fx_touch(fx, "cuda-11.8/extras/CUPTI/lib64/libcupti.so.11.8");
	fake_cudnn_tarball(fx, "cudnn-9.1", "9.1.0");
	fx_write(fx, "cudnn-9.1/include/cudnn.h", "/* cudnn */\n");
	fx_mkdir(fx, "proj/sub");
	fx_mkdir(fx, "elsewhere");
	if (store_open(&st, w->root, true, &err))
		return -1;
	fx_register(&st, fx_install_new(KIT_CUDA, "12.4.1", 12, w->cuda));
	fx_register(&st, fx_install_new(KIT_CUDA, "11.8.0", 11, w->cuda11));
	fx_register(&st, fx_install_new(KIT_CUDNN, "9.1.0.70", 12, w->cudnn));
	store_release(&st);
	fx_env(&w->start, vars);
	activation_init(&w->a);
	err_init(&w->err);
	return 0;
}

static int world_teardown(void **state)
{
	struct world *w = *state;
	void *fx_state = w->fx;

	activation_release(&w->a);
	err_release(&w->err);
	envmap_release(&w->start);
	free(w->root);
	free(w->cuda);
	free(w->cuda11);
	free(w->cudnn);
	free(w);
	return fx_teardown(&fx_state);
}

/* Compute the activation for root/<cwd> from start into w->a. */
static int compute(struct world *w, const char *cwd, const struct envmap *start,
		   int isolate)
{
	char *dir = fx_path(w->fx, cwd);
	int rc;

	activation_release(&w->a);
	err_release(&w->err);
	rc = activation_compute(w->root, dir, start, isolate, &w->a, &w->err);
	free(dir);
	return rc;
}

static void compute_ok(struct world *w, const char *cwd,
		       const struct envmap *start)
{
	int rc = compute(w, cwd, start, 0);

	if (rc)
		fail_msg("activation_compute: %s", w->err.msg.data);
	assert_true(w->a.ok);
}

static void assert_var(const struct envmap *env, const char *name,
		       const char *want)
{
	const char *v = envmap_get(env, name);

	if (!v)
		fail_msg("%s is unset, want '%s'", name, want);
	if (strcmp(v, want))
		fail_msg("%s is '%s', want '%s'", name, v, want);
}

/* ---- computing ----------------------------------------------------------- */

static void test_activate_orders_paths_cuda_first(void **state)
{
	struct world *w = *state;
	struct buf want = BUF_INIT;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	compute_ok(w, "proj/sub", &w->start);
	buf_printf(&want, "%s/bin:/usr/bin:/bin", w->cuda);
	assert_var(&w->a.after, "PATH", want.data);
	buf_reset(&want);
	buf_printf(&want, "%s/lib64:%s/extras/CUPTI/lib64", w->cuda, w->cuda);
	assert_var(&w->a.after, "LD_LIBRARY_PATH", want.data);
	assert_var(&w->a.after, "CUDA_HOME", w->cuda);
	assert_var(&w->a.after, "CUENV_ACTIVE", "12.4.1");
	assert_null(envmap_get(&w->a.after, "CUDNN_PATH"));
	buf_release(&want);
}

static void test_activate_puts_cudnn_before_cuda_libraries(void **state)
{
	struct world *w = *state;
	struct buf want = BUF_INIT;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12\ncudnn = 9\n");
	compute_ok(w, "proj/sub", &w->start);
	buf_printf(&want, "%s/lib:%s/lib64:%s/extras/CUPTI/lib64", w->cudnn,
		   w->cuda, w->cuda);
	assert_var(&w->a.after, "LD_LIBRARY_PATH", want.data);
	buf_reset(&want);
	buf_printf(&want, "%s/include:%s/include", w->cudnn, w->cuda);
	assert_var(&w->a.after, "CPATH", want.data);
	assert_var(&w->a.after, "CUDNN_PATH", w->cudnn);
	assert_var(&w->a.after, "CUDA_HOME", w->cuda);
	assert_var(&w->a.after, "CUENV_ACTIVE", "12.4.1+cudnn9.1.0.70");
	buf_release(&want);
}

static void test_activate_adds_cupti_of_another_release(void **state)
{
	struct world *w = *state;
	struct buf want = BUF_INIT;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncupti = 11.8\n");
	compute_ok(w, "proj", &w->start);
	buf_printf(&want,
		   "%s/lib64:%s/extras/CUPTI/lib64:%s/extras/CUPTI/"
		   "lib64",
		   w->cuda, w->cuda, w->cuda11);
	assert_var(&w->a.after, "LD_LIBRARY_PATH", want.data);
	assert_var(&w->a.after, "CUENV_ACTIVE", "12.4.1+cupti11.8.0");
	buf_release(&want);
}

static void test_activate_base_is_start_without_earlier_activation(void **state)
{
	struct world *w = *state;
	struct envmap activated = ENVMAP_INIT;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	compute_ok(w, "proj", &w->start);
	envmap_copy(&activated, &w->a.after);
	compute_ok(w, "proj", &activated);
	fx_assert_env_equal(&w->a.base, &w->start);
	envmap_release(&activated);
}

static void test_activate_leaving_project_gives_back_original_env(void **state)
{
	struct world *w = *state;
	struct envmap activated = ENVMAP_INIT;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 9.1\n");
	compute_ok(w, "proj/sub", &w->start);
	envmap_copy(&activated, &w->a.after);
	assert_int_equal(compute(w, "elsewhere", &activated, 0), CUENV_OK);
	assert_false(w->a.ok);
	assert_int_equal(w->a.sel.origin, SEL_NONE);
	fx_assert_env_equal(&w->a.after, &w->start);
	envmap_release(&activated);
}

static void test_activate_switching_projects_keeps_no_old_entries(void **state)
{
	struct world *w = *state;
	struct envmap activated = ENVMAP_INIT, want = ENVMAP_INIT;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 9.1\n");
	fx_write(w->fx, "elsewhere/.cuenv", "cuda = 11.8\n");
	compute_ok(w, "elsewhere", &w->start);
	envmap_copy(&want, &w->a.after);
	compute_ok(w, "proj", &w->start);
	envmap_copy(&activated, &w->a.after);
	compute_ok(w, "elsewhere", &activated);
	fx_assert_env_equal(&w->a.after, &want);
	envmap_release(&activated);
	envmap_release(&want);
}

static void test_activate_takes_cuenv_version_from_start(void **state)
{
	struct world *w = *state;
	struct envmap start = ENVMAP_INIT;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	envmap_copy(&start, &w->start);
	envmap_set(&start, "CUENV_VERSION", "11.8");
	compute_ok(w, "proj", &start);
	assert_int_equal(w->a.sel.origin, SEL_SHELL);
	assert_var(&w->a.after, "CUDA_HOME", w->cuda11);
	envmap_release(&start);
}

static void test_activate_without_selection_changes_nothing(void **state)
{
	struct world *w = *state;

	assert_int_equal(compute(w, "elsewhere", &w->start, 0), CUENV_OK);
	assert_false(w->a.ok);
	fx_assert_env_equal(&w->a.after, &w->start);
	/* the hook still learns what to watch */
	assert_true(w->a.sel.absent.n > 0);
}

static void
test_activate_missing_version_keeps_base_and_watch_lists(void **state)
{
	struct world *w = *state;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.6\n");
	assert_int_equal(compute(w, "proj/sub", &w->start, 0),
			 CUENV_E_NOT_INSTALLED);
	assert_false(w->a.ok);
	assert_non_null(strstr(w->err.msg.data, "installed: 11.8.0, 12.4.1"));
	fx_assert_env_equal(&w->a.after, &w->start);
	assert_int_equal(w->a.sel.watch.n, 1);
	assert_int_equal(w->a.sel.absent.n, 1);
}

static void test_activate_bad_cuenv_keeps_base_and_watch_lists(void **state)
{
	struct world *w = *state;

	fx_write(w->fx, "proj/.cuenv", "cuda = $(reboot)\n");
	assert_int_equal(compute(w, "proj", &w->start, 0), CUENV_E_MANIFEST);
	assert_false(w->a.ok);
	fx_assert_env_equal(&w->a.after, &w->start);
	assert_int_equal(w->a.sel.watch.n, 1);
}

static void test_activate_warns_about_shadowing_dir(void **state)
{
	struct world *w = *state;
	struct envmap start = ENVMAP_INIT;
	char *foreign = fx_path(w->fx, "cuda-11.8/lib64");

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	envmap_copy(&start, &w->start);
	envmap_set(&start, "LD_LIBRARY_PATH", foreign);
	compute_ok(w, "proj", &start);
	assert_int_equal(w->a.warnings.n, 1);
	assert_non_null(strstr(w->a.warnings.v[0], foreign));
	assert_non_null(strstr(w->a.warnings.v[0], "isolate"));
	assert_non_null(
	    strstr(envmap_get(&w->a.after, "LD_LIBRARY_PATH"), foreign));
	envmap_release(&start);
	free(foreign);
}

static void test_activate_isolate_argument_strips_shadowing_dir(void **state)
{
	struct world *w = *state;
	struct envmap start = ENVMAP_INIT;
	char *foreign = fx_path(w->fx, "cuda-11.8/lib64");

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	envmap_copy(&start, &w->start);
	envmap_set(&start, "LD_LIBRARY_PATH", foreign);
	assert_int_equal(compute(w, "proj", &start, 1), CUENV_OK);
	assert_int_equal(w->a.warnings.n, 0);
	assert_null(
	    strstr(envmap_get(&w->a.after, "LD_LIBRARY_PATH"), foreign));
	envmap_release(&start);
	free(foreign);
}

static void test_activate_reports_skipped_receipts(void **state)
{
	struct world *w = *state;

	fx_write(w->fx, "store/versions/cuda/12.2.0/" RECEIPT_NAME, "{ bad");
	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	compute_ok(w, "proj", &w->start);
	assert_int_equal(w->a.warnings.n, 1);
	assert_non_null(strstr(w->a.warnings.v[0], "12.2.0"));
}

/* ---- trust of roots (core/store/trust.h) -------------------------------------- */

static void set_mode(struct world *w, const char *rel, mode_t mode)
{
	char *p = fx_path(w->fx, rel);

	assert_int_equal(chmod(p, mode), 0);
	free(p);
}

/* Compute in proj from start; expect rc, no activation, and msg. */
static void assert_refused(struct world *w, const struct envmap *start, int rc,
			   const char *msg)
{
	assert_int_equal(compute(w, "proj", start, 0), rc);
	assert_false(w->a.ok);
	fx_assert_env_equal(&w->a.after, start);
	if (!strstr(w->err.msg.data, msg))
		fail_msg("message '%s' lacks '%s'", w->err.msg.data, msg);
}

static void test_activate_refuses_root_writable_by_others(void **state)
{
	struct world *w = *state;
	struct buf hint = BUF_INIT;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	set_mode(w, "store", 0777);
	assert_refused(w, &w->start, CUENV_E_STORE,
		       "is writable by others (mode 0777)");
	assert_true(w->a.untrusted);
	buf_printf(&hint, "fix it with: chmod go-w '%s'", w->root);
	assert_string_equal(w->err.hint.data, hint.data);
	buf_release(&hint);
}

static void
test_activate_refuses_versions_folder_writable_by_group(void **state)
{
	struct world *w = *state;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	set_mode(w, "store/versions/cuda", 0775);
	assert_refused(w, &w->start, CUENV_E_STORE, "versions/cuda'");
}

static void
test_activate_refuses_selected_receipt_others_can_write(void **state)
{
	struct world *w = *state;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	set_mode(w, "store/versions/cuda/12.4.1/" RECEIPT_NAME, 0666);
	assert_refused(w, &w->start, CUENV_E_STORE,
		       "12.4.1/" RECEIPT_NAME "' is writable by others");
	assert_true(w->a.untrusted);
	/* only what is selected counts: 11.8 still activates */
	fx_write(w->fx, "proj/.cuenv", "cuda = 11.8\n");
	compute_ok(w, "proj", &w->start);
}

static void test_activate_refuses_selected_version_folder(void **state)
{
	struct world *w = *state;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 9\n");
	set_mode(w, "store/versions/cudnn/9.1.0.70-cuda12", 0777);
	assert_refused(w, &w->start, CUENV_E_STORE, "9.1.0.70-cuda12'");
}

static void test_activate_insecure_roots_skips_the_checks(void **state)
{
	struct world *w = *state;
	struct envmap start = ENVMAP_INIT;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	set_mode(w, "store", 0777);
	set_mode(w, "store/versions/cuda/12.4.1/" RECEIPT_NAME, 0666);
	envmap_copy(&start, &w->start);
	envmap_set(&start, "CUENV_INSECURE_ROOTS", "1");
	compute_ok(w, "proj", &start);
	assert_true(w->a.insecure_roots);
	/* anything but 1 keeps them */
	envmap_set(&start, "CUENV_INSECURE_ROOTS", "yes");
	assert_refused(w, &start, CUENV_E_STORE, "writable by others");
	envmap_release(&start);
}

static void test_activate_refuses_system_root_writable_by_others(void **state)
{
	struct world *w = *state;
	struct envmap start = ENVMAP_INIT;
	char *sys = fx_path(w->fx, "sys");

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	fx_mkdir(w->fx, "sys/versions/cuda");
	set_mode(w, "sys", 0757);
	envmap_copy(&start, &w->start);
	envmap_set(&start, "CUENV_SYSTEM_ROOTS", sys);
	assert_refused(w, &start, CUENV_E_STORE, "sys' is writable by others");
	set_mode(w, "sys", 0755);
	compute_ok(w, "proj", &start);
	envmap_release(&start);
	free(sys);
}

static void test_activate_refuses_relative_system_root(void **state)
{
	struct world *w = *state;
	struct envmap start = ENVMAP_INIT;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	envmap_copy(&start, &w->start);
	envmap_set(&start, "CUENV_SYSTEM_ROOTS", "::relative/root:");
	assert_refused(w, &start, CUENV_E_USAGE,
		       "CUENV_SYSTEM_ROOTS entry 'relative/root' is not an "
		       "absolute path");
	/* empty entries alone are nothing */
	envmap_set(&start, "CUENV_SYSTEM_ROOTS", "::");
	compute_ok(w, "proj", &start);
	envmap_release(&start);
}

/* ---- which --------------------------------------------------------------- */

static void assert_which(const struct world *w, const char *name,
			 const char *prefix, const char *rel)
{
	char *got = activation_which(&w->a, name);
	struct buf want = BUF_INIT;

	buf_path(&want, prefix, rel);
	if (!got)
		fail_msg("%s not found, want %s", name, want.data);
	assert_string_equal(got, want.data);
	free(got);
	buf_release(&want);
}

static void test_activation_which_finds_executable(void **state)
{
	struct world *w = *state;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 9.1\n");
	compute_ok(w, "proj", &w->start);
	assert_which(w, "nvcc", w->cuda, "bin/nvcc");
}

static void test_activation_which_finds_library_soname(void **state)
{
	struct world *w = *state;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 9.1\n");
	compute_ok(w, "proj", &w->start);
	assert_which(w, "libcudnn.so.9", w->cudnn, "lib/libcudnn.so.9");
	assert_which(w, "libcudart.so.12", w->cuda, "lib64/libcudart.so.12");
	assert_which(w, "libcupti.so.12", w->cuda,
		     "extras/CUPTI/lib64/libcupti.so.12");
}

static void test_activation_which_finds_cupti_of_another_release(void **state)
{
	struct world *w = *state;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncupti = 11.8\n");
	compute_ok(w, "proj", &w->start);
	assert_which(w, "libcupti.so.11.8", w->cuda11,
		     "extras/CUPTI/lib64/libcupti.so.11.8");
}

static void test_activation_which_finds_header_cudnn_first(void **state)
{
	struct world *w = *state;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 9.1\n");
	fx_write(w->fx, "cuda-12.4/include/cudnn.h", "/* stale copy */\n");
	compute_ok(w, "proj", &w->start);
	assert_which(w, "cuda_runtime_api.h", w->cuda,
		     "include/cuda_runtime_api.h");
	assert_which(w, "cudnn.h", w->cudnn, "include/cudnn.h");
}

static void test_activation_which_rejects_paths_and_unknown_names(void **state)
{
	struct world *w = *state;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	compute_ok(w, "proj", &w->start);
	assert_null(activation_which(&w->a, "nope"));
	assert_null(activation_which(&w->a, ""));
	assert_null(activation_which(&w->a, "../bin/nvcc"));
	assert_null(activation_which(&w->a, "/bin/sh"));
	assert_null(activation_which(&w->a, "lib64")); /* a folder */
}

static void test_activation_which_without_activation_is_null(void **state)
{
	struct world *w = *state;

	assert_int_equal(compute(w, "elsewhere", &w->start, 0), CUENV_OK);
	assert_null(activation_which(&w->a, "nvcc"));
}

static void test_activation_which_report_line_or_why(void **state)
{
	struct world *w = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT, want = BUF_INIT;

	assert_int_equal(compute(w, "elsewhere", &w->start, 0), CUENV_OK);
	assert_int_equal(activation_which_report(&w->a, "nvcc", &out, &err),
			 CUENV_NO);
	assert_string_equal(err.msg.data, "nothing selected here");
	assert_string_equal(err.hint.data, "select one: cuenv local VERSION");
	assert_int_equal(out.len, 0);
	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 9.1\n");
	compute_ok(w, "proj", &w->start);
	assert_int_equal(activation_selected(&w->a, &err), CUENV_OK);
	assert_int_equal(activation_which_report(&w->a, "nvcc", &out, &err),
			 CUENV_OK);
	buf_path(&want, w->cuda, "bin/nvcc");
	buf_addc(&want, '\n');
	assert_string_equal(out.data, want.data);
	buf_reset(&out);
	assert_int_equal(activation_which_report(&w->a, "no\x1bpe", &out, &err),
			 CUENV_NO);
	assert_string_equal(err.msg.data, "'no\\x1bpe' is not provided by "
					  "cuda 12.4.1 + cudnn 9.1.0.70");
	assert_int_equal(out.len, 0);
	buf_release(&out);
	buf_release(&want);
	err_release(&err);
}

/* ---- emit ---------------------------------------------------------------- */

static void test_activation_emit_changes_and_watch_lists(void **state)
{
	struct world *w = *state;
	struct buf out = BUF_INIT, want = BUF_INIT;

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	compute_ok(w, "proj", &w->start);
	activation_emit(&w->a, &w->start, SHELL_BASH, w->root, "/s/1.stamp",
			&out);
	buf_printf(&want, "export CUDA_HOME='%s';\n", w->cuda);
	assert_non_null(strstr(out.data, want.data));
	assert_null(strstr(out.data, "export HOME=")); /* unchanged */
	buf_reset(&want);
	buf_printf(&want,
		   "__cuenv_watch=( '%s/proj/.cuenv' '%s/versions/"
		   "cuda' '%s/versions/cudnn' );\n",
		   w->fx->root, w->root, w->root);
	assert_non_null(strstr(out.data, want.data));
	assert_non_null(strstr(out.data, "__cuenv_absent=( );\n"));
	assert_non_null(strstr(out.data, "__cuenv_stamp='/s/1.stamp';\n"));
	buf_release(&out);
	buf_release(&want);
}

static void test_activation_emit_without_stamp_leaves_it_alone(void **state)
{
	struct world *w = *state;
	struct buf out = BUF_INIT;

	assert_int_equal(compute(w, "proj", &w->start, 0), CUENV_OK);
	activation_emit(&w->a, &w->start, SHELL_FISH, w->root, NULL, &out);
	assert_null(strstr(out.data, "__cuenv_stamp"));
	assert_non_null(strstr(out.data, "set -g __cuenv_absent"));
	buf_release(&out);
}

/*
 * The digest of what the hook said: FNV-1a 64 (offset basis
 * cbf29ce484222325, prime 100000001b3) over each warning, then the
 * error's message and hint, each followed by a 0xff byte. The expected
 * values were computed from that definition outside cuenv; FNV-1a of
 * "a" alone is the published af63dc4c8601ec8c.
 */
static void test_activation_said_digests_warnings_and_error(void **state)
{
	struct activation a;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf said = BUF_INIT;

	(void)state;
	activation_init(&a);
	activation_said(&a, CUENV_OK, &err, &said);
	assert_string_equal(said.data, ""); /* nothing said */
	strv_push(&a.warnings, "libfoo shadows");
	activation_said(&a, CUENV_OK, &err, &said);
	assert_string_equal(said.data, "8b7149e7628f9ffa");
	cuenv_fail(&err, CUENV_E_NOT_INSTALLED, "no .cuenv");
	cuenv_hint(&err, "run x");
	activation_said(&a, CUENV_E_NOT_INSTALLED, &err, &said);
	assert_string_equal(said.data, "90ef30b4b9fd6a71");
	/* a bug is not a thing the user was told to fix */
	activation_said(&a, CUENV_E_BUG, &err, &said);
	assert_string_equal(said.data, "8b7149e7628f9ffa");
	/* an error without a hint, and no warnings */
	activation_release(&a);
	activation_init(&a);
	err_release(&err);
	cuenv_fail(&err, CUENV_E_NOT_INSTALLED, "no .cuenv");
	activation_said(&a, CUENV_E_NOT_INSTALLED, &err, &said);
	assert_string_equal(said.data, "b2bfa6d1f78f90f1");
	buf_release(&said);
	err_release(&err);
	activation_release(&a);
}

/* ---- a Python environment's NVIDIA wheels -------------------------------- */

#define VENV_NV "venv/lib/python3.11/site-packages/nvidia"

/* root/venv with cudart and cuSPARSE wheels; start with VIRTUAL_ENV. */
static void venv_start(struct world *w, struct envmap *start, const char *over)
{
	char *venv = fx_path(w->fx, "venv");
	struct buf var = BUF_INIT;

	fx_write(w->fx, "venv/pyvenv.cfg", "home = /usr/bin\n");
	fx_touch(w->fx, VENV_NV "/cuda_runtime/lib/libcudart.so.12");
	fx_touch(w->fx, VENV_NV "/cusparse/lib/libcusparse.so.12");
	envmap_copy(start, &w->start);
	buf_printf(&var, "VIRTUAL_ENV=%s", venv);
	strv_push(&start->vars, var.data);
	if (over)
		envmap_set(start, "CUENV_OVER_VENV", over);
	buf_release(&var);
	free(venv);
}

static void test_activate_keeps_venv_wheels_first(void **state)
{
	struct world *w = *state;
	struct envmap start = ENVMAP_INIT, back = ENVMAP_INIT;
	struct buf want = BUF_INIT;
	char *rt = fx_path(w->fx, VENV_NV "/cuda_runtime/lib");

	venv_start(w, &start, NULL);
	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	compute_ok(w, "proj", &start);
	/* cudart.so.12 is both's: the wheel's folder first; not cuSPARSE's */
	buf_printf(&want, "%s:%s/lib64:%s/extras/CUPTI/lib64", rt, w->cuda,
		   w->cuda);
	assert_var(&w->a.after, "LD_LIBRARY_PATH", want.data);
	buf_reset(&want);
	buf_printf(&want, "%s/bin:/usr/bin:/bin", w->cuda);
	assert_var(&w->a.after, "PATH", want.data);
	assert_var(&w->a.after, "CUDA_HOME", w->cuda);
	assert_int_equal(w->a.notes.n, 1);
	assert_non_null(strstr(w->a.notes.v[0], "libcudart.so.12"));
	assert_non_null(strstr(w->a.notes.v[0], "CUENV_OVER_VENV=1"));
	assert_int_equal(w->a.warnings.n, 0);
	/* undone, the wheel's folder goes again */
	envmap_copy(&back, &w->a.after);
	compute_ok(w, "proj", &back);
	envmap_release(&back);
	envmap_copy(&back, &w->a.base);
	assert_null(envmap_get(&back, "LD_LIBRARY_PATH"));
	envmap_release(&back);
	envmap_release(&start);
	buf_release(&want);
	free(rt);
}

static void test_activate_over_venv_puts_selection_first(void **state)
{
	struct world *w = *state;
	struct envmap start = ENVMAP_INIT;
	struct buf want = BUF_INIT;

	venv_start(w, &start, "1");
	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	compute_ok(w, "proj", &start);
	buf_printf(&want, "%s/lib64:%s/extras/CUPTI/lib64", w->cuda, w->cuda);
	assert_var(&w->a.after, "LD_LIBRARY_PATH", want.data);
	assert_int_equal(w->a.notes.n, 0);
	assert_int_equal(w->a.warnings.n, 1);
	assert_non_null(strstr(w->a.warnings.v[0], "shadow the NVIDIA wheels"));
	assert_non_null(strstr(w->a.warnings.v[0], "libcudart.so.12"));
	envmap_release(&start);
	buf_release(&want);
}

static void
test_activate_venv_without_shared_sonames_is_left_alone(void **state)
{
	struct world *w = *state;
	struct envmap start = ENVMAP_INIT;

	venv_start(w, &start, NULL);
	/* CUDA 11's libcudart.so.11.0 is not the wheel's libcudart.so.12 */
	fx_write(w->fx, "proj/.cuenv", "cuda = 11.8\n");
	compute_ok(w, "proj", &start);
	assert_null(strstr(envmap_get(&w->a.after, "LD_LIBRARY_PATH"),
			   "site-packages"));
	assert_int_equal(w->a.notes.n, 0);
	envmap_release(&start);
}

static void test_activate_refuses_registered_folder_that_is_gone(void **state)
{
	struct world *w = *state;
	struct buf want = BUF_INIT;

	fx_write(w->fx, "proj/.cuenv", "cuda = 11.8\n");
	assert_int_equal(fx_remove_tree(w->cuda11), 0);
	assert_int_equal(compute(w, "proj", &w->start, 0),
			 CUENV_E_NOT_INSTALLED);
	assert_false(w->a.ok);
	buf_printf(&want, "cuda 11.8.0 was registered from '%s', which is gone",
		   w->cuda11);
	assert_string_equal(w->err.msg.data, want.data);
	assert_string_equal(w->err.hint.data,
			    "forget it: cuenv remove cuda 11.8.0");
	/* nothing of it goes into the environment */
	fx_assert_env_equal(&w->a.after, &w->a.base);
	buf_release(&want);
}

#define WORLD_TEST(t)                                                          \
	cmocka_unit_test_setup_teardown(t, world_setup, world_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    WORLD_TEST(test_activate_orders_paths_cuda_first),
	    WORLD_TEST(test_activate_puts_cudnn_before_cuda_libraries),
	    WORLD_TEST(test_activate_adds_cupti_of_another_release),
	    WORLD_TEST(test_activate_base_is_start_without_earlier_activation),
	    WORLD_TEST(test_activate_leaving_project_gives_back_original_env),
	    WORLD_TEST(test_activate_switching_projects_keeps_no_old_entries),
	    WORLD_TEST(test_activate_takes_cuenv_version_from_start),
	    WORLD_TEST(test_activate_refuses_root_writable_by_others),
	    WORLD_TEST(test_activate_refuses_versions_folder_writable_by_group),
	    WORLD_TEST(test_activate_refuses_selected_receipt_others_can_write),
	    WORLD_TEST(test_activate_refuses_selected_version_folder),
	    WORLD_TEST(test_activate_insecure_roots_skips_the_checks),
	    WORLD_TEST(test_activate_refuses_system_root_writable_by_others),
	    WORLD_TEST(test_activate_refuses_relative_system_root),
	    WORLD_TEST(test_activate_without_selection_changes_nothing),
	    WORLD_TEST(
		test_activate_missing_version_keeps_base_and_watch_lists),
	    WORLD_TEST(test_activate_bad_cuenv_keeps_base_and_watch_lists),
	    WORLD_TEST(test_activate_warns_about_shadowing_dir),
	    WORLD_TEST(test_activate_isolate_argument_strips_shadowing_dir),
	    WORLD_TEST(test_activate_reports_skipped_receipts),
	    WORLD_TEST(test_activate_refuses_registered_folder_that_is_gone),
	    WORLD_TEST(test_activate_keeps_venv_wheels_first),
	    WORLD_TEST(test_activate_over_venv_puts_selection_first),
	    WORLD_TEST(test_activate_venv_without_shared_sonames_is_left_alone),
	    WORLD_TEST(test_activation_which_finds_executable),
	    WORLD_TEST(test_activation_which_finds_library_soname),
	    WORLD_TEST(test_activation_which_finds_cupti_of_another_release),
	    WORLD_TEST(test_activation_which_finds_header_cudnn_first),
	    WORLD_TEST(test_activation_which_rejects_paths_and_unknown_names),
	    WORLD_TEST(test_activation_which_without_activation_is_null),
	    WORLD_TEST(test_activation_which_report_line_or_why),
	    WORLD_TEST(test_activation_emit_changes_and_watch_lists),
	    WORLD_TEST(test_activation_emit_without_stamp_leaves_it_alone),
	    cmocka_unit_test(test_activation_said_digests_warnings_and_error),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
