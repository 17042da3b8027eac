/*
 * plat_fs_win.c: plat_fs.h on Windows (issue 13).
 *
 * UTF-8 in and out; UTF-16 only here (MultiByteToWideChar with
 * MB_ERR_INVALID_CHARS: a path that is not UTF-8 is EINVAL, never guessed).
 * Descriptors are CreateFileW handles given to the C runtime
 * (_open_osfhandle); transfers use ReadFile/WriteFile on the handle, so
 * the runtime's text mode never touches the bytes.
 *
 * What it guarantees and what it does not (docs/windows-port.md, 4):
 * - every file is opened with FILE_SHARE_READ|WRITE|DELETE, so a file
 *   open elsewhere can still be replaced by a rename, as on POSIX;
 * - PLAT_O_NOFOLLOW and plat_lstat do not follow a reparse point of any
 *   kind (symbolic link, junction, mount point: FILE_FLAG_OPEN_REPARSE_POINT
 *   and the attribute checked on the handle): ELOOP, PLAT_F_LINK;
 * - plat_rename is MoveFileExW(REPLACE_EXISTING | WRITE_THROUGH): atomic
 *   replacement within a volume, durable when it returns, so plat_sync_dir
 *   has nothing left to do;
 * - *_at: the folder's path is taken from its handle
 *   (GetFinalPathNameByHandleW) and the name joined to it. That is NOT the
 *   race-free lookup of openat(): a folder renamed, or replaced by a
 *   junction, between the two steps is not noticed. (NtCreateFile with
 *   RootDirectory would be; not done.)
 * - plat_pread moves the file position (ReadFile with an OVERLAPPED
 *   offset on a synchronous handle); POSIX pread does not.
 * - plat_fchmod keeps only the owner-write bit, as FILE_ATTRIBUTE_READONLY;
 *   plat_stat's perm is 0666 / 0444 (0777 for folders).
 * - plat_readlink gives the final path the link leads to
 *   (GetFinalPathNameByHandleW, "\\?\" taken off), not the link's stored
 *   text.
 */
#include "plat/plat_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "base/buf.h"
#include "base/xalloc.h"

#ifndef ELOOP
#define ELOOP 114
#endif

/* GetLastError -> errno. */
static int map_error(DWORD e)
{
	switch (e) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
	case ERROR_INVALID_DRIVE:
	case ERROR_BAD_NETPATH:
	case ERROR_BAD_NET_NAME:
		return ENOENT;
	case ERROR_ACCESS_DENIED:
	case ERROR_SHARING_VIOLATION:
	case ERROR_LOCK_VIOLATION:
	case ERROR_WRITE_PROTECT:
		return EACCES;
	case ERROR_FILE_EXISTS:
	case ERROR_ALREADY_EXISTS:
		return EEXIST;
	case ERROR_DIR_NOT_EMPTY:
		return ENOTEMPTY;
	case ERROR_DIRECTORY:
		return ENOTDIR;
	case ERROR_DISK_FULL:
	case ERROR_HANDLE_DISK_FULL:
		return ENOSPC;
	case ERROR_NOT_SAME_DEVICE:
		return EXDEV;
	case ERROR_INVALID_HANDLE:
		return EBADF;
	case ERROR_NOT_ENOUGH_MEMORY:
	case ERROR_OUTOFMEMORY:
		return ENOMEM;
	case ERROR_FILENAME_EXCED_RANGE:
		return ENAMETOOLONG;
	case ERROR_CANT_RESOLVE_FILENAME:
		return ELOOP;
	case ERROR_NOT_SUPPORTED:
	case ERROR_INVALID_FUNCTION:
		return ENOSYS;
	default:
		return EIO;
	}
}

static int fail_last(void)
{
	errno = map_error(GetLastError());
	return -1;
}

/* UTF-8 -> UTF-16 (malloc'd), or NULL with errno EINVAL. */
static wchar_t *wide(const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL,
				    0);
	wchar_t *w;

	if (n <= 0) {
		errno = EINVAL;
		return NULL;
	}
	w = xmalloc((size_t)n * sizeof(*w));
	MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
	return w;
}

/* UTF-16 -> UTF-8 into out (reset first). */
static int narrow(const wchar_t *w, struct buf *out)
{
	int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);

	buf_reset(out);
	if (n <= 0) {
		errno = EINVAL;
		return -1;
	}
	buf_grow(out, (size_t)n);
	WideCharToMultiByte(CP_UTF8, 0, w, -1, out->data, n, NULL, NULL);
	out->len = (size_t)n - 1;
	return 0;
}

static HANDLE handle_of(int fd)
{
	return (HANDLE)_get_osfhandle(fd);
}

/* The path of an open handle (UTF-8, "\\?\" kept off for drive paths). */
static int handle_path(HANDLE h, struct buf *out)
{
	DWORD n = GetFinalPathNameByHandleW(h, NULL, 0, FILE_NAME_NORMALIZED);
	wchar_t *w;
	int rc;

	if (!n)
		return fail_last();
	w = xmalloc(((size_t)n + 1) * sizeof(*w));
	if (!GetFinalPathNameByHandleW(h, w, n + 1, FILE_NAME_NORMALIZED)) {
		free(w);
		return fail_last();
	}
	if (!wcsncmp(w, L"\\\\?\\UNC\\", 8)) {
		w[6] = L'\\'; /* \\?\UNC\srv\x -> \\srv\x */
		rc = narrow(w + 6, out);
	} else if (!wcsncmp(w, L"\\\\?\\", 4) && w[5] == L':') {
		rc = narrow(w + 4, out);
	} else {
		rc = narrow(w, out);
	}
	free(w);
	return rc;
}

static int is_abs(const char *name)
{
	return name[0] == '\\' || name[0] == '/' || (name[0] && name[1] == ':');
}

/*
 * dir's path joined with name, or name alone (PLAT_AT_CWD, absolute), as
 * a heap string; NULL (errno set) when dir's path cannot be had. Windows
 * has no *at() calls: each plat_*_at runs its path twin on this.
 */
static char *at_path(int dir, const char *name)
{
	struct buf out = BUF_INIT;

	if (dir != PLAT_AT_CWD && !is_abs(name)) {
		if (handle_path(handle_of(dir), &out)) {
			buf_release(&out);
			return NULL;
		}
		if (out.len && out.data[out.len - 1] != '\\')
			buf_adds(&out, "\\");
	}
	buf_adds(&out, name);
	return buf_detach(&out);
}

/* op on name relative to dir (unlink, rmdir). */
static int at_name(int (*op)(const char *), int dir, const char *name)
{
	char *p = at_path(dir, name);
	int rc = p ? op(p) : -1;

	free(p);
	return rc;
}

/* The same for an op with permissions (chmod, mkdir). */
static int at_perm(int (*op)(const char *, unsigned), int dir, const char *name,
		   unsigned perm)
{
	char *p = at_path(dir, name);
	int rc = p ? op(p, perm) : -1;

	free(p);
	return rc;
}

/* op on two names, each relative to its folder (rename, link). */
static int at_pair(int (*op)(const char *, const char *), int from_dir,
		   const char *from, int to_dir, const char *to)
{
	char *f = at_path(from_dir, from), *t = f ? at_path(to_dir, to) : NULL;
	int rc = t ? op(f, t) : -1;

	FREE_EACH(f, t);
	return rc;
}

static int64_t unix_time(FILETIME ft, long *ns)
{
	uint64_t t = ((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime;
	/* 100 ns steps since 1601-01-01; 11644473600 s to 1970. */
	int64_t s = (int64_t)(t / 10000000u) - INT64_C(11644473600);

	*ns = (long)(t % 10000000u) * 100;
	return s;
}

static int stat_handle(HANDLE h, int nofollow, struct plat_stat *st)
{
	BY_HANDLE_FILE_INFORMATION fi;
	DWORD kind = GetFileType(h);

	memset(st, 0, sizeof(*st));
	if (kind != FILE_TYPE_DISK) {
		if (kind == FILE_TYPE_UNKNOWN && GetLastError() != NO_ERROR)
			return fail_last();
		st->type = PLAT_F_OTHER;
		st->perm = 0666;
		st->nlink = 1;
		return 0;
	}
	if (!GetFileInformationByHandle(h, &fi))
		return fail_last();
	if (nofollow && (fi.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT))
		st->type = PLAT_F_LINK;
	else if (fi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
		st->type = PLAT_F_DIR;
	else
		st->type = PLAT_F_REG;
	st->size = st->type == PLAT_F_DIR ? 0
					  : ((uint64_t)fi.nFileSizeHigh << 32) |
						    fi.nFileSizeLow;
	st->mtime = unix_time(fi.ftLastWriteTime, &st->mtime_ns);
	st->id.dev = fi.dwVolumeSerialNumber;
	st->id.ino = ((uint64_t)fi.nFileIndexHigh << 32) | fi.nFileIndexLow;
	st->nlink = fi.nNumberOfLinks;
	st->perm = st->type == PLAT_F_DIR			   ? 0777
		   : fi.dwFileAttributes & FILE_ATTRIBUTE_READONLY ? 0444
								   : 0666;
	return 0;
}

/* CreateFileW on a UTF-8 path. */
static HANDLE create(const char *path, DWORD access, DWORD disposition,
		     DWORD flags)
{
	wchar_t *w = wide(path);
	HANDLE h;

	if (!w)
		return INVALID_HANDLE_VALUE;
	h = CreateFileW(w, access,
			FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
			NULL, disposition, flags, NULL);
	if (h == INVALID_HANDLE_VALUE)
		errno = map_error(GetLastError());
	free(w);
	return h;
}

static int to_fd(HANDLE h, unsigned flags)
{
	int fd = _open_osfhandle(
		(intptr_t)h, _O_BINARY |
				     (flags & PLAT_O_WRITE ? 0 : _O_RDONLY) |
				     (flags & PLAT_O_APPEND ? _O_APPEND : 0));

	if (fd < 0) {
		CloseHandle(h);
		errno = EMFILE;
	}
	return fd;
}

int plat_open(const char *path, unsigned flags, unsigned perm)
{
	DWORD access = GENERIC_READ, disposition = OPEN_EXISTING;
	DWORD attr = FILE_ATTRIBUTE_NORMAL | FILE_FLAG_BACKUP_SEMANTICS;
	struct plat_stat st;
	HANDLE h;

	if (flags & PLAT_O_WRITE)
		access |= flags & PLAT_O_APPEND ? FILE_APPEND_DATA
						: GENERIC_WRITE;
	if ((flags & PLAT_O_CREATE) && (flags & PLAT_O_EXCL))
		disposition = CREATE_NEW;
	else if ((flags & PLAT_O_CREATE) && (flags & PLAT_O_TRUNC))
		disposition = CREATE_ALWAYS;
	else if (flags & PLAT_O_CREATE)
		disposition = OPEN_ALWAYS;
	else if (flags & PLAT_O_TRUNC)
		disposition = TRUNCATE_EXISTING;
	if ((flags & PLAT_O_CREATE) && !(perm & 0200))
		attr |= FILE_ATTRIBUTE_READONLY;
	if (flags & PLAT_O_NOFOLLOW)
		attr |= FILE_FLAG_OPEN_REPARSE_POINT;
	h = create(path, access, disposition, attr);
	if (h == INVALID_HANDLE_VALUE)
		return -1;
	if (stat_handle(h, !!(flags & PLAT_O_NOFOLLOW), &st)) {
		CloseHandle(h);
		return -1;
	}
	if (st.type == PLAT_F_LINK) {
		CloseHandle(h);
		errno = ELOOP;
		return -1;
	}
	if ((flags & PLAT_O_DIR) && st.type != PLAT_F_DIR) {
		CloseHandle(h);
		errno = ENOTDIR;
		return -1;
	}
	if ((flags & PLAT_O_WRITE) && st.type == PLAT_F_DIR) {
		CloseHandle(h);
		errno = EISDIR;
		return -1;
	}
	return to_fd(h, flags);
}

int plat_open_at(int dir, const char *name, unsigned flags, unsigned perm)
{
	char *p = at_path(dir, name);
	int fd = p ? plat_open(p, flags, perm) : -1;

	free(p);
	return fd;
}

int plat_close(int fd)
{
	return _close(fd);
}

/*
 * ReadFile of at most 1 GiB at ov's offset, or at the file's position
 * (ov NULL): read(2) and pread(2). A closed pipe, like the end of the
 * file, reads 0 bytes.
 */
static ssize_t read_at(int fd, void *buf, size_t n, OVERLAPPED *ov)
{
	DWORD got;

	if (n > 0x40000000u)
		n = 0x40000000u;
	if (!ReadFile(handle_of(fd), buf, (DWORD)n, &got, ov)) {
		if (GetLastError() == ERROR_BROKEN_PIPE ||
		    GetLastError() == ERROR_HANDLE_EOF)
			return 0;
		return fail_last();
	}
	return (ssize_t)got;
}

/* The same for WriteFile: write(2) and pwrite(2). */
static ssize_t write_at(int fd, const void *buf, size_t n, OVERLAPPED *ov)
{
	DWORD put;

	if (n > 0x40000000u)
		n = 0x40000000u;
	if (!WriteFile(handle_of(fd), buf, (DWORD)n, &put, ov))
		return fail_last();
	return (ssize_t)put;
}

/*
 * The OVERLAPPED that makes ReadFile or WriteFile work at off (a
 * positioned read or write: pread, pwrite). -1 with EINVAL when off < 0.
 */
static int at_offset(int64_t off, OVERLAPPED *ov)
{
	if (off < 0) {
		errno = EINVAL;
		return -1;
	}
	memset(ov, 0, sizeof(*ov));
	ov->Offset = (DWORD)((uint64_t)off & 0xffffffffu);
	ov->OffsetHigh = (DWORD)((uint64_t)off >> 32);
	return 0;
}

ssize_t plat_read(int fd, void *buf, size_t n)
{
	return read_at(fd, buf, n, NULL);
}

ssize_t plat_pread(int fd, void *buf, size_t n, int64_t off)
{
	OVERLAPPED ov;

	return at_offset(off, &ov) ? -1 : read_at(fd, buf, n, &ov);
}

ssize_t plat_write(int fd, const void *buf, size_t n)
{
	return write_at(fd, buf, n, NULL);
}

ssize_t plat_pwrite(int fd, const void *buf, size_t n, int64_t off)
{
	OVERLAPPED ov;

	return at_offset(off, &ov) ? -1 : write_at(fd, buf, n, &ov);
}

int plat_ftruncate(int fd, uint64_t len)
{
	FILE_END_OF_FILE_INFO eof;

	eof.EndOfFile.QuadPart = (LONGLONG)len;
	if (!SetFileInformationByHandle(handle_of(fd), FileEndOfFileInfo, &eof,
					sizeof(eof)))
		return fail_last();
	return 0;
}

int plat_fsync(int fd)
{
	struct plat_stat st;

	if (plat_fstat(fd, &st))
		return -1;
	if (st.type != PLAT_F_REG)
		return 0; /* folders: MoveFileExW's WRITE_THROUGH */
	if (!FlushFileBuffers(handle_of(fd)))
		return fail_last();
	return 0;
}

int plat_sync_dir(const char *path)
{
	(void)path;
	return 0;
}

static int stat_path(const char *path, int nofollow, struct plat_stat *st)
{
	HANDLE h =
		create(path, FILE_READ_ATTRIBUTES, OPEN_EXISTING,
		       FILE_FLAG_BACKUP_SEMANTICS |
			       (nofollow ? FILE_FLAG_OPEN_REPARSE_POINT : 0));
	int rc;

	if (h == INVALID_HANDLE_VALUE)
		return -1;
	rc = stat_handle(h, nofollow, st);
	CloseHandle(h);
	return rc;
}

int plat_stat(const char *path, struct plat_stat *st)
{
	return stat_path(path, 0, st);
}

int plat_lstat(const char *path, struct plat_stat *st)
{
	return stat_path(path, 1, st);
}

int plat_fstat(int fd, struct plat_stat *st)
{
	HANDLE h = handle_of(fd);

	if (h == INVALID_HANDLE_VALUE) {
		errno = EBADF;
		return -1;
	}
	return stat_handle(h, 0, st);
}

int plat_stat_at(int dir, const char *name, int nofollow, struct plat_stat *st)
{
	char *p = at_path(dir, name);
	int rc = p ? stat_path(p, nofollow, st) : -1;

	free(p);
	return rc;
}

int plat_fchmod(int fd, unsigned perm)
{
	FILE_BASIC_INFO bi;
	HANDLE h = handle_of(fd);

	if (!GetFileInformationByHandleEx(h, FileBasicInfo, &bi, sizeof(bi)))
		return fail_last();
	if (perm & 0200)
		bi.FileAttributes &= ~(DWORD)FILE_ATTRIBUTE_READONLY;
	else
		bi.FileAttributes |= FILE_ATTRIBUTE_READONLY;
	if (!bi.FileAttributes)
		bi.FileAttributes = FILE_ATTRIBUTE_NORMAL;
	if (!SetFileInformationByHandle(h, FileBasicInfo, &bi, sizeof(bi)))
		return fail_last();
	return 0;
}

int plat_chmod(const char *path, unsigned perm)
{
	int fd = plat_open(path, PLAT_O_READ, 0), rc;

	if (fd < 0)
		return -1;
	rc = plat_fchmod(fd, perm);
	plat_close(fd);
	return rc;
}

int plat_chmod_at(int dir, const char *name, unsigned perm)
{
	return at_perm(plat_chmod, dir, name, perm);
}

ssize_t plat_readlink(const char *path, char *buf, size_t size)
{
	struct plat_stat st;
	struct buf target = BUF_INIT;
	HANDLE h;
	size_t n;

	if (!size || plat_lstat(path, &st)) {
		if (!size)
			errno = EINVAL;
		return -1;
	}
	if (st.type != PLAT_F_LINK) {
		errno = EINVAL;
		return -1;
	}
	h = create(path, FILE_READ_ATTRIBUTES, OPEN_EXISTING,
		   FILE_FLAG_BACKUP_SEMANTICS);
	if (h == INVALID_HANDLE_VALUE)
		return -1;
	if (handle_path(h, &target)) {
		CloseHandle(h);
		return -1;
	}
	CloseHandle(h);
	n = target.len < size - 1 ? target.len : size - 1;
	memcpy(buf, target.data, n);
	buf[n] = '\0';
	buf_release(&target);
	return (ssize_t)n;
}

int plat_set_times(int fd, int64_t sec, long nsec)
{
	uint64_t t = (uint64_t)(sec + INT64_C(11644473600)) * 10000000u +
		     (uint64_t)nsec / 100u;
	FILETIME ft;

	ft.dwLowDateTime = (DWORD)(t & 0xffffffffu);
	ft.dwHighDateTime = (DWORD)(t >> 32);
	if (!SetFileTime(handle_of(fd), NULL, &ft, &ft))
		return fail_last();
	return 0;
}

/* Six new characters for a template's XXXXXX at x (mkstemps, mkdtemp). */
static void fill_x(char *x)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned long counter;
	LARGE_INTEGER t;
	unsigned long long v;

	QueryPerformanceCounter(&t);
	v = (unsigned long long)t.QuadPart * 2654435761u ^
	    (unsigned long long)GetCurrentProcessId() << 20 ^
	    ++counter * 40503u;
	for (int i = 0; i < 6; i++, v /= 36)
		x[i] = set[v % 36];
}

int plat_mkstemps(char *tmpl, size_t suffix)
{
	size_t len = strlen(tmpl);
	char *x;

	if (len < 6 + suffix || strncmp(tmpl + len - suffix - 6, "XXXXXX", 6)) {
		errno = EINVAL;
		return -1;
	}
	x = tmpl + len - suffix - 6;
	for (int tries = 0; tries < 1000; tries++) {
		HANDLE h;

		fill_x(x);
		h = create(tmpl, GENERIC_READ | GENERIC_WRITE, CREATE_NEW,
			   FILE_ATTRIBUTE_NORMAL);
		if (h != INVALID_HANDLE_VALUE)
			return to_fd(h, PLAT_O_WRITE);
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

int plat_rename(const char *from, const char *to)
{
	wchar_t *wf = wide(from), *wt = wf ? wide(to) : NULL;
	int rc = -1;

	if (wf && wt)
		rc = MoveFileExW(wf, wt,
				 MOVEFILE_REPLACE_EXISTING |
					 MOVEFILE_WRITE_THROUGH)
			     ? 0
			     : fail_last();
	free(wf);
	free(wt);
	return rc;
}

int plat_rename_at(int from_dir, const char *from, int to_dir, const char *to)
{
	return at_pair(plat_rename, from_dir, from, to_dir, to);
}

int plat_rename_exchange(const char *a, const char *b)
{
	(void)a;
	(void)b;
	errno = ENOSYS;
	return -1;
}

/* f (DeleteFileW, RemoveDirectoryW) on path: 0, or -1 with errno set. */
static int on_wide(BOOL(WINAPI *f)(LPCWSTR), const char *path)
{
	wchar_t *w = wide(path);
	int rc = !w ? -1 : f(w) ? 0 : fail_last();

	free(w);
	return rc;
}

/*
 * POSIX unlinks a read-only file; DeleteFileW does not: clear the
 * attribute of such a file (not a folder). 0 when it was cleared.
 */
static int drop_readonly(const char *path)
{
	wchar_t *w = wide(path);
	DWORD a = w ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
	int cleared =
		a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_READONLY) &&
		!(a & FILE_ATTRIBUTE_DIRECTORY) &&
		SetFileAttributesW(w, a & ~(DWORD)FILE_ATTRIBUTE_READONLY);

	free(w);
	return cleared ? 0 : -1;
}

int plat_unlink(const char *path)
{
	int rc = on_wide(DeleteFileW, path);

	if (rc && errno == EACCES) {
		if (!drop_readonly(path))
			rc = on_wide(DeleteFileW, path);
		if (rc)
			errno = EACCES;
	}
	return rc;
}

int plat_unlink_at(int dir, const char *name)
{
	return at_name(plat_unlink, dir, name);
}

int plat_mkdir(const char *path, unsigned perm)
{
	wchar_t *w = wide(path);
	int rc;

	(void)perm; /* the folder inherits its parent's ACL */
	if (!w)
		return -1;
	rc = CreateDirectoryW(w, NULL) ? 0 : fail_last();
	free(w);
	return rc;
}

int plat_mkdir_at(int dir, const char *name, unsigned perm)
{
	return at_perm(plat_mkdir, dir, name, perm);
}

int plat_rmdir(const char *path)
{
	return on_wide(RemoveDirectoryW, path);
}

int plat_rmdir_at(int dir, const char *name)
{
	return at_name(plat_rmdir, dir, name);
}

char *plat_mkdtemp(char *tmpl)
{
	size_t len = strlen(tmpl);
	char *x;

	if (len < 6 || strcmp(tmpl + len - 6, "XXXXXX")) {
		errno = EINVAL;
		return NULL;
	}
	x = tmpl + len - 6;
	for (int tries = 0; tries < 1000; tries++) {
		fill_x(x);
		if (!plat_mkdir(tmpl, 0700))
			return tmpl;
		if (errno != EEXIST)
			return NULL;
	}
	errno = EEXIST;
	return NULL;
}

#ifndef SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE
#define SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE 0x2
#endif

int plat_symlink(const char *target, const char *path)
{
	wchar_t *wt = wide(target), *wp = wt ? wide(path) : NULL;
	int rc = -1;

	if (wt && wp) {
		rc = CreateSymbolicLinkW(
			     wp, wt,
			     SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE)
			     ? 0
			     : fail_last();
		if (rc && GetLastError() == ERROR_PRIVILEGE_NOT_HELD)
			errno = EPERM;
	}
	free(wt);
	free(wp);
	return rc;
}

static int link_paths(const char *from, const char *to)
{
	wchar_t *wf = wide(from), *wt = wf ? wide(to) : NULL;
	int rc = -1;

	if (wf && wt)
		rc = CreateHardLinkW(wt, wf, NULL) ? 0 : fail_last();
	free(wf);
	free(wt);
	return rc;
}

int plat_link_at(int from_dir, const char *from, int to_dir, const char *to)
{
	return at_pair(link_paths, from_dir, from, to_dir, to);
}

int plat_symlink_at(const char *target, int dir, const char *name)
{
	char *p = at_path(dir, name);
	int rc = p ? plat_symlink(target, p) : -1;

	free(p);
	return rc;
}

ssize_t plat_readlink_at(int dir, const char *name, char *buf, size_t size)
{
	char *p = at_path(dir, name);
	ssize_t n = p ? plat_readlink(p, buf, size) : -1;

	free(p);
	return n;
}

int plat_disk_space(const char *path, uint64_t *avail, uint64_t *total)
{
	ULARGE_INTEGER a, t;
	wchar_t *w = wide(path);
	int rc;

	if (!w)
		return -1;
	rc = GetDiskFreeSpaceExW(w, &a, &t, NULL) ? 0 : fail_last();
	if (!rc) {
		*avail = a.QuadPart;
		*total = t.QuadPart;
	}
	free(w);
	return rc;
}

void *plat_map(int fd, size_t len)
{
	HANDLE m;
	void *p;

	if (!len) {
		errno = EINVAL;
		return NULL;
	}
	m = CreateFileMappingW(handle_of(fd), NULL, PAGE_READONLY, 0, 0, NULL);
	if (!m) {
		fail_last();
		return NULL;
	}
	p = MapViewOfFile(m, FILE_MAP_READ, 0, 0, len);
	if (!p)
		fail_last();
	CloseHandle(m); /* the view keeps the mapping */
	return p;
}

void plat_unmap(void *data, size_t len)
{
	(void)len;
	if (data)
		UnmapViewOfFile(data);
}

struct plat_dir {
	HANDLE find;
	WIN32_FIND_DATAW data;
	int pending; /* data holds an entry not yet returned */
	struct buf name;
};

struct plat_dir *plat_fdopendir(int fd)
{
	struct buf p = BUF_INIT;
	struct plat_dir *d = NULL;

	if (!handle_path(handle_of(fd), &p))
		d = plat_opendir(p.data);
	buf_release(&p);
	return d;
}

int plat_readdir_is_dir(const struct plat_dir *d)
{
	DWORD a = d->data.dwFileAttributes;

	return (a & FILE_ATTRIBUTE_DIRECTORY) &&
	       !(a & FILE_ATTRIBUTE_REPARSE_POINT);
}

struct plat_dir *plat_opendir(const char *path)
{
	struct buf pattern = BUF_INIT;
	struct plat_dir *d;
	struct plat_stat st;
	wchar_t *w;

	if (plat_stat(path, &st))
		return NULL;
	if (st.type != PLAT_F_DIR) {
		errno = ENOTDIR;
		return NULL;
	}
	buf_adds(&pattern, path);
	if (pattern.len && !strchr("\\/", pattern.data[pattern.len - 1]))
		buf_adds(&pattern, "\\");
	buf_adds(&pattern, "*");
	w = wide(pattern.data);
	buf_release(&pattern);
	if (!w)
		return NULL;
	d = xcalloc(1, sizeof(*d));
	d->find = FindFirstFileExW(w, FindExInfoBasic, &d->data,
				   FindExSearchNameMatch, NULL, 0);
	free(w);
	if (d->find == INVALID_HANDLE_VALUE &&
	    GetLastError() != ERROR_FILE_NOT_FOUND) {
		fail_last();
		free(d);
		return NULL;
	}
	d->pending = d->find != INVALID_HANDLE_VALUE;
	return d;
}

const char *plat_readdir(struct plat_dir *d)
{
	for (;;) {
		const wchar_t *n;

		if (!d->pending) {
			if (d->find == INVALID_HANDLE_VALUE ||
			    !FindNextFileW(d->find, &d->data)) {
				if (d->find != INVALID_HANDLE_VALUE &&
				    GetLastError() != ERROR_NO_MORE_FILES) {
					fail_last();
					return NULL;
				}
				errno = 0;
				return NULL;
			}
		}
		d->pending = 0;
		n = d->data.cFileName;
		if (!wcscmp(n, L".") || !wcscmp(n, L".."))
			continue;
		if (narrow(n, &d->name))
			return NULL;
		return d->name.data;
	}
}

void plat_closedir(struct plat_dir *d)
{
	if (!d)
		return;
	if (d->find != INVALID_HANDLE_VALUE)
		FindClose(d->find);
	buf_release(&d->name);
	free(d);
}

char *plat_realpath(const char *path)
{
	struct buf out = BUF_INIT;
	HANDLE h = create(path, FILE_READ_ATTRIBUTES, OPEN_EXISTING,
			  FILE_FLAG_BACKUP_SEMANTICS);
	int rc;

	if (h == INVALID_HANDLE_VALUE)
		return NULL;
	rc = handle_path(h, &out);
	CloseHandle(h);
	if (rc) {
		buf_release(&out);
		return NULL;
	}
	return buf_detach(&out);
}

int plat_can_exec(const char *path)
{
	struct plat_stat st;

	return !plat_stat(path, &st) && st.type != PLAT_F_DIR;
}

int plat_seek(int fd, uint64_t off)
{
	LARGE_INTEGER to;

	if (off > (uint64_t)INT64_MAX) {
		errno = EINVAL;
		return -1;
	}
	to.QuadPart = (LONGLONG)off;
	return SetFilePointerEx(handle_of(fd), to, NULL, FILE_BEGIN)
		       ? 0
		       : fail_last();
}

int plat_wide_names(void)
{
	return 1;
}

wchar_t *plat_to_wide(const char *path)
{
	return wide(path);
}

char *plat_from_wide(const wchar_t *name)
{
	struct buf b = BUF_INIT;

	if (narrow(name, &b)) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b);
}

void plat_glob(const char *pattern, struct strv *out)
{
	struct strv found = STRV_INIT;
	struct buf name = BUF_INIT, path = BUF_INIT;
	const char *base = pattern;
	WIN32_FIND_DATAW data;
	HANDLE find;
	wchar_t *w = wide(pattern);

	for (const char *p = pattern; *p; p++)
		if (*p == '/' || *p == '\\')
			base = p + 1;
	if (!w)
		return;
	find = FindFirstFileExW(w, FindExInfoBasic, &data,
				FindExSearchNameMatch, NULL, 0);
	free(w);
	if (find == INVALID_HANDLE_VALUE)
		return;
	do {
		buf_reset(&name);
		if (narrow(data.cFileName, &name) || !strcmp(name.data, ".") ||
		    !strcmp(name.data, "..") ||
		    (name.data[0] == '.' && *base != '.'))
			continue;
		buf_reset(&path);
		buf_add(&path, pattern, (size_t)(base - pattern));
		buf_adds(&path, name.data);
		strv_push(&found, path.data);
	} while (FindNextFileW(find, &data));
	FindClose(find);
	strv_sort(&found);
	for (size_t i = 0; i < found.n; i++)
		strv_push(out, found.v[i]);
	strv_release(&found);
	buf_release(&name);
	buf_release(&path);
}

void plat_map_sequential(void *data, size_t len)
{
	(void)data;
	(void)len;
}

char *plat_getcwd(void)
{
	struct buf out = BUF_INIT;
	DWORD n = GetCurrentDirectoryW(0, NULL), got;
	wchar_t *w;

	if (!n) {
		fail_last();
		return NULL;
	}
	w = xmalloc((size_t)n * sizeof(*w));
	got = GetCurrentDirectoryW(n, w);
	if (!got || got >= n || narrow(w, &out)) {
		if (!got)
			fail_last();
		else if (got >= n)
			errno = ERANGE; /* changed between the two calls */
		free(w);
		buf_release(&out);
		return NULL;
	}
	free(w);
	return buf_detach(&out);
}
