#include "fakes/fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "plat/proc.h"

/* ---- helpers ------------------------------------------------------------- */

static char *const sh_env[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", NULL};

/* Run /bin/sh -c script into p (set up by the caller); returns proc_run's. */
static int run_sh(struct proc *p, const char *script, struct cuenv_err *err)
{
	char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
	int rc;

	p->argv = argv;
	if (!p->envp)
		p->envp = sh_env;
	rc = proc_run(p, err);
	p->argv = NULL; /* argv is gone */
	return rc;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- output -------------------------------------------------------------- */

static void test_proc_captures_stdout_and_stderr_apart(void **state)
{
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	p.out_fd = 1;
	p.capture_err = 1;
	assert_int_equal(
	    run_sh(&p, "echo to-out; echo to-err >&2; echo more", &err),
	    CUENV_OK);
	assert_string_equal(p.out.data, "to-out\nmore\n");
	assert_string_equal(p.err.data, "to-err\n");
	assert_int_equal(p.exit_code, 0);
	assert_int_equal(p.signal, 0);
	assert_false(p.timed_out);
	proc_release(&p);
	err_release(&err);
}

static void test_proc_reads_more_than_a_pipe_holds(void **state)
{
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	p.out_fd = 1;
	p.capture_err = 1;
	/* 300000 bytes on stdout, and on stderr, at the same time */
	assert_int_equal(run_sh(&p,
				"head -c 300000 /dev/zero >&2 & "
				"head -c 300000 /dev/zero; wait",
				&err),
			 CUENV_OK);
	assert_int_equal(p.out.len, 300000);
	assert_int_equal(p.err.len, 300000);
	assert_int_equal(p.exit_code, 0);
	proc_release(&p);
	err_release(&err);
}

static void test_proc_stdin_is_dev_null(void **state)
{
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	p.out_fd = 1;
	p.timeout_ms = 10000;
	assert_int_equal(run_sh(&p, "cat; echo \"after $?\"", &err), CUENV_OK);
	assert_string_equal(p.out.data, "after 0\n");
	assert_false(p.timed_out);
	proc_release(&p);
	err_release(&err);
}

static void test_proc_answer_on_its_own_fd(void **state)
{
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	p.out_fd = 3;
	assert_int_equal(
	    run_sh(&p, "echo noise; echo answer >&3; echo x >&2", &err),
	    CUENV_OK);
	assert_string_equal(p.out.data, "answer\n");
	assert_string_equal(p.err.data, "");
	assert_int_equal(p.exit_code, 0);
	proc_release(&p);
	err_release(&err);
}

/* What is not captured goes to /dev/null, not to this process's fds. */
static void test_proc_uncaptured_output_is_dropped(void **state)
{
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	char tmpl[] = "/tmp/cuenv-test-proc.XXXXXX";
	int fd = mkstemp(tmpl), saved1, saved2;
	off_t size;

	(void)state;
	assert_true(fd >= 0);
	fflush(stdout);
	fflush(stderr);
	saved1 = dup(1);
	saved2 = dup(2);
	dup2(fd, 1);
	dup2(fd, 2);
	assert_int_equal(run_sh(&p, "echo out; echo err >&2; exit 3", &err),
			 CUENV_OK);
	dup2(saved1, 1);
	dup2(saved2, 2);
	close(saved1);
	close(saved2);
	size = lseek(fd, 0, SEEK_END);
	close(fd);
	unlink(tmpl);
	assert_int_equal(size, 0);
	assert_int_equal(p.exit_code, 3);
	assert_string_equal(p.out.data, "");
	proc_release(&p);
	err_release(&err);
}

/* ---- the bound ----------------------------------------------------------- */

static void test_proc_bound_keeps_the_first_bytes_and_drains(void **state)
{
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	p.out_fd = 1;
	p.max_output = 1000;
	assert_int_equal(run_sh(&p,
				"printf 'abc'; head -c 200000 /dev/zero; "
				"echo done >&2",
				&err),
			 CUENV_OK);
	assert_int_equal(p.out.len, 1000);
	assert_memory_equal(p.out.data, "abc\0\0", 5);
	assert_int_equal(p.out.data[1000], '\0');
	assert_false(p.overflowed);
	assert_int_equal(p.exit_code, 0); /* read to its end, not killed */
	proc_release(&p);
	err_release(&err);
}

static void test_proc_bound_kills_when_asked(void **state)
{
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	double t0 = now_s();

	(void)state;
	p.out_fd = 1;
	p.max_output = 4096;
	p.kill_on_overflow = 1;
	p.timeout_ms = 20000;
	assert_int_equal(run_sh(&p, "exec cat /dev/zero", &err), CUENV_OK);
	assert_true(p.overflowed);
	assert_false(p.timed_out);
	assert_int_equal(p.out.len, 4096);
	assert_int_equal(p.exit_code, -1);
	assert_int_equal(p.signal, SIGKILL);
	assert_true(now_s() - t0 < 10);
	proc_release(&p);
	err_release(&err);
}

/* ---- the deadline -------------------------------------------------------- */

static void test_proc_timeout_kills(void **state)
{
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	double t0 = now_s(), took;

	(void)state;
	p.out_fd = 1;
	p.capture_err = 1;
	p.timeout_ms = 300;
	assert_int_equal(run_sh(&p, "echo started; exec sleep 30", &err),
			 CUENV_OK);
	took = now_s() - t0;
	assert_true(p.timed_out);
	assert_false(p.overflowed);
	assert_int_equal(p.signal, SIGKILL);
	assert_int_equal(p.exit_code, -1);
	assert_int_equal(proc_status(&p), 128 + SIGKILL);
	assert_string_equal(p.out.data, "started\n");
	assert_true(took >= 0.29);
	assert_true(took < 10);
	proc_release(&p);
	err_release(&err);
}

/* A child that closed its output and hangs is still killed on time. */
static void test_proc_timeout_kills_after_output_closed(void **state)
{
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	double t0 = now_s();

	(void)state;
	p.out_fd = 1;
	p.capture_err = 1;
	p.timeout_ms = 300;
	assert_int_equal(run_sh(&p, "exec >&- 2>&-; exec sleep 30", &err),
			 CUENV_OK);
	assert_true(p.timed_out);
	assert_int_equal(p.signal, SIGKILL);
	assert_true(now_s() - t0 < 10);
	proc_release(&p);
	err_release(&err);
}

static void test_proc_quick_child_is_not_timed_out(void **state)
{
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	p.timeout_ms = 10000; /* nothing captured: only the wait */
	assert_int_equal(run_sh(&p, "exit 0", &err), CUENV_OK);
	assert_false(p.timed_out);
	assert_int_equal(p.exit_code, 0);
	proc_release(&p);
	err_release(&err);
}

/* ---- how it ended -------------------------------------------------------- */

static void test_proc_reports_exit_codes(void **state)
{
	static const int codes[] = {0, 1, 42, 255};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(codes) / sizeof(*codes); i++) {
		struct proc p = PROC_INIT;
		char script[32];

		snprintf(script, sizeof(script), "exit %d", codes[i]);
		p.out_fd = 1;
		assert_int_equal(run_sh(&p, script, &err), CUENV_OK);
		assert_int_equal(p.exit_code, codes[i]);
		assert_int_equal(p.signal, 0);
		assert_int_equal(proc_status(&p), codes[i]);
		proc_release(&p);
	}
	err_release(&err);
}

static void test_proc_reports_the_signal(void **state)
{
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	p.out_fd = 1;
	assert_int_equal(
	    run_sh(&p, "echo before; kill -TERM $$; echo after", &err),
	    CUENV_OK);
	assert_string_equal(p.out.data, "before\n");
	assert_int_equal(p.exit_code, -1);
	assert_int_equal(p.signal, SIGTERM);
	assert_int_equal(proc_status(&p), 128 + SIGTERM);
	assert_false(p.timed_out);
	proc_release(&p);
	err_release(&err);
}

/* ---- the environment and the program ------------------------------------- */

static void test_proc_child_gets_exactly_envp(void **state)
{
	char *const env[] = {"FOO=bar baz", "PATH=/usr/bin:/bin", NULL};
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	setenv("CUENV_TEST_PROC_PARENT", "1", 1);
	p.out_fd = 1;
	p.envp = env;
	assert_int_equal(run_sh(&p,
				"printf '%s|%s' \"$FOO\" "
				"\"${CUENV_TEST_PROC_PARENT-unset}\"",
				&err),
			 CUENV_OK);
	assert_string_equal(p.out.data, "bar baz|unset");
	unsetenv("CUENV_TEST_PROC_PARENT");
	proc_release(&p);
	err_release(&err);
}

static void test_proc_null_envp_is_empty(void **state)
{
	char *argv[] = {"/bin/sh", "-c", "printf '%s' \"${HOME-unset}\"", NULL};
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	p.argv = argv;
	p.out_fd = 1;
	assert_int_equal(proc_run(&p, &err), CUENV_OK);
	assert_string_equal(p.out.data, "unset");
	proc_release(&p);
	err_release(&err);
}

static void test_proc_search_path_uses_envp_path(void **state)
{
	char *const env[] = {"PATH=/nonexistent-cuenv:/bin:/usr/bin", NULL};
	char *const no_sh[] = {"PATH=/nonexistent-cuenv", NULL};
	char *argv[] = {"sh", "-c", "echo found", NULL};
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	p.argv = argv;
	p.envp = env;
	p.out_fd = 1;
	p.search_path = 1;
	assert_int_equal(proc_run(&p, &err), CUENV_OK);
	assert_string_equal(p.out.data, "found\n");
	assert_int_equal(p.exit_code, 0);
	proc_release(&p);

	p = (struct proc)PROC_INIT;
	p.argv = argv;
	p.envp = no_sh;
	p.out_fd = 1;
	p.search_path = 1;
	assert_int_equal(proc_run(&p, &err), CUENV_E_STORE);
	assert_int_equal(p.start_errno, ENOENT);
	assert_string_equal(err.msg.data,
			    "cannot run 'sh': No such file or directory");
	proc_release(&p);
	err_release(&err);
}

static void test_proc_missing_program_fails_to_start(void **state)
{
	char *argv[] = {"/nonexistent-cuenv/prog", NULL};
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	p.argv = argv;
	p.out_fd = 1;
	p.capture_err = 1;
	assert_int_equal(proc_run(&p, &err), CUENV_E_STORE);
	assert_int_equal(p.start_errno, ENOENT);
	assert_int_equal(p.exit_code, -1);
	assert_string_equal(err.msg.data,
			    "cannot run '/nonexistent-cuenv/prog': No such "
			    "file or directory");
	proc_release(&p);
	err_release(&err);
}

/* ---- interrupted --------------------------------------------------------- */

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* Signals every 5 ms (no SA_RESTART) interrupt poll, read and waitpid. */
static void test_proc_survives_interrupting_signals(void **state)
{
	struct sigaction sa, old;
	struct itimerval tick = {{0, 5000}, {0, 5000}}, off = {{0, 0}, {0, 0}};
	struct proc p = PROC_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGALRM, &sa, &old);
	alarms = 0;
	setitimer(ITIMER_REAL, &tick, NULL);
	p.out_fd = 1;
	p.capture_err = 1;
	p.timeout_ms = 20000;
	assert_int_equal(run_sh(&p,
				"echo one; sleep 0.3; echo two; "
				"exec >&- 2>&-; sleep 0.3; exit 7",
				&err),
			 CUENV_OK);
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old, NULL);
	assert_true(alarms > 10);
	assert_string_equal(p.out.data, "one\ntwo\n");
	assert_false(p.timed_out);
	assert_int_equal(p.exit_code, 7);
	proc_release(&p);
	err_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_proc_captures_stdout_and_stderr_apart),
	    cmocka_unit_test(test_proc_reads_more_than_a_pipe_holds),
	    cmocka_unit_test(test_proc_stdin_is_dev_null),
	    cmocka_unit_test(test_proc_answer_on_its_own_fd),
	    cmocka_unit_test(test_proc_uncaptured_output_is_dropped),
	    cmocka_unit_test(test_proc_bound_keeps_the_first_bytes_and_drains),
	    cmocka_unit_test(test_proc_bound_kills_when_asked),
	    cmocka_unit_test(test_proc_timeout_kills),
	    cmocka_unit_test(test_proc_timeout_kills_after_output_closed),
	    cmocka_unit_test(test_proc_quick_child_is_not_timed_out),
	    cmocka_unit_test(test_proc_reports_exit_codes),
	    cmocka_unit_test(test_proc_reports_the_signal),
	    cmocka_unit_test(test_proc_child_gets_exactly_envp),
	    cmocka_unit_test(test_proc_null_envp_is_empty),
	    cmocka_unit_test(test_proc_search_path_uses_envp_path),
	    cmocka_unit_test(test_proc_missing_program_fails_to_start),
	    cmocka_unit_test(test_proc_survives_interrupting_signals),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
