#include "fakes/fixture.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/xalloc.h"

static void test_xmalloc_of_zero_bytes_is_freeable(void **state)
{
	void *p = xmalloc(0);

	(void)state;
	assert_non_null(p);
	free(p);
}

static void test_xcalloc_zeroes_memory(void **state)
{
	unsigned char *p = xcalloc(64, 4);

	(void)state;
	for (size_t i = 0; i < 256; i++)
		assert_int_equal(p[i], 0);
	free(p);
}

static void test_xrealloc_keeps_contents(void **state)
{
	char *p = xmalloc(4);

	(void)state;
	memcpy(p, "abc", 4);
	p = xrealloc(p, 1 << 16);
	assert_string_equal(p, "abc");
	free(p);
}

static void test_xstrdup_copies(void **state)
{
	const char *s = "/opt/cuda-12.4";
	char *p = xstrdup(s);

	(void)state;
	assert_ptr_not_equal(p, s);
	assert_string_equal(p, s);
	free(p);
}

static void test_xstrndup_stops_at_n_and_terminates(void **state)
{
	char src[4] = {'a', 'b', 'c', 'd'}; /* no NUL */
	char *p = xstrndup(src, 3);

	(void)state;
	assert_string_equal(p, "abc");
	free(p);
}

/*
 * Run fn in a child whose stderr is captured in out; return its wait
 * status. The child restores SIGABRT's default action, which cmocka may
 * have taken over.
 */
static int in_child(void (*fn)(void), struct buf *out)
{
	int fds[2], status;
	char chunk[512];
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGABRT, SIG_DFL);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		fn();
		_exit(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], chunk, sizeof(chunk))) > 0)
		buf_add(out, chunk, (size_t)n);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static const int bug_line = __LINE__ + 3; /* the BUG() below */
static void call_bug(void)
{
	BUG("broken %s %d", "invariant", 7);
}

static void test_bug_aborts_naming_file_and_line(void **state)
{
	struct buf out = BUF_INIT, want = BUF_INIT;
	int status;

	(void)state;
	status = in_child(call_bug, &out);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	buf_printf(&want, "cuenv: BUG at %s:%d: broken invariant 7\n", __FILE__,
		   bug_line);
	assert_string_equal(out.data, want.data);
	buf_release(&out);
	buf_release(&want);
}

static void call_huge_malloc(void)
{
	volatile size_t n = SIZE_MAX - 16;
	void *p = xmalloc(n);

	free(p);
}

static void test_xmalloc_aborts_with_message_when_out_of_memory(void **state)
{
	struct buf out = BUF_INIT;
	int status;

	(void)state;
#if defined(__SANITIZE_ADDRESS__)
	skip(); /* ASan reports the huge allocation itself */
#endif
	status = in_child(call_huge_malloc, &out);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	assert_non_null(strstr(out.data, "cuenv: fatal: out of memory"));
	buf_release(&out);
}

static size_t seen_n;
static const char *seen[4];

static void record(const char *const *p, size_t n)
{
	seen_n = n;
	for (size_t i = 0; i < n && i < 4; i++)
		seen[i] = p[i];
}

static void test_call_each_passes_the_list_and_its_length(void **state)
{
	const char *a = "a", *b = "b", *c = "c";

	(void)state;
	CALL_EACH(record, const char, a, b, c);
	assert_int_equal(seen_n, 3);
	assert_ptr_equal(seen[0], a);
	assert_ptr_equal(seen[1], b);
	assert_ptr_equal(seen[2], c);
	CALL_EACH(record, const char, c);
	assert_int_equal(seen_n, 1);
	assert_ptr_equal(seen[0], c);
}

/* LeakSanitizer fails the run when one of them is left. */
static void test_free_each_frees_every_pointer_and_takes_null(void **state)
{
	char *a = xstrdup("a"), *b = NULL, *c = xmalloc(64);

	(void)state;
	FREE_EACH(a, b, c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_xmalloc_of_zero_bytes_is_freeable),
	    cmocka_unit_test(test_call_each_passes_the_list_and_its_length),
	    cmocka_unit_test(test_free_each_frees_every_pointer_and_takes_null),
	    cmocka_unit_test(test_xcalloc_zeroes_memory),
	    cmocka_unit_test(test_xrealloc_keeps_contents),
	    cmocka_unit_test(test_xstrdup_copies),
	    cmocka_unit_test(test_xstrndup_stops_at_n_and_terminates),
	    cmocka_unit_test(test_bug_aborts_naming_file_and_line),
	    cmocka_unit_test(
		test_xmalloc_aborts_with_message_when_out_of_memory),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
