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

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/fetch.h"
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

static void test_fetch_range_stops_at_its_end(void **state)
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
	f = fetch_open_range(url, 2, 5, 10, &o);
	assert_int_equal(read_all(f, &out, &err), 0);
	assert_string_equal(out.data, "234");
	assert_int_equal(fetch_offset(f), 5);
	fetch_close(f);
	buf_reset(&out);
	/* an end past the file's is the file's */
	f = fetch_open_range(url, 8, 99, 10, &o);
	assert_int_equal(read_all(f, &out, &err), 0);
	assert_string_equal(out.data, "89");
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

/* No size known: max_bytes bounds the file, and says how to raise it. */
static void test_fetch_bounds_a_file_of_unknown_size(void **state)
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
	o.max_bytes = 9;
	f = fetch_open(url, 0, 0, &o);
	assert_int_equal(read_all(f, &out, &err), -1);
	assert_int_equal(err.rc, CUENV_E_FETCH);
	assert_non_null(strstr(err.msg.data, "larger than 9 bytes"));
	assert_non_null(strstr(err.hint.data, "CUENV_FETCH_MAX_BYTES"));
	assert_true(fetch_too_long(f));
	fetch_close(f);
	err_release(&err);
	buf_reset(&out);
	o.max_bytes = 10;
	f = fetch_open(url, 0, 0, &o);
	assert_int_equal(read_all(f, &out, &err), 0);
	assert_string_equal(out.data, "0123456789");
	assert_false(fetch_too_long(f));
	fetch_close(f);
	buf_release(&out);
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
	assert_non_null(strstr(err.msg.data, url));
	/* final: no retry ("... (after 2 attempts)") */
	assert_null(strstr(err.msg.data, "attempts"));
	fetch_close(f);
	buf_release(&out);
	err_release(&err);
	free(url);
}

/*
 * An archive on a file:// mirror larger than what libcurl may buffer: the
 * file protocol cannot pause, so it is read in bounded pieces instead.
 */
static void test_fetch_reads_a_large_local_file_in_pieces(void **state)
{
	struct fixture *fx = *state;
	struct fetch_opts o = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t size = 3 * 1024 * 1024 + 17, got = 0, largest = 0;
	unsigned char *data = malloc(size);
	const unsigned char *p;
	char *url;
	struct fetch *f;
	ssize_t n;

	for (size_t i = 0; i < size; i++)
		data[i] = (unsigned char)(i * 7 + i / 4096);
	fx_write_bytes(fx, "big.tar", data, size);
	url = file_url(fx, "big.tar");
	o.allow_file = 1;
	f = fetch_open(url, 1000, size, &o);
	while ((n = fetch_read(f, (const void **)&p, &err)) > 0) {
		assert_memory_equal(p, data + 1000 + got, (size_t)n);
		got += (size_t)n;
		if ((size_t)n > largest)
			largest = (size_t)n;
		assert_int_equal(fetch_offset(f), 1000 + got);
	}
	assert_int_equal(n, 0);
	assert_int_equal(got, size - 1000);
	assert_true(largest <= 1024 * 1024);
	fetch_close(f);
	free(url);
	free(data);
}

static void test_fetch_local_file_shorter_than_the_size(void **state)
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
	f = fetch_open(url, 0, 11, &o);
	assert_int_equal(read_all(f, &out, &err), -1);
	assert_int_equal(err.rc, CUENV_E_FETCH);
	assert_non_null(strstr(err.msg.data, url));
	assert_non_null(strstr(err.msg.data, "ends at byte 10"));
	fetch_close(f);
	buf_release(&out);
	err_release(&err);
	free(url);
}

static void test_fetch_file_url_hosts(void **state)
{
	struct fixture *fx = *state;
	struct fetch_opts o = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT, url = BUF_INIT;
	char *p = fx_path(fx, "a b.bin");

	fx_write(fx, "a b.bin", "xyz");
	o.allow_file = 1;
	/* localhost is this machine; %20 is decoded */
	buf_printf(&url, "file://localhost%s", p);
	*strrchr(url.data, ' ') = '\0';
	buf_setlen(&url, strlen(url.data));
	buf_adds(&url, "%20b.bin");
	assert_int_equal(fetch_to_buf(url.data, &o, 100, &out, &err), CUENV_OK);
	assert_string_equal(out.data, "xyz");
	/* another host is refused, naming the URL */
	buf_reset(&url);
	buf_printf(&url, "file://example.org%s", p);
	assert_int_equal(fetch_to_buf(url.data, &o, 100, &out, &err),
			 CUENV_E_FETCH);
	assert_non_null(strstr(err.msg.data, "example.org"));
	err_release(&err);
	buf_release(&out);
	buf_release(&url);
	free(p);
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
	assert_int_equal(
	    fetch_to_buf("http://127.0.0.1:9/x", &o, 100, &out, &err),
	    CUENV_E_FETCH);
	assert_non_null(strstr(err.msg.data, "refused protocol"));
	err_release(&err);
	buf_release(&out);
}

/* A socket listening on a loopback port (its number into *url), or -1. */
static int listening(int do_listen, char url[64])
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	if (do_listen)
		assert_int_equal(listen(fd, 4), 0);
	snprintf(url, 64, "http://127.0.0.1:%u/compute/x.tar.xz",
		 (unsigned)ntohs(a.sin_port));
	return fd;
}

static void test_fetch_reachable_when_a_connection_is_made(void **state)
{
	struct fetch_opts o = FETCH_OPTS_INIT;
	char url[64];
	int fd;

	(void)state;
	o.allow_http = 1;
	/* Accepted by the kernel, never answered: nothing is requested, so
	 * what the server would say (a 404) is no verdict on its host. */
	fd = listening(1, url);
	assert_int_equal(fetch_reachable(url, &o), 1);
	close(fd);
}

static void test_fetch_unreachable_when_refused(void **state)
{
	struct fetch_opts o = FETCH_OPTS_INIT;
	char url[64];
	int fd;

	(void)state;
	o.allow_http = 1;
	fd = listening(0, url); /* bound, not listening: refused */
	assert_int_equal(fetch_reachable(url, &o), 0);
	close(fd);
	assert_int_equal(fetch_reachable("file:///nonexistent", &o), 1);
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

/* A 206's Content-Range must be the range asked for (bytes from offset
 * on), of the file the catalogue names: each case refused says why. */
static void test_fetch_content_range_check(void **state)
{
	static const struct {
		const char *value;
		uint64_t offset, size;
		const char *why; /* NULL: accepted */
	} cases[] = {
	    {"bytes 100-199/200", 100, 200, NULL},
	    {"bytes 100-199/200", 100, 0, NULL},
	    {"bytes 100-199/*", 100, 200, NULL},
	    {"bytes 100-149/200", 100, 200, NULL}, /* fewer bytes: resumed */
	    {"BYTES  0-0/1 ", 0, 1, NULL},
	    {NULL, 100, 200, "none"},
	    {"", 100, 200, "not \"bytes"},
	    {"bytes 101-199/200", 100, 200, "does not start at the byte"},
	    {"bytes 99-199/200", 100, 200, "does not start at the byte"},
	    {"bytes 0-199/200", 100, 200, "does not start at the byte"},
	    {"bytes 100-99/200", 100, 200, "ends before it starts"},
	    {"bytes 100-200/200", 100, 0, "ends past the file's length"},
	    {"bytes 100-299/300", 100, 200, "not the size the catalogue"},
	    {"bytes 100-200/*", 100, 200, "ends past the size the catalogue"},
	    {"bytes 100-/200", 100, 200, "not \"bytes"},
	    {"bytes -199/200", 100, 200, "not \"bytes"},
	    {"bytes 100-199", 100, 200, "not \"bytes"},
	    {"bytes 100-199/", 100, 200, "not \"bytes"},
	    {"bytes 100-199/200x", 100, 200, "not \"bytes"},
	    {"bytes 100-199/200/300", 100, 200, "not \"bytes"},
	    {"bytes +100-199/200", 100, 200, "not \"bytes"},
	    {"bytes */200", 100, 200, "not \"bytes"},
	    {"items 100-199/200", 100, 200, "not \"bytes"},
	    {"bytes100-199/200", 100, 200, "not \"bytes"},
	    {"bytes 100-199/99999999999999999999", 100, 0, "not \"bytes"},
	    {"bytes 18446744073709551615-18446744073709551615/*", UINT64_MAX, 0,
	     NULL},
	    {"bytes 18446744073709551616-18446744073709551616/*", 0, 0,
	     "not \"bytes"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const char *why = fetch_content_range_check(
		    cases[i].value, cases[i].offset, cases[i].size);

		if (!cases[i].why && why)
			fail_msg("'%s' from %llu: refused: %s", cases[i].value,
				 (unsigned long long)cases[i].offset, why);
		if (cases[i].why && (!why || !strstr(why, cases[i].why)))
			fail_msg("'%s' from %llu: %s, not '%s'",
				 cases[i].value ? cases[i].value : "(none)",
				 (unsigned long long)cases[i].offset,
				 why ? why : "accepted", cases[i].why);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)
	    T(test_fetch_reads_a_whole_file),
	    T(test_fetch_resumes_from_an_offset),
	    T(test_fetch_range_stops_at_its_end),
	    T(test_fetch_refuses_more_bytes_than_the_size),
	    T(test_fetch_bounds_a_file_of_unknown_size),
	    T(test_fetch_missing_file_is_final_and_names_the_url),
	    T(test_fetch_reads_a_large_local_file_in_pieces),
	    T(test_fetch_local_file_shorter_than_the_size),
	    T(test_fetch_file_url_hosts),
	    T(test_fetch_refuses_file_urls_unless_allowed),
	    T(test_fetch_refuses_plain_http_unless_allowed),
	    T(test_fetch_to_buf_limits_the_size),
#undef T
	    cmocka_unit_test(test_fetch_content_range_check),
	    cmocka_unit_test(test_fetch_reachable_when_a_connection_is_made),
	    cmocka_unit_test(test_fetch_unreachable_when_refused),
	};

	fetch_global_init();
	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
