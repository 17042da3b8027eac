/*
 * download.h: one file named by its sha256, verified on its way in.
 *
 * install (an archive into the store's cache) and mirror (a file into a
 * mirror's folder) get a file the same way, written here once:
 *
 *	download_init          what the file must be: URL, sha256, size
 *	download_from_fd_take  a complete local file (the cache, a
 *	                       catalogue file: an origin), or else
 *	download_resume        the <sha256>.part an earlier run left: its
 *	                       bytes are read back and hashed, and the
 *	                       rest asked of the network from where it ends
 *	                       (download_restart: from an empty .part)
 *	download_read          each byte once, in order, hashed as it is
 *	                       handed on (install unpacks them as they come)
 *	download_verify        the rest read, then the length and sha256
 *	                       compared with what they must be
 *	download_keep          the .part made durable and renamed to its
 *	                       final name
 *
 * Bytes that come over the network, or from a local file while a .part
 * is open, are appended to the .part; bytes read back from the .part are
 * not written again. Only a network failure leaves a .part worth
 * resuming from (download_resumable): bytes that failed to verify, ran
 * past the size, or met a write error are the caller's to remove.
 * Nothing here removes a file or chooses where one goes: the caller
 * names the .part and the final name, and holds whatever lock they need.
 */
#ifndef CUENV_DOWNLOAD_H
#define CUENV_DOWNLOAD_H

#include <stdint.h>
#include <sys/types.h>

#include "base/err.h"
#include "net/digest.h"
#include "net/fetch.h"

struct download {
	/* Set by download_init; the caller may change name and progress
	 * before the first read (all borrowed). */
	const char *url;    /* asked of the network */
	const char *name;   /* named by a mismatch (default: url) */
	const char *sha256; /* 64 lowercase hex digits */
	uint64_t size;	    /* 0 when the catalogue does not say */
	const struct fetch_opts *fetch;
	void (*progress)(void *ctx, uint64_t pos); /* after each read */
	void *ctx;

	/* The state, read-only outside download.c. */
	struct digest *sha;
	int file; /* reading a local file or the .part, or -1 */
	const char *file_shown;
	int file_is_part; /* ... the .part: the network follows */
	int part;	  /* appending to the .part, or -1 */
	int part_dir;	  /* the .part's folder and name there */
	const char *part_name;
	const char *part_shown;
	struct fetch *net; /* once the network is asked */
	uint64_t pos;	   /* bytes handed on (and hashed) */
	uint64_t fetched;  /* ... of them, over the network */
	int eof;
	char *buf; /* for file reads */
};

/*
 * Set d up for the file at url (borrowed, like sha256 and fetch) that
 * hashes to sha256 and is size bytes long (0: unknown). No I/O. Without
 * a download_from_fd_take or download_resume, the bytes come from the
 * network alone and are written nowhere.
 */
void download_init(struct download *d, const char *url, const char *sha256,
		   uint64_t size, const struct fetch_opts *fetch);

/* Close what d has open, free what it holds; d may be released twice. */
void download_release(struct download *d);

/*
 * Read the complete local file open at fd (d takes it and closes it;
 * shown names it in messages, borrowed) instead of the network.
 */
void download_from_fd_take(struct download *d, int fd, const char *shown);

/*
 * Open the .part name below the folder open at dir (PLAT_AT_CWD: a
 * path; shown names it, borrowed), with flags added to plat_open's
 * (PLAT_O_NOFOLLOW | PLAT_O_NONBLOCK where the folder is not cuenv's
 * alone). download_resume keeps its bytes (none when it is longer than
 * size can be), to be read back before the network is asked for the
 * rest; download_restart empties it. CUENV_OK, or CUENV_E_STORE naming
 * shown (also when it is not a regular file).
 */
int download_resume(struct download *d, int dir, const char *name,
		    const char *shown, unsigned flags, struct cuenv_err *err);
int download_restart(struct download *d, int dir, const char *name,
		     const char *shown, unsigned flags, struct cuenv_err *err);

/*
 * The next bytes in *out (valid until the next call), hashed and
 * appended to the .part where they are new there. Returns their count,
 * 0 at the end, or -1 with err set: CUENV_E_FETCH from the network,
 * CUENV_E_STORE when a file cannot be read or the .part written.
 */
ssize_t download_read(struct download *d, const void **out,
		      struct cuenv_err *err);

/*
 * Read to the end, then compare: CUENV_OK, CUENV_E_INTEGRITY on a size
 * or sha256 mismatch (naming d->name), or download_read's failure.
 */
int download_verify(struct download *d, struct cuenv_err *err);

/*
 * Stop writing the .part: its bytes are not to be kept (the caller
 * removes it). What is left is still read and hashed. Returns whether a
 * .part was open.
 */
int download_drop_part(struct download *d);

/* Flush the .part to the disk and close it; CUENV_OK when none is open,
 * or CUENV_E_STORE naming it. */
int download_close_part(struct download *d, struct cuenv_err *err);

/*
 * After download_verify: close the .part (download_close_part) and
 * rename it to name below the folder open at dir (shown names it). With
 * no .part open (the bytes came from a complete file), nothing to do.
 * CUENV_OK or CUENV_E_STORE.
 */
int download_keep(struct download *d, int dir, const char *name,
		  const char *shown, struct cuenv_err *err);

/* After a failure rc: is the .part worth resuming from? Only when the
 * network failed, not by sending more than the file can be. */
int download_resumable(const struct download *d, int rc);

#endif
