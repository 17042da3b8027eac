/*
 * workers.h: a small pool of threads running n numbered jobs.
 *
 * Each job runs once, on one of the threads, in the order of its number.
 * The first job that fails stops the pool from starting any other: the
 * jobs already running finish, those not started never run. The calling
 * thread waits, calling tick about five times a second and at every job's
 * end (for progress reports), and once more when all threads are done.
 * Out of threads is the machine's state: the threads that did start run
 * every job.
 */
#ifndef CUENV_WORKERS_H
#define CUENV_WORKERS_H

#include <pthread.h>
#include <stddef.h>

struct workers {
	size_t n; /* jobs 0 .. n-1 */
	/* Run job i (no lock held); non-zero is its failure. */
	int (*run)(void *ctx, size_t i);
	/* Job i ended with rc, called with lock held (may be NULL). */
	void (*done)(void *ctx, size_t i, int rc);
	/* From the calling thread, no lock held (may be NULL). */
	void (*tick)(void *ctx);
	void *ctx;
	/*
	 * Held around done(): jobs and tick() may share it for state of
	 * their own (as progress counters).
	 */
	pthread_mutex_t lock;
	/* private */
	pthread_cond_t changed;
	size_t next, running;
	int failed;
};

/* Zero *w and make its lock; set the fields above before workers_run. */
void workers_init(struct workers *w);
void workers_destroy(struct workers *w);

/*
 * Run w's jobs on up to threads threads (0: one per online core; never
 * more than n) and wait for them. Returns 0 when every job ran or was
 * skipped after a failure (the jobs' own results are theirs to keep), or
 * pthread_create's error when not one thread could start (no job ran).
 */
int workers_run(struct workers *w, unsigned threads);

#endif
