#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/trust.h"
#include "base/xalloc.h"

/* ---- paths for PATH-like lists ------------------------------------------- */

static void test_trust_listable_takes_plain_absolute_path(void **state)
{
	(void)state;
	assert_true(trust_path_listable("/opt/cuda-12.4/lib64"));
	assert_true(trust_path_listable("/opt/sp ace/'q'/$x/*"));
}

static void test_trust_listable_refuses_relative_path(void **state)
{
	(void)state;
	assert_false(trust_path_listable("kit/lib64"));
	assert_false(trust_path_listable(""));
}

static void test_trust_listable_refuses_separators(void **state)
{
	(void)state;
	assert_false(trust_path_listable("/opt/tool:kit"));
	assert_false(trust_path_listable("/opt/tool;kit"));
	assert_false(trust_path_listable("/opt/tool\nkit"));
}

/* Windows' lists split at ';' only; its absolute paths hold a ':'. */
static void test_trust_listable_under_windows_rules(void **state)
{
	const struct plat_path_rules *w = &plat_path_windows;

	(void)state;
	assert_true(trust_path_listable_in(
	    w, "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2"));
	assert_true(trust_path_listable_in(w, "\\\\srv\\share\\cuda"));
	assert_false(trust_path_listable_in(w, "C:\\a;b"));
	assert_false(trust_path_listable_in(w, "C:\\a\nb"));
	assert_false(trust_path_listable_in(w, "C:cuda"));
	assert_false(trust_path_listable_in(w, "\\cuda"));
	assert_false(trust_path_listable_in(w, "cuda\\bin"));
	assert_false(trust_path_listable_in(&plat_path_posix, "C:\\x"));
}

static void test_trust_check_listable_names_path_and_char(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(
	    trust_check_listable("/opt/tool:kit", "CUENV_ROOT", &err),
	    CUENV_E_USAGE);
	assert_non_null(
	    strstr(err.msg.data, "CUENV_ROOT '/opt/tool:kit' holds a ':'"));
	err_release(&err);
	assert_int_equal(trust_check_listable("/a\nb:c", "x", &err),
			 CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "holds a newline"));
	err_release(&err);
	assert_int_equal(trust_check_listable("rel", "x", &err), CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "not an absolute path"));
	err_release(&err);
	assert_int_equal(trust_check_listable("/ok", "x", &err), CUENV_OK);
	err_release(&err);
}

/* ---- ownership and modes ------------------------------------------------ */

/* trust_check_path on fx's rel as this user; the message when it fails. */
static int check(struct fixture *fx, const char *rel, struct cuenv_err *err)
{
	char *p = fx_path(fx, rel);
	int rc = trust_check_path(p, geteuid(), geteuid(), err);

	free(p);
	return rc;
}

static void set_mode(struct fixture *fx, const char *rel, mode_t mode)
{
	char *p = fx_path(fx, rel);

	assert_int_equal(chmod(p, mode), 0);
	free(p);
}

static void test_trust_path_takes_own_folder_and_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;

	fx_mkdir(fx, "root");
	set_mode(fx, "root", 0755);
	fx_write(fx, "root/receipt", "{}");
	set_mode(fx, "root/receipt", 0644);
	assert_int_equal(check(fx, "root", &err), CUENV_OK);
	assert_int_equal(check(fx, "root/receipt", &err), CUENV_OK);
	err_release(&err);
}

static void test_trust_path_passes_missing_path(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;

	assert_int_equal(check(fx, "nothing/here", &err), CUENV_OK);
	err_release(&err);
}

static void test_trust_path_refuses_world_writable_folder(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *p = fx_path(fx, "root");
	struct buf want = BUF_INIT;

	fx_mkdir(fx, "root");
	set_mode(fx, "root", 0777);
	assert_int_equal(check(fx, "root", &err), CUENV_E_STORE);
	buf_printf(&want, "'%s' is writable by others (mode 0777)", p);
	assert_non_null(strstr(err.msg.data, want.data));
	buf_reset(&want);
	buf_printf(&want, "fix it with: chmod go-w '%s'", p);
	assert_string_equal(err.hint.data, want.data);
	buf_release(&want);
	free(p);
	err_release(&err);
}

static void test_trust_path_refuses_group_writable_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;

	fx_write(fx, "receipt", "{}");
	set_mode(fx, "receipt", 0664);
	assert_int_equal(check(fx, "receipt", &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "(mode 0664)"));
	err_release(&err);
}

static void test_trust_path_hint_quotes_path_for_sh(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;

	fx_mkdir(fx, "it's");
	set_mode(fx, "it's", 0757);
	assert_int_equal(check(fx, "it's", &err), CUENV_E_STORE);
	assert_non_null(strstr(err.hint.data, "/it'\\''s'"));
	err_release(&err);
}

/*
 * Owned by someone else: as root, chown the folder to nobody (65534). As
 * anyone else there is no other owner to give it (asking as another uid
 * would fail at the fixture's own folder, which is ours): skipped.
 */
static void test_trust_path_refuses_folder_of_another_user(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *p = fx_path(fx, "root");
	uid_t me = geteuid(), other = 65534;
	struct buf want = BUF_INIT;

	if (me != 0) {
		free(p);
		skip();
	}
	fx_mkdir(fx, "root");
	set_mode(fx, "root", 0755);
	assert_int_equal(chown(p, other, (gid_t)-1), 0);
	assert_int_equal(trust_check_path(p, me, 0, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "is owned by uid"));
	buf_printf(&want, "fix it with: chown 0 '%s'", p);
	assert_string_equal(err.hint.data, want.data);
	buf_release(&want);
	free(p);
	err_release(&err);
}

static void test_trust_path_fixes_owner_and_mode_in_one_hint(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *p = fx_path(fx, "root");
	uid_t me = geteuid();
	struct buf want = BUF_INIT;

	if (me != 0) { /* as above */
		free(p);
		skip();
	}
	fx_mkdir(fx, "root");
	set_mode(fx, "root", 0777);
	assert_int_equal(chown(p, 65534, (gid_t)-1), 0);
	assert_int_equal(trust_check_path(p, me, me, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "and writable by others"));
	buf_printf(&want, "fix it with: chown %lu '%s' && chmod go-w '%s'",
		   (unsigned long)me, p, p);
	assert_string_equal(err.hint.data, want.data);
	buf_release(&want);
	free(p);
	err_release(&err);
}

static void test_trust_path_takes_root_owned_folder(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	/* "/" is root's and not writable by others on any sane system. */
	assert_int_equal(trust_check_path("/", geteuid() + 1, 0, &err),
			 CUENV_OK);
	err_release(&err);
}

/* ---- the folders on the way ------------------------------------------- */

/* err names fx's rel as the folder at fault, "beneath" it. */
static void assert_names(struct fixture *fx, const struct cuenv_err *err,
			 const char *rel, const char *what)
{
	char *p = fx_path(fx, rel);
	struct buf want = BUF_INIT;

	buf_printf(&want, "'%s' is %s", p, what);
	if (!strstr(err->msg.data, want.data))
		fail_msg("'%s' does not hold '%s'", err->msg.data, want.data);
	assert_non_null(strstr(err->msg.data, "beneath it"));
	buf_release(&want);
	free(p);
}

static void test_trust_path_refuses_parent_others_can_write(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *p = fx_path(fx, "shared"), *hint;

	fx_mkdir(fx, "shared/sub/root/versions");
	set_mode(fx, "shared", 0777);
	assert_int_equal(check(fx, "shared/sub/root", &err), CUENV_E_STORE);
	assert_names(fx, &err, "shared", "writable by others (mode 0777)");
	hint = xstrdup(err.hint.data);
	err_release(&err);
	/* checked for what is beneath the root too */
	assert_int_equal(check(fx, "shared/sub/root/versions", &err),
			 CUENV_E_STORE);
	assert_string_equal(err.hint.data, hint);
	assert_non_null(strstr(hint, "chmod go-w '"));
	assert_non_null(strstr(hint, p));
	free(hint);
	free(p);
	err_release(&err);
}

static void test_trust_path_refuses_parent_of_another_user(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *p = fx_path(fx, "theirs");
	struct buf want = BUF_INIT;

	if (geteuid() != 0) { /* chown needs root */
		free(p);
		skip();
	}
	fx_mkdir(fx, "theirs/root");
	assert_int_equal(chown(p, 65534, (gid_t)-1), 0);
	assert_int_equal(check(fx, "theirs/root", &err), CUENV_E_STORE);
	assert_names(fx, &err, "theirs", "owned by uid 65534");
	buf_printf(&want, "fix it with: chown 0 '%s'", p);
	assert_string_equal(err.hint.data, want.data);
	buf_release(&want);
	free(p);
	err_release(&err);
}

/* Where the root is missing, the folders above it are not asked. */
static void test_trust_path_stops_where_the_path_does(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;

	fx_mkdir(fx, "open");
	set_mode(fx, "open", 0777);
	assert_int_equal(check(fx, "mine/gone/root", &err), CUENV_OK);
	assert_int_equal(check(fx, "open/gone", &err), CUENV_OK);
	err_release(&err);
}

/* /tmp: others may write it, but not rename what is mine in it. */
static void test_trust_path_takes_sticky_parent_of_my_entry(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;

	fx_mkdir(fx, "tmp/mine/root");
	set_mode(fx, "tmp", 01777);
	assert_int_equal(check(fx, "tmp/mine/root", &err), CUENV_OK);
	/* not sticky: anyone may rename mine away */
	set_mode(fx, "tmp", 0777);
	assert_int_equal(check(fx, "tmp/mine/root", &err), CUENV_E_STORE);
	assert_names(fx, &err, "tmp", "writable by others (mode 0777)");
	err_release(&err);
}

/* A link in a sticky folder, owned by another user: they may replace it. */
static void test_trust_path_refuses_their_link_in_sticky_parent(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *link = fx_path(fx, "tmp/root");
	struct buf want = BUF_INIT;

	if (geteuid() != 0) { /* lchown needs root */
		free(link);
		skip();
	}
	fx_mkdir(fx, "mine/root");
	fx_mkdir(fx, "tmp");
	set_mode(fx, "tmp", 01777);
	fx_symlink(fx, "../mine/root", "tmp/root");
	assert_int_equal(check(fx, "tmp/root", &err), CUENV_OK);
	assert_int_equal(lchown(link, 65534, (gid_t)-1), 0);
	assert_int_equal(check(fx, "tmp/root", &err), CUENV_E_STORE);
	assert_names(fx, &err, "tmp/root", "owned by uid 65534");
	buf_printf(&want, "fix it with: chown -h 0 '%s'", link);
	assert_string_equal(err.hint.data, want.data);
	buf_release(&want);
	free(link);
	err_release(&err);
}

/* A root that is a link: its own folders and its target's are checked. */
static void test_trust_path_checks_both_sides_of_a_link(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *target = fx_path(fx, "open/real");

	fx_mkdir(fx, "mine");
	fx_mkdir(fx, "open/real");
	fx_mkdir(fx, "safe/real");
	set_mode(fx, "open", 0777);
	/* the target's folder: an absolute link into it */
	fx_symlink(fx, target, "mine/root");
	assert_int_equal(check(fx, "mine/root", &err), CUENV_E_STORE);
	assert_names(fx, &err, "open", "writable by others");
	err_release(&err);
	/* and relative, through ".." */
	fx_symlink(fx, "../open/real", "mine/rel");
	assert_int_equal(check(fx, "mine/rel", &err), CUENV_E_STORE);
	assert_names(fx, &err, "open", "writable by others");
	err_release(&err);
	/* the link's own folder, though its target is safe */
	fx_symlink(fx, "../safe/real", "open/root");
	assert_int_equal(check(fx, "open/root", &err), CUENV_E_STORE);
	assert_names(fx, &err, "open", "writable by others");
	err_release(&err);
	set_mode(fx, "open", 0755);
	assert_int_equal(check(fx, "mine/root", &err), CUENV_OK);
	assert_int_equal(check(fx, "mine/rel", &err), CUENV_OK);
	assert_int_equal(check(fx, "open/root", &err), CUENV_OK);
	free(target);
	err_release(&err);
}

/* The root itself is never let off for being sticky. */
static void test_trust_path_refuses_sticky_root_itself(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;

	fx_mkdir(fx, "root");
	set_mode(fx, "root", 01777);
	assert_int_equal(check(fx, "root", &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "cuenv does not trust it"));
	err_release(&err);
}

#define FS_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_trust_listable_takes_plain_absolute_path),
	    cmocka_unit_test(test_trust_listable_refuses_relative_path),
	    cmocka_unit_test(test_trust_listable_refuses_separators),
	    cmocka_unit_test(test_trust_listable_under_windows_rules),
	    cmocka_unit_test(test_trust_check_listable_names_path_and_char),
	    FS_TEST(test_trust_path_takes_own_folder_and_file),
	    FS_TEST(test_trust_path_passes_missing_path),
	    FS_TEST(test_trust_path_refuses_world_writable_folder),
	    FS_TEST(test_trust_path_refuses_group_writable_file),
	    FS_TEST(test_trust_path_hint_quotes_path_for_sh),
	    FS_TEST(test_trust_path_refuses_folder_of_another_user),
	    FS_TEST(test_trust_path_fixes_owner_and_mode_in_one_hint),
	    cmocka_unit_test(test_trust_path_takes_root_owned_folder),
	    FS_TEST(test_trust_path_refuses_parent_others_can_write),
	    FS_TEST(test_trust_path_refuses_parent_of_another_user),
	    FS_TEST(test_trust_path_stops_where_the_path_does),
	    FS_TEST(test_trust_path_takes_sticky_parent_of_my_entry),
	    FS_TEST(test_trust_path_refuses_their_link_in_sticky_parent),
	    FS_TEST(test_trust_path_checks_both_sides_of_a_link),
	    FS_TEST(test_trust_path_refuses_sticky_root_itself),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
