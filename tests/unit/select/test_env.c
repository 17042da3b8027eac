#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "select/env.h"
#include "base/xalloc.h"

#define CUDA "/opt/cuda-12.4"

/* An activation of CUDA 12.4.1 at CUDA (cudnn optional). */
struct kit {
	struct store_version *cuda;
	struct store_version *cudnn;
	struct active act;
};

static void kit_init(struct kit *k, const char *prefix, bool with_cudnn)
{
	memset(k, 0, sizeof(*k));
	k->cuda = fx_install_new(KIT_CUDA, "12.4.1", 12, prefix);
	if (with_cudnn)
		k->cudnn =
		    fx_install_new(KIT_CUDNN, "9.1.0.70", 12, "/opt/cudnn-9.1");
	k->act.cuda = k->cuda;
	k->act.cudnn = k->cudnn;
}

static void kit_release(struct kit *k)
{
	store_version_free(k->cuda);
	store_version_free(k->cudnn);
}

/* Activate k on a copy of start, then undo; the result must be start. */
static void assert_round_trip(const char *const *vars, struct kit *k)
{
	struct envmap start = ENVMAP_INIT, env = ENVMAP_INIT;
	struct strv warnings = STRV_INIT;

	fx_env(&start, vars);
	envmap_copy(&env, &start);
	env_activate(&env, &k->act, &warnings);
	assert_non_null(envmap_get(&env, ENV_STATE_VAR));
	env_undo(&env);
	fx_assert_env_equal(&env, &start);
	envmap_release(&start);
	envmap_release(&env);
	strv_release(&warnings);
}

/* ---- envmap -------------------------------------------------------------- */

static void test_envmap_from_copies_entries_with_equals(void **state)
{
	char *environ_[] = {"A=1", "junk", "B=", "C=x=y", NULL};
	struct envmap env = ENVMAP_INIT;

	(void)state;
	envmap_from(&env, environ_);
	assert_int_equal(env.vars.n, 3);
	assert_string_equal(envmap_get(&env, "A"), "1");
	assert_string_equal(envmap_get(&env, "B"), "");
	assert_string_equal(envmap_get(&env, "C"), "x=y");
	assert_null(envmap_get(&env, "junk"));
	envmap_release(&env);
}

static void test_envmap_get_matches_whole_names(void **state)
{
	static const char *const vars[] = {"PATHX=1", "PATH=/bin", "PAT=2",
					   NULL};
	struct envmap env = ENVMAP_INIT;

	(void)state;
	fx_env(&env, vars);
	assert_string_equal(envmap_get(&env, "PATH"), "/bin");
	assert_string_equal(envmap_get(&env, "PATHX"), "1");
	assert_string_equal(envmap_get(&env, "PAT"), "2");
	assert_null(envmap_get(&env, "PA"));
	assert_null(envmap_get(&env, "PATHXY"));
	envmap_release(&env);
}

static void test_env_get_reads_a_raw_environment(void **state)
{
	char *const envp[] = {"PATHX=no", "PATH=/bin", "EMPTY=", "EQ=a=b",
			      NULL};

	(void)state;
	assert_string_equal(env_get(envp, "PATH"), "/bin");
	assert_string_equal(env_get(envp, "EMPTY"), "");
	assert_string_equal(env_get(envp, "EQ"), "a=b");
	assert_null(env_get(envp, "PAT"));
	assert_null(env_get(envp, "HOME"));
	assert_null(env_get(NULL, "PATH"));
}

static void test_env_get_nonempty_takes_empty_for_unset(void **state)
{
	char *envp[] = {"A=1", "B=", "AB=2", NULL};

	(void)state;
	assert_string_equal(env_get_nonempty(envp, "A"), "1");
	assert_string_equal(env_get_nonempty(envp, "AB"), "2");
	assert_null(env_get_nonempty(envp, "B"));
	assert_string_equal(env_get(envp, "B"), "");
	assert_null(env_get_nonempty(envp, "C"));
	assert_null(env_get_nonempty(NULL, "A"));
}

static void test_envmap_set_replaces_or_adds(void **state)
{
	static const char *const vars[] = {"A=1", "B=2", NULL};
	struct envmap env = ENVMAP_INIT;

	(void)state;
	fx_env(&env, vars);
	envmap_set(&env, "A", "new");
	assert_int_equal(env.vars.n, 2);
	assert_string_equal(env.vars.v[0], "A=new");
	envmap_set(&env, "C", "");
	assert_int_equal(env.vars.n, 3);
	assert_string_equal(envmap_get(&env, "C"), "");
	envmap_release(&env);
}

static void test_envmap_unset_removes_only_that_name(void **state)
{
	static const char *const vars[] = {"A=1", "AB=2", NULL};
	struct envmap env = ENVMAP_INIT;

	(void)state;
	fx_env(&env, vars);
	envmap_unset(&env, "A");
	assert_null(envmap_get(&env, "A"));
	assert_string_equal(envmap_get(&env, "AB"), "2");
	envmap_unset(&env, "missing");
	assert_int_equal(env.vars.n, 1);
	envmap_release(&env);
}

static void test_envmap_copy_is_independent(void **state)
{
	static const char *const vars[] = {"A=1", NULL};
	struct envmap a = ENVMAP_INIT, b = ENVMAP_INIT;

	(void)state;
	fx_env(&a, vars);
	envmap_copy(&b, &a);
	envmap_set(&b, "A", "2");
	assert_string_equal(envmap_get(&a, "A"), "1");
	assert_string_equal(envmap_get(&b, "A"), "2");
	envmap_release(&a);
	envmap_release(&b);
}

/* ---- activation ---------------------------------------------------------- */

static void test_env_activate_prepends_and_sets(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin:/bin", "HOME=/home/u",
					   NULL};
	struct envmap env = ENVMAP_INIT;
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, true);
	fx_env(&env, vars);
	env_activate(&env, &k.act, NULL);
	assert_string_equal(envmap_get(&env, "PATH"),
			    CUDA "/bin:/usr/bin:/bin");
	assert_string_equal(envmap_get(&env, "LD_LIBRARY_PATH"),
			    "/opt/cudnn-9.1/lib:" CUDA "/lib64:" CUDA
			    "/extras/CUPTI/lib64");
	assert_string_equal(envmap_get(&env, "LIBRARY_PATH"),
			    envmap_get(&env, "LD_LIBRARY_PATH"));
	assert_string_equal(envmap_get(&env, "CPATH"),
			    "/opt/cudnn-9.1/include:" CUDA "/include");
	assert_string_equal(envmap_get(&env, "CUDA_HOME"), CUDA);
	assert_string_equal(envmap_get(&env, "CUDA_PATH"), CUDA);
	assert_string_equal(envmap_get(&env, "CUDNN_PATH"), "/opt/cudnn-9.1");
	assert_string_equal(envmap_get(&env, "CUENV_ACTIVE"),
			    "12.4.1+cudnn9.1.0.70");
	assert_string_equal(envmap_get(&env, "HOME"), "/home/u");
	envmap_release(&env);
	kit_release(&k);
}

/* CUDA 11.2 and cuDNN 8.1 as NVIDIA's Windows installer and zip lay
 * them out (core/detect: the DLLs in bin\, which is also the library
 * folder). */
static void win_kit_init(struct kit *k)
{
	memset(k, 0, sizeof(*k));
	k->cuda = fx_install_new(KIT_CUDA, "11.2.2", 11, "/unused");
	k->cudnn = fx_install_new(KIT_CUDNN, "8.1.1", 11, "/unused");
	for (int i = 0; i < 2; i++) {
		struct store_version *in = i ? k->cudnn : k->cuda;

		strv_release(&in->bin);
		strv_release(&in->lib);
		strv_release(&in->include);
		strv_release(&in->cupti);
		free(in->prefix);
	}
	k->cuda->prefix = xstrdup("C:\\CUDA\\v11.2");
	strv_push(&k->cuda->bin, "C:\\CUDA\\v11.2\\bin");
	strv_push(&k->cuda->lib, "C:\\CUDA\\v11.2\\bin");
	strv_push(&k->cuda->cupti, "C:\\CUDA\\v11.2\\extras\\CUPTI\\lib64");
	strv_push(&k->cuda->include, "C:\\CUDA\\v11.2\\include");
	k->cudnn->prefix = xstrdup("C:\\tools\\cudnn 8.1");
	strv_push(&k->cudnn->lib, "C:\\tools\\cudnn 8.1\\bin");
	strv_push(&k->cudnn->include, "C:\\tools\\cudnn 8.1\\include");
	k->act.cuda = k->cuda;
	k->act.cudnn = k->cudnn;
}

/*
 * Windows' rules: the loader searches PATH, so the toolkit's bin, cuDNN's
 * and CUPTI's folders go there (';'-joined), whatever case the name
 * "Path" has; nothing of LD_LIBRARY_PATH, LIBRARY_PATH or CPATH; undo
 * gives back the very environment.
 */
static void test_env_activate_on_windows_puts_dlls_on_path(void **state)
{
	static const char *const vars[] = {
	    "Path=C:\\Windows\\system32;C:\\Windows", "CUDA_PATH=C:\\old",
	    NULL};
	struct envmap start = ENVMAP_INIT, env = ENVMAP_INIT;
	struct kit k;

	(void)state;
	win_kit_init(&k);
	start.rules = &plat_path_windows;
	fx_env(&start, vars);
	envmap_copy(&env, &start);
	env_activate(&env, &k.act, NULL);
	assert_string_equal(envmap_get(&env, "PATH"),
			    "C:\\CUDA\\v11.2\\bin;C:\\tools\\cudnn 8.1\\bin;"
			    "C:\\CUDA\\v11.2\\extras\\CUPTI\\lib64;"
			    "C:\\Windows\\system32;C:\\Windows");
	assert_string_equal(envmap_get(&env, "path"), envmap_get(&env, "PATH"));
	assert_null(envmap_get(&env, "LD_LIBRARY_PATH"));
	assert_null(envmap_get(&env, "LIBRARY_PATH"));
	assert_null(envmap_get(&env, "CPATH"));
	assert_string_equal(envmap_get(&env, "CUDA_PATH"), "C:\\CUDA\\v11.2");
	assert_string_equal(envmap_get(&env, "CUDNN_PATH"),
			    "C:\\tools\\cudnn 8.1");
	env_undo(&env);
	fx_assert_env_equal(&env, &start);
	envmap_release(&start);
	envmap_release(&env);
	kit_release(&k);
}

/* The same kit under POSIX rules: none of those folders is absolute, so
 * none is put on a list. */
static void
test_env_activate_takes_only_absolute_folders_of_its_rules(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin", NULL};
	struct envmap env = ENVMAP_INIT;
	struct kit k;

	(void)state;
	win_kit_init(&k);
	env.rules = &plat_path_posix;
	fx_env(&env, vars);
	env_activate(&env, &k.act, NULL);
	assert_string_equal(envmap_get(&env, "PATH"), "/usr/bin");
	assert_null(envmap_get(&env, "LD_LIBRARY_PATH"));
	assert_null(envmap_get(&env, "Path"));
	envmap_release(&env);
	kit_release(&k);
}

static void test_env_state_is_one_line(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin", NULL};
	struct envmap env = ENVMAP_INIT;
	struct kit k;

	(void)state;
	kit_init(&k, "/opt/new\nline", false);
	fx_env(&env, vars);
	env_activate(&env, &k.act, NULL);
	assert_null(strchr(envmap_get(&env, ENV_STATE_VAR), '\n'));
	assert_int_equal(envmap_get(&env, ENV_STATE_VAR)[0], '1');
	envmap_release(&env);
	kit_release(&k);
}

static void test_env_undo_restores_path_with_user_entries(void **state)
{
	static const char *const vars[] = {
	    "PATH=/home/u/bin:/usr/local/bin:/usr/bin::/bin", NULL};
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, true);
	assert_round_trip(vars, &k);
	kit_release(&k);
}

static void test_env_undo_unsets_variable_that_was_unset(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin", NULL};
	struct envmap env = ENVMAP_INIT;
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, false);
	fx_env(&env, vars);
	env_activate(&env, &k.act, NULL);
	assert_non_null(envmap_get(&env, "LD_LIBRARY_PATH"));
	env_undo(&env);
	assert_null(envmap_get(&env, "LD_LIBRARY_PATH"));
	assert_null(envmap_get(&env, "CPATH"));
	assert_null(envmap_get(&env, "CUDA_HOME"));
	assert_null(envmap_get(&env, "CUENV_ACTIVE"));
	assert_null(envmap_get(&env, ENV_STATE_VAR));
	envmap_release(&env);
	kit_release(&k);
}

static void test_env_undo_keeps_set_but_empty_variable_empty(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin",
					   "LD_LIBRARY_PATH=", "CPATH=", NULL};
	struct envmap env = ENVMAP_INIT;
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, false);
	fx_env(&env, vars);
	env_activate(&env, &k.act, NULL);
	/* no empty entry (the current folder) sneaks in */
	assert_string_equal(envmap_get(&env, "LD_LIBRARY_PATH"),
			    CUDA "/lib64:" CUDA "/extras/CUPTI/lib64");
	env_undo(&env);
	assert_string_equal(envmap_get(&env, "LD_LIBRARY_PATH"), "");
	assert_string_equal(envmap_get(&env, "CPATH"), "");
	envmap_release(&env);
	assert_round_trip(vars, &k);
	kit_release(&k);
}

static void test_env_undo_restores_users_cuda_home(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin",
					   "CUDA_HOME=/usr/local/cuda-11.8",
					   "CUDA_PATH=", NULL};
	struct envmap env = ENVMAP_INIT;
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, false);
	fx_env(&env, vars);
	env_activate(&env, &k.act, NULL);
	assert_string_equal(envmap_get(&env, "CUDA_HOME"), CUDA);
	env_undo(&env);
	assert_string_equal(envmap_get(&env, "CUDA_HOME"),
			    "/usr/local/cuda-11.8");
	assert_string_equal(envmap_get(&env, "CUDA_PATH"), "");
	envmap_release(&env);
	kit_release(&k);
}

/*
 * Folders with ':' (or ';', a newline) or relative ones never reach the
 * lists: "/opt/tool:kit/bin" would leave the relative "kit/bin" behind.
 */
static void test_env_activate_drops_entries_that_would_split(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin:/bin", NULL};
	static const char *const bad[] = {"/opt/tool:kit", "/opt/a;b",
					  "/opt/a\nb"};
	struct envmap start = ENVMAP_INIT, env = ENVMAP_INIT;

	(void)state;
	fx_env(&start, vars);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct kit k;

		kit_init(&k, bad[i], false);
		strv_push(&k.cuda->lib, "lib64"); /* relative */
		envmap_copy(&env, &start);
		env_activate(&env, &k.act, NULL);
		assert_string_equal(envmap_get(&env, "PATH"), "/usr/bin:/bin");
		assert_null(envmap_get(&env, "LD_LIBRARY_PATH"));
		assert_null(envmap_get(&env, "LIBRARY_PATH"));
		assert_null(envmap_get(&env, "CPATH"));
		env_undo(&env);
		fx_assert_env_equal(&env, &start);
		envmap_release(&env);
		kit_release(&k);
	}
	envmap_release(&start);
}

static void
test_env_activate_moves_user_entry_instead_of_duplicating(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin:" CUDA "/bin:/bin",
					   "LD_LIBRARY_PATH=/x:" CUDA "/lib64",
					   NULL};
	struct envmap env = ENVMAP_INIT;
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, false);
	fx_env(&env, vars);
	env_activate(&env, &k.act, NULL);
	assert_string_equal(envmap_get(&env, "PATH"),
			    CUDA "/bin:/usr/bin:/bin");
	assert_string_equal(envmap_get(&env, "LD_LIBRARY_PATH"),
			    CUDA "/lib64:" CUDA "/extras/CUPTI/lib64:/x");
	envmap_release(&env);
	kit_release(&k);
}

static void test_env_undo_puts_moved_user_entry_back_at_its_index(void **state)
{
	static const char *const vars[] = {
	    "PATH=/usr/bin:" CUDA "/bin:/bin:" CUDA "/bin",
	    "LD_LIBRARY_PATH=/x:" CUDA "/lib64:/y", NULL};
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, false);
	assert_round_trip(vars, &k);
	kit_release(&k);
}

static void test_env_undo_restores_path_that_was_only_ours(void **state)
{
	static const char *const vars[] = {"PATH=" CUDA "/bin", NULL};
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, false);
	assert_round_trip(vars, &k);
	kit_release(&k);
}

/* A foreign CUDA library folder: root/old-cuda/lib with libcupti.so.11.2. */
static char *foreign_dir(const struct fixture *fx)
{
	fx_touch(fx, "old-cuda/lib/libcupti.so.11.2");
	return fx_path(fx, "old-cuda/lib");
}

static void test_env_activate_isolate_strips_foreign_cuda_dir(void **state)
{
	struct fixture *fx = *state;
	char *foreign = foreign_dir(fx);
	struct envmap env = ENVMAP_INIT;
	struct strv warnings = STRV_INIT;
	struct buf v = BUF_INIT;
	struct kit k;

	fx_mkdir(fx, "plain");
	buf_printf(&v, "/nonexistent-cuenv/lib:%s:%s/plain", foreign, fx->root);
	kit_init(&k, CUDA, false);
	k.act.isolate = 1;
	envmap_set(&env, "LD_LIBRARY_PATH", v.data);
	env_activate(&env, &k.act, &warnings);
	buf_reset(&v);
	buf_printf(&v,
		   CUDA "/lib64:" CUDA "/extras/CUPTI/lib64:"
			"/nonexistent-cuenv/lib:%s/plain",
		   fx->root);
	assert_string_equal(envmap_get(&env, "LD_LIBRARY_PATH"), v.data);
	assert_int_equal(warnings.n, 0);
	envmap_release(&env);
	strv_release(&warnings);
	buf_release(&v);
	kit_release(&k);
	free(foreign);
}

static void test_env_undo_restores_dir_stripped_by_isolate(void **state)
{
	struct fixture *fx = *state;
	char *foreign = foreign_dir(fx);
	struct buf v = BUF_INIT;
	const char *vars[] = {NULL, "PATH=/usr/bin", NULL};
	struct kit k;

	buf_printf(&v, "LD_LIBRARY_PATH=/nonexistent-cuenv/lib:%s:/z", foreign);
	vars[0] = v.data;
	kit_init(&k, CUDA, false);
	k.act.isolate = 1;
	assert_round_trip(vars, &k);
	buf_release(&v);
	kit_release(&k);
	free(foreign);
}

static void test_env_activate_reports_foreign_dir_without_isolate(void **state)
{
	struct fixture *fx = *state;
	char *foreign = foreign_dir(fx);
	struct envmap env = ENVMAP_INIT;
	struct strv warnings = STRV_INIT;
	struct buf v = BUF_INIT;
	struct kit k;

	kit_init(&k, CUDA, false);
	envmap_set(&env, "LD_LIBRARY_PATH", foreign);
	env_activate(&env, &k.act, &warnings);
	/* kept, behind ours */
	buf_printf(&v, CUDA "/lib64:" CUDA "/extras/CUPTI/lib64:%s", foreign);
	assert_string_equal(envmap_get(&env, "LD_LIBRARY_PATH"), v.data);
	assert_int_equal(warnings.n, 1);
	buf_reset(&v);
	buf_printf(&v, "%s (libcupti.so.11.2)", foreign);
	assert_string_equal(warnings.v[0], v.data);
	envmap_release(&env);
	strv_release(&warnings);
	buf_release(&v);
	kit_release(&k);
	free(foreign);
}

static void test_env_undo_leaves_variable_changed_by_user_alone(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin",
					   "CUDA_HOME=/usr/local/cuda", NULL};
	struct envmap env = ENVMAP_INIT;
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, false);
	fx_env(&env, vars);
	env_activate(&env, &k.act, NULL);
	envmap_set(&env, "CUDA_HOME", "/mine/now");
	envmap_unset(&env, "CUDA_PATH");
	env_undo(&env);
	assert_string_equal(envmap_get(&env, "CUDA_HOME"), "/mine/now");
	assert_null(envmap_get(&env, "CUDA_PATH"));
	assert_null(envmap_get(&env, "CUENV_ACTIVE"));
	envmap_release(&env);
	kit_release(&k);
}

static void
test_env_undo_keeps_entries_user_added_after_activation(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin:/bin", NULL};
	struct envmap env = ENVMAP_INIT;
	struct buf v = BUF_INIT;
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, false);
	fx_env(&env, vars);
	env_activate(&env, &k.act, NULL);
	buf_printf(&v, "/venv/bin:%s:/extra", envmap_get(&env, "PATH"));
	envmap_set(&env, "PATH", v.data);
	envmap_set(&env, "LD_LIBRARY_PATH", "/mine");
	env_undo(&env);
	assert_string_equal(envmap_get(&env, "PATH"),
			    "/venv/bin:/usr/bin:/bin:/extra");
	assert_string_equal(envmap_get(&env, "LD_LIBRARY_PATH"), "/mine");
	envmap_release(&env);
	buf_release(&v);
	kit_release(&k);
}

static void test_env_undo_ignores_malformed_state(void **state)
{
	static const char *const bad[] = {
	    "2;P,PATH," CUDA "/bin;S,CUDA_HOME," CUDA,
	    "12;P,PATH," CUDA "/bin",
	    "1;P,PATH," CUDA "/bin;S,CUDA_HOME," CUDA ";P,PATH,%ZZ",
	    "1;P,PATH," CUDA "/bin;S,CUDA_HOME,%4",
	    "1;P,PATH," CUDA "/bin;P",
	    "1;P,PATH," CUDA "/bin;",
	    "1;PP,PATH," CUDA "/bin;S,CUDA_HOME," CUDA,
	    /* a name holding '=' (found by fuzz_env in CI): it would set
	     * __CUENV_STATE itself through "__CUENV_STATE=x=value" */
	    "1;P,PATH," CUDA "/bin;S,__CUENV_STATE=x,/y",
	    "1;P,PATH," CUDA "/bin;S,,/y",
	    "",
	};
	static const char *const vars[] = {"PATH=" CUDA "/bin:/usr/bin",
					   "CUDA_HOME=" CUDA, NULL};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct envmap env = ENVMAP_INIT, want = ENVMAP_INIT;

		fx_env(&env, vars);
		fx_env(&want, vars);
		envmap_set(&env, ENV_STATE_VAR, bad[i]);
		env_undo(&env);
		if (strcmp(envmap_get(&env, "PATH"), CUDA "/bin:/usr/bin") ||
		    !envmap_get(&env, "CUDA_HOME"))
			fail_msg("state '%s' undid something", bad[i]);
		/* the bad state itself is dropped */
		fx_assert_env_equal(&env, &want);
		envmap_release(&env);
		envmap_release(&want);
	}
}

static void test_env_undo_without_state_changes_nothing(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin", "A=1", NULL};
	struct envmap env = ENVMAP_INIT, want = ENVMAP_INIT;

	(void)state;
	fx_env(&env, vars);
	fx_env(&want, vars);
	env_undo(&env);
	fx_assert_env_equal(&env, &want);
	envmap_release(&env);
	envmap_release(&want);
}

static void test_env_state_survives_special_characters(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin:/a,b;c%41d\ne:/bin",
					   "CUDA_HOME=/old,cuda;home%2C\n%",
					   "LD_LIBRARY_PATH=%%:,;", NULL};
	struct kit k;

	(void)state;
	kit_init(&k, "/opt/we,ird;cuda%41\nx", true);
	assert_round_trip(vars, &k);
	kit_release(&k);
}

static void test_env_activate_after_undo_gives_same_result(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin:" CUDA "/bin",
					   "CUDA_HOME=/x", NULL};
	struct envmap env = ENVMAP_INIT, first = ENVMAP_INIT;
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, false);
	fx_env(&env, vars);
	env_activate(&env, &k.act, NULL);
	envmap_copy(&first, &env);
	env_undo(&env);
	env_activate(&env, &k.act, NULL);
	fx_assert_env_equal(&env, &first);
	envmap_release(&env);
	envmap_release(&first);
	kit_release(&k);
}

/* ---- a venv's saved PATH (_OLD_VIRTUAL_PATH) ----------------------------- */

/* What a venv's deactivate does: PATH back to what it saved. */
static void venv_deactivate(struct envmap *env)
{
	char *old = xstrdup(envmap_get(env, ENV_VENV_PATH));

	envmap_set(env, "PATH", old);
	envmap_unset(env, ENV_VENV_PATH);
	free(old);
}

/* What a venv's activate does: save PATH, put its bin first. */
static void venv_activate(struct envmap *env)
{
	char *old = xstrdup(envmap_get(env, "PATH"));
	struct buf path = BUF_INIT;

	envmap_set(env, ENV_VENV_PATH, old);
	buf_printf(&path, "/v/bin:%s", old);
	envmap_set(env, "PATH", path.data);
	buf_release(&path);
	free(old);
}

static void test_env_venv_deactivate_keeps_activation_path(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin", NULL};
	struct envmap env = ENVMAP_INIT;
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, false);
	fx_env(&env, vars);
	venv_activate(&env);
	env_activate(&env, &k.act, NULL); /* cd into the project */
	assert_string_equal(envmap_get(&env, "PATH"),
			    CUDA "/bin:/v/bin:/usr/bin");
	assert_string_equal(envmap_get(&env, ENV_VENV_PATH),
			    CUDA "/bin:/usr/bin");
	venv_deactivate(&env);
	assert_string_equal(envmap_get(&env, "PATH"), CUDA "/bin:/usr/bin");
	env_undo(&env); /* cd out */
	assert_string_equal(envmap_get(&env, "PATH"), "/usr/bin");
	envmap_release(&env);
	kit_release(&k);
}

static void test_env_undo_leaves_venv_saved_path_without_toolkit(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin", NULL};
	struct envmap env = ENVMAP_INIT;
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, false);
	fx_env(&env, vars);
	env_activate(&env, &k.act, NULL); /* cd into the project */
	venv_activate(&env);		  /* saves CUDA/bin:/usr/bin */
	env_undo(&env);			  /* cd out */
	assert_string_equal(envmap_get(&env, "PATH"), "/v/bin:/usr/bin");
	assert_string_equal(envmap_get(&env, ENV_VENV_PATH), "/usr/bin");
	venv_deactivate(&env);
	assert_string_equal(envmap_get(&env, "PATH"), "/usr/bin");
	envmap_release(&env);
	kit_release(&k);
}

static void test_env_venv_saved_path_empty_is_left_alone(void **state)
{
	static const char *const vars[] = {"PATH=/usr/bin", ENV_VENV_PATH "=",
					   NULL};
	struct envmap env = ENVMAP_INIT;
	struct kit k;

	(void)state;
	kit_init(&k, CUDA, false);
	fx_env(&env, vars);
	env_activate(&env, &k.act, NULL);
	assert_string_equal(envmap_get(&env, ENV_VENV_PATH), "");
	env_undo(&env);
	assert_string_equal(envmap_get(&env, ENV_VENV_PATH), "");
	envmap_release(&env);
	kit_release(&k);
}

/* ---- CUDA library folders ------------------------------------------------ */

static void test_env_dir_has_cuda_libs_names_one(void **state)
{
	struct fixture *fx = *state;
	struct buf ex = BUF_INIT;
	char *dir = fx_path(fx, "lib");

	fx_touch(fx, "lib/libz.so.1");
	fx_touch(fx, "lib/libcudnn_ops.so.9");
	assert_int_equal(env_dir_has_cuda_libs(dir, &ex), 1);
	assert_string_equal(ex.data, "libcudnn_ops.so.9");
	buf_release(&ex);
	free(dir);
}

static void test_env_dir_without_cuda_libs_is_not_foreign(void **state)
{
	struct fixture *fx = *state;
	struct buf ex = BUF_INIT;
	char *dir = fx_path(fx, "lib");
	char *missing = fx_path(fx, "missing");

	fx_touch(fx, "lib/libz.so.1");
	fx_touch(fx, "lib/libcudart_static.a");
	fx_touch(fx, "lib/cudart.so");
	assert_int_equal(env_dir_has_cuda_libs(dir, &ex), 0);
	assert_int_equal(env_dir_has_cuda_libs(missing, &ex), 0);
	buf_release(&ex);
	free(dir);
	free(missing);
}

/* ---- diff ---------------------------------------------------------------- */

static void test_env_diff_lists_changes_sorted_by_name(void **state)
{
	static const char *const from[] = {"Z=1", "SAME=x", "GONE=g",
					   "CHANGED=old", NULL};
	static const char *const to[] = {"CHANGED=new", "SAME=x", "NEW=", "Z=2",
					 NULL};
	struct envmap a = ENVMAP_INIT, b = ENVMAP_INIT;
	struct env_changes c = {0};

	(void)state;
	fx_env(&a, from);
	fx_env(&b, to);
	env_diff(&a, &b, &c);
	assert_int_equal(c.n, 4);
	assert_string_equal(c.v[0].name, "CHANGED");
	assert_string_equal(c.v[0].value, "new");
	assert_string_equal(c.v[1].name, "GONE");
	assert_null(c.v[1].value);
	assert_string_equal(c.v[2].name, "NEW");
	assert_string_equal(c.v[2].value, "");
	assert_string_equal(c.v[3].name, "Z");
	assert_string_equal(c.v[3].value, "2");
	env_changes_release(&c);
	assert_int_equal(c.n, 0);
	envmap_release(&a);
	envmap_release(&b);
}

static void test_env_diff_of_equal_environments_is_empty(void **state)
{
	static const char *const vars[] = {"A=1", "B=", NULL};
	struct envmap a = ENVMAP_INIT, b = ENVMAP_INIT;
	struct env_changes c = {0};

	(void)state;
	fx_env(&a, vars);
	fx_env(&b, vars);
	env_diff(&a, &b, &c);
	assert_int_equal(c.n, 0);
	env_changes_release(&c);
	envmap_release(&a);
	envmap_release(&b);
}

static void test_env_diff_tells_empty_from_unset(void **state)
{
	static const char *const from[] = {"A=", NULL};
	struct envmap a = ENVMAP_INIT, b = ENVMAP_INIT;
	struct env_changes c = {0};

	(void)state;
	fx_env(&a, from);
	env_diff(&a, &b, &c);
	assert_int_equal(c.n, 1);
	assert_null(c.v[0].value);
	env_changes_release(&c);
	env_diff(&b, &a, &c);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].value, "");
	env_changes_release(&c);
	envmap_release(&a);
}

/* The first executable regular file on PATH; relative entries skipped. */
static void test_env_which_finds_the_first_executable(void **state)
{
	struct fixture *fx = *state;
	struct envmap env = ENVMAP_INIT;
	struct buf path = BUF_INIT;
	char *a = fx_path(fx, "a"), *b = fx_path(fx, "b"),
	     *c = fx_path(fx, "c");
	char *want = fx_path(fx, "c/tool"), *got;

	fx_touch(fx, "a/tool");	     /* not executable */
	fx_mkdir(fx, "b/tool");	     /* a folder */
	fx_touch_exec(fx, "c/tool"); /* this one */
	fx_touch_exec(fx, "d/tool"); /* later */
	buf_printf(&path, "rel:%s:%s:%s:%s/../d", a, b, c, fx->root);
	envmap_set(&env, "PATH", path.data);
	got = env_which(&env, "tool");
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
	assert_null(env_which(&env, "nosuch"));
	envmap_unset(&env, "PATH");
	assert_null(env_which(&env, "tool"));
	envmap_release(&env);
	buf_release(&path);
	free(a);
	free(b);
	free(c);
	free(want);
}

#define FS_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

/* The selection cuenv use sets, as select_find reads it. */
static void test_env_select_in_reads_the_selection_variables(void **state)
{
	char *envp[] = {"CUENV_VERSION=12.4", "CUENV_CUDNN_VERSION=9",
			"CUENV_ISOLATE=1", "CUENV_CUPTI=x", NULL};
	struct envmap env = ENVMAP_INIT;
	struct select_in in;

	(void)state;
	envmap_from(&env, envp);
	env_select_in(&env, "/w", "/r", &in);
	assert_string_equal(in.cwd, "/w");
	assert_string_equal(in.root, "/r");
	assert_string_equal(in.env_cuda, "12.4");
	assert_string_equal(in.env_cudnn, "9");
	assert_null(in.env_cupti);
	assert_string_equal(in.env_isolate, "1");
	envmap_release(&env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_env_venv_deactivate_keeps_activation_path),
	    cmocka_unit_test(
		test_env_undo_leaves_venv_saved_path_without_toolkit),
	    cmocka_unit_test(test_env_venv_saved_path_empty_is_left_alone),
	    cmocka_unit_test(test_env_select_in_reads_the_selection_variables),
	    FS_TEST(test_env_which_finds_the_first_executable),
	    cmocka_unit_test(test_envmap_from_copies_entries_with_equals),
	    cmocka_unit_test(test_envmap_get_matches_whole_names),
	    cmocka_unit_test(test_env_get_reads_a_raw_environment),
	    cmocka_unit_test(test_env_get_nonempty_takes_empty_for_unset),
	    cmocka_unit_test(test_envmap_set_replaces_or_adds),
	    cmocka_unit_test(test_envmap_unset_removes_only_that_name),
	    cmocka_unit_test(test_envmap_copy_is_independent),
	    cmocka_unit_test(test_env_activate_prepends_and_sets),
	    cmocka_unit_test(test_env_activate_on_windows_puts_dlls_on_path),
	    cmocka_unit_test(
		test_env_activate_takes_only_absolute_folders_of_its_rules),
	    cmocka_unit_test(test_env_state_is_one_line),
	    cmocka_unit_test(test_env_undo_restores_path_with_user_entries),
	    cmocka_unit_test(test_env_undo_unsets_variable_that_was_unset),
	    cmocka_unit_test(test_env_undo_keeps_set_but_empty_variable_empty),
	    cmocka_unit_test(test_env_undo_restores_users_cuda_home),
	    cmocka_unit_test(test_env_activate_drops_entries_that_would_split),
	    cmocka_unit_test(
		test_env_activate_moves_user_entry_instead_of_duplicating),
	    cmocka_unit_test(
		test_env_undo_puts_moved_user_entry_back_at_its_index),
	    cmocka_unit_test(test_env_undo_restores_path_that_was_only_ours),
	    FS_TEST(test_env_activate_isolate_strips_foreign_cuda_dir),
	    FS_TEST(test_env_undo_restores_dir_stripped_by_isolate),
	    FS_TEST(test_env_activate_reports_foreign_dir_without_isolate),
	    cmocka_unit_test(
		test_env_undo_leaves_variable_changed_by_user_alone),
	    cmocka_unit_test(
		test_env_undo_keeps_entries_user_added_after_activation),
	    cmocka_unit_test(test_env_undo_ignores_malformed_state),
	    cmocka_unit_test(test_env_undo_without_state_changes_nothing),
	    cmocka_unit_test(test_env_state_survives_special_characters),
	    cmocka_unit_test(test_env_activate_after_undo_gives_same_result),
	    FS_TEST(test_env_dir_has_cuda_libs_names_one),
	    FS_TEST(test_env_dir_without_cuda_libs_is_not_foreign),
	    cmocka_unit_test(test_env_diff_lists_changes_sorted_by_name),
	    cmocka_unit_test(test_env_diff_of_equal_environments_is_empty),
	    cmocka_unit_test(test_env_diff_tells_empty_from_unset),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
