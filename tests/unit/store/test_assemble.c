#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "store/assemble.h"
#include "fakes/fixture.h"

/*
 * Each test builds pool trees under the fixture root ("a", "b", ...), a
 * version folder "v" to assemble them into, and a folder "outside" beside
 * it that must stay empty whatever the trees hold.
 */

/* ---- helpers ------------------------------------------------------------- */

static void assert_contains(const char *s, const char *part)
{
	if (!strstr(s, part))
		fail_msg("'%s' does not contain '%s'", s, part);
}

/* Assemble the trees named in trees (NULL-terminated) into v. */
static int assemble_trees(const struct fixture *fx, const char *const *trees,
			  struct cuenv_err *err)
{
	struct assemble *a = NULL;
	char *dest = fx_path(fx, "v");
	int rc;

	fx_mkdir(fx, "v");
	fx_mkdir(fx, "outside");
	rc = assemble_open(&a, dest, err);
	for (size_t i = 0; !rc && trees[i]; i++) {
		char *tree = fx_path(fx, trees[i]);

		rc = assemble_add(a, tree, trees[i], err);
		free(tree);
	}
	assemble_free(a);
	free(dest);
	return rc;
}

static ino_t inode_of(const struct fixture *fx, const char *rel)
{
	char *p = fx_path(fx, rel);
	struct stat st;

	assert_int_equal(lstat(p, &st), 0);
	free(p);
	return st.st_ino;
}

static void assert_link(const struct fixture *fx, const char *rel,
			const char *target)
{
	char *p = fx_path(fx, rel), got[256];
	ssize_t n = readlink(p, got, sizeof(got) - 1);

	assert_true(n >= 0);
	got[n] = '\0';
	assert_string_equal(got, target);
	free(p);
}

static void assert_refused(const struct fixture *fx, const char *const *trees,
			   const char *why)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	assert_int_equal(assemble_trees(fx, trees, &err), CUENV_E_UNPACK);
	assert_contains(err.msg.data, why);
	assert_null(strchr(err.msg.data, '\n'));
	assert_int_equal(fx_count_entries(fx, "outside"), 0);
	err_release(&err);
}

/* ---- merging ------------------------------------------------------------- */

static void test_assemble_hard_links_files_and_copies_links(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *const trees[] = {"a", "b", NULL};

	fx_write(fx, "a/lib/libx.so.1.2", "x");
	fx_symlink(fx, "libx.so.1.2", "a/lib/libx.so.1");
	fx_write(fx, "b/lib/liby.so", "y");
	fx_write(fx, "b/include/y.h", "h");
	assert_int_equal(assemble_trees(fx, trees, &err), CUENV_OK);
	assert_int_equal(inode_of(fx, "v/lib/libx.so.1.2"),
			 inode_of(fx, "a/lib/libx.so.1.2"));
	assert_int_equal(inode_of(fx, "v/lib/liby.so"),
			 inode_of(fx, "b/lib/liby.so"));
	assert_link(fx, "v/lib/libx.so.1", "libx.so.1.2");
	assert_true(fx_exists(fx, "v/include/y.h"));
	assert_int_equal(fx_count_entries(fx, "v/lib"), 3);
	err_release(&err);
}

static void test_assemble_keeps_the_first_of_a_shared_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *const trees[] = {"a", "b", NULL};
	char *text;

	fx_write(fx, "a/LICENSE", "license");
	fx_write(fx, "b/LICENSE", "license");
	fx_symlink(fx, "LICENSE", "a/COPYING");
	fx_symlink(fx, "LICENSE", "b/COPYING");
	assert_int_equal(assemble_trees(fx, trees, &err), CUENV_OK);
	assert_int_equal(inode_of(fx, "v/LICENSE"), inode_of(fx, "a/LICENSE"));
	text = fx_read(fx, "v/LICENSE");
	assert_string_equal(text, "license");
	assert_link(fx, "v/COPYING", "LICENSE");
	free(text);
	err_release(&err);
}

/* ---- trees that are only dangerous together ------------------------------ */

static void test_assemble_refuses_split_symlink_chain(void **state)
{
	struct fixture *fx = *state;
	const char *const trees[] = {"a", "b", "c", NULL};

	/*
	 * a's d1/d2/up is the version folder; b's d1/d2/up/esc is inside at
	 * its own depth, but would leave v once it sits in v itself; c's
	 * file would be written through both.
	 */
	fx_mkdir(fx, "a/d1/d2");
	fx_symlink(fx, "../..", "a/d1/d2/up");
	fx_mkdir(fx, "b/d1/d2/up");
	fx_symlink(fx, "../../../outside", "b/d1/d2/up/esc");
	fx_write(fx, "c/d1/d2/up/esc/pwned", "pwned");
	assert_refused(fx, trees,
		       "refused archives: 'd1/d2/up' is a symbolic link in "
		       "'a' and a folder in 'b'");
	assert_false(fx_exists(fx, "v/esc"));
}

static void test_assemble_refuses_link_where_a_folder_is(void **state)
{
	struct fixture *fx = *state;
	const char *const trees[] = {"a", "b", NULL};

	fx_write(fx, "a/lib/x/f", "f");
	fx_mkdir(fx, "b/lib");
	fx_symlink(fx, "../outside", "b/lib/x");
	assert_refused(fx, trees,
		       "refused archives: 'lib/x' is a folder in 'a' and a "
		       "symbolic link in 'b'");
}

static void test_assemble_refuses_folder_where_a_file_is(void **state)
{
	struct fixture *fx = *state;
	const char *const trees[] = {"a", "b", NULL};

	fx_write(fx, "a/share/x", "file");
	fx_write(fx, "b/share/x/f", "beneath");
	assert_refused(fx, trees,
		       "refused archives: 'share/x' is a file in 'a' and a "
		       "folder in 'b'");
}

static void test_assemble_refuses_file_where_a_link_is(void **state)
{
	struct fixture *fx = *state;
	const char *const trees[] = {"a", "b", NULL};

	fx_mkdir(fx, "a");
	fx_symlink(fx, "elsewhere", "a/f");
	fx_write(fx, "b/f", "file");
	assert_refused(fx, trees,
		       "refused archives: 'f' is a symbolic link in 'a' and a "
		       "file in 'b'");
}

static void test_assemble_names_the_first_owner(void **state)
{
	struct fixture *fx = *state;
	const char *const trees[] = {"a", "b", "c", NULL};

	fx_write(fx, "a/one", "1");
	fx_write(fx, "b/lib/x", "file");
	fx_write(fx, "c/lib/x/f", "beneath");
	assert_refused(fx, trees,
		       "refused archives: 'lib/x' is a file in 'b' and a "
		       "folder in 'c'");
}

/* ---- trees that are dangerous alone -------------------------------------- */

static void test_assemble_refuses_escaping_symlink(void **state)
{
	struct fixture *fx = *state;
	const char *const trees[] = {"a", NULL};

	/* A pool tree unpacked by an older, laxer cuenv. */
	fx_mkdir(fx, "a/lib");
	fx_symlink(fx, "../../outside", "a/lib/out");
	assert_refused(fx, trees,
		       "refused archive entry 'lib/out': symbolic link to "
		       "'../../outside' leaves the destination (in 'a')");
	assert_false(fx_exists(fx, "v/lib/out"));
}

static void test_assemble_refuses_symlink_dotdot_after_name(void **state)
{
	struct fixture *fx = *state;
	const char *const trees[] = {"a", NULL};

	fx_mkdir(fx, "a/d");
	fx_symlink(fx, "..", "a/d/up");
	fx_symlink(fx, "up/../../outside", "a/d/s");
	assert_refused(fx, trees, "has '..' after a name");
}

static void test_assemble_refuses_absolute_symlink(void **state)
{
	struct fixture *fx = *state;
	const char *const trees[] = {"a", NULL};
	char *outside = fx_path(fx, "outside");

	fx_mkdir(fx, "a");
	fx_symlink(fx, outside, "a/abs");
	assert_refused(fx, trees, "leaves the destination");
	free(outside);
}

static void test_assemble_refuses_special_file(void **state)
{
	struct fixture *fx = *state;
	const char *const trees[] = {"a", NULL};
	char *fifo = fx_path(fx, "a/fifo");

	fx_mkdir(fx, "a");
	assert_int_equal(mkfifo(fifo, 0644), 0);
	assert_refused(fx, trees,
		       "refused archive entry 'fifo' (in 'a'): not a file, "
		       "folder or symbolic link");
	free(fifo);
}

static void test_assemble_refuses_empty_tree(void **state)
{
	struct fixture *fx = *state;
	const char *const trees[] = {"a", "b", NULL};

	fx_write(fx, "a/f", "f");
	fx_mkdir(fx, "b");
	assert_refused(fx, trees,
		       "refused archive 'b': nothing in it to install");
}

/* ---- the destination ----------------------------------------------------- */

static void test_assemble_never_follows_what_is_there(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct assemble *a = NULL;
	char *dest = fx_path(fx, "v"), *tree = fx_path(fx, "a");

	/* Planted beforehand: a link to outside, and a dangling one. */
	fx_mkdir(fx, "outside");
	fx_mkdir(fx, "v");
	fx_symlink(fx, "../outside", "v/lib");
	fx_symlink(fx, "../outside/new", "v/f");
	fx_write(fx, "a/lib/x", "x");
	fx_write(fx, "a/f", "f");
	assert_int_equal(assemble_open(&a, dest, &err), CUENV_OK);
	assert_int_equal(assemble_add(a, tree, "a", &err), CUENV_E_UNPACK);
	assert_contains(err.msg.data, "is a symbolic link in 'an earlier "
				      "archive' and a file in 'a'");
	assert_int_equal(fx_count_entries(fx, "outside"), 0);
	assemble_free(a);
	free(dest);
	free(tree);
	err_release(&err);
}

static void test_assemble_refuses_a_symlinked_destination(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct assemble *a = NULL;
	char *dest = fx_path(fx, "v");

	fx_mkdir(fx, "outside");
	fx_symlink(fx, "outside", "v");
	assert_int_equal(assemble_open(&a, dest, &err), CUENV_E_STORE);
	assert_null(a);
	assert_contains(err.msg.data, dest);
	free(dest);
	err_release(&err);
}

static void test_assemble_missing_tree_is_store_error(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *const trees[] = {"missing", NULL};

	assert_int_equal(assemble_trees(fx, trees, &err), CUENV_E_STORE);
	assert_contains(err.msg.data, strerror(ENOENT));
	err_release(&err);
}

#define FX(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    FX(test_assemble_hard_links_files_and_copies_links),
	    FX(test_assemble_keeps_the_first_of_a_shared_file),
	    FX(test_assemble_refuses_split_symlink_chain),
	    FX(test_assemble_refuses_link_where_a_folder_is),
	    FX(test_assemble_refuses_folder_where_a_file_is),
	    FX(test_assemble_refuses_file_where_a_link_is),
	    FX(test_assemble_names_the_first_owner),
	    FX(test_assemble_refuses_escaping_symlink),
	    FX(test_assemble_refuses_symlink_dotdot_after_name),
	    FX(test_assemble_refuses_absolute_symlink),
	    FX(test_assemble_refuses_special_file),
	    FX(test_assemble_refuses_empty_tree),
	    FX(test_assemble_never_follows_what_is_there),
	    FX(test_assemble_refuses_a_symlinked_destination),
	    FX(test_assemble_missing_tree_is_store_error),
	};

	cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
