/*
 * fetch.h: downloading, as a stream the caller pulls from.
 *
 * fetch_curl.c is the only file that includes libcurl. A transfer is read
 * like a file: fetch_read() hands out the next bytes as they arrive, so
 * that the installer can hash and extract them in the same pass. Inside,
 * a transfer that breaks (timeout, reset, a 5xx, a body cut short) is
 * retried with backoff and resumed with an HTTP range request from the
 * byte it reached; the reader never sees the seam. Final failures (404
 * and other 4xx, DNS failure, refused connection, TLS failure, a redirect
 * to plain http) are errors that name the URL.
 *
 * Only https is spoken, plus http and file when the URL the user gave
 * (a mirror) asks for them; redirects may only lead to https. TLS is
 * always verified.
 */
#ifndef CUENV_FETCH_H
#define CUENV_FETCH_H

#include <stdint.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/err.h"

struct fetch_opts {
	int allow_http;		/* the user asked for an http:// mirror */
	int allow_file;		/* ... or a file:// one */
	unsigned retries;	/* attempts after the first (default 5) */
	unsigned stall_seconds; /* under low_speed for this long: retry (30) */
	unsigned backoff_ms;	/* first pause between attempts (500) */
	const char *accept;	/* an Accept header, or NULL */
	/* the bound on a download whose size nobody gave (16 GiB; 0: none) */
	uint64_t max_bytes;
	unsigned low_speed;	  /* bytes per second (1000) */
	unsigned timeout_seconds; /* one file, all attempts (14400; 0: none) */
	/*
	 * Told (from the transfer's thread) what the user should know but
	 * that is no failure: a server that ignored a range request. Or NULL.
	 */
	void (*note)(void *ctx, const char *msg);
	void *note_ctx;
};

#define FETCH_MAX_BYTES_DEFAULT ((uint64_t)16 << 30)
#define FETCH_OPTS_INIT                                                        \
	{                                                                      \
		0, 0, 5, 30, 500, NULL, FETCH_MAX_BYTES_DEFAULT, 1000, 14400,  \
			NULL, NULL                                             \
	}

struct fetch;

/*
 * Start fetching url from byte offset (0: the whole file). size, when not
 * 0, is the length the whole file must have: a body that ends early is a
 * broken transfer (retried), one that runs long an error; without it,
 * opts->max_bytes bounds the file. A server that ignores the range
 * request (200 and the whole file) or refuses it (416) is read again from
 * its start, the bytes before offset dropped, and opts->note says so
 * once; a 416 with no size known means the file ended at offset (the
 * caller's checksum decides). Throughput under opts->low_speed for
 * opts->stall_seconds breaks an attempt (retried); opts->timeout_seconds
 * after fetch_open the download fails for good.
 */
struct fetch *fetch_open(const char *url, uint64_t offset, uint64_t size,
			 const struct fetch_opts *opts);

/*
 * fetch_open for the bytes [offset, end) only: the request names its end,
 * so a server sends no more (a reader that stops early pays for nothing
 * it did not read). end 0, or at or past size: to the file's end.
 */
struct fetch *fetch_open_range(const char *url, uint64_t offset, uint64_t end,
			       uint64_t size, const struct fetch_opts *opts);

/*
 * Point *buf at the next bytes and return how many (valid until the next
 * call), 0 at the end, or -1 on a final failure (err filled, code
 * CUENV_E_FETCH).
 */
ssize_t fetch_read(struct fetch *f, const void **buf, struct cuenv_err *err);

/*
 * Does value, a 206's Content-Range ("bytes 100-199/200", or with "*"
 * for the length), answer a request for the bytes from offset on of a
 * file of size bytes (0: not known)? It must be well formed, start at
 * offset, end at or after it and inside the file, whose length, when
 * both are known, is size. NULL when it does, else why not, in words
 * (static); value NULL (no header) does not.
 */
const char *fetch_content_range_check(const char *value, uint64_t offset,
				      uint64_t size);

/* Bytes delivered so far, counting the starting offset. */
uint64_t fetch_offset(const struct fetch *f);
/* The file's full size when the server said it (0 otherwise). */
uint64_t fetch_size(const struct fetch *f);
/* Did the last failure run past the size bound (catalogue or max)? */
int fetch_too_long(const struct fetch *f);

void fetch_close(struct fetch *f);

/* Fetch a small document (at most max bytes) into out. */
int fetch_to_buf(const char *url, const struct fetch_opts *opts, size_t max,
		 struct buf *out, struct cuenv_err *err);

/*
 * Resolve ref (absolute, or relative as package index pages give them)
 * against base; a heap string. An unusable pair gives a copy of ref.
 */
char *fetch_resolve_url(const char *base, const char *ref);

/*
 * Can url's host be reached? 0 only when no connection could be made to
 * it (or to the proxy the environment names): its name does not resolve,
 * the connection is refused, or it does not answer in time. Anything
 * else, an HTTP error or a TLS failure included, is 1: the download
 * itself then says what is wrong. A file:// url is 1. Network I/O: one
 * connection, closed at once, nothing requested.
 */
int fetch_reachable(const char *url, const struct fetch_opts *opts);

/* Call once before any thread starts a transfer. */
void fetch_global_init(void);

#endif
