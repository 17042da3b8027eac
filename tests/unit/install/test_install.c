/*
 * cuenv install against a file:// mirror: real tar.xz archives made with
 * tar(1), a real catalogue entry, the real store. (HTTP faults, runfiles,
 * wheels and concurrency are covered end to end in tests/e2e/t5*.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "net/digest.h"
#include "install/gc.h"
#include "install/install.h"
#include "fakes/fixture.h"

#define TOP "cuda_cudart-linux-x86_64-12.4.127-archive"
#define REL "cuda_cudart/linux-x86_64/" TOP ".tar.xz"

struct world {
	struct fixture *fx;
	struct catalog cat;
	struct store st;
	char *mirror; /* file:// URL */
	char sha[DIGEST_HEX_LEN + 1];
};

/* A redist archive for cuda_cudart and a catalogue entry describing it. */
static void make_world(struct fixture *fx, struct world *w, int bad_sha)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf json = BUF_INIT, url = BUF_INIT;
	char *src = fx_path(fx, "src"), *out;
	char *argv[] = {"tar", "-C", src, "-cJf", NULL, TOP, NULL};
	struct buf o = BUF_INIT;
	struct stat st;
	char *root;

	memset(w, 0, sizeof(*w));
	w->fx = fx;
	fx_write(fx, "src/" TOP "/lib/libcudart.so.12.4.127", "ELF-ish");
	fx_symlink(fx, "libcudart.so.12.4.127",
		   "src/" TOP "/lib/libcudart.so.12");
	fx_write(fx, "src/" TOP "/include/cuda_runtime_api.h",
		 "#define CUDART_VERSION 12040\n");
	fx_write(fx, "src/" TOP "/LICENSE", "license\n");
	fx_mkdir(fx, "mirror/compute/cuda/redist/cuda_cudart/linux-x86_64");
	out = fx_path(fx, "mirror/compute/cuda/redist/" REL);
	argv[4] = out;
	assert_int_equal(fx_run(argv, &o), 0);
	assert_int_equal(digest_file(out, w->sha, &err), CUENV_OK);
	assert_int_equal(stat(out, &st), 0);
	buf_printf(&json,
		   "{\"release_label\": \"12.4.1\", \"release_product\": "
		   "\"cuda\", \"cuda_cudart\": {\"version\": \"12.4.127\", "
		   "\"linux-x86_64\": {\"relative_path\": \"" REL "\", "
		   "\"sha256\": \"%s\", \"size\": \"%lld\"}}}",
		   bad_sha ? "0000000000000000000000000000000000000000000000000"
			     "000000000000000"
			   : w->sha,
		   (long long)st.st_size);
	assert_int_equal(catalog_parse_redist(&w->cat, "t.json", json.data,
					      json.len, "linux-x86_64", NULL,
					      NULL, &err),
			 CUENV_OK);
	buf_printf(&url, "file://%s/mirror", fx->root);
	w->mirror = buf_detach(&url);
	root = fx_path(fx, "root");
	assert_int_equal(store_open(&w->st, root, true, &err), CUENV_OK);
	free(root);
	free(src);
	free(out);
	buf_release(&json);
	buf_release(&o);
}

static void end_world(struct world *w)
{
	catalog_release(&w->cat);
	store_release(&w->st);
	free(w->mirror);
}

static struct install_opts file_opts(const struct world *w)
{
	struct install_opts o = {.fetch = FETCH_OPTS_INIT};

	o.mirror = w->mirror;
	o.fetch.allow_file = 1;
	o.fetch.backoff_ms = 1;
	o.jobs = 2;
	return o;
}

static void test_install_mirror_url_replaces_nvidia_host(void **state)
{
	char *u;

	(void)state;
	u = install_mirror_url(
	    "https://developer.download.nvidia.com/compute/x",
	    "file:///srv/m/");
	assert_string_equal(u, "file:///srv/m/compute/x");
	free(u);
	u = install_mirror_url("https://developer.nvidia.com/compute/y",
			       "https://m.example");
	assert_string_equal(u, "https://m.example/compute/y");
	free(u);
	u = install_mirror_url("https://developer.download.nvidia.com/x", NULL);
	assert_string_equal(u, "https://developer.download.nvidia.com/x");
	free(u);
	/* a look-alike host is not NVIDIA's */
	u = install_mirror_url("https://developer.download.nvidia.com.evil/x",
			       "file:///m");
	assert_string_equal(u, "https://developer.download.nvidia.com.evil/x");
	free(u);
}

static void test_install_puts_a_verified_version_in_place(void **state)
{
	struct fixture *fx = *state;
	struct world w;
	struct install_opts o;
	struct store_version in;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct stat st;
	char *lib;

	make_world(fx, &w, 0);
	o = file_opts(&w);
	if (install_run(&w.st, w.cat.v[0], &o, &in, &err))
		fail_msg("%s", err.msg.data);
	assert_string_equal(in.version, "12.4.1");
	assert_false(in.registered);
	assert_int_equal(in.lib.n, 1);
	assert_int_equal(in.sources.n, 1);
	store_version_release(&in);
	lib =
	    fx_path(fx, "root/versions/cuda/12.4.1/lib/libcudart.so.12.4.127");
	assert_int_equal(stat(lib, &st), 0);
	assert_int_equal(st.st_nlink, 2); /* the pool holds the other link */
	free(lib);
	assert_true(
	    fx_exists(fx, "root/versions/cuda/12.4.1/lib/libcudart.so.12"));
	assert_int_equal(fx_count_entries(fx, "root/.staging"), 0);
	/* a second install finds it done */
	assert_int_equal(install_run(&w.st, w.cat.v[0], &o, &in, &err),
			 CUENV_NO);
	store_version_release(&in);
	end_world(&w);
}

static void test_install_sha_mismatch_installs_nothing(void **state)
{
	struct fixture *fx = *state;
	struct world w;
	struct install_opts o;
	struct store_version in;
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(fx, &w, 1);
	o = file_opts(&w);
	assert_int_equal(install_run(&w.st, w.cat.v[0], &o, &in, &err),
			 CUENV_E_INTEGRITY);
	store_version_release(&in);
	assert_non_null(strstr(err.msg.data, "sha256 mismatch"));
	assert_non_null(strstr(err.msg.data, w.sha)); /* the actual hash */
	assert_non_null(strstr(err.msg.data, TOP));   /* the file */
	assert_int_equal(fx_count_entries(fx, "root/versions/cuda"), 0);
	assert_int_equal(fx_count_entries(fx, "root/pool"), 0);
	assert_int_equal(fx_count_entries(fx, "root/cache"), 0);
	assert_int_equal(fx_count_entries(fx, "root/.staging"), 0);
	err_release(&err);
	end_world(&w);
}

static void test_install_reinstalls_from_the_cache_offline(void **state)
{
	struct fixture *fx = *state;
	struct world w;
	struct install_opts o;
	struct store_version in;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct gc_opts go = {0};
	struct gc_report r;
	char *vdir, *archive;

	make_world(fx, &w, 0);
	o = file_opts(&w);
	assert_int_equal(install_run(&w.st, w.cat.v[0], &o, &in, &err),
			 CUENV_OK);
	assert_int_equal(store_delete(&w.st, &in, &err), CUENV_OK);
	store_version_release(&in);
	assert_int_equal(gc_run(&w.st, &go, &r, &err), CUENV_OK);
	store_release(&w.st);
	vdir = fx_path(fx, "root");
	assert_int_equal(store_open(&w.st, vdir, true, &err), CUENV_OK);
	free(vdir);
	assert_int_equal(r.trees, 1);
	assert_int_equal(fx_count_entries(fx, "root/pool"), 0);
	/* the mirror goes away: the cache is enough */
	archive = fx_path(fx, "mirror/compute/cuda/redist/" REL);
	assert_int_equal(unlink(archive), 0);
	free(archive);
	if (install_run(&w.st, w.cat.v[0], &o, &in, &err))
		fail_msg("%s", err.msg.data);
	store_version_release(&in);
	end_world(&w);
}

static void test_install_runtime_only_keeps_shared_libraries(void **state)
{
	struct fixture *fx = *state;
	struct world w;
	struct install_opts o;
	struct store_version in;
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(fx, &w, 0);
	o = file_opts(&w);
	o.plan.runtime_only = 1;
	if (install_run(&w.st, w.cat.v[0], &o, &in, &err))
		fail_msg("%s", err.msg.data);
	store_version_release(&in);
	assert_true(
	    fx_exists(fx, "root/versions/cuda/12.4.1/lib/libcudart.so.12"));
	assert_false(fx_exists(fx, "root/versions/cuda/12.4.1/include"));
	assert_false(fx_exists(fx, "root/versions/cuda/12.4.1/LICENSE"));
	end_world(&w);
}

static void test_install_sweeps_a_dead_install_staging(void **state)
{
	struct fixture *fx = *state;
	struct world w;
	struct install_opts o;
	struct store_version in;
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(fx, &w, 0);
	/* what a kill -9 leaves: a staging folder whose lock nobody holds */
	fx_write(fx, "root/.staging/install-dead01/version/lib/half", "x");
	fx_write(fx, "root/.staging/install-dead01.lock", "");
	o = file_opts(&w);
	if (install_run(&w.st, w.cat.v[0], &o, &in, &err))
		fail_msg("%s", err.msg.data);
	store_version_release(&in);
	assert_int_equal(fx_count_entries(fx, "root/.staging"), 0);
	end_world(&w);
}

static void test_install_missing_archive_is_a_fetch_error(void **state)
{
	struct fixture *fx = *state;
	struct world w;
	struct install_opts o;
	struct store_version in;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *archive;

	make_world(fx, &w, 0);
	archive = fx_path(fx, "mirror/compute/cuda/redist/" REL);
	assert_int_equal(unlink(archive), 0);
	free(archive);
	o = file_opts(&w);
	assert_int_equal(install_run(&w.st, w.cat.v[0], &o, &in, &err),
			 CUENV_E_FETCH);
	store_version_release(&in);
	assert_non_null(strstr(err.msg.data, TOP));
	assert_int_equal(fx_count_entries(fx, "root/versions/cuda"), 0);
	err_release(&err);
	end_world(&w);
}

/* ---- gc ------------------------------------------------------------------ */

/* A process holding an fcntl lock on path until release_holder. */
struct holder {
	pid_t pid;
	int go; /* write end: closing it lets the child go */
};

static void hold_lock(const char *path, struct holder *h)
{
	int locked[2], go[2];
	char c;

	assert_int_equal(pipe(locked), 0);
	assert_int_equal(pipe(go), 0);
	h->pid = fork();
	assert_true(h->pid >= 0);
	if (!h->pid) {
		struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
		int fd = open(path, O_RDWR | O_CREAT, 0644);

		close(locked[0]);
		close(go[1]);
		if (fd < 0 || fcntl(fd, F_SETLKW, &fl))
			_exit(1);
		if (write(locked[1], "l", 1) != 1)
			_exit(1);
		while (read(go[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(locked[1]);
	close(go[0]);
	assert_int_equal(read(locked[0], &c, 1), 1);
	close(locked[0]);
	h->go = go[1];
}

static void release_holder(struct holder *h)
{
	int status;

	close(h->go);
	assert_int_equal(waitpid(h->pid, &status, 0), h->pid);
}

/* Install 12.4.1 and leave its folder as an uninstall cut short would:
 * renamed into .staging/trash-<id>/v, with trash-<id>.lock unless
 * lockless (as a cuenv older than the lock rule left it). */
static void interrupted_uninstall(struct world *w, const char *id, int lockless)
{
	struct install_opts o = file_opts(w);
	struct store_version in;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf trash = BUF_INIT;

	if (install_run(&w->st, w->cat.v[0], &o, &in, &err))
		fail_msg("%s", err.msg.data);
	buf_printf(&trash, "%s/.staging/trash-%s", w->st.root, id);
	if (!lockless) {
		buf_adds(&trash, ".lock");
		assert_int_equal(
		    close(open(trash.data, O_RDWR | O_CREAT, 0644)), 0);
		buf_setlen(&trash, trash.len - 5);
	}
	assert_int_equal(mkdir(trash.data, 0700), 0);
	buf_adds(&trash, "/v");
	assert_int_equal(rename(in.dir, trash.data), 0);
	store_version_release(&in);
	buf_release(&trash);
}

static void test_install_gc_frees_an_interrupted_uninstall(void **state)
{
	struct fixture *fx = *state;
	struct gc_opts go = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct gc_report r;
	struct world w;

	make_world(fx, &w, 0);
	interrupted_uninstall(&w, "dead01", 0);
	assert_int_equal(fx_count_entries(fx, "root/pool"), 1);
	if (gc_run(&w.st, &go, &r, &err))
		fail_msg("%s", err.msg.data);
	assert_int_equal(r.leftovers, 1);
	assert_int_equal(r.trees, 1); /* the trash's links pinned it */
	assert_true(r.tree_bytes > 0);
	assert_int_equal(fx_count_entries(fx, "root/.staging"), 0);
	assert_int_equal(fx_count_entries(fx, "root/pool"), 0);
	assert_int_equal(fx_count_entries(fx, "root/cache"), 1); /* kept */
	end_world(&w);
}

static void test_install_gc_frees_a_lockless_trash_folder(void **state)
{
	struct fixture *fx = *state;
	struct gc_opts go = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct gc_report r;
	struct world w;

	make_world(fx, &w, 0);
	interrupted_uninstall(&w, "old001", 1);
	if (gc_run(&w.st, &go, &r, &err))
		fail_msg("%s", err.msg.data);
	assert_int_equal(r.leftovers, 1);
	assert_int_equal(r.trees, 1);
	assert_int_equal(fx_count_entries(fx, "root/.staging"), 0);
	end_world(&w);
}

static void test_install_gc_keeps_a_live_uninstall_trash(void **state)
{
	struct fixture *fx = *state;
	struct gc_opts go = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct gc_report r;
	struct holder h;
	struct world w;
	char *lock;

	make_world(fx, &w, 0);
	interrupted_uninstall(&w, "live01", 0);
	lock = fx_path(fx, "root/.staging/trash-live01.lock");
	hold_lock(lock, &h);
	if (gc_run(&w.st, &go, &r, &err))
		fail_msg("%s", err.msg.data);
	release_holder(&h);
	assert_int_equal(r.leftovers, 0);
	assert_int_equal(r.trees, 0);
	assert_true(fx_exists(fx, "root/.staging/trash-live01/v/LICENSE"));
	assert_int_equal(fx_count_entries(fx, "root/pool"), 1);
	free(lock);
	end_world(&w);
}

static void test_install_sweeps_an_interrupted_uninstall(void **state)
{
	struct fixture *fx = *state;
	struct install_opts o;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version in;
	struct world w;

	make_world(fx, &w, 0);
	interrupted_uninstall(&w, "dead02", 0);
	o = file_opts(&w);
	if (install_run(&w.st, w.cat.v[0], &o, &in, &err))
		fail_msg("%s", err.msg.data);
	store_version_release(&in);
	assert_int_equal(fx_count_entries(fx, "root/.staging"), 0);
	end_world(&w);
}

/* Set path's mtime to age seconds ago. */
static void age_file(const char *path, time_t age)
{
	struct timespec ts[2];

	clock_gettime(CLOCK_REALTIME, &ts[0]);
	ts[0].tv_sec -= age;
	ts[1] = ts[0];
	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static void test_install_gc_removes_only_stale_partial_downloads(void **state)
{
	struct fixture *fx = *state;
	struct gc_opts go = {.part_age = 3600};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf old = BUF_INIT, fresh = BUF_INIT;
	struct gc_report r;
	struct world w;
	char *p;

	make_world(fx, &w, 0);
	interrupted_uninstall(&w, "x", 0);
	buf_printf(&old, "root/cache/%064d.part", 1);
	buf_printf(&fresh, "root/cache/%064d.part", 2);
	fx_write(fx, old.data, "0123456789");
	fx_write(fx, fresh.data, "01234");
	/* the records their downloads left (gc removes only what they name) */
	buf_reset(&old);
	buf_printf(&old, "root/.locks/%064d.lock", 1);
	fx_touch(fx, old.data);
	buf_reset(&old);
	buf_printf(&old, "root/.locks/%064d.lock", 2);
	fx_touch(fx, old.data);
	buf_reset(&old);
	buf_printf(&old, "root/cache/%064d.part", 1);
	p = fx_path(fx, old.data);
	age_file(p, 7200);
	free(p);
	fx_write(fx, "root/cache/notes.txt", "not ours");
	if (gc_run(&w.st, &go, &r, &err))
		fail_msg("%s", err.msg.data);
	assert_int_equal(r.parts, 1);
	assert_int_equal(r.part_bytes, 10);
	assert_int_equal(r.archives, 0);
	assert_false(fx_exists(fx, old.data));
	assert_true(fx_exists(fx, fresh.data));
	assert_true(fx_exists(fx, "root/cache/notes.txt"));
	/* the archive stays: it lets the version be installed offline */
	assert_int_equal(fx_count_entries(fx, "root/cache"), 3);
	buf_release(&old);
	buf_release(&fresh);
	end_world(&w);
}

static void test_install_gc_cache_empties_the_cache(void **state)
{
	struct fixture *fx = *state;
	struct gc_opts go = {.cache = 1, .part_age = 3600};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf part = BUF_INIT;
	struct gc_report r;
	struct world w;
	struct stat st;
	char *archive;

	make_world(fx, &w, 0);
	interrupted_uninstall(&w, "x", 0);
	archive = fx_path(fx, "mirror/compute/cuda/redist/" REL);
	assert_int_equal(stat(archive, &st), 0);
	buf_printf(&part, "root/.locks/%064d.lock", 3);
	fx_touch(fx, part.data); /* its download's record */
	buf_reset(&part);
	buf_printf(&part, "root/cache/%064d.part", 3);
	fx_write(fx, part.data, "01234");
	if (gc_run(&w.st, &go, &r, &err))
		fail_msg("%s", err.msg.data);
	assert_int_equal(r.archives, 1);
	assert_int_equal(r.archive_bytes, (uint64_t)st.st_size);
	assert_int_equal(r.parts, 1);
	assert_int_equal(r.busy, 0);
	assert_int_equal(fx_count_entries(fx, "root/cache"), 0);
	free(archive);
	buf_release(&part);
	end_world(&w);
}

static void test_install_gc_cache_keeps_an_archive_in_use(void **state)
{
	struct fixture *fx = *state;
	struct gc_opts go = {.cache = 1};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf lock = BUF_INIT, cached = BUF_INIT;
	struct gc_report r;
	struct holder h;
	struct world w;

	make_world(fx, &w, 0);
	interrupted_uninstall(&w, "x", 0);
	buf_printf(&lock, "%s/root/.locks/%s.lock", fx->root, w.sha);
	buf_printf(&cached, "root/cache/%s", w.sha);
	hold_lock(lock.data, &h); /* as a download in flight holds it */
	if (gc_run(&w.st, &go, &r, &err))
		fail_msg("%s", err.msg.data);
	release_holder(&h);
	assert_int_equal(r.archives, 0);
	assert_int_equal(r.busy, 1);
	assert_true(fx_exists(fx, cached.data));
	buf_release(&lock);
	buf_release(&cached);
	end_world(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)
	    cmocka_unit_test(test_install_mirror_url_replaces_nvidia_host),
	    T(test_install_puts_a_verified_version_in_place),
	    T(test_install_sha_mismatch_installs_nothing),
	    T(test_install_reinstalls_from_the_cache_offline),
	    T(test_install_runtime_only_keeps_shared_libraries),
	    T(test_install_sweeps_a_dead_install_staging),
	    T(test_install_missing_archive_is_a_fetch_error),
	    T(test_install_gc_frees_an_interrupted_uninstall),
	    T(test_install_gc_frees_a_lockless_trash_folder),
	    T(test_install_gc_keeps_a_live_uninstall_trash),
	    T(test_install_sweeps_an_interrupted_uninstall),
	    T(test_install_gc_removes_only_stale_partial_downloads),
	    T(test_install_gc_cache_empties_the_cache),
	    T(test_install_gc_cache_keeps_an_archive_in_use),
#undef T
	};

	fetch_global_init();
	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
