#include "net/fetch.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>

#include "plat/file.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "base/xalloc.h"

struct fetch {
	char *url;
	struct fetch_opts opts;
	CURLM *multi;
	CURL *easy;
	struct curl_slist *headers;
	struct buf data;	  /* received, not yet handed out */
	struct buf handed;	  /* what the last fetch_read returned */
	uint64_t offset;	  /* absolute position of data's first byte */
	uint64_t asked;		  /* the offset this attempt asked for */
	uint64_t skip;		  /* bytes to drop: server ignored the range */
	uint64_t told;		  /* the size the server gave */
	uint64_t size;		  /* whole file, when known */
	uint64_t limit;		  /* size, or opts.max_bytes when unknown */
	uint64_t end;		  /* a bounded range's end, or 0: the file's */
	int norange;		  /* the server ignores or refuses ranges */
	uint64_t from;		  /* the range this attempt asked for */
	int checked;		  /* ... its answer's Content-Range, once */
	char *lie;		  /* why that answer is not the range asked */
	int noted;		  /* ... and the user was told */
	int over;		  /* failed for running past limit */
	struct timespec deadline; /* opts.timeout_seconds after fetch_open */
	int running;
	int paused;   /* the reader is behind: curl holds the data */
	int finished; /* this attempt is over */
	CURLcode result;
	unsigned failures;
	char errbuf[CURL_ERROR_SIZE];
	int fd;	      /* a file:// URL: read directly, or -1 */
	int fd_errno; /* why it could not be opened; -1: not a regular
			 file (a FIFO is never waited on), 0: another host */
	char *chunk;  /* what the last read of that file got */
	size_t chunk_len;
	const char *broken; /* libcurl could not go on: why, or NULL */
};

#define CHUNK ((size_t)256 * 1024)

static int64_t ms_left(const struct fetch *f)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(f->deadline.tv_sec - now.tv_sec) * 1000 +
	       (f->deadline.tv_nsec - now.tv_nsec) / 1000000;
}

/* The range could not be used: say so, once per download. */
static void range_lost(struct fetch *f, const char *how)
{
	struct buf b = BUF_INIT;

	f->norange = 1;
	if (f->noted || !f->opts.note)
		return;
	f->noted = 1;
	buf_printf(&b,
		   "server %s the range request; downloading again from "
		   "the start (%s)",
		   how, f->url);
	f->opts.note(f->opts.note_ctx, b.data);
	buf_release(&b);
}

char *fetch_resolve_url(const char *base, const char *ref)
{
	CURLU *u = curl_url();
	char *s = NULL, *out;

	if (u && !curl_url_set(u, CURLUPART_URL, base, 0) &&
	    !curl_url_set(u, CURLUPART_URL, ref, 0) &&
	    !curl_url_get(u, CURLUPART_URL, &s, 0)) {
		out = xstrdup(s);
		curl_free(s);
	} else {
		out = xstrdup(ref);
	}
	curl_url_cleanup(u);
	return out;
}

void fetch_global_init(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

int fetch_reachable(const char *url, const struct fetch_opts *opts)
{
	CURL *easy;
	CURLcode res;

	if (!strncmp(url, "file:", 5))
		return 1;
	easy = curl_easy_init();
	if (!easy)
		return 1; /* no verdict: let the download try */
	curl_easy_setopt(easy, CURLOPT_URL, url);
	curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR,
			 opts->allow_http ? "https,http" : "https");
	curl_easy_setopt(easy, CURLOPT_CONNECT_ONLY, 1L);
	curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT, 20L);
	curl_easy_setopt(easy, CURLOPT_USERAGENT, "cuenv/0.1");
	res = curl_easy_perform(easy);
	curl_easy_cleanup(easy);
	switch (res) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
		return 0;
	default:
		return 1;
	}
}

/* Above this much unread data, curl is paused: memory stays bounded. */
#define HIGH_WATER (1 << 20)

/* The digits at *p (no sign, no space) into *v; false on none or past
 * UINT64_MAX. */
static bool range_number(const char **p, uint64_t *v)
{
	const char *s = *p;

	*v = 0;
	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return false;
		*v = *v * 10 + d;
	}
	*p = s;
	return true;
}

const char *fetch_content_range_check(const char *value, uint64_t offset,
				      uint64_t size)
{
	const char *p = value;
	uint64_t first, last, total = 0;
	bool star;

	if (!p)
		return "none";
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncasecmp(p, "bytes", 5) || (p[5] != ' ' && p[5] != '\t'))
		return "not \"bytes FIRST-LAST/LENGTH\"";
	for (p += 5; *p == ' ' || *p == '\t'; p++)
		;
	if (!range_number(&p, &first) || *p++ != '-' ||
	    !range_number(&p, &last) || *p++ != '/')
		return "not \"bytes FIRST-LAST/LENGTH\"";
	star = *p == '*';
	if (star)
		p++;
	else if (!range_number(&p, &total))
		return "not \"bytes FIRST-LAST/LENGTH\"";
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p)
		return "not \"bytes FIRST-LAST/LENGTH\"";
	if (first != offset)
		return "it does not start at the byte asked for";
	if (last < first)
		return "it ends before it starts";
	if (!star && last >= total)
		return "it ends past the file's length";
	if (size && !star && total != size)
		return "the file's length is not the size the catalogue "
		       "names";
	if (size && last >= size)
		return "it ends past the size the catalogue names";
	return NULL;
}

/*
 * The first data of a 206: is its Content-Range the range asked for?
 * False (f->lie says why) when it is not: the transfer stops, for good.
 */
static bool range_answered(struct fetch *f)
{
	struct curl_header *h = NULL;
	const char *value = NULL, *why;
	struct buf shown = BUF_INIT, b = BUF_INIT;

	if (curl_easy_header(f->easy, "Content-Range", 0, CURLH_HEADER, -1,
			     &h) == CURLHE_OK)
		value = h->value;
	why = fetch_content_range_check(value, f->from, f->size);
	if (!why) {
		/* the file's length, when it says (checked well formed) */
		const char *len = strrchr(value, '/');

		if (!f->told && len[1] != '*')
			f->told = strtoull(len + 1, NULL, 10);
		return true;
	}
	if (value) {
		buf_add_display(&shown, value, 80);
		buf_printf(&b,
			   "the server answered the request for bytes "
			   "%llu- with Content-Range '%s': %s",
			   (unsigned long long)f->from, shown.data, why);
	} else {
		buf_printf(&b,
			   "the server answered the request for bytes "
			   "%llu- with 206 but no Content-Range",
			   (unsigned long long)f->from);
	}
	free(f->lie);
	f->lie = buf_detach(&b);
	buf_release(&shown);
	return false;
}

static size_t on_data(char *p, size_t size, size_t n, void *ctx)
{
	struct fetch *f = ctx;
	size_t len = size * n;
	long status = 0;

	if (!f->checked) {
		f->checked = 1;
		curl_easy_getinfo(f->easy, CURLINFO_RESPONSE_CODE, &status);
		/* bytes of another range would be written as ours */
		if (status == 206 && !range_answered(f))
			return 0;
	}
	/* Never pause on an empty buffer: nothing would ever drain it. */
	if (f->data.len && f->data.len + len > HIGH_WATER) {
		f->paused = 1; /* curl delivers this chunk again on resume */
		return CURL_WRITEFUNC_PAUSE;
	}
	curl_easy_getinfo(f->easy, CURLINFO_RESPONSE_CODE, &status);
	if (status == 200 && !f->told) {
		curl_off_t cl = -1;

		curl_easy_getinfo(f->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T,
				  &cl);
		if (cl > 0)
			f->told = (uint64_t)cl;
	}
	if (f->asked && status == 200 && !f->skip && !f->data.len) {
		/* The server sent the whole file: drop what we have. */
		f->skip = f->asked;
		f->asked = 0;
		range_lost(f, "ignored");
	} else if (f->asked && status == 206) {
		f->asked = 0;
	}
	if (f->skip) {
		size_t drop = f->skip < len ? (size_t)f->skip : len;

		f->skip -= drop;
		p += drop;
		len -= drop;
	}
	buf_add(&f->data, p, len);
	return size * n;
}

static int start(struct fetch *f)
{
	const char *protos = f->opts.allow_http && f->opts.allow_file
				     ? "https,http,file"
			     : f->opts.allow_http ? "https,http"
			     : f->opts.allow_file ? "https,file"
						  : "https";

	f->easy = curl_easy_init();
	if (!f->easy)
		return -1;
	curl_easy_setopt(f->easy, CURLOPT_URL, f->url);
	curl_easy_setopt(f->easy, CURLOPT_PROTOCOLS_STR, protos);
	curl_easy_setopt(f->easy, CURLOPT_REDIR_PROTOCOLS_STR, "https");
	curl_easy_setopt(f->easy, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(f->easy, CURLOPT_MAXREDIRS, 10L);
	curl_easy_setopt(f->easy, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(f->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(f->easy, CURLOPT_CONNECTTIMEOUT, 20L);
	curl_easy_setopt(f->easy, CURLOPT_LOW_SPEED_LIMIT,
			 (long)(f->opts.low_speed ? f->opts.low_speed : 1));
	curl_easy_setopt(f->easy, CURLOPT_LOW_SPEED_TIME,
			 (long)f->opts.stall_seconds);
	curl_easy_setopt(f->easy, CURLOPT_USERAGENT, "cuenv/0.1");
	curl_easy_setopt(f->easy, CURLOPT_ERRORBUFFER, f->errbuf);
	curl_easy_setopt(f->easy, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(f->easy, CURLOPT_WRITEDATA, f);
	curl_easy_setopt(f->easy, CURLOPT_BUFFERSIZE, (long)CHUNK);
	if (f->headers)
		curl_easy_setopt(f->easy, CURLOPT_HTTPHEADER, f->headers);
	if (f->opts.timeout_seconds) {
		int64_t left = ms_left(f);

		curl_easy_setopt(f->easy, CURLOPT_TIMEOUT_MS,
				 (long)(left > 0 ? left : 1));
	}
	f->asked = f->offset + f->data.len;
	f->skip = 0;
	if (f->asked && f->norange) {
		/* Read from the start, dropping what we have. */
		f->skip = f->asked;
		f->asked = 0;
	} else if (f->asked || f->end) {
		/*
		 * CURLOPT_RANGE, not RESUME_FROM: libcurl fails a resume that
		 * gets a 200 ("Cannot resume"); on_data copes with it instead.
		 * A bounded range asks for its end too: what is not asked for
		 * is not sent.
		 */
		char range[48];

		if (f->end)
			snprintf(range, sizeof(range), "%llu-%llu",
				 (unsigned long long)f->asked,
				 (unsigned long long)(f->end - 1));
		else
			snprintf(range, sizeof(range), "%llu-",
				 (unsigned long long)f->asked);
		curl_easy_setopt(f->easy, CURLOPT_RANGE, range);
	}
	f->from = f->asked;
	f->checked = 0;
	f->errbuf[0] = '\0';
	f->finished = 0;
	f->paused = 0;
	curl_multi_add_handle(f->multi, f->easy);
	return 0;
}

static void stop(struct fetch *f)
{
	if (!f->easy)
		return;
	curl_multi_remove_handle(f->multi, f->easy);
	curl_easy_cleanup(f->easy);
	f->easy = NULL;
}

/* Has the transfer run past the size the catalogue gives, or the bound? */
static int too_long(struct fetch *f, uint64_t end, struct cuenv_err *err)
{
	if (!f->limit || end <= f->limit)
		return 0;
	f->over = 1;
	if (f->size) {
		cuenv_fail(err, CUENV_E_FETCH,
			   "cannot download '%s': more bytes than the %llu the "
			   "catalogue says",
			   f->url, (unsigned long long)f->size);
		return -1;
	}
	cuenv_fail(err, CUENV_E_FETCH,
		   "cannot download '%s': larger than %llu bytes, the bound "
		   "on a download of unknown size",
		   f->url, (unsigned long long)f->limit);
	cuenv_hint(err, "to allow more: --max-download BYTES, or "
			"CUENV_FETCH_MAX_BYTES");
	return -1;
}

/*
 * A file URL's path as a path: on Windows file:///C:/x gives "/C:/x",
 * whose drive follows the slash.
 */
static const char *local_path(const char *path)
{
	if (path[0] == '/' && plat_path_kind(plat_path_native(), path + 1,
					     NULL) == PLAT_PATH_ABSOLUTE)
		return path + 1;
	return path;
}

/*
 * A file:// URL (a mirror on disk) is read without libcurl: its file
 * protocol cannot pause, so it would pull a whole archive into memory at
 * once. libcurl still parses the URL. Returns 0 when url is not a local
 * file; otherwise f->fd is the open file (file_open_read: a FIFO in a
 * shared mirror is refused, never waited on), or -1 with f->fd_errno set.
 */
static int open_local(struct fetch *f)
{
	CURLU *u;
	char *host = NULL, *path = NULL;

	if (strncmp(f->url, "file://", 7) || !f->opts.allow_file)
		return 0;
	u = curl_url();
	f->fd = -1;
	f->fd_errno = EINVAL;
	if (u && !curl_url_set(u, CURLUPART_URL, f->url, 0) &&
	    !curl_url_get(u, CURLUPART_PATH, &path, CURLU_URLDECODE)) {
		curl_url_get(u, CURLUPART_HOST, &host, 0);
		if (host && *host && strcmp(host, "localhost")) {
			f->fd_errno = 0; /* another host's file */
			goto out;
		}
		f->fd = file_open_read(PLAT_AT_CWD, local_path(path), 0, NULL);
		if (f->fd == FILE_NOT_REGULAR) {
			f->fd = -1;
			f->fd_errno = -1; /* a folder, a FIFO */
		} else if (f->fd < 0) {
			f->fd_errno = errno;
		} else if (f->offset && plat_seek(f->fd, f->offset)) {
			/* Never read from byte 0 as if it were offset. */
			f->fd_errno = errno;
			plat_close(f->fd);
			f->fd = -1;
		}
	}
out:
	curl_free(host);
	curl_free(path);
	curl_url_cleanup(u);
	return 1;
}

/* fetch_read for a local file. */
static ssize_t read_local(struct fetch *f, const void **buf,
			  struct cuenv_err *err)
{
	ssize_t n;

	if (f->fd < 0) {
		cuenv_fail(err, CUENV_E_FETCH, "cannot download '%s': %s",
			   f->url,
			   f->fd_errno < 0 ? "not a regular file"
			   : f->fd_errno   ? strerror(f->fd_errno)
					   : "the file is on another host");
		return -1;
	}
	f->offset += f->chunk_len;
	f->chunk_len = 0;
	if (f->end && f->offset >= f->end)
		return 0; /* the range asked for is read */
	if (!f->chunk)
		f->chunk = xmalloc(CHUNK);
	n = file_read_full(f->fd, f->chunk,
			   f->end && f->end - f->offset < CHUNK
				   ? (size_t)(f->end - f->offset)
				   : CHUNK);
	if (n < 0) {
		cuenv_fail(err, CUENV_E_FETCH, "cannot download '%s': %s",
			   f->url, strerror(errno));
		return -1;
	}
	f->chunk_len = (size_t)n;
	if (too_long(f, f->offset + (size_t)n, err))
		return -1;
	if (!n && f->size && f->offset < f->size) {
		cuenv_fail(err, CUENV_E_FETCH,
			   "cannot download '%s': the file ends at byte %llu, "
			   "before the %llu bytes the catalogue names",
			   f->url, (unsigned long long)f->offset,
			   (unsigned long long)f->size);
		return -1;
	}
	*buf = f->chunk;
	return n;
}

struct fetch *fetch_open(const char *url, uint64_t offset, uint64_t size,
			 const struct fetch_opts *opts)
{
	return fetch_open_range(url, offset, 0, size, opts);
}

struct fetch *fetch_open_range(const char *url, uint64_t offset, uint64_t end,
			       uint64_t size, const struct fetch_opts *opts)
{
	struct fetch *f = xcalloc(1, sizeof(*f));

	f->url = xstrdup(url);
	f->opts = *opts;
	f->offset = offset;
	f->end = end > offset && (!size || end < size) ? end : 0;
	f->size = size;
	f->limit = size ? size : opts->max_bytes;
	f->fd = -1;
	clock_gettime(CLOCK_MONOTONIC, &f->deadline);
	f->deadline.tv_sec += (time_t)opts->timeout_seconds;
	if (open_local(f))
		return f;
	f->multi = curl_multi_init();
	if (opts->accept) {
		struct buf h = BUF_INIT;

		buf_printf(&h, "Accept: %s", opts->accept);
		f->headers = curl_slist_append(NULL, h.data);
		buf_release(&h);
	}
	if (!f->multi || start(f))
		f->broken = "cannot set up libcurl";
	return f;
}

/* Is a failed attempt worth another? */
static int transient(struct fetch *f, long status)
{
	switch (f->result) {
	case CURLE_HTTP_RETURNED_ERROR:
		return status >= 500 || status == 408 || status == 429;
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
	case CURLE_SSL_CONNECT_ERROR:
		return 1;
	default:
		return 0;
	}
}

/* Is the deadline passed (so that no retry can help)? */
static int past_deadline(const struct fetch *f)
{
	return f->opts.timeout_seconds && ms_left(f) <= 0;
}

static void pause_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static int fail(struct fetch *f, long status, struct cuenv_err *err)
{
	const char *why =
		f->errbuf[0] ? f->errbuf : curl_easy_strerror(f->result);

	if (f->lie) {
		cuenv_fail(err, CUENV_E_FETCH, "cannot download '%s': %s",
			   f->url, f->lie);
		return -1;
	}
	if (f->result == CURLE_OPERATION_TIMEDOUT && past_deadline(f)) {
		cuenv_fail(err, CUENV_E_FETCH,
			   "cannot download '%s': not done after %u s (at "
			   "byte %llu)",
			   f->url, f->opts.timeout_seconds,
			   (unsigned long long)f->offset);
		cuenv_hint(err, "to allow longer: --timeout SECONDS, or "
				"CUENV_FETCH_TIMEOUT");
		return -1;
	}
	if (f->result == CURLE_HTTP_RETURNED_ERROR && status == 416)
		cuenv_fail(err, CUENV_E_FETCH,
			   "cannot download '%s': the server's file ends at "
			   "byte %llu, before the %llu bytes the catalogue "
			   "names",
			   f->url, (unsigned long long)f->offset,
			   (unsigned long long)f->size);
	else if (f->result == CURLE_HTTP_RETURNED_ERROR)
		cuenv_fail(err, CUENV_E_FETCH, "cannot download '%s': HTTP %ld",
			   f->url, status);
	else if (f->result == CURLE_UNSUPPORTED_PROTOCOL)
		cuenv_fail(err, CUENV_E_FETCH,
			   "cannot download '%s': refused protocol (only "
			   "https, and http/file when the mirror says so; "
			   "redirects only to https): %s",
			   f->url, why);
	else
		cuenv_fail(err, CUENV_E_FETCH, "cannot download '%s': %s",
			   f->url, why);
	if (f->failures)
		buf_printf(&err->msg, " (after %u attempts)", f->failures + 1);
	return -1;
}

/* Hand out what was received (f->data becomes f->handed). */
static ssize_t hand_out(struct fetch *f, const void **buf,
			struct cuenv_err *err)
{
	struct buf t = f->handed;

	f->handed = f->data;
	f->data = t;
	buf_reset(&f->data);
	if (too_long(f, f->offset + f->handed.len, err))
		return -1;
	*buf = f->handed.data;
	return (ssize_t)f->handed.len;
}

/* Start the next attempt (the last one stopped). */
static void restart(struct fetch *f)
{
	if (start(f))
		f->broken = "cannot restart libcurl";
}

/* Wait before another attempt: doubling with each failure, to 64 times
 * backoff_ms, never past the deadline. */
static void back_off(const struct fetch *f)
{
	int64_t ms = (int64_t)f->opts.backoff_ms
		     << (f->failures < 6 ? f->failures : 6);

	if (f->opts.timeout_seconds && ms > ms_left(f))
		ms = ms_left(f) > 0 ? ms_left(f) : 0;
	pause_ms((unsigned)ms);
}

/*
 * An attempt that asked for a range got 416: 0 when the file was whole
 * (nothing after offset, size unknown), 1 when ours and the server's copy
 * differ and the download restarted from the start, -1 otherwise.
 */
static int range_refused(struct fetch *f, long status)
{
	if (f->result != CURLE_HTTP_RETURNED_ERROR || status != 416 ||
	    !f->asked)
		return -1;
	if (!f->size) {
		/* Nothing after offset: the file was whole. */
		stop(f);
		return 0;
	}
	if (f->norange)
		return -1;
	/* Ours and the server's copy differ: restart. */
	range_lost(f, "refused");
	stop(f);
	restart(f);
	return 1;
}

/*
 * The attempt is over, its data all handed out: 0 when the download is
 * complete, -1 when it failed for good (err says why), 1 when another
 * attempt started.
 */
static int attempt_over(struct fetch *f, struct cuenv_err *err)
{
	long status = 0;
	uint64_t want;
	int r;

	if (f->easy)
		curl_easy_getinfo(f->easy, CURLINFO_RESPONSE_CODE, &status);
	if (f->lie) {
		/* a server that answers another range: no retry helps */
		fail(f, status, err);
		stop(f);
		return -1;
	}
	/*
	 * Every byte asked for (a bounded range, or a known size) is here:
	 * done, whatever the end of the connection was (the hash decides).
	 */
	want = f->end ? f->end : f->size;
	if (want && f->offset >= want)
		f->result = CURLE_OK;
	/* A clean end that is short of it: broken. */
	if (f->result == CURLE_OK && want && f->offset < want)
		f->result = CURLE_PARTIAL_FILE;
	if (f->result == CURLE_OK) {
		stop(f);
		return 0;
	}
	r = range_refused(f, status);
	if (r >= 0)
		return r;
	if (past_deadline(f))
		f->result = CURLE_OPERATION_TIMEDOUT;
	if (!transient(f, status) || past_deadline(f) ||
	    f->failures >= f->opts.retries) {
		fail(f, status, err);
		stop(f);
		return -1;
	}
	stop(f);
	back_off(f);
	f->failures++;
	restart(f);
	return 1;
}

/* Let libcurl move the transfer on, waiting up to a second for data. */
static void pump(struct fetch *f)
{
	CURLMcode mc = curl_multi_perform(f->multi, &f->running);
	CURLMsg *msg;
	int left;

	if (mc != CURLM_OK) {
		f->broken = curl_multi_strerror(mc);
		return;
	}
	while ((msg = curl_multi_info_read(f->multi, &left))) {
		if (msg->msg == CURLMSG_DONE) {
			f->finished = 1;
			f->result = msg->data.result;
		}
	}
	if (!f->data.len && !f->finished)
		curl_multi_poll(f->multi, NULL, 0, 1000, NULL);
}

ssize_t fetch_read(struct fetch *f, const void **buf, struct cuenv_err *err)
{
	/* What was handed out last time is consumed now. */
	f->offset += f->handed.len;
	buf_reset(&f->handed);
	if (!f->multi && !f->broken)
		return read_local(f, buf, err);
	for (;;) {
		if (f->broken) {
			/* The environment (memory, sockets), not a bug. */
			cuenv_fail(err, CUENV_E_FETCH,
				   "cannot download '%s': %s", f->url,
				   f->broken);
			stop(f);
			return -1;
		}
		if (f->data.len)
			return hand_out(f, buf, err);
		if (f->finished) {
			int r = attempt_over(f, err);

			if (r <= 0)
				return r;
			continue;
		}
		if (f->paused && f->easy) {
			f->paused = 0;
			curl_easy_pause(f->easy, CURLPAUSE_CONT);
			continue;
		}
		pump(f);
	}
}

uint64_t fetch_offset(const struct fetch *f)
{
	return f->offset + f->handed.len + f->chunk_len;
}

uint64_t fetch_size(const struct fetch *f)
{
	return f->size ? f->size : f->told;
}

int fetch_too_long(const struct fetch *f)
{
	return f && f->over;
}

void fetch_close(struct fetch *f)
{
	if (!f)
		return;
	stop(f);
	if (f->fd >= 0)
		plat_close(f->fd);
	free(f->chunk);
	free(f->lie);
	if (f->multi)
		curl_multi_cleanup(f->multi);
	curl_slist_free_all(f->headers);
	buf_release(&f->data);
	buf_release(&f->handed);
	free(f->url);
	free(f);
}

int fetch_to_buf(const char *url, const struct fetch_opts *opts, size_t max,
		 struct buf *out, struct cuenv_err *err)
{
	struct fetch *f = fetch_open(url, 0, 0, opts);
	const void *p;
	ssize_t n;
	int rc = CUENV_OK;

	buf_reset(out);
	while ((n = fetch_read(f, &p, err)) > 0) {
		if (out->len + (size_t)n > max) {
			rc = cuenv_fail(err, CUENV_E_FETCH,
					"'%s' is larger than %zu bytes", url,
					max);
			break;
		}
		buf_add(out, p, (size_t)n);
	}
	if (n < 0)
		rc = err->rc;
	fetch_close(f);
	return rc;
}
