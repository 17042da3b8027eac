/*
 * gc on a store made by hand: dead and live staging folders, lock files
 * left behind, pool trees, the download cache. (With real installs:
 * test_install.c and tests/e2e/t55*.)
 */
#include "fakes/fixture.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "install/gc.h"

#define SHA1 "1111111111111111111111111111111111111111111111111111111111111111"
#define SHA2 "2222222222222222222222222222222222222222222222222222222222222222"
#define SHA3 "3333333333333333333333333333333333333333333333333333333333333333"

/* Set fx's file rel's mtime to age seconds ago. */
static void age(const struct fixture *fx, const char *rel, time_t age)
{
	struct timespec ts[2];
	char *p = fx_path(fx, rel);

	clock_gettime(CLOCK_REALTIME, &ts[0]);
	ts[0].tv_sec -= age;
	ts[1] = ts[0];
	assert_int_equal(utimensat(AT_FDCWD, p, ts, AT_SYMLINK_NOFOLLOW), 0);
	free(p);
}

/* Hold fx's lock file rel, as a live process does; close the fd to free. */
static int hold(const struct fixture *fx, const char *rel)
{
	char *p = fx_path(fx, rel);
	int fd = store_lock_path(p, 1, 0);

	assert_true(fd >= 0);
	free(p);
	return fd;
}

static void open_store(const struct fixture *fx, struct store *st)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	char *root = fx_path(fx, "root");

	assert_int_equal(store_open(st, root, true, &err), CUENV_OK);
	free(root);
}

static void run_gc(struct store *st, const struct gc_opts *o,
		   struct gc_report *r)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	if (gc_run(st, o, r, &err))
		fail_msg("%s", err.msg.data);
}

static void
test_gc_sweeps_dead_staging_folders_and_keeps_live_ones(void **state)
{
	struct fixture *fx = *state;
	struct gc_opts o = {0};
	struct gc_report r;
	struct store st;
	int live;

	fx_write(fx, "root/.staging/install-dead/f", "0123456789");
	fx_touch(fx, "root/.staging/install-dead.lock");
	fx_write(fx, "root/.staging/install-live/f", "x");
	live = hold(fx, "root/.staging/install-live.lock");
	/* lockless: an install's goes only when an hour old, a trash's now */
	fx_write(fx, "root/.staging/install-young/f", "x");
	fx_write(fx, "root/.staging/install-old/f", "x");
	age(fx, "root/.staging/install-old", 7200);
	fx_write(fx, "root/.staging/trash-t/f", "x");
	fx_write(fx, "root/.staging/register-g/f", "x");
	fx_write(fx, "root/.staging/other/f", "not ours");
	open_store(fx, &st);
	run_gc(&st, &o, &r);
	close(live);
	assert_int_equal(r.leftovers, 4);
	assert_false(fx_exists(fx, "root/.staging/install-dead"));
	assert_false(fx_exists(fx, "root/.staging/install-dead.lock"));
	assert_false(fx_exists(fx, "root/.staging/install-old"));
	assert_false(fx_exists(fx, "root/.staging/trash-t"));
	assert_false(fx_exists(fx, "root/.staging/register-g"));
	assert_true(fx_exists(fx, "root/.staging/install-live/f"));
	assert_true(fx_exists(fx, "root/.staging/install-live.lock"));
	assert_true(fx_exists(fx, "root/.staging/install-young/f"));
	assert_true(fx_exists(fx, "root/.staging/other/f"));
	store_release(&st);
}

static void test_gc_sweep_removes_only_old_free_orphan_locks(void **state)
{
	struct fixture *fx = *state;
	struct store st;
	char *root;
	int held;

	fx_touch(fx, "root/.staging/install-a.lock");
	age(fx, "root/.staging/install-a.lock", 7200);
	fx_touch(fx, "root/.staging/install-b.lock"); /* young */
	fx_touch(fx, "root/.staging/trash-c.lock");
	age(fx, "root/.staging/trash-c.lock", 7200);
	held = hold(fx, "root/.staging/trash-c.lock");
	open_store(fx, &st);
	root = fx_path(fx, "root");
	gc_sweep_staging(root);
	close(held);
	assert_false(fx_exists(fx, "root/.staging/install-a.lock"));
	assert_true(fx_exists(fx, "root/.staging/install-b.lock"));
	assert_true(fx_exists(fx, "root/.staging/trash-c.lock"));
	free(root);
	store_release(&st);
}

static void test_gc_prunes_unlinked_pool_trees_and_stale_parts(void **state)
{
	struct fixture *fx = *state;
	struct gc_opts o = {.part_age = 3600};
	struct gc_report r;
	struct store st;

	fx_write(fx, "root/pool/" SHA1 "/lib/a", "0123456789");
	fx_write(fx, "root/pool/" SHA2 "/lib/b", "xyz");
	/* what the installs that made them left: the store's records */
	fx_touch(fx, "root/.locks/" SHA1 ".lock");
	fx_touch(fx, "root/.locks/" SHA2 ".lock");
	fx_mkdir(fx, "root/versions/cuda/12.4.1/lib");
	{
		char *from = fx_path(fx, "root/pool/" SHA2 "/lib/b");
		char *to = fx_path(fx, "root/versions/cuda/12.4.1/lib/b");

		assert_int_equal(link(from, to), 0);
		free(from);
		free(to);
	}
	fx_write(fx, "root/cache/" SHA1 ".part", "12345");
	age(fx, "root/cache/" SHA1 ".part", 7200);
	fx_write(fx, "root/cache/" SHA2 ".part", "12"); /* fresh */
	fx_write(fx, "root/cache/" SHA1, "whole");	/* kept without cache */
	open_store(fx, &st);
	run_gc(&st, &o, &r);
	assert_int_equal(r.trees, 1);
	assert_int_equal(r.tree_bytes, 10);
	assert_int_equal(r.parts, 1);
	assert_int_equal(r.part_bytes, 5);
	assert_int_equal(r.archives, 0);
	assert_false(fx_exists(fx, "root/pool/" SHA1));
	assert_true(fx_exists(fx, "root/pool/" SHA2 "/lib/b"));
	assert_false(fx_exists(fx, "root/cache/" SHA1 ".part"));
	assert_true(fx_exists(fx, "root/cache/" SHA2 ".part"));
	assert_true(fx_exists(fx, "root/cache/" SHA1));
	store_release(&st);
}

/*
 * A root made over a folder that had a pool/ or cache/ of someone else's:
 * what no record (.locks/<sha>.lock) names is not gc's to remove, even
 * with a sha256 for a name; a recorded one beside it goes.
 */
static void test_gc_leaves_what_no_record_names(void **state)
{
	struct fixture *fx = *state;
	struct gc_opts o = {.cache = 1, .part_age = 3600};
	struct gc_report r;
	struct store st;

	fx_write(fx, "root/pool/" SHA1 "/file", "theirs");
	fx_write(fx, "root/pool/" SHA1 "-rt/file", "theirs");
	fx_write(fx, "root/pool/notes/file", "theirs");
	fx_write(fx, "root/pool/" SHA2 "-0123456789ab-rt/lib/a", "ours");
	fx_touch(fx, "root/.locks/" SHA2 ".lock");
	fx_write(fx, "root/cache/" SHA1, "theirs");
	fx_write(fx, "root/cache/" SHA1 ".part", "theirs");
	age(fx, "root/cache/" SHA1 ".part", 7200);
	fx_write(fx, "root/cache/" SHA2, "ours");
	/* a record that is a folder is none */
	fx_write(fx, "root/pool/" SHA3 "/file", "theirs");
	fx_mkdir(fx, "root/.locks/" SHA3 ".lock");
	open_store(fx, &st);
	run_gc(&st, &o, &r);
	assert_int_equal(r.trees, 1);
	assert_int_equal(r.archives, 1);
	assert_int_equal(r.parts, 0);
	assert_true(fx_exists(fx, "root/pool/" SHA1 "/file"));
	assert_true(fx_exists(fx, "root/pool/" SHA1 "-rt/file"));
	assert_true(fx_exists(fx, "root/pool/notes/file"));
	assert_true(fx_exists(fx, "root/pool/" SHA3 "/file"));
	assert_false(fx_exists(fx, "root/.locks/" SHA1 ".lock"));
	assert_false(fx_exists(fx, "root/pool/" SHA2 "-0123456789ab-rt"));
	assert_true(fx_exists(fx, "root/cache/" SHA1));
	assert_true(fx_exists(fx, "root/cache/" SHA1 ".part"));
	assert_false(fx_exists(fx, "root/cache/" SHA2));
	store_release(&st);
}

static void test_gc_on_an_empty_store_frees_nothing(void **state)
{
	struct fixture *fx = *state;
	struct gc_opts o = {.cache = 1};
	struct gc_report r;
	struct store st;

	open_store(fx, &st);
	run_gc(&st, &o, &r);
	assert_int_equal(r.trees + r.leftovers + r.archives + r.parts + r.busy,
			 0);
	store_release(&st);
}

static void test_gc_render_says_only_what_happened(void **state)
{
	struct gc_report r = {.trees = 1, .tree_bytes = 2500000};
	struct buf out = BUF_INIT;

	(void)state;
	gc_render(&r, 0, &out);
	assert_string_equal(out.data, "removed 1 unused component (2.5 MB)\n");
	buf_reset(&out);
	r.trees = 0;
	r.tree_bytes = 0;
	gc_render(&r, 1, &out);
	assert_string_equal(out.data, "removed 0 unused components (0.0 MB)\n"
				      "removed 0 cached archives (0.0 MB)\n");
	buf_release(&out);
}

static void test_gc_render_every_line_in_order(void **state)
{
	struct gc_report r = {.trees = 3,
			      .tree_bytes = 3000000,
			      .leftovers = 1,
			      .leftover_bytes = 50000,
			      .archives = 2,
			      .archive_bytes = 1234567890,
			      .parts = 1,
			      .part_bytes = 999,
			      .busy = 2};
	struct buf out = BUF_INIT;

	(void)state;
	gc_render(&r, 1, &out);
	assert_string_equal(
	    out.data,
	    "removed 3 unused components (3.0 MB)\n"
	    "removed 1 folder left by interrupted installs or uninstalls "
	    "(0.1 MB)\n"
	    "removed 2 cached archives (1234.6 MB)\n"
	    "removed 1 partial download (0.0 MB)\n"
	    "kept 2 cached files a running install is using\n");
	buf_reset(&out);
	/* without --cache the archives are not mentioned */
	r.leftovers = 2;
	r.parts = 4;
	r.busy = 1;
	gc_render(&r, 0, &out);
	assert_string_equal(
	    out.data,
	    "removed 3 unused components (3.0 MB)\n"
	    "removed 2 folders left by interrupted installs or uninstalls "
	    "(0.1 MB)\n"
	    "removed 4 partial downloads (0.0 MB)\n"
	    "kept 1 cached file a running install is using\n");
	buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)
	    T(test_gc_sweeps_dead_staging_folders_and_keeps_live_ones),
	    T(test_gc_sweep_removes_only_old_free_orphan_locks),
	    T(test_gc_prunes_unlinked_pool_trees_and_stale_parts),
	    T(test_gc_leaves_what_no_record_names),
	    T(test_gc_on_an_empty_store_frees_nothing),
	    cmocka_unit_test(test_gc_render_says_only_what_happened),
	    cmocka_unit_test(test_gc_render_every_line_in_order),
#undef T
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
