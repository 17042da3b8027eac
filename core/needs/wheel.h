/*
 * wheel.h: reading a few members of a wheel on a package index without
 * downloading it.
 *
 * A wheel is a zip, whose table of contents (the central directory) is at
 * its end. HTTP range requests fetch, in turn: the last 64 KiB (the
 * end-of-central-directory record, and often the directory itself), the
 * central directory when it starts before that, then for each member
 * wanted its local header and data, which unpack_zip_member inflates.
 * A 500 MB TensorFlow wheel answers `cuenv needs tensorflow==2.6.5` with
 * its build_info.py and METADATA for about 1% of its size, most of it the
 * central directory.
 *
 * The parsing of the end record and the directory is pure (wheel_zip_*),
 * the fetching goes through core/fetch (so --index, mirrors and proxies
 * behave as for install); nothing is written to disk.
 */
#ifndef CUENV_WHEEL_H
#define CUENV_WHEEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "net/fetch.h"
#include "needs/needs.h"
#include "net/unpack.h"

/* Where the central directory is, from the end of a zip. */
struct wheel_zip_end {
	uint64_t cd_offset, cd_size, entries;
};

/*
 * Find the end-of-central-directory record in tail, the last len bytes of
 * a zip of size bytes, and fill *end (zip64 when its locator and record
 * lie within tail). Returns CUENV_OK or CUENV_E_UNPACK (no record, or a
 * directory that does not fit in the file).
 */
int wheel_zip_end_parse(const void *tail, size_t len, uint64_t size,
			struct wheel_zip_end *end, struct cuenv_err *err);

/* One member, as the central directory describes it. */
struct wheel_zip_member {
	char *name;
	unsigned method;	       /* 0 stored, 8 deflated */
	uint64_t csize, usize, offset; /* offset: of its local header */
	uint32_t crc;		       /* of its inflated bytes */
};

/*
 * Parse the central directory (len bytes) into *v and *n (free with
 * wheel_zip_members_free). Returns CUENV_OK or CUENV_E_UNPACK (truncated
 * or corrupt, or two members of one name: which one a reader takes is
 * its own choice, so install and needs could read different trees).
 */
int wheel_zip_directory(const void *cd, size_t len, struct wheel_zip_member **v,
			size_t *n, struct cuenv_err *err);
void wheel_zip_members_free(struct wheel_zip_member *v, size_t n);

/*
 * The bytes to fetch for member m of a zip whose members end at end (its
 * central directory's offset), from the member's local header on, into
 * *len: the header (with up to 1 KiB more of extra field than the
 * directory's name), then the data. Decided from what the directory
 * claims, before anything is fetched: a member larger than max bytes
 * (inflated, or compressed beyond what max bytes deflate to) is
 * CUENV_E_UNPACK naming it, as is one whose header and data run past
 * end. Pure.
 */
int wheel_zip_member_span(const struct wheel_zip_member *m, uint64_t end,
			  size_t max, uint64_t *len, struct cuenv_err *err);

/*
 * Check the len bytes fetched for member m (wheel_zip_member_span) before
 * they are inflated: a local header, whose name and extra field and m's
 * compressed data lie within len, and whose sizes (unless a data
 * descriptor or zip64 gives them) are within max as for
 * wheel_zip_member_span. The local header must agree with the central
 * directory: the same name (a reader that takes one and a reader that
 * takes the other would see two trees), and the CRC and sizes it gives
 * (0 is "not given"), or, with a data descriptor (flag bit 3), the
 * descriptor's when it lies within len. CUENV_OK or CUENV_E_UNPACK
 * naming m. Pure.
 */
int wheel_zip_local_check(const void *local, size_t len,
			  const struct wheel_zip_member *m, size_t max,
			  struct cuenv_err *err);

/*
 * A wheel's bytes, read at any offset: a file (core/needs/wheel_local.c), or a
 * URL by range requests. open() starts reading [off, off + len), next()
 * hands out its bytes in order (0 at the end of the range, -1 on failure),
 * close() ends it. shown names the wheel in reports.
 */
struct wheel_source {
	const char *shown;
	uint64_t size;
	void *(*open)(void *ctx, uint64_t off, uint64_t len);
	ssize_t (*next)(void *h, const void **p, struct cuenv_err *err);
	void (*close)(void *h);
	void *ctx;
	/*
	 * Members read at once on up to this many threads (0: one per
	 * core), when open/next/close may run on several threads for
	 * different ranges; 1: one at a time.
	 */
	unsigned threads;
};

/*
 * Read the wheel src into s as the tree it is (needs_scan_tree): its end
 * record and central directory, then each member needs_member_kind names,
 * in needs_member_cmp's order, from its local header on, inflated as it
 * streams (memory bounded whatever its size). A member that cannot be
 * read is a warning in s naming it; so is one whose local header or data
 * descriptor disagrees with the directory (wheel_zip_local_check's
 * rule), or whose inflated bytes are not the size and CRC they say. Returns
 * CUENV_OK, or CUENV_E_UNPACK (not a zip, a corrupt directory) or the
 * source's failure for the directory. Reads through src only.
 */
int wheel_scan_source(struct needs_scan *s, const struct wheel_source *src,
		      struct cuenv_err *err);

/*
 * What install asks of a zip before libarchive extracts it (libarchive
 * takes each member's name from its local header, and its sizes from
 * the central directory): its end record and directory (two members of
 * one name refused), and each member's local header and data descriptor
 * agreeing with the directory, as wheel_zip_local_check says. So the
 * zip `cuenv install` unpacks is the tree `cuenv needs` reads. Returns
 * CUENV_OK, CUENV_E_UNPACK naming the member, or the source's failure.
 * Reads the directory and a few bytes around each member's data.
 */
int wheel_check_source(const struct wheel_source *src, struct cuenv_err *err);

/* What reading a remote wheel cost. */
struct wheel_remote_stats {
	uint64_t size;	   /* the wheel's size */
	uint64_t bytes;	   /* bytes fetched */
	unsigned requests; /* requests made */
	bool metadata;	   /* the index's PEP 658 metadata file was read */
};

/*
 * Read the members of the wheel at url that r wants, by range requests
 * (size: the wheel's size when the index said it, else 0 and one more
 * request asks the server), handing each to r->got: a member over r->max
 * bytes, as the directory or its local header claims it, is refused
 * before it is fetched or inflated, and inflating stops at r->max. *st
 * counts what was fetched, also on failure. Returns CUENV_OK,
 * CUENV_E_FETCH, CUENV_E_UNPACK, or what got() returned. Network I/O.
 */
int wheel_remote_each(const char *url, uint64_t size,
		      const struct fetch_opts *fo,
		      const struct unpack_zip_reader *r,
		      struct wheel_remote_stats *st, struct cuenv_err *err);

/* A requirement read from the index. */
struct wheel_requirement {
	char *project; /* normalised: "tensorflow" */
	char *version; /* the release read: "2.6.5" */
	char *wheel;   /* its file name */
	char *url;
	struct wheel_remote_stats st;
};

void wheel_requirement_release(struct wheel_requirement *r);

/*
 * Find the wheel of req ("tensorflow==2.6.5"; a version prefix such as
 * "torch==2.1" means its newest release, pre-releases left out, unless
 * it is a release itself: "==0.12.0" beside 0.12.0.1) on the
 * package index at index (a simple API root), for platform (a tag
 * found in the file name, "win_amd64"; NULL: Linux on this machine's architecture, else a
 * pure-Python wheel), and read its metadata into s's reports. Where the
 * index serves the wheel's core metadata as a file of its own (PEP 658,
 * checked against the index's sha256), that small file comes first,
 * named "WHEEL.metadata"; when it says the CUDA release (a major.minor,
 * as torch's and jax's nvidia-* pins do) nothing more is read. Else, or
 * when that file is missing or does not match (a line in s->warnings),
 * the metadata members (needs_metadata_name; METADATA left out when the
 * file gave it) are read by range requests into the wheel, their sources
 * named "WHEEL/MEMBER". *r says which wheel and what it cost, also on failure
 * once known. req may be a NAME alone: its newest release. Returns
 * CUENV_OK; CUENV_E_USAGE when req is neither NAME==VERSION nor NAME;
 * CUENV_E_FETCH when the index cannot be read; CUENV_E_UNKNOWN when it
 * has no such wheel (the hint lists the releases it has, in version
 * order); CUENV_E_UNPACK.
 * Network I/O.
 */
int wheel_requirement_scan(struct needs_scan *s, const char *req,
			   const char *index, const char *platform,
			   const struct fetch_opts *fo,
			   struct wheel_requirement *r, struct cuenv_err *err);

/*
 * How pip ranks a wheel file name's tags, higher first, 0 where it does
 * not install it: the interpreter tag py ("cp311"; NULL: any) and the
 * platform (a tag, "win_amd64"; NULL: Linux on this machine's
 * architecture with glibc 2.glibc, 0: any glibc).
 */
int wheel_python_rank(const char *name, const char *py);

/*
 * Rank Linux wheels of the machine of catalog platform platform
 * ("linux-sbsa": aarch64) where none is given, as CUENV_PLATFORM asks
 * an install to act for (default: this machine's).
 */
void wheel_for_platform(const char *platform);
int wheel_platform_rank(const char *name, const char *platform, unsigned glibc);

/*
 * For `cuenv needs` (needs_net_scan_fn): scan arg into s, a .whl file in
 * place (wheel_local_scan) or NAME==VERSION found on index
 * (wheel_requirement_tree with fetch's settings; an http:// or file://
 * index is allowed, the user named it), the wheel read that way added to
 * fs with what it cost. Returns what those return. Network I/O.
 */
int wheel_needs_scan(struct needs_scan *s, const char *arg, const char *index,
		     const char *platform, const char *py,
		     const struct fetch_opts *fetch, struct needs_fetches *fs,
		     struct cuenv_err *err);

/* ---- a wheel on disk (core/needs/wheel_local.c) --------------------------------- */

/*
 * `cuenv needs WHEEL`: a .whl file on disk read in place (nothing unpacked
 * to disk), the way this module reads one on an index: the same tree, in
 * the same order, as the wheel unpacked into a folder or read on an index
 * (needs_scan_tree): metadata members as text, ELF members streamed as
 * they inflate (memory bounded whatever their size), PE members in memory
 * up to 32 MiB.
 */

/*
 * A metadata member (needs_metadata_name), on disk or on an index, and
 * the index's metadata file (PEP 658), at most this large: the largest
 * real one is tens of KiB.
 */
#define WHEEL_METADATA_MAX (8u << 20)

/*
 * Scan the wheel at path into s, its members named "PATH/MEMBER". A
 * member that cannot be read, or is not a valid ELF or PE file of its
 * kind, goes into s->warnings; only the zip itself can fail:
 * CUENV_E_STORE (cannot open or read), CUENV_E_UNPACK (not a zip, a
 * corrupt central directory). Its members are read on up to threads
 * threads (0: one per core; the answer is the same for any number).
 */
int wheel_local_scan(struct needs_scan *s, const char *path, unsigned threads,
		     struct cuenv_err *err);

/*
 * wheel_check_source on the zip at path (a wheel, or NVIDIA's Windows
 * archive), before install unpacks it. Returns CUENV_OK, CUENV_E_UNPACK
 * naming what disagrees, or CUENV_E_STORE (cannot open or read).
 */
int wheel_local_check(const char *path, struct cuenv_err *err);

#endif
