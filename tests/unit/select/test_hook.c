/*
 * What `cuenv use` and the prompt hook's `cuenv export` print: the lines
 * said on stderr and the shell code, for good and bad selections.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "select/activate.h"
#include "select/hook.h"

/*
 * The store at root/store holds CUDA 12.4.1 (files at root/cuda-12.4),
 * CUDA 11.8.0 (root/cuda-11.8) and cuDNN 9.1.0.70 for CUDA 12
 * (root/cudnn-9.1). Projects live under root/proj; root/elsewhere has
 * no .cuenv.
 */
struct world {
	struct fixture *fx;
	char *root;
	char *cuda;
	struct envmap env; /* the shell's environment */
	struct buf says, code;
	struct cuenv_err err;
};

static int world_setup(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin:/bin", "HOME=/home/u",
					   NULL};
	struct cuenv_err err = CUENV_ERR_INIT;
	void *fx_state = NULL;
	struct fixture *fx;
	struct world *w;
	struct store st;
	char *cuda11, *cudnn;

	if (fx_setup(&fx_state))
		return -1;
	fx = fx_state;
	w = calloc(1, sizeof(*w));
	w->fx = fx;
	*state = w;
	w->root = fx_path(fx, "store");
	w->cuda = fx_path(fx, "cuda-12.4");
	cuda11 = fx_path(fx, "cuda-11.8");
	cudnn = fx_path(fx, "cudnn-9.1");
	fake_cuda_classic(fx, "cuda-12.4", 12);
	fake_cuda_classic(fx, "cuda-11.8", 11);
	fake_cudnn_tarball(fx, "cudnn-9.1", "9.1.0");
	fx_mkdir(fx, "proj");
	fx_mkdir(fx, "elsewhere");
	if (store_open(&st, w->root, true, &err))
		return -1;
	fx_register(&st, fx_install_new(KIT_CUDA, "12.4.1", 12, w->cuda));
	fx_register(&st, fx_install_new(KIT_CUDA, "11.8.0", 11, cuda11));
	fx_register(&st, fx_install_new(KIT_CUDNN, "9.1.0.70", 12, cudnn));
	store_release(&st);
	fx_env(&w->env, vars);
	buf_init(&w->says);
	buf_init(&w->code);
	err_init(&w->err);
	free(cuda11);
	free(cudnn);
	return 0;
}

static int world_teardown(void **state)
{
	struct world *w = *state;
	void *fx_state = w->fx;

	err_release(&w->err);
	envmap_release(&w->env);
	buf_release(&w->says);
	buf_release(&w->code);
	free(w->root);
	free(w->cuda);
	free(w);
	return fx_teardown(&fx_state);
}

/*
 * hook_emit in root/<cwd> for shell sh, from w->env (before and start
 * alike, as `export` has them); pid 0 is `use`.
 */
/* hook_emit from start, the shell's environment being w->env. */
static int emit_from(struct world *w, const char *cwd, enum shell sh, long pid,
		     const char *last_said, const struct envmap *start)
{
	char *dir = fx_path(w->fx, cwd);
	struct hook_in in = {
	    .root = w->root,
	    .cwd = dir,
	    .before = &w->env,
	    .start = start,
	    .sh = sh,
	    .pid = pid,
	    .last_said = last_said,
	};
	int rc;

	buf_reset(&w->says);
	buf_reset(&w->code);
	err_release(&w->err);
	rc = hook_emit(&in, &w->says, &w->code, &w->err);
	free(dir);
	return rc;
}

static int emit(struct world *w, const char *cwd, enum shell sh, long pid,
		const char *last_said)
{
	return emit_from(w, cwd, sh, pid, last_said, &w->env);
}

/* The value of the bash assignment NAME='...' in code, or "" when none. */
static char *bash_value(const char *code, const char *name)
{
	struct buf want = BUF_INIT;
	const char *at, *end;
	char *v = NULL;

	buf_printf(&want, "%s='", name);
	at = strstr(code, want.data);
	if (at) {
		at += want.len;
		end = strchr(at, '\'');
		v = strndup(at, end ? (size_t)(end - at) : strlen(at));
	}
	buf_release(&want);
	return v ? v : strdup("");
}

/* ---- cuenv use ------------------------------------------------------------ */

static void test_hook_use_says_which_versions_this_shell_uses(void **state)
{
	struct world *w = *state;
	struct buf want = BUF_INIT;

	envmap_set(&w->env, "CUENV_VERSION", "12.4");
	assert_int_equal(emit(w, "elsewhere", SHELL_BASH, 0, NULL), CUENV_OK);
	assert_string_equal(w->says.data,
			    "cuenv: using cuda 12.4.1 in this shell\n");
	buf_printf(&want, "export CUDA_HOME='%s';\n", w->cuda);
	assert_non_null(strstr(w->code.data, want.data));
	/* nothing was said: the hook's memory is emptied */
	assert_non_null(strstr(w->code.data, "__cuenv_said='';\n"));
	/* `use` leaves the hook's stamp alone */
	assert_null(strstr(w->code.data, "__cuenv_stamp"));
	envmap_set(&w->env, "CUENV_CUDNN_VERSION", "9.1");
	assert_int_equal(emit(w, "elsewhere", SHELL_BASH, 0, NULL), CUENV_OK);
	assert_string_equal(
	    w->says.data,
	    "cuenv: using cuda 12.4.1 + cudnn 9.1.0.70 in this shell\n");
	buf_release(&want);
}

static void test_hook_use_system_and_a_dropped_selection(void **state)
{
	struct world *w = *state;
	struct envmap start = ENVMAP_INIT;
	struct buf want = BUF_INIT;

	envmap_set(&w->env, "CUENV_VERSION", "system");
	assert_int_equal(emit(w, "elsewhere", SHELL_BASH, 0, NULL), CUENV_OK);
	assert_string_equal(w->says.data,
			    "cuenv: using the system's cuda in this shell "
			    "(cuenv adds nothing)\n");
	assert_null(strstr(w->code.data, "CUDA_HOME"));
	/* --unset: the directory's choice, and where it comes from */
	envmap_copy(&start, &w->env);
	envmap_unset(&start, "CUENV_VERSION");
	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 9\n");
	assert_int_equal(emit_from(w, "proj", SHELL_BASH, 0, NULL, &start),
			 CUENV_OK);
	buf_printf(&want,
		   "cuenv: this shell's selection dropped: cuda 12.4.1 + "
		   "cudnn 9.1.0.70 (set by %s/proj/.cuenv)\n",
		   w->fx->root);
	assert_string_equal(w->says.data, want.data);
	assert_int_equal(emit_from(w, "elsewhere", SHELL_BASH, 0, NULL, &start),
			 CUENV_OK);
	assert_string_equal(w->says.data, "cuenv: this shell's selection "
					  "dropped: nothing selected here\n");
	/* --unset where use had set nothing: nothing is dropped */
	envmap_unset(&w->env, "CUENV_VERSION");
	assert_int_equal(emit(w, "elsewhere", SHELL_BASH, 0, NULL), CUENV_OK);
	assert_string_equal(w->says.data, "cuenv: this shell has no selection "
					  "of its own to drop\n");
	envmap_release(&start);
	buf_release(&want);
}

static void test_hook_use_of_a_missing_version_prints_no_code(void **state)
{
	struct world *w = *state;

	envmap_set(&w->env, "CUENV_VERSION", "10.2");
	assert_int_equal(emit(w, "elsewhere", SHELL_BASH, 0, NULL),
			 CUENV_E_NOT_INSTALLED);
	assert_non_null(strstr(w->err.msg.data, "10.2"));
	/* use set nothing: no "set by CUENV_VERSION, which cuenv use sets" */
	assert_null(strstr(w->err.msg.data, "set by"));
	assert_string_equal(w->says.data, "");
	assert_int_equal(w->code.len, 0);
}

static void test_hook_warnings_come_before_the_note(void **state)
{
	struct world *w = *state;
	char *foreign = fx_path(w->fx, "cuda-11.8/lib64");
	const char *note;

	envmap_set(&w->env, "CUENV_VERSION", "12.4");
	envmap_set(&w->env, "LD_LIBRARY_PATH", foreign);
	assert_int_equal(emit(w, "elsewhere", SHELL_BASH, 0, NULL), CUENV_OK);
	assert_true(!strncmp(w->says.data, "cuenv: warning: ", 16));
	assert_non_null(strstr(w->says.data, foreign));
	note = strstr(w->says.data, "\ncuenv: using cuda 12.4.1 in this "
				    "shell\n");
	assert_non_null(note);
	assert_string_equal(note + 1,
			    "cuenv: using cuda 12.4.1 in this shell\n");
	/* `use` always says it, whatever the shell was told last */
	assert_non_null(strstr(w->code.data, "__cuenv_said='"));
	free(foreign);
}

/* ---- cmd ------------------------------------------------------------------ */

static void test_hook_cmd_refuses_what_set_cannot_carry(void **state)
{
	struct world *w = *state;

	envmap_set(&w->env, "CUENV_VERSION", "12.4");
	assert_int_equal(emit(w, "elsewhere", SHELL_CMD, 0, NULL), CUENV_OK);
	assert_non_null(strstr(w->code.data, "CUDA_HOME="));
	/* PATH changes, and would hold a '!' */
	envmap_set(&w->env, "PATH", "/usr/bin:/odd!dir");
	assert_int_equal(emit(w, "elsewhere", SHELL_CMD, 0, NULL),
			 CUENV_E_USAGE);
	assert_string_equal(w->err.msg.data,
			    "PATH holds '!' (delayed expansion would "
			    "expand it), which cmd's set cannot carry");
	assert_int_equal(w->code.len, 0);
	envmap_set(&w->env, "PATH", "/usr/bin:/odd\ndir");
	assert_int_equal(emit(w, "elsewhere", SHELL_CMD, 0, NULL),
			 CUENV_E_USAGE);
	assert_string_equal(w->err.msg.data,
			    "PATH holds a line break, which cmd's set cannot "
			    "carry");
	/* the hook's code is still written */
	assert_int_equal(emit(w, "elsewhere", SHELL_CMD, (long)getpid(), NULL),
			 CUENV_E_USAGE);
	assert_true(w->code.len > 0);
}

/* ---- the hook ------------------------------------------------------------- */

static void test_hook_reports_a_bad_file_and_still_deactivates(void **state)
{
	struct world *w = *state;
	struct buf want = BUF_INIT;
	char *said, *stamp;

	fx_write(w->fx, "proj/.cuenv", "cudaa = 12.4\n");
	assert_int_equal(emit(w, "proj", SHELL_BASH, (long)getpid(), NULL),
			 CUENV_OK);
	/* said here, and cleared: the code must run */
	assert_int_equal(w->err.rc, CUENV_OK);
	assert_true(!strncmp(w->says.data, "cuenv: error: ", 14));
	assert_non_null(strstr(w->says.data, "cudaa"));
	buf_printf(&want, "__cuenv_watch=( '%s/proj/.cuenv'", w->fx->root);
	assert_non_null(strstr(w->code.data, want.data));
	stamp = bash_value(w->code.data, "__cuenv_stamp");
	buf_reset(&want);
	buf_printf(&want, "%s/run/%ld.stamp", w->root, (long)getpid());
	assert_string_equal(stamp, want.data);
	said = bash_value(w->code.data, "__cuenv_said");
	assert_int_equal(strlen(said), 16);
	/* told once: the next prompt says nothing of it */
	assert_int_equal(emit(w, "proj", SHELL_BASH, (long)getpid(), said),
			 CUENV_OK);
	assert_string_equal(w->says.data, "");
	assert_non_null(strstr(w->code.data, said));
	/* what it said before was something else */
	assert_int_equal(
	    emit(w, "proj", SHELL_BASH, (long)getpid(), "0123456789abcdef"),
	    CUENV_OK);
	assert_true(!strncmp(w->says.data, "cuenv: error: ", 14));
	buf_release(&want);
	free(said);
	free(stamp);
}

static void test_hook_announces_what_changed(void **state)
{
	struct world *w = *state;
	struct buf want = BUF_INIT;
	struct activation a;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *proj = fx_path(w->fx, "proj");
	long pid = (long)getpid();

	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	/* not asked for */
	assert_int_equal(emit(w, "proj", SHELL_BASH, pid, NULL), CUENV_OK);
	assert_string_equal(w->says.data, "");
	envmap_set(&w->env, "CUENV_ANNOUNCE", "1");
	assert_int_equal(emit(w, "proj", SHELL_BASH, pid, NULL), CUENV_OK);
	buf_printf(&want, "cuenv: cuda 12.4.1 (set by %s/proj/.cuenv)\n",
		   w->fx->root);
	assert_string_equal(w->says.data, want.data);
	/* once active, nothing more to say */
	activation_init(&a);
	assert_int_equal(
	    activation_compute(w->root, proj, &w->env, 0, &a, &err), CUENV_OK);
	envmap_release(&w->env);
	envmap_copy(&w->env, &a.after);
	assert_int_equal(emit(w, "proj", SHELL_BASH, pid, NULL), CUENV_OK);
	assert_string_equal(w->says.data, "");
	/* leaving it */
	assert_int_equal(emit(w, "elsewhere", SHELL_BASH, pid, NULL), CUENV_OK);
	buf_reset(&want);
	buf_printf(&want, "cuenv: cuda %s unloaded\n",
		   envmap_get(&a.after, "CUENV_ACTIVE"));
	assert_string_equal(w->says.data, want.data);
	activation_release(&a);
	buf_release(&want);
	free(proj);
}

/* ---- what `use` starts from ---------------------------------------------- */

static void test_hook_use_needs_the_shell_integration(void **state)
{
	struct hook_use u = {.nargs = 1, .spec = "12.4"};
	struct envmap before = ENVMAP_INIT, start = ENVMAP_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	enum shell sh;

	(void)state;
	assert_int_equal(hook_use_start(&u, &before, &sh, &start, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "use: this shell has no cuenv "
					  "integration, so cuenv cannot change "
					  "it");
	assert_true(!strncmp(
	    err.hint.data, "add eval \"$(cuenv init bash)\" to ~/.bashrc", 41));
	err_release(&err);
	/* sh has none; an unknown name is none */
	u.shell = "sh";
	assert_int_equal(hook_use_start(&u, &before, &sh, &start, &err),
			 CUENV_E_USAGE);
	err_release(&err);
	u.shell = "tcsh";
	assert_int_equal(hook_use_start(&u, &before, &sh, &start, &err),
			 CUENV_E_USAGE);
	err_release(&err);
	u.shell = "zsh";
	assert_int_equal(hook_use_start(&u, &before, &sh, &start, &err),
			 CUENV_OK);
	assert_int_equal(sh, SHELL_ZSH);
	envmap_release(&start);
}

static void test_hook_use_checks_spec_and_options(void **state)
{
	struct hook_use u = {.shell = "bash", .nargs = 1, .spec = "12.4"};
	struct envmap before = ENVMAP_INIT, start = ENVMAP_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	enum shell sh;

	(void)state;
	u.unset = 1;
	assert_int_equal(hook_use_start(&u, &before, &sh, &start, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "use: --unset takes no SPEC and no other option");
	assert_string_equal(err.hint.data, "see: cuenv use --help");
	err_release(&err);
	u.nargs = 0;
	u.spec = NULL;
	u.isolate = 1;
	assert_int_equal(hook_use_start(&u, &before, &sh, &start, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "use: --unset takes no SPEC and no other option");
	err_release(&err);
	u.unset = u.isolate = 0;
	assert_int_equal(hook_use_start(&u, &before, &sh, &start, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "use: missing argument");
	err_release(&err);
	u.nargs = 1;
	u.spec = "../12";
	assert_int_equal(hook_use_start(&u, &before, &sh, &start, &err),
			 CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "../12"));
	err_release(&err);
	u.spec = "system";
	u.cupti = "12/4";
	assert_int_equal(hook_use_start(&u, &before, &sh, &start, &err),
			 CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "12/4"));
	err_release(&err);
	envmap_release(&start);
}

static void test_hook_use_start_replaces_what_use_sets(void **state)
{
	static const char *const vars[] = {"PATH=/bin",
					   "CUENV_VERSION=11.8",
					   "CUENV_CUDNN_VERSION=8",
					   "CUENV_CUPTI_VERSION=11.8",
					   "CUENV_ISOLATE=1",
					   NULL};
	struct hook_use u = {
	    .shell = "fish", .nargs = 1, .spec = "12.4", .cudnn = "9.1"};
	struct envmap before = ENVMAP_INIT, start = ENVMAP_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	enum shell sh;

	(void)state;
	fx_env(&before, vars);
	assert_int_equal(hook_use_start(&u, &before, &sh, &start, &err),
			 CUENV_OK);
	assert_int_equal(sh, SHELL_FISH);
	assert_string_equal(envmap_get(&start, "PATH"), "/bin");
	assert_string_equal(envmap_get(&start, "CUENV_VERSION"), "12.4");
	assert_string_equal(envmap_get(&start, "CUENV_CUDNN_VERSION"), "9.1");
	assert_null(envmap_get(&start, "CUENV_CUPTI_VERSION"));
	assert_null(envmap_get(&start, "CUENV_ISOLATE"));
	/* the shell's own environment is left as it was */
	assert_string_equal(envmap_get(&before, "CUENV_VERSION"), "11.8");
	envmap_release(&start);
	u.cudnn = NULL;
	u.cupti = "12.6";
	u.isolate = 1;
	assert_int_equal(hook_use_start(&u, &before, &sh, &start, &err),
			 CUENV_OK);
	assert_null(envmap_get(&start, "CUENV_CUDNN_VERSION"));
	assert_string_equal(envmap_get(&start, "CUENV_CUPTI_VERSION"), "12.6");
	assert_string_equal(envmap_get(&start, "CUENV_ISOLATE"), "1");
	envmap_release(&start);
	/* --unset: none of them, the directory decides */
	u = (struct hook_use){.shell = "pwsh", .unset = 1};
	assert_int_equal(hook_use_start(&u, &before, &sh, &start, &err),
			 CUENV_OK);
	assert_int_equal(sh, SHELL_PWSH);
	assert_null(envmap_get(&start, "CUENV_VERSION"));
	assert_null(envmap_get(&start, "CUENV_CUDNN_VERSION"));
	assert_null(envmap_get(&start, "CUENV_CUPTI_VERSION"));
	assert_null(envmap_get(&start, "CUENV_ISOLATE"));
	assert_string_equal(envmap_get(&start, "PATH"), "/bin");
	envmap_release(&start);
	envmap_release(&before);
}

#define WORLD_TEST(t)                                                          \
	cmocka_unit_test_setup_teardown(t, world_setup, world_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    WORLD_TEST(test_hook_use_says_which_versions_this_shell_uses),
	    WORLD_TEST(test_hook_use_system_and_a_dropped_selection),
	    WORLD_TEST(test_hook_use_of_a_missing_version_prints_no_code),
	    WORLD_TEST(test_hook_warnings_come_before_the_note),
	    WORLD_TEST(test_hook_cmd_refuses_what_set_cannot_carry),
	    WORLD_TEST(test_hook_reports_a_bad_file_and_still_deactivates),
	    WORLD_TEST(test_hook_announces_what_changed),
	    cmocka_unit_test(test_hook_use_needs_the_shell_integration),
	    cmocka_unit_test(test_hook_use_checks_spec_and_options),
	    cmocka_unit_test(test_hook_use_start_replaces_what_use_sets),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
