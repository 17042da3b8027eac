/*
 * workers.c: the thread pool of workers.h (install's downloads). Owns
 * the threads, the queue of job numbers and the first-failure stop; what
 * a job is, and what it reports, is the caller's.
 */
#include "net/workers.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plat/plat_sys.h"
#include "base/xalloc.h"

void workers_init(struct workers *w)
{
	memset(w, 0, sizeof(*w));
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->changed, NULL);
}

void workers_destroy(struct workers *w)
{
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->changed);
}

static void *worker(void *arg)
{
	struct workers *w = arg;

	for (;;) {
		size_t i;
		int rc;

		pthread_mutex_lock(&w->lock);
		if (w->next >= w->n || w->failed) {
			w->running--;
			pthread_cond_broadcast(&w->changed);
			pthread_mutex_unlock(&w->lock);
			return NULL;
		}
		i = w->next++;
		pthread_mutex_unlock(&w->lock);

		rc = w->run(w->ctx, i);

		pthread_mutex_lock(&w->lock);
		if (w->done)
			w->done(w->ctx, i, rc);
		if (rc)
			w->failed = 1;
		pthread_cond_broadcast(&w->changed);
		pthread_mutex_unlock(&w->lock);
	}
}

static void tick(struct workers *w)
{
	if (w->tick)
		w->tick(w->ctx);
}

/* Wait for every running thread to leave, ticking every 200 ms. */
static void wait_all(struct workers *w)
{
	pthread_mutex_lock(&w->lock);
	while (w->running) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 200000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&w->changed, &w->lock, &ts);
		pthread_mutex_unlock(&w->lock);
		tick(w);
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
}

int workers_run(struct workers *w, unsigned threads)
{
	pthread_t *t;
	size_t started = 0;

	if (!threads)
		threads = plat_sys_cpus();
	if (threads > w->n)
		threads = (unsigned)w->n;
	t = xcalloc(threads, sizeof(*t));
	pthread_mutex_lock(&w->lock);
	w->running = threads;
	pthread_mutex_unlock(&w->lock);
	for (unsigned i = 0; i < threads; i++) {
		int e = pthread_create(&t[i], NULL, worker, w);

		if (e) {
			pthread_mutex_lock(&w->lock);
			w->running -= threads - i;
			pthread_mutex_unlock(&w->lock);
			if (!started) {
				free(t);
				return e;
			}
			break;
		}
		started++;
	}
	wait_all(w);
	for (size_t i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	free(t);
	tick(w);
	return 0;
}
