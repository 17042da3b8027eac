/*
 * plat_fs.h: the file system, POSIX or Windows (issue 13).
 *
 * One header, two implementations chosen by the Makefile's source lists:
 * plat_fs_posix.c (Linux: thin wrappers, every guarantee of the calls they
 * replace kept: O_NOFOLLOW, *at() opens relative to a folder, fsync,
 * O_CLOEXEC) and plat_fs_win.c (Windows: CreateFileW, MoveFileExW, ...).
 * Modules include this header and never <sys/stat.h>, <unistd.h>,
 * <windows.h>.
 *
 * Paths are UTF-8 on both systems; plat_fs_win.c converts to UTF-16 inside
 * and nowhere else. Files are int descriptors on both (on Windows a
 * CreateFileW handle given to the C runtime with _open_osfhandle, so
 * plat_close closes the handle too). Failures return -1 with errno set
 * (Windows' error codes are mapped: ERROR_FILE_NOT_FOUND -> ENOENT,
 * ERROR_ACCESS_DENIED -> EACCES, ERROR_ALREADY_EXISTS -> EEXIST, ...), so
 * callers' messages read strerror(errno) on both.
 *
 * Links: where POSIX refuses a symbolic link (PLAT_O_NOFOLLOW, plat_lstat
 * reporting PLAT_F_LINK), Windows refuses any reparse point (symbolic
 * links, junctions, mount points): ELOOP, or PLAT_F_LINK.
 */
#ifndef CUENV_PLAT_FS_H
#define CUENV_PLAT_FS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <wchar.h>

/* The folder a relative name is opened from: the current folder. */
#define PLAT_AT_CWD (-100)

/* plat_open's flags. */
#define PLAT_O_READ 0x0001u
#define PLAT_O_WRITE 0x0002u	/* read and write */
#define PLAT_O_CREATE 0x0004u	/* create when missing */
#define PLAT_O_EXCL 0x0008u	/* with CREATE: fail (EEXIST) if there */
#define PLAT_O_TRUNC 0x0010u	/* empty it */
#define PLAT_O_APPEND 0x0020u	/* every write at the end */
#define PLAT_O_NOFOLLOW 0x0040u /* the last name a link: ELOOP */
#define PLAT_O_DIR 0x0080u	/* a folder, for *_at and plat_fsync */
#define PLAT_O_NONBLOCK 0x0100u /* a FIFO opened for reading does not wait */

enum plat_ftype {
	PLAT_F_OTHER = 0, /* device, FIFO, socket */
	PLAT_F_REG,
	PLAT_F_DIR,
	PLAT_F_LINK, /* plat_lstat only: a symbolic link / reparse point */
};

/* Which file: equal ids are the same file (dev+inode; volume serial+index). */
struct plat_file_id {
	uint64_t dev, ino;
};

struct plat_stat {
	enum plat_ftype type;
	uint64_t size;
	int64_t mtime; /* seconds since 1970 */
	long mtime_ns; /* and nanoseconds (Windows: 100 ns steps) */
	struct plat_file_id id;
	unsigned perm; /* POSIX permission bits (07777); Windows: 0666,
			       or 0444 read only, 0777 for folders */
	uint64_t nlink;
};

/* Open path (relative to dir for plat_open_at); perm for a new file. */
int plat_open(const char *path, unsigned flags, unsigned perm);
int plat_open_at(int dir, const char *name, unsigned flags, unsigned perm);
int plat_close(int fd);

/* Transfers: the system's read/pread/write (short counts possible). */
ssize_t plat_read(int fd, void *buf, size_t n);
ssize_t plat_pread(int fd, void *buf, size_t n, int64_t off);
ssize_t plat_write(int fd, const void *buf, size_t n);

ssize_t plat_pwrite(int fd, const void *buf, size_t n, int64_t off);
/* Cut or extend the file to len bytes. */
int plat_ftruncate(int fd, uint64_t len);
/* Move the file position to off bytes from the start (lseek SEEK_SET). */
int plat_seek(int fd, uint64_t off);

/* Flush a file (or a folder opened with PLAT_O_DIR) to the disk. */
int plat_fsync(int fd);
/*
 * Make renames and creations in the folder at path durable: fsync of the
 * folder on POSIX (a folder that cannot be opened, or a file system that
 * cannot sync folders, is left to it: 0); on Windows MoveFileExW's
 * WRITE_THROUGH did it already, 0.
 */
int plat_sync_dir(const char *path);

/* stat (follows links), lstat (does not), fstat; by name in dir. */
int plat_stat(const char *path, struct plat_stat *st);
int plat_lstat(const char *path, struct plat_stat *st);
int plat_fstat(int fd, struct plat_stat *st);
int plat_stat_at(int dir, const char *name, int nofollow, struct plat_stat *st);

/* Set a file's permission bits (Windows: only the read-only bit);
 * plat_chmod_at follows a link as fchmodat(dir, name, perm, 0) does. */
int plat_fchmod(int fd, unsigned perm);
int plat_chmod(const char *path, unsigned perm);
int plat_chmod_at(int dir, const char *name, unsigned perm);

/*
 * A link's target into buf (size bytes, NUL-terminated, cut short to fit).
 * Returns its length, or -1 (EINVAL: not a link).
 */
ssize_t plat_readlink(const char *path, char *buf, size_t size);

/*
 * Create a new file from tmpl, whose last six characters are "XXXXXX" and
 * are replaced (mkstemp): open for reading and writing, mode 0600.
 */
int plat_mkstemps(char *tmpl, size_t suffix);

/* Set a file's access and modification times (futimens). */
int plat_set_times(int fd, int64_t sec, long nsec);

/* Rename, replacing a file at to (Windows: MoveFileExW REPLACE_EXISTING |
 * WRITE_THROUGH); with *_at, names relative to folders. */
int plat_rename(const char *from, const char *to);
int plat_rename_at(int from_dir, const char *from, int to_dir, const char *to);
/*
 * Swap two existing paths in one step (Linux renameat2 RENAME_EXCHANGE):
 * at no moment is either name missing. -1 with errno ENOSYS or EINVAL
 * where the system or file system cannot (Windows: always ENOSYS).
 */
int plat_rename_exchange(const char *a, const char *b);
/* Remove a file (never a folder's contents, never a link's target). */
int plat_unlink(const char *path);
int plat_unlink_at(int dir, const char *name);
int plat_mkdir(const char *path, unsigned perm);
int plat_mkdir_at(int dir, const char *name, unsigned perm);
int plat_rmdir(const char *path);
int plat_rmdir_at(int dir, const char *name);
/*
 * A new, empty folder from tmpl ("...XXXXXX", mkdtemp): tmpl, changed,
 * or NULL with errno. Mode 0700 on POSIX.
 */
char *plat_mkdtemp(char *tmpl);
/*
 * A symbolic link at path to target (the text as given). Windows:
 * CreateSymbolicLinkW, which needs Developer Mode or the privilege to
 * create links (EPERM without).
 */
int plat_symlink(const char *target, const char *path);
/* A hard link to an existing file, by names in folders (PLAT_AT_CWD: the
 * working directory): EEXIST when to is there; linkat(..., 0), which
 * follows neither name's link. symlinkat; readlinkat (plat_readlink's
 * contract). */
int plat_link_at(int from_dir, const char *from, int to_dir, const char *to);
int plat_symlink_at(const char *target, int dir, const char *name);
ssize_t plat_readlink_at(int dir, const char *name, char *buf, size_t size);

/* Free bytes for this user on the file system holding path, and its
 * whole size (statvfs's f_bavail and f_blocks). */
int plat_disk_space(const char *path, uint64_t *avail, uint64_t *total);

/*
 * Map len (>= 1) bytes of fd read only, private. Returns the address, or
 * NULL with errno set. plat_unmap takes what plat_map gave.
 */
void *plat_map(int fd, size_t len);
void plat_unmap(void *data, size_t len);
/*
 * Advise that a mapping will be read once from start to end, so the
 * system may read ahead (madvise MADV_SEQUENTIAL); a hint only: nothing
 * on Windows.
 */
void plat_map_sequential(void *data, size_t len);

/*
 * path with every link followed and "." and ".." resolved (realpath(3);
 * Windows: GetFinalPathNameByHandleW, "\\?\" taken off). malloc'd, or
 * NULL with errno set.
 */
char *plat_realpath(const char *path);

/*
 * May this process run path? access(X_OK) on POSIX; on Windows, which
 * has no execute bit, any file that exists and is not a folder (which
 * extensions run is PATHEXT's business, not the file system's).
 */
int plat_can_exec(const char *path);

/*
 * Append to out the paths that match pattern, as glob(3) with no flags
 * gives them (sorted; a name starting with '.' only where the pattern's
 * name does); none when nothing matches or on an error. Windows:
 * wildcards (* and ?, as FindFirstFileExW takes them, which may match a
 * short 8.3 name too) in the last name only, the folders before it taken
 * as they are.
 */
struct strv;
void plat_glob(const char *pattern, struct strv *out);

/*
 * A folder's names, "." and ".." left out. plat_readdir returns the next
 * name (UTF-8; valid until the next call) or NULL at the end (errno 0) or
 * on a failure (errno set).
 */
struct plat_dir;
struct plat_dir *plat_opendir(const char *path);
/* The folder open at fd (PLAT_O_DIR), which stays the caller's. */
struct plat_dir *plat_fdopendir(int fd);
const char *plat_readdir(struct plat_dir *d);
/*
 * Is the name plat_readdir just gave known to be a folder (not a link to
 * one)? 0 when it is not or the system did not say (d_type unknown):
 * plat_stat_at tells then.
 */
int plat_readdir_is_dir(const struct plat_dir *d);
void plat_closedir(struct plat_dir *d);

/*
 * The current working folder, UTF-8 (getcwd(3); GetCurrentDirectoryW):
 * malloc'd, or NULL with errno set (ENOENT: it was removed).
 */
char *plat_getcwd(void);

/*
 * Names for libraries that take a file name as char * or wchar_t *
 * (libarchive's entries). On POSIX a char * name is the bytes the system
 * takes, and is the one to use: plat_wide_names() is 0. On Windows a
 * library's char * name means the ANSI code page, not UTF-8, so the wide
 * form is the one to use: plat_wide_names() is 1, plat_to_wide gives path
 * in UTF-16 (malloc'd; NULL with EINVAL when path is not UTF-8) and
 * plat_from_wide a wide name as UTF-8 (malloc'd; NULL with EINVAL).
 * On POSIX both converters give NULL with ENOSYS.
 */
int plat_wide_names(void);
wchar_t *plat_to_wide(const char *path);
char *plat_from_wide(const wchar_t *name);

#endif
