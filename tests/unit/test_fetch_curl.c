/*
 * fetch over file:// URLs: no network, but the real libcurl path (resume
 * offsets, size checks, final errors, refused protocols). HTTP faults are
 * exercised end to end against the test server (tests/e2e/t5*).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../core/fetch.h"
#include "fakes/fixture.h"

static char *file_url(const struct fixture *fx, const char *rel)
{
	struct buf b = BUF_INIT;
	char *p = fx_path(fx, rel);

	buf_printf(&b, "file://%s", p);
	free(p);
	return buf_detach(&b);
}

static int read_all(struct fetch *f, struct buf *out, struct cuenv_err *err)
{
	const void *p;
	ssize_t n;

	while ((n = fetch_read(f, &p, err)) > 0)
		buf_add(out, p, (size_t)n);
	return n < 0 ? -1 : 0;
}

static void test_fetch_reads_a_whole_file(void **state)
{
	struct fixture *fx = *state;
	struct fetch_opts o = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT;
	char *url;
	struct fetch *f;

	fx_write(fx, "a.bin", "0123456789");
	url = file_url(fx, "a.bin");
	o.allow_file = 1;
	f = fetch_open(url, 0, 10, &o);
	assert_int_equal(read_all(f, &out, &err), 0);
	assert_string_equal(out.data, "0123456789");
	assert_int_equal(fetch_offset(f), 10);
	fetch_close(f);
	buf_release(&out);
	free(url);
}

static void test_fetch_resumes_from_an_offset(void **state)
{
	struct fixture *fx = *state;
	struct fetch_opts o = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT;
	char *url;
	struct fetch *f;

	fx_write(fx, "a.bin", "0123456789");
	url = file_url(fx, "a.bin");
	o.allow_file = 1;
	f = fetch_open(url, 4, 10, &o);
	assert_int_equal(read_all(f, &out, &err), 0);
	assert_string_equal(out.data, "456789");
	assert_int_equal(fetch_offset(f), 10);
	fetch_close(f);
	buf_release(&out);
	free(url);
}

static void test_fetch_refuses_more_bytes_than_the_size(void **state)
{
	struct fixture *fx = *state;
	struct fetch_opts o = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT;
	char *url;
	struct fetch *f;

	fx_write(fx, "a.bin", "0123456789");
	url = file_url(fx, "a.bin");
	o.allow_file = 1;
	f = fetch_open(url, 0, 5, &o);
	assert_int_equal(read_all(f, &out, &err), -1);
	assert_int_equal(err.rc, CUENV_E_FETCH);
	assert_non_null(strstr(err.msg.data, url));
	fetch_close(f);
	buf_release(&out);
	err_release(&err);
	free(url);
}

static void test_fetch_missing_file_is_final_and_names_the_url(void **state)
{
	struct fixture *fx = *state;
	struct fetch_opts o = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT;
	char *url = file_url(fx, "missing.bin");
	struct fetch *f;

	o.allow_file = 1;
	o.backoff_ms = 1;
	f = fetch_open(url, 0, 0, &o);
	assert_int_equal(read_all(f, &out, &err), -1);
	assert_int_equal(fetch_retries(f), 0);
	assert_non_null(strstr(err.msg.data, url));
	fetch_close(f);
	buf_release(&out);
	err_release(&err);
	free(url);
}

static void test_fetch_refuses_file_urls_unless_allowed(void **state)
{
	struct fixture *fx = *state;
	struct fetch_opts o = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT;
	char *url;

	fx_write(fx, "a.bin", "x");
	url = file_url(fx, "a.bin");
	assert_int_equal(fetch_to_buf(url, &o, 100, &out, &err), CUENV_E_FETCH);
	assert_non_null(strstr(err.msg.data, "refused protocol"));
	err_release(&err);
	buf_release(&out);
	free(url);
}

static void test_fetch_refuses_plain_http_unless_allowed(void **state)
{
	struct fetch_opts o = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT;

	(void)state;
	/* Refused before any connection is tried: no network needed. */
	assert_int_equal(fetch_to_buf("http://127.0.0.1:9/x", &o, 100, &out,
				      &err),
			 CUENV_E_FETCH);
	assert_non_null(strstr(err.msg.data, "refused protocol"));
	err_release(&err);
	buf_release(&out);
}

static void test_fetch_to_buf_limits_the_size(void **state)
{
	struct fixture *fx = *state;
	struct fetch_opts o = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT;
	char *url;

	fx_write(fx, "big", "0123456789");
	url = file_url(fx, "big");
	o.allow_file = 1;
	assert_int_equal(fetch_to_buf(url, &o, 4, &out, &err), CUENV_E_FETCH);
	assert_non_null(strstr(err.msg.data, "larger than 4 bytes"));
	assert_int_equal(fetch_to_buf(url, &o, 100, &out, &err), CUENV_OK);
	assert_string_equal(out.data, "0123456789");
	err_release(&err);
	buf_release(&out);
	free(url);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)
		T(test_fetch_reads_a_whole_file),
		T(test_fetch_resumes_from_an_offset),
		T(test_fetch_refuses_more_bytes_than_the_size),
		T(test_fetch_missing_file_is_final_and_names_the_url),
		T(test_fetch_refuses_file_urls_unless_allowed),
		T(test_fetch_refuses_plain_http_unless_allowed),
		T(test_fetch_to_buf_limits_the_size),
#undef T
	};

	fetch_global_init();
	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
