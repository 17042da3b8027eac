/*
 * One verified download (core/install/download.c), against a file://
 * upstream: a .part resumed from where it ends, a whole .part taken
 * without the network, one too long emptied, a local file copied into a
 * fresh .part, mismatches named, and which failures leave a .part worth
 * resuming from.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/buf.h"
#include "install/download.h"
#include "plat/plat_fs.h"
#include "fakes/fixture.h"

#define BODY "the bytes of an archive, 0123456789 abcdefghij"
#define LEN (sizeof(BODY) - 1)

/* A download of up/a (BODY) with everything it borrows. */
struct dl {
	struct fixture *fx;
	struct fetch_opts fo;
	char sha[DIGEST_HEX_LEN + 1];
	char *url;
	char *part;
	char *final;
	struct download d;
	struct cuenv_err err;
};

static void sha_of(const char *text, size_t n, char *hex)
{
	struct digest *d = digest_new();

	digest_update(d, text, n);
	digest_final(d, hex);
	digest_free(d);
}

static void dl_init(struct dl *t, struct fixture *fx, const char *upstream)
{
	struct buf b = BUF_INIT;

	memset(t, 0, sizeof(*t));
	t->fx = fx;
	t->fo.allow_file = 1;
	t->fo.retries = 0;
	t->fo.backoff_ms = 1;
	sha_of(BODY, LEN, t->sha);
	fx_write(fx, "up/a", BODY);
	buf_printf(&b, "file://%s/%s", fx->root, upstream);
	t->url = buf_detach(&b);
	t->part = fx_path(fx, "cache/a.part");
	t->final = fx_path(fx, "cache/a");
	fx_mkdir(fx, "cache");
	err_init(&t->err);
	download_init(&t->d, t->url, t->sha, LEN, &t->fo);
}

static void dl_release(struct dl *t)
{
	download_release(&t->d);
	err_release(&t->err);
	free(t->url);
	free(t->part);
	free(t->final);
}

static void test_download_resumes_a_part_from_where_it_ends(void **state)
{
	struct dl t;

	dl_init(&t, *state, "up/a");
	fx_write_bytes(t.fx, "cache/a.part", BODY, 10);
	assert_int_equal(
	    download_resume(&t.d, PLAT_AT_CWD, t.part, t.part, 0, &t.err),
	    CUENV_OK);
	assert_int_equal(download_verify(&t.d, &t.err), CUENV_OK);
	assert_int_equal(t.d.pos, LEN);
	assert_int_equal(t.d.fetched, LEN - 10);
	assert_int_equal(
	    download_keep(&t.d, PLAT_AT_CWD, t.final, t.final, &t.err),
	    CUENV_OK);
	assert_false(fx_exists(t.fx, "cache/a.part"));
	char *got = fx_read(t.fx, "cache/a");
	assert_string_equal(got, BODY);
	free(got);
	dl_release(&t);
}

static void test_download_takes_a_whole_part_without_the_network(void **state)
{
	struct dl t;

	/* Nothing upstream: a request would fail. */
	dl_init(&t, *state, "up/none");
	fx_write(t.fx, "cache/a.part", BODY);
	assert_int_equal(
	    download_resume(&t.d, PLAT_AT_CWD, t.part, t.part, 0, &t.err),
	    CUENV_OK);
	assert_int_equal(download_verify(&t.d, &t.err), CUENV_OK);
	assert_int_equal(t.d.fetched, 0);
	assert_null(t.d.net);
	dl_release(&t);
}

static void test_download_empties_a_part_longer_than_the_file(void **state)
{
	struct dl t;

	dl_init(&t, *state, "up/a");
	fx_write(t.fx, "cache/a.part", "junk " BODY);
	assert_int_equal(
	    download_resume(&t.d, PLAT_AT_CWD, t.part, t.part, 0, &t.err),
	    CUENV_OK);
	assert_int_equal(download_verify(&t.d, &t.err), CUENV_OK);
	assert_int_equal(t.d.fetched, LEN);
	assert_int_equal(download_close_part(&t.d, &t.err), CUENV_OK);
	char *got = fx_read(t.fx, "cache/a.part");
	assert_string_equal(got, BODY);
	free(got);
	dl_release(&t);
}

static void test_download_copies_a_local_file_into_a_fresh_part(void **state)
{
	struct dl t;
	char *src;
	int fd;

	dl_init(&t, *state, "up/none");
	fx_write(t.fx, "cache/a.part", "stale bytes of an earlier run");
	src = fx_path(t.fx, "up/a");
	fd = open(src, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(
	    download_restart(&t.d, PLAT_AT_CWD, t.part, t.part, 0, &t.err),
	    CUENV_OK);
	download_from_fd_take(&t.d, fd, src);
	assert_int_equal(download_verify(&t.d, &t.err), CUENV_OK);
	assert_int_equal(t.d.pos, LEN);
	assert_int_equal(t.d.fetched, 0);
	assert_int_equal(download_close_part(&t.d, &t.err), CUENV_OK);
	char *got = fx_read(t.fx, "cache/a.part");
	assert_string_equal(got, BODY);
	free(got);
	free(src);
	dl_release(&t);
}

static void test_download_names_a_sha256_mismatch(void **state)
{
	struct dl t;

	dl_init(&t, *state, "up/a");
	/* Same length, one byte wrong: the .part's bytes count. */
	fx_write(t.fx, "cache/a.part", "THE");
	assert_int_equal(
	    download_resume(&t.d, PLAT_AT_CWD, t.part, t.part, 0, &t.err),
	    CUENV_OK);
	t.d.name = "the archive";
	assert_int_equal(download_verify(&t.d, &t.err), CUENV_E_INTEGRITY);
	assert_non_null(
	    strstr(t.err.msg.data, "sha256 mismatch for 'the archive'"));
	assert_false(download_resumable(&t.d, t.err.rc));
	dl_release(&t);
}

static void test_download_names_a_size_mismatch(void **state)
{
	struct dl t;
	char *src;
	int fd;

	/* A local file (the cache) one byte longer than the catalogue says. */
	dl_init(&t, *state, "up/a");
	download_release(&t.d);
	download_init(&t.d, t.url, t.sha, LEN - 1, &t.fo);
	src = fx_path(t.fx, "up/a");
	fd = open(src, O_RDONLY);
	assert_true(fd >= 0);
	download_from_fd_take(&t.d, fd, src);
	assert_int_equal(download_verify(&t.d, &t.err), CUENV_E_INTEGRITY);
	assert_non_null(strstr(t.err.msg.data, "size mismatch for 'file://"));
	assert_null(t.d.net);
	free(src);
	dl_release(&t);
}

static void
test_download_keeps_a_part_only_after_a_network_failure(void **state)
{
	struct dl t;

	dl_init(&t, *state, "up/none");
	fx_write_bytes(t.fx, "cache/a.part", BODY, 10);
	assert_int_equal(
	    download_resume(&t.d, PLAT_AT_CWD, t.part, t.part, 0, &t.err),
	    CUENV_OK);
	assert_int_equal(download_verify(&t.d, &t.err), CUENV_E_FETCH);
	assert_true(download_resumable(&t.d, CUENV_E_FETCH));
	assert_false(download_resumable(&t.d, CUENV_E_STORE));
	dl_release(&t);
}

static void test_download_refuses_a_part_that_is_not_a_file(void **state)
{
	struct dl t;

	dl_init(&t, *state, "up/a");
	assert_int_equal(mkfifo(t.part, 0600), 0);
	assert_int_equal(download_resume(&t.d, PLAT_AT_CWD, t.part, t.part,
					 PLAT_O_NOFOLLOW | PLAT_O_NONBLOCK,
					 &t.err),
			 CUENV_E_STORE);
	assert_non_null(strstr(t.err.msg.data, "not a file"));
	dl_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, fx_setup, fx_teardown)
	    T(test_download_resumes_a_part_from_where_it_ends),
	    T(test_download_takes_a_whole_part_without_the_network),
	    T(test_download_empties_a_part_longer_than_the_file),
	    T(test_download_copies_a_local_file_into_a_fresh_part),
	    T(test_download_names_a_sha256_mismatch),
	    T(test_download_names_a_size_mismatch),
	    T(test_download_keeps_a_part_only_after_a_network_failure),
	    T(test_download_refuses_a_part_that_is_not_a_file),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
