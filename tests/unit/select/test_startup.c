/*
 * main's set-up: cuenv's root from the environment, and the logical
 * working directory.
 */
#include "fakes/fixture.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "select/startup.h"

/* startup_root for the NULL-terminated "NAME=VALUE" list vars. */
static int root_of(char *const *vars, struct buf *root, struct cuenv_err *err)
{
	buf_reset(root);
	err_release(err);
	return startup_root(vars, root, err);
}

static void test_startup_root_from_cuenv_root(void **state)
{
	char *plain[] = {"HOME=/home/u", "CUENV_ROOT=/srv/cuenv", NULL};
	char *slashes[] = {"CUENV_ROOT=/srv/cuenv//", NULL};
	char *top[] = {"CUENV_ROOT=///", NULL};
	struct buf root = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(root_of(plain, &root, &err), CUENV_OK);
	assert_string_equal(root.data, "/srv/cuenv");
	assert_int_equal(root_of(slashes, &root, &err), CUENV_OK);
	assert_string_equal(root.data, "/srv/cuenv");
	/* the root folder keeps its own separator, and is refused */
	assert_int_equal(root_of(top, &root, &err), CUENV_E_USAGE);
	assert_string_equal(root.data, "/");
	assert_string_equal(err.msg.data,
			    "CUENV_ROOT '/' is a folder the system shares: "
			    "cuenv's root must be a folder of its own");
	buf_release(&root);
	err_release(&err);
}

/* CUENV_ROOT=value: startup_root's code. */
static int root_code(const char *value)
{
	struct buf var = BUF_INIT, root = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *vars[] = {NULL, NULL};
	int rc;

	buf_printf(&var, "CUENV_ROOT=%s", value);
	vars[0] = var.data;
	rc = startup_root(vars, &root, &err);
	if (rc == CUENV_E_USAGE)
		assert_non_null(strstr(err.msg.data, "a folder the system "
						     "shares"));
	buf_release(&var);
	buf_release(&root);
	err_release(&err);
	return rc;
}

static void test_startup_root_refuses_folders_the_system_shares(void **state)
{
	static const char *const shared[] = {
	    "/",
	    "/usr",
	    "/etc",
	    "/bin",
	    "/lib64",
	    "/var",
	    "/opt/",
	    "/home",
	    "/tmp",
	    "/srv",
	    "/usr/local",
	    "/usr/lib",
	    "/var/lib",
	    "/var/tmp",
	    /* as they resolve, made or not */
	    "/opt/..",
	    "/usr/./lib",
	    "/no-such-cuenv-dir/..",
	    "/no-such-cuenv-dir/x/../../usr",
	};
	static const char *const own[] = {
	    "/opt/cuenv",
	    "/srv/cuenv",
	    "/usr/local/cuenv",
	    "/home/u/.cuenv",
	    "/var/lib/cuenv",
	    "/no-such-cuenv-dir/x",
	    /* a folder of its own at the top: no system folder */
	    "/cuenv",
	    "/.cuenv",
	    "/no-such-cuenv-dir",
	};
	char *home_slash[] = {"HOME=/", NULL};
	struct buf root = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(shared) / sizeof(*shared); i++)
		if (root_code(shared[i]) != CUENV_E_USAGE)
			fail_msg("'%s' was taken", shared[i]);
	for (size_t i = 0; i < sizeof(own) / sizeof(*own); i++)
		if (root_code(own[i]) != CUENV_OK)
			fail_msg("'%s' was refused", own[i]);
	/* the default root too: HOME=/ (a container's) gives /.cuenv, a
	 * folder of cuenv's own; HOME=/usr gives /usr/.cuenv, also its own */
	assert_int_equal(root_of(home_slash, &root, &err), CUENV_OK);
	assert_string_equal(root.data, "/.cuenv");
	buf_release(&root);
	err_release(&err);
}

/* A link to / or to /usr is refused as what it resolves to. */
static void test_startup_root_refuses_link_to_system_folder(void **state)
{
	struct fixture *fx = *state;
	struct buf want = BUF_INIT;
	char *link = fx_path(fx, "slash"), *usr = fx_path(fx, "usr"),
	     *below = fx_path(fx, "slash/new/../var"),
	     *mine = fx_path(fx, "mine/cuenv");

	fx_symlink(fx, "/", "slash");
	fx_symlink(fx, "/usr/", "usr");
	assert_int_equal(root_code(link), CUENV_E_USAGE);
	assert_int_equal(root_code(usr), CUENV_E_USAGE);
	/* "/var" once new is made: refused before anything is */
	assert_int_equal(root_code(below), CUENV_E_USAGE);
	assert_false(fx_exists(fx, "slash/new"));
	assert_int_equal(root_code(mine), CUENV_OK);
	{
		struct cuenv_err err = CUENV_ERR_INIT;
		struct buf root = BUF_INIT;
		struct buf var = BUF_INIT;
		char *vars[] = {NULL, NULL};

		buf_printf(&var, "CUENV_ROOT=%s", link);
		vars[0] = var.data;
		assert_int_equal(startup_root(vars, &root, &err),
				 CUENV_E_USAGE);
		buf_printf(&want,
			   "CUENV_ROOT '%s' is '/', a folder the system "
			   "shares",
			   link);
		assert_non_null(strstr(err.msg.data, want.data));
		buf_release(&var);
		buf_release(&root);
		err_release(&err);
	}
	buf_release(&want);
	free(link);
	free(usr);
	free(below);
	free(mine);
}

static void test_startup_root_defaults_to_home(void **state)
{
	char *home[] = {"HOME=/home/u/", "CUENV_ROOT=", NULL};
	char *none[] = {"PATH=/bin", NULL};
	char *empty[] = {"HOME=", NULL};
	struct buf root = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	/* an empty CUENV_ROOT is no root */
	assert_int_equal(root_of(home, &root, &err), CUENV_OK);
	assert_string_equal(root.data, "/home/u/.cuenv");
	assert_int_equal(root_of(none, &root, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "neither CUENV_ROOT nor HOME is set");
	assert_int_equal(root_of(empty, &root, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "neither CUENV_ROOT nor HOME is set");
	assert_int_equal(root_of(NULL, &root, &err), CUENV_E_USAGE);
	buf_release(&root);
	err_release(&err);
}

static void test_startup_root_must_be_absolute_and_listable(void **state)
{
	char *rel[] = {"CUENV_ROOT=my/root", NULL};
	char *colon[] = {"CUENV_ROOT=/a:b", NULL};
	char *home_colon[] = {"HOME=/x:y", NULL};
	struct buf root = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(root_of(rel, &root, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "CUENV_ROOT must be an absolute "
					  "path, not 'my/root'");
	/* its folders go into PATH: a ':' would split them */
	assert_int_equal(root_of(colon, &root, &err), CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "CUENV_ROOT '/a:b' holds a ':'"));
	assert_int_equal(root_of(home_colon, &root, &err), CUENV_E_USAGE);
	assert_non_null(
	    strstr(err.msg.data, "cuenv's root '/x:y/.cuenv' holds a ':'"));
	buf_release(&root);
	err_release(&err);
}

/* ---- the working directory ---------------------------------------------- */

struct here {
	void *fx;  /* the fixture's state */
	char *was; /* the working directory to go back to */
};

static int here_setup(void **state)
{
	struct here *h = calloc(1, sizeof(*h));

	h->was = getcwd(NULL, 0);
	if (!h->was || fx_setup(&h->fx))
		return -1;
	*state = h;
	return 0;
}

static int here_teardown(void **state)
{
	struct here *h = *state;
	int rc = chdir(h->was);

	free(h->was);
	rc |= fx_teardown(&h->fx);
	free(h);
	return rc;
}

static void test_startup_cwd_keeps_a_symlinked_pwd(void **state)
{
	struct here *h = *state;
	struct fixture *fx = h->fx;
	char *real = fx_path(fx, "real"), *link = fx_path(fx, "link"),
	     *other = fx_path(fx, "other"), *dotted = fx_path(fx, "./real");
	char *cwd;
	int gone = 1;

	fx_mkdir(fx, "real");
	fx_mkdir(fx, "other");
	fx_symlink(fx, real, "link");
	assert_int_equal(chdir(real), 0);
	cwd = startup_cwd(link, &gone);
	assert_string_equal(cwd, link);
	assert_int_equal(gone, 0);
	free(cwd);
	/* a PWD that names another folder, or is not clean: getcwd's */
	cwd = startup_cwd(other, &gone);
	assert_string_equal(cwd, real);
	free(cwd);
	cwd = startup_cwd(dotted, &gone);
	assert_string_equal(cwd, real);
	free(cwd);
	cwd = startup_cwd("real", &gone);
	assert_string_equal(cwd, real);
	free(cwd);
	cwd = startup_cwd(NULL, &gone);
	assert_string_equal(cwd, real);
	free(cwd);
	free(real);
	free(link);
	free(other);
	free(dotted);
}

static void test_startup_cwd_of_a_deleted_folder_is_pwd(void **state)
{
	struct here *h = *state;
	struct fixture *fx = h->fx;
	char *dir = fx_path(fx, "gone"), *cwd;
	int gone = 0;

	fx_mkdir(fx, "gone");
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(rmdir(dir), 0);
	cwd = startup_cwd(dir, &gone);
	assert_string_equal(cwd, dir);
	assert_int_equal(gone, 1);
	free(cwd);
	/* with no PWD to fall back on there is none */
	errno = 0;
	assert_null(startup_cwd(NULL, &gone));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(gone, 0);
	free(dir);
}

#define HERE_TEST(t)                                                           \
	cmocka_unit_test_setup_teardown(t, here_setup, here_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_startup_root_from_cuenv_root),
	    cmocka_unit_test(test_startup_root_defaults_to_home),
	    cmocka_unit_test(test_startup_root_must_be_absolute_and_listable),
	    cmocka_unit_test(
		test_startup_root_refuses_folders_the_system_shares),
	    cmocka_unit_test_setup_teardown(
		test_startup_root_refuses_link_to_system_folder, fx_setup,
		fx_teardown),
	    HERE_TEST(test_startup_cwd_keeps_a_symlinked_pwd),
	    HERE_TEST(test_startup_cwd_of_a_deleted_folder_is_pwd),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
