/*
 * The worker pool: every job once, on at most the threads asked for, the
 * first failure stopping jobs not yet started, progress ticks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "net/workers.h"

#define MAXJOBS 64

struct tally {
	struct workers w;
	int ran[MAXJOBS];      /* times each job ran */
	int done_rc[MAXJOBS];  /* what done() saw, -1: not called */
	int fail_at;	       /* job that fails, -1: none */
	unsigned inside, most; /* jobs running now, and at most */
	unsigned ticks;
	useconds_t nap;
};

static int run(void *ctx, size_t i)
{
	struct tally *t = ctx;

	pthread_mutex_lock(&t->w.lock);
	t->ran[i]++;
	if (++t->inside > t->most)
		t->most = t->inside;
	pthread_mutex_unlock(&t->w.lock);
	if (t->nap)
		usleep(t->nap);
	pthread_mutex_lock(&t->w.lock);
	t->inside--;
	pthread_mutex_unlock(&t->w.lock);
	return (int)i == t->fail_at ? 7 : 0;
}

static void done(void *ctx, size_t i, int rc)
{
	struct tally *t = ctx;

	t->done_rc[i] = rc;
}

static void tick(void *ctx)
{
	struct tally *t = ctx;

	t->ticks++;
}

static void setup(struct tally *t, size_t n, int fail_at)
{
	memset(t, 0, sizeof(*t));
	workers_init(&t->w);
	t->w.n = n;
	t->w.run = run;
	t->w.done = done;
	t->w.tick = tick;
	t->w.ctx = t;
	t->fail_at = fail_at;
	for (size_t i = 0; i < MAXJOBS; i++)
		t->done_rc[i] = -1;
}

static void test_workers_run_every_job_once(void **state)
{
	struct tally t;

	(void)state;
	setup(&t, 40, -1);
	t.nap = 1000;
	assert_int_equal(workers_run(&t.w, 4), 0);
	for (size_t i = 0; i < 40; i++) {
		assert_int_equal(t.ran[i], 1);
		assert_int_equal(t.done_rc[i], 0);
	}
	assert_true(t.most >= 1 && t.most <= 4);
	assert_true(t.ticks >= 1); /* at least the last one */
	workers_destroy(&t.w);
}

static void test_workers_never_more_threads_than_jobs(void **state)
{
	struct tally t;

	(void)state;
	setup(&t, 2, -1);
	t.nap = 20000;
	assert_int_equal(workers_run(&t.w, 16), 0);
	assert_int_equal(t.ran[0], 1);
	assert_int_equal(t.ran[1], 1);
	assert_true(t.most <= 2);
	workers_destroy(&t.w);

	/* no jobs: nothing runs, no thread is needed */
	setup(&t, 0, -1);
	assert_int_equal(workers_run(&t.w, 0), 0);
	workers_destroy(&t.w);
}

/* One thread: the jobs run in order, and none after the one that fails. */
static void test_workers_first_failure_stops_the_rest(void **state)
{
	struct tally t;

	(void)state;
	setup(&t, 10, 3);
	assert_int_equal(workers_run(&t.w, 1), 0);
	for (int i = 0; i <= 3; i++)
		assert_int_equal(t.ran[i], 1);
	assert_int_equal(t.done_rc[3], 7);
	assert_int_equal(t.done_rc[2], 0);
	for (int i = 4; i < 10; i++) {
		assert_int_equal(t.ran[i], 0);
		assert_int_equal(t.done_rc[i], -1);
	}
	workers_destroy(&t.w);
}

/*
 * Several threads: the jobs in flight finish (done() is called for
 * each), no job starts after the failure was seen, none runs twice.
 */
static void test_workers_failure_lets_running_jobs_finish(void **state)
{
	struct tally t;
	size_t ran = 0;

	(void)state;
	setup(&t, MAXJOBS, 0);
	t.nap = 20000;
	assert_int_equal(workers_run(&t.w, 4), 0);
	assert_int_equal(t.done_rc[0], 7);
	for (size_t i = 0; i < MAXJOBS; i++) {
		assert_true(t.ran[i] <= 1);
		assert_int_equal(t.done_rc[i], t.ran[i] ? (i ? 0 : 7) : -1);
		ran += (size_t)t.ran[i];
	}
	/* job 0 fails after 20 ms; the other threads took one job each
	 * meanwhile, and at most one more before they saw it */
	assert_true(ran < MAXJOBS);
	workers_destroy(&t.w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_workers_run_every_job_once),
	    cmocka_unit_test(test_workers_never_more_threads_than_jobs),
	    cmocka_unit_test(test_workers_first_failure_stops_the_rest),
	    cmocka_unit_test(test_workers_failure_lets_running_jobs_finish),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
