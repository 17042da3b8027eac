/*
 * unpack.h: extracting untrusted archives into a staging folder.
 *
 * NVIDIA's archives (redist .tar.xz, cuDNN .tar.xz and .tgz, the tar
 * payload inside a makeself .run installer, .whl zips) are read with
 * libarchive, from a stream that the caller feeds (so that downloading,
 * hashing and extracting happen in one pass), or from a file (zips).
 *
 * Every entry is checked before anything is written, and one bad entry
 * fails the whole archive (the caller then deletes the staging folder, so
 * nothing of it is installed):
 *   - a path that is absolute or has a ".." component;
 *   - a symbolic link whose target, resolved from the link's folder,
 *     leaves the destination (absolute targets always do);
 *   - a hard link whose target leaves the destination;
 *   - a device node, FIFO or socket;
 *   - a setuid, setgid or sticky bit.
 * libarchive's own ARCHIVE_EXTRACT_SECURE_* flags are set as well.
 *
 * Owners are not restored; permission bits are (masked to 0755/0644 for
 * others' write bits); modification times are not.
 */
#ifndef CUENV_UNPACK_H
#define CUENV_UNPACK_H

#include <stdint.h>
#include <sys/types.h>

#include "err.h"

/*
 * Where the bytes come from: read() sets *buf to the next bytes and
 * returns how many, 0 at the end, or -1 on failure (having filled err,
 * which is handed through unchanged).
 */
struct unpack_source {
	ssize_t (*read)(void *ctx, const void **buf, struct cuenv_err *err);
	void *ctx;
};

/*
 * What to keep, and where. strip leading path components are removed
 * first (1 for NVIDIA's "<name>-archive/" top folder); entries with fewer
 * components are skipped. Then map, when set, gets the stripped path and
 * returns the path to write (a heap string the unpacker frees), or NULL to
 * skip the entry; a mapped path is checked like any other. Links are
 * mapped the same way: a hard link's target goes through strip and map.
 */
struct unpack_opts {
	unsigned strip;
	char *(*map)(void *ctx, const char *path);
	void *map_ctx;
};

struct unpack_stats {
	uint64_t entries;	/* entries written */
	uint64_t bytes;		/* file bytes written */
};

/*
 * Extract the archive that src streams (any compression and tar or cpio
 * format libarchive knows; not zip) into the existing folder dest.
 * Returns CUENV_OK, CUENV_E_UNPACK (corrupt or refused archive: the message
 * names the entry and why), CUENV_E_STORE (cannot write: disk full,
 * permission), or the source's own code. Reads src only as far as the
 * archive's end: the caller drains the rest (to finish a checksum).
 */
int unpack_stream(const char *dest, const struct unpack_source *src,
		  const struct unpack_opts *opts, struct unpack_stats *stats,
		  struct cuenv_err *err);

/* The same for an archive in a file (zip needs to seek: wheels). */
int unpack_file(const char *dest, const char *archive,
		const struct unpack_opts *opts, struct unpack_stats *stats,
		struct cuenv_err *err);

/*
 * The checks above for one entry, as a pure function (no I/O): path is the
 * entry's path after strip and map; type is S_IFREG, S_IFDIR, S_IFLNK,
 * S_IFCHR, ...; mode its permission bits; symlink and hardlink the link
 * targets or NULL. Returns CUENV_OK or CUENV_E_UNPACK with a message
 * naming path and the reason.
 */
int unpack_check_entry(const char *path, mode_t type, mode_t mode,
		       const char *symlink, const char *hardlink,
		       struct cuenv_err *err);

/*
 * A makeself installer (NVIDIA's .run files) is a shell script followed by
 * a compressed tar payload. Given the first len bytes of the file (64 KiB
 * is plenty), find the payload's byte offset: the header's line count N
 * comes from `skip="N"` (makeself >= 2.4.2) or a literal `head -n N`
 * (older), and the payload starts after the N-th newline. Returns CUENV_OK
 * or CUENV_E_UNPACK ("not a makeself archive", or the N-th line is not
 * within len bytes).
 */
int unpack_makeself_offset(const char *head, size_t len, uint64_t *offset,
			   struct cuenv_err *err);

#endif
