/*
 * unpack.h: extracting untrusted archives into a staging folder.
 *
 * NVIDIA's archives (redist .tar.xz, cuDNN .tar.xz and .tgz, the tar
 * payload inside a makeself .run installer, .whl zips) are read with
 * libarchive, from a stream that the caller feeds (so that downloading,
 * hashing and extracting happen in one pass), or from a file (zips).
 *
 * Every entry is checked before it is written, and one bad entry fails
 * the whole archive (entries before it may be written: the caller then
 * deletes the staging folder, so nothing of it is installed; nothing is
 * ever written outside it):
 *   - a path that is absolute or has a ".." component, before or after
 *     strip and map;
 *   - a symbolic link whose target, resolved lexically from the link's
 *     folder, leaves the destination (absolute targets always do), or has
 *     a ".." after a name ("a/../b": a could be a link to "..", which
 *     lexical resolution cannot see; leading ".." are fine);
 *   - a hard link whose target leaves the destination, is not extracted,
 *     or is a symbolic link that would leave it from the new folder;
 *   - a device node, FIFO or socket;
 *   - a setuid, setgid or sticky bit.
 * libarchive's ARCHIVE_EXTRACT_SECURE_SYMLINKS (never write through a
 * link) and SECURE_NODOTDOT are set as well. Entries are written by
 * absolute path under dest's real path, so SECURE_NOABSOLUTEPATHS cannot
 * be; the checks above refuse absolute names instead.
 *
 * Owners, modification times, ACLs and extended attributes are not
 * restored. Permission bits are, without group and others' write bits
 * (0777 becomes 0755); folders also keep u+rwx, so that the tree can
 * always be deleted.
 */
#ifndef CUENV_UNPACK_H
#define CUENV_UNPACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/err.h"

/*
 * Where the bytes come from: read() sets *buf to the next bytes (which
 * must stay valid until the next call) and returns how many, 0 at the end,
 * or -1 on failure (having filled err, which is handed through unchanged).
 */
struct unpack_source {
	ssize_t (*read)(void *ctx, const void **buf, struct cuenv_err *err);
	void *ctx;
};

/*
 * What to keep, and where. strip leading path components are removed
 * first (1 for NVIDIA's "<name>-archive/" top folder); entries with no
 * more than that are skipped. "." and empty components do not count and
 * are dropped ("./top/lib//x" with strip 1 is "lib/x"). Then map, when set,
 * gets the stripped path (no trailing '/', even for folders) and returns
 * the path to write (a heap string the unpacker frees), or NULL to skip the
 * entry; a mapped path is checked like any other. A hard link's target
 * goes through strip and map the same way; a symbolic link's target is
 * kept as it is (it is relative to the link). NULL opts means strip 0 and
 * no map.
 */
struct unpack_opts {
	unsigned strip;
	char *(*map)(void *ctx, const char *path);
	void *map_ctx;
	uint64_t max_bytes; /* file bytes to write at most (0: no bound) */
	/* also refuse names Windows cannot hold (zip archives always are) */
	bool windows_names;
};

/* Counted from 0 by each call, also as far as it got when it fails. */
struct unpack_stats {
	uint64_t entries; /* entries written */
	uint64_t bytes;	  /* file bytes written */
	int bounded;	  /* refused for opts->max_bytes */
};

/*
 * Extract the archive that src streams (tar in any of its variants, or
 * cpio; compressed with gzip, bzip2, xz, lzma, zstd or lz4, or not at all;
 * not zip) into the existing folder dest. stats may be NULL. Returns
 * CUENV_OK, CUENV_E_UNPACK (corrupt or refused archive: the message names
 * the entry and why; also an archive that would write more than
 * opts->max_bytes), CUENV_E_STORE (dest is not a folder, or cannot
 * write: disk full, permission; the message names the path; a file is
 * refused before it is written when the disk's free space, less a
 * reserve, cannot hold it), or the
 * source's own code. A bad dest is reported before src is read. Reads src
 * only as far as the archive's end (libarchive may read ahead a little
 * within it): the caller drains the rest (to finish a checksum).
 */
int unpack_stream(const char *dest, const struct unpack_source *src,
		  const struct unpack_opts *opts, struct unpack_stats *stats,
		  struct cuenv_err *err);

/*
 * The same for an archive in the file at path archive, which may also be a
 * zip (zip needs to seek: wheels). A file that cannot be opened is
 * CUENV_E_STORE.
 */
int unpack_file(const char *dest, const char *archive,
		const struct unpack_opts *opts, struct unpack_stats *stats,
		struct cuenv_err *err);

/*
 * The checks above for one entry, as a pure function (no I/O): path is the
 * entry's path after strip and map; type is S_IFREG, S_IFDIR, S_IFLNK,
 * S_IFCHR, ... (0 is accepted for a hard link, whose type is its
 * target's); mode its permission bits; symlink and hardlink the link
 * targets or NULL (hardlink after strip and map); windows: also
 * unpack_windows_name_problem of path and of the link targets, as for
 * every entry of a zip archive. Whether a hard link's
 * target is a symbolic link needs the disk, so unpack_stream checks that
 * itself. Returns CUENV_OK or CUENV_E_UNPACK with a message such as
 * "refused archive entry '../x': path leaves the destination".
 */
int unpack_check_entry(const char *path, mode_t type, mode_t mode,
		       const char *symlink, const char *hardlink, bool windows,
		       struct cuenv_err *err);

/*
 * Why path (an entry's path, '/'-separated) cannot be written as it is
 * on Windows, or NULL: a backslash (a separator there: "..\x" climbs,
 * "\\server\share" and "\x" are absolute), a colon (a drive, "C:x",
 * or an alternate data stream, "file:stream"), a control character or
 * one of < > " | ? *, a component ending with a dot or a space (Windows
 * drops them: "bin." is "bin"), or a device name (CON, PRN, AUX, NUL,
 * COM0-9, LPT0-9, with any extension: "nul.txt"). From Microsoft's
 * "Naming Files, Paths, and Namespaces". Pure.
 */
const char *unpack_windows_name_problem(const char *path);

/*
 * Reading a zip (a wheel) in place, member by member, with nothing
 * written to disk: want() says, from a member's name, whether to read it;
 * got() gets each wanted member's bytes (borrowed for the call) and
 * returns CUENV_OK to go on, or a code that stops the walk and is
 * returned. A member larger than max bytes is CUENV_E_UNPACK.
 */
struct unpack_zip_reader {
	bool (*want)(void *ctx, const char *name);
	int (*got)(void *ctx, const char *name, const void *data, size_t len,
		   struct cuenv_err *err);
	void *ctx;
	size_t max;
};

/*
 * Inflate one zip member from local (len bytes: its local file header,
 * then its data, as a range request into a remote zip returns them) into
 * out, at most max bytes. Returns CUENV_OK or CUENV_E_UNPACK.
 */
int unpack_zip_member(const void *local, size_t len, size_t max,
		      struct buf *out, struct cuenv_err *err);

/*
 * One zip member inflated as it streams, memory bounded whatever its
 * size: read() returns its bytes from its local header on (a file read
 * in chunks, a range request), in order; unpack_member_read then hands
 * out its content in blocks. name is for messages.
 */
typedef ssize_t unpack_read_fn(void *ctx, const void **p,
			       struct cuenv_err *err);
struct unpack_member;

struct unpack_member *unpack_member_open(unpack_read_fn *read, void *ctx,
					 const char *name);
/*
 * The next block of the member's content into *p (borrowed until the next
 * call): its length, 0 at the end, -1 on failure (err: CUENV_E_UNPACK,
 * or read()'s own code), which includes content whose size or CRC is not
 * what its local header or data descriptor says.
 */
ssize_t unpack_member_read(struct unpack_member *m, const void **p,
			   struct cuenv_err *err);
void unpack_member_close(struct unpack_member *m);

/*
 * A makeself installer (NVIDIA's .run files) is a shell script followed by
 * a compressed tar payload. Given the first len bytes of the file (64 KiB
 * is plenty), find the payload's byte offset: the header's line count N
 * comes from `skip="N"` (makeself >= 2.4.2) or a literal `head -n N`
 * (older), and the payload starts after the N-th newline. Only the text
 * before the first NUL byte is searched, and the line giving N must lie
 * within the N lines. Returns CUENV_OK or CUENV_E_UNPACK ("not a makeself
 * archive": no "#!" first line, or no such count; or the N-th line is not
 * within len bytes), leaving *offset alone on failure.
 */
int unpack_makeself_offset(const char *head, size_t len, uint64_t *offset,
			   struct cuenv_err *err);

#endif
