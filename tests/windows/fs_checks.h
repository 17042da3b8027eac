/*
 * fs_checks.h: plat_fs_win.c and file.c under wine, included by
 * test_core.c (uses its check/check_str). Everything happens in a fresh
 * folder under GetTempPathW (a drive-letter path, "C:\users\...\Temp\")
 * whose name has a space and non-ASCII letters; expected values are
 * written by hand.
 */
#include <errno.h>
#include <time.h>
#include <windows.h>
#include <aclapi.h>

#include "../../core/plat/file.h"
#include "../../core/install/gc.h"
#include "../../core/plat/plat_fs.h"
#include "../../core/plat/plat_lock.h"
#include "../../core/plat/plat_owner.h"
#include "../../core/store/store.h"
#include "../../core/plat/plat_sys.h"
#include "../../core/store/trust.h"

static void check_int(const char *what, long long got, long long want)
{
	char g[32], w[32];

	snprintf(g, sizeof g, "%lld", got);
	snprintf(w, sizeof w, "%lld", want);
	check(got == want, what, g, w);
}

/* "naïve café" and "Grüße" in UTF-8 */
#define CAFE "na\xc3\xafve caf\xc3\xa9"
#define GRUSSE "Gr\xc3\xbc\xc3\x9f" "e.txt"

static int put_text(const char *path, const char *text)
{
	int fd = plat_open(path, PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_TRUNC,
			   0644);
	int rc;

	if (fd < 0)
		return -1;
	rc = plat_write(fd, text, strlen(text)) == (ssize_t)strlen(text)
		     ? 0
		     : -1;
	return plat_close(fd) || rc;
}

static void fs_checks(void)
{
	wchar_t wtmp[MAX_PATH + 1];
	char tmp[4 * MAX_PATH], root[4 * MAX_PATH + 64];
	struct buf p = BUF_INIT, q = BUF_INIT, text = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct plat_stat st, st2;
	struct file_map m;
	char got[32] = { 0 };
	uint64_t free_bytes = 0, total_bytes = 0;
	int fd, dir, seen = 0, others = 0;
	struct plat_dir *d;
	const char *name;

	if (!GetTempPathW(MAX_PATH + 1, wtmp) ||
	    !WideCharToMultiByte(CP_UTF8, 0, wtmp, -1, tmp, sizeof tmp, NULL,
				 NULL)) {
		check(0, "GetTempPathW", "failed", "a folder");
		return;
	}
	check(tmp[1] == ':' && tmp[2] == '\\', "temp path has a drive letter",
	      tmp, "X:\\...");
	/* wine reuses process ids: the tick count keeps a leftover apart */
	snprintf(root, sizeof root, "%scuenv fs %lu-%llu " CAFE, tmp,
		 (unsigned long)GetCurrentProcessId(),
		 (unsigned long long)GetTickCount64());
	check_int("mkdir root", plat_mkdir(root, 0755), 0);
	errno = 0;
	check_int("mkdir root again", plat_mkdir(root, 0755), -1);
	check_int("  errno EEXIST", errno, EEXIST);

	/* create, exclusive create, read, pread */
	buf_printf(&p, "%s\\" GRUSSE, root);
	fd = plat_open(p.data, PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_EXCL,
		       0644);
	check(fd >= 0, "create " GRUSSE, "-1", "a descriptor");
	check_int("write 11", plat_write(fd, "hello\r\nworld", 12), 12);
	check_int("fsync", plat_fsync(fd), 0);
	check_int("fstat size", plat_fstat(fd, &st) ? -1 : (long long)st.size,
		  12);
	check_int("fstat type", st.type, PLAT_F_REG);
	check(llabs((long long)(st.mtime - (int64_t)time(NULL))) < 60,
	      "mtime is now", "far off", "within a minute");
	plat_close(fd);
	errno = 0;
	check_int("create excl again",
		  plat_open(p.data, PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_EXCL,
			    0644),
		  -1);
	check_int("  errno EEXIST", errno, EEXIST);
	fd = plat_open(p.data, PLAT_O_READ, 0);
	check_int("read all", plat_read(fd, got, sizeof got - 1), 12);
	check_str("bytes kept (no text mode)", got, "hello\r\nworld");
	memset(got, 0, sizeof got);
	check_int("pread 5 at 7", plat_pread(fd, got, 5, 7), 5);
	check_str("pread bytes", got, "world");
	check_int("read at end", plat_read(fd, got, 4), 0);
	plat_close(fd);

	/* forward slashes, stat by path, a missing one */
	buf_printf(&q, "%s/" GRUSSE, root);
	check_int("stat with '/'", plat_stat(q.data, &st2), 0);
	check(st2.id.ino == st.id.ino && st2.id.dev == st.id.dev,
	      "same id through '/'", "different", "same");
	errno = 0;
	buf_reset(&q);
	buf_printf(&q, "%s\\missing\\x", root);
	check_int("stat missing", plat_stat(q.data, &st2), -1);
	check_int("  errno ENOENT", errno, ENOENT);
	errno = 0;
	check_int("bad UTF-8 refused", plat_stat("C:\\a\xff", &st2), -1);
	check_int("  errno EINVAL", errno, EINVAL);

	/* rename replaces (MoveFileExW REPLACE_EXISTING) and keeps the id */
	buf_reset(&q);
	buf_printf(&q, "%s\\new one", root);
	check_int("put new", put_text(q.data, "new"), 0);
	plat_stat(q.data, &st2);
	check_int("rename over", plat_rename(q.data, p.data), 0);
	check_int("stat replaced", plat_stat(p.data, &st), 0);
	check_int("replaced size", (long long)st.size, 3);
	check(st.id.ino == st2.id.ino, "replaced id is the new file's",
	      "other", "same");
	errno = 0;
	check_int("old name gone", plat_stat(q.data, &st2), -1);
	check_int("  errno ENOENT", errno, ENOENT);

	/* hard link */
	check_int("hard link",
		  plat_link_at(PLAT_AT_CWD, p.data, PLAT_AT_CWD, q.data), 0);
	check_int("stat link", plat_stat(q.data, &st2), 0);
	check(st2.id.ino == st.id.ino, "hard link same id", "other", "same");
	check_int("nlink 2", (long long)st2.nlink, 2);
	errno = 0;
	check_int("hard link again",
		  plat_link_at(PLAT_AT_CWD, p.data, PLAT_AT_CWD, q.data), -1);
	check_int("  errno EEXIST", errno, EEXIST);
	check_int("unlink link", plat_unlink(q.data), 0);
	errno = 0;
	check_int("unlink again", plat_unlink(q.data), -1);
	check_int("  errno ENOENT", errno, ENOENT);

	/* folder handle and *_at */
	dir = plat_open(root, PLAT_O_READ | PLAT_O_DIR, 0);
	check(dir >= 0, "open folder", "-1", "a descriptor");
	errno = 0;
	check_int("PLAT_O_DIR on a file",
		  plat_open(p.data, PLAT_O_READ | PLAT_O_DIR, 0), -1);
	check_int("  errno ENOTDIR", errno, ENOTDIR);
	check_int("mkdir_at sub", plat_mkdir_at(dir, "sub dir", 0755), 0);
	fd = plat_open_at(dir, "sub dir\\at " CAFE,
			  PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_EXCL, 0644);
	check(fd >= 0, "open_at", "-1", "a descriptor");
	plat_write(fd, "abcd", 4);
	plat_close(fd);
	check_int("stat_at size",
		  plat_stat_at(dir, "sub dir\\at " CAFE, 1, &st2)
			  ? -1
			  : (long long)st2.size,
		  4);
	check_int("rename_at", plat_rename_at(dir, "sub dir\\at " CAFE, dir,
					      "moved " CAFE),
		  0);
	check_int("stat_at moved", plat_stat_at(dir, "moved " CAFE, 0, &st2),
		  0);
	check_int("stat_at folder type",
		  plat_stat_at(dir, "sub dir", 1, &st2) ? -1 : (int)st2.type,
		  PLAT_F_DIR);
	errno = 0;
	check_int("rmdir a full folder", plat_rmdir(root), -1);
	check_int("  errno ENOTEMPTY", errno, ENOTEMPTY);
	buf_reset(&q);
	buf_printf(&q, "%s\\sub dir", root);
	check_int("rmdir empty sub", plat_rmdir(q.data), 0);
	plat_close(dir);

	/* readdir: UTF-8 names, "." and ".." left out */
	d = plat_opendir(root);
	check(d != NULL, "opendir", "NULL", "a folder");
	while (d && (name = plat_readdir(d))) {
		if (!strcmp(name, GRUSSE) || !strcmp(name, "moved " CAFE))
			seen++;
		else
			others++;
	}
	plat_closedir(d);
	check_int("readdir saw both names", seen, 2);
	check_int("readdir nothing else", others, 0);

	/* realpath: '/' and ".." resolved, the drive-letter form back */
	{
		char *r;

		buf_reset(&q);
		buf_printf(&q, "%s/sub/../" GRUSSE, root);
		buf_reset(&text);
		buf_printf(&text, "%s\\sub", root);
		plat_mkdir(text.data, 0755);
		r = plat_realpath(q.data);
		buf_reset(&q);
		buf_printf(&q, "%s\\" GRUSSE, root);
		check(r && plat_path_equal(&plat_path_windows, r, q.data),
		      "realpath", r, q.data);
		free(r);
		plat_rmdir(text.data);
		buf_reset(&text);
		check_int("can_exec a file", plat_can_exec(p.data), 1);
		check_int("can_exec a folder", plat_can_exec(root), 0);
	}
	check_str("platform", plat_sys_platform(), "windows-x86_64");
	check(plat_sys_cpus() >= 1, "cpus >= 1", "0", ">= 1");

	/* free space, mapping, mkstemp */
	check_int("free space",
		  plat_disk_space(root, &free_bytes, &total_bytes), 0);
	check(free_bytes > 0 && free_bytes <= total_bytes, "free space > 0",
	      "0", "> 0, at most the whole");
	fd = plat_open(p.data, PLAT_O_READ, 0);
	{
		char *map = plat_map(fd, 3);

		check(map && !memcmp(map, "new", 3), "map", "?", "new");
		plat_unmap(map, 3);
	}
	plat_close(fd);
	buf_reset(&q);
	buf_printf(&q, "%s\\t.tmpXXXXXX", root);
	fd = plat_mkstemps(q.data, 0);
	check(fd >= 0 && !strstr(q.data, "XXXXXX"), "mkstemp", q.data,
	      "a new name");
	plat_close(fd);
	check_int("unlink mkstemp's", plat_unlink(q.data), 0);

	/* file.c on top: atomic replace, read back, remove */
	buf_reset(&q);
	buf_printf(&q, "%s\\.cuenv", root);
	check_int("file_write", file_write(q.data, "cuda = 11.2\r\n", 13,
					   FILE_MODE_KEEP, &err),
		  CUENV_OK);
	check_int("file_write again",
		  file_write(q.data, "cuda = 12.4\n", 12, FILE_MODE_KEEP, &err),
		  CUENV_OK);
	check_int("file_read", file_read(q.data, 100, 0, &text, &err),
		  CUENV_OK);
	check_str("file_read text", text.data, "cuda = 12.4\n");
	check_int("file_read a folder, optional",
		  file_read(root, 100, FILE_MAY_BE_MISSING, &text, &err),
		  CUENV_NO);
	check_int("file_map", file_map(q.data, 4, &m, &err), CUENV_OK);
	check(m.len == 12 && !memcmp(m.data, "cuda", 4), "file_map bytes",
	      "?", "cuda = 12.4");
	file_unmap(&m);
	check_int("file_remove", file_remove(q.data, &err), CUENV_OK);
	check_int("file_read missing",
		  file_read(q.data, 100, FILE_MAY_BE_MISSING, &text, &err),
		  CUENV_NO);
	check_str("no message", err.msg.len ? err.msg.data : "", "");

	/* a reparse point is refused where POSIX refuses a link */
	{
		wchar_t wl[4 * MAX_PATH], wt[4 * MAX_PATH];

		buf_reset(&q);
		buf_printf(&q, "%s\\link", root);
		MultiByteToWideChar(CP_UTF8, 0, q.data, -1, wl, 4 * MAX_PATH);
		MultiByteToWideChar(CP_UTF8, 0, p.data, -1, wt, 4 * MAX_PATH);
		/* Wine 8: CreateSymbolicLinkW returns TRUE and creates
		 * nothing, FSCTL_SET_REPARSE_POINT is ERROR_NOT_SUPPORTED,
		 * and a Unix symbolic link in the prefix shows as a plain
		 * file: the refusal is checked only where a link appears. */
		if (CreateSymbolicLinkW(wl, wt, 0) &&
		    GetFileAttributesW(wl) != INVALID_FILE_ATTRIBUTES) {
			errno = 0;
			check_int("NOFOLLOW on a symlink",
				  plat_open(q.data,
					    PLAT_O_READ | PLAT_O_NOFOLLOW, 0),
				  -1);
			check_int("  errno ELOOP", errno, ELOOP);
			check_int("lstat type",
				  plat_lstat(q.data, &st2) ? -1 : (int)st2.type,
				  PLAT_F_LINK);
			check_int("file_write through a link",
				  file_write(q.data, "x", 1, FILE_MODE_KEEP,
					     &err),
				  CUENV_E_STORE);
			err_release(&err);
			plat_unlink(q.data);
		} else {
			printf("test_core: no symbolic link could be made"
			       " here: reparse-point checks not run\n");
		}
	}

	/* owner and DACL: a file this process made is its own or the
	 * system's, and nobody else may write it */
	{
		struct plat_owner o;

		check_int("owner of a new file",
			  plat_owner_get(p.data, &o), 0);
		printf("test_core: owner %lu, perm %o, others_write %d\n",
		       o.uid, o.perm, o.others_write);
		check(o.uid == plat_owner_self() || o.uid == PLAT_UID_SYSTEM,
		      "owned by me or the system", "another", "me/system");
		check_int("not writable by others", o.others_write, 0);
		check_int("trust_check_path(new file)",
			  trust_check_path(p.data, plat_owner_self(),
					   plat_owner_self(), &err),
			  CUENV_OK);
		/* Everyone granted write: what chmod o+w is on POSIX */
		{
			EXPLICIT_ACCESS_W ea;
			PACL acl = NULL;
			wchar_t wp[4 * MAX_PATH];
			DWORD e;

			memset(&ea, 0, sizeof ea);
			ea.grfAccessPermissions = GENERIC_WRITE | GENERIC_READ;
			ea.grfAccessMode = SET_ACCESS;
			ea.Trustee.TrusteeForm = TRUSTEE_IS_NAME;
			ea.Trustee.ptstrName = L"EVERYONE";
			MultiByteToWideChar(CP_UTF8, 0, p.data, -1, wp,
					    4 * MAX_PATH);
			e = SetEntriesInAclW(1, &ea, NULL, &acl);
			if (!e)
				e = SetNamedSecurityInfoW(
					wp, SE_FILE_OBJECT,
					DACL_SECURITY_INFORMATION, NULL, NULL,
					acl, NULL);
			LocalFree(acl);
			check_int("set a DACL", (long long)e, 0);
			check_int("owner after", plat_owner_get(p.data, &o), 0);
			check_int("writable by Everyone", o.others_write, 1);
			check_int("trust_check_path refuses it",
				  trust_check_path(p.data, plat_owner_self(),
						   plat_owner_self(), &err),
				  CUENV_E_STORE);
			printf("test_core: %s\n", err.msg.data);
			err_release(&err);
		}
		errno = 0;
		check_int("owner of nothing", plat_owner_get(q.data, &o), -1);
		check_int("  errno ENOENT", errno, ENOENT);
	}

	/* what store.c needs: locks, a tree walked and removed */
	{
		struct tree_stats ts;
		char tree[4 * MAX_PATH + 96];
		int a, b2;

		buf_reset(&q);
		buf_printf(&q, "%s\\.lock", root);
		a = plat_open(q.data, PLAT_O_WRITE | PLAT_O_CREATE, 0644);
		b2 = plat_open(q.data, PLAT_O_WRITE, 0);
		check_int("lock exclusive", plat_lock(a, 1, 0), 0);
		errno = 0;
		check_int("second handle, no wait", plat_lock(b2, 1, 0), -1);
		check_int("  errno EAGAIN", errno, EAGAIN);
		plat_close(a); /* closing drops the lock */
		a = plat_open(q.data, PLAT_O_WRITE, 0);
		check_int("shared", plat_lock(a, 0, 0), 0);
		check_int("shared with shared", plat_lock(b2, 0, 1), 0);
		plat_close(a);
		plat_close(b2);
		check_int("unlink lock file", plat_unlink(q.data), 0);

		snprintf(tree, sizeof tree, "%s\\tree-XXXXXX", root);
		check(plat_mkdtemp(tree) != NULL, "mkdtemp", tree, "a folder");
		buf_reset(&q);
		buf_printf(&q, "%s\\a b\\" CAFE, tree);
		buf_reset(&text);
		buf_printf(&text, "%s\\a b", tree);
		check_int("mkdir a b", plat_mkdir(text.data, 0755), 0);
		check_int("mkdir a b\\caf\xc3\xa9", plat_mkdir(q.data, 0755), 0);
		buf_adds(&q, "\\ro.dll");
		fd = plat_open(q.data, PLAT_O_WRITE | PLAT_O_CREATE, 0444);
		check_int("pwrite", plat_pwrite(fd, "12345", 5, 3), 5);
		check_int("ftruncate", plat_ftruncate(fd, 7), 0);
		check_int("set times", plat_set_times(fd, 1000000000, 0), 0);
		check_int("fstat size 7",
			  plat_fstat(fd, &st2) ? -1 : (long long)st2.size, 7);
		check_int("mtime set", st2.mtime, 1000000000);
		plat_close(fd);
		check_int("read-only file", plat_stat(q.data, &st2) ? -1 : (int)st2.perm,
			  0444);
		buf_reset(&q);
		buf_printf(&q, "%s\\top.txt", tree);
		check_int("put top", put_text(q.data, "hello"), 0);
		check_int("measure", store_measure_tree(tree, &ts), 0);
		check_int("measured bytes", (long long)ts.bytes, 12);
		check_int("nothing linked", (long long)ts.linked, 0);
		check_int("remove tree", store_remove_tree(tree), 0);
		errno = 0;
		check_int("tree gone", plat_stat(tree, &st2), -1);
		check_int("  errno ENOENT", errno, ENOENT);
		buf_reset(&text);
	}
	/* gc's sweep: a dead uninstall's trash goes, a live install stays */
	{
		int held;

		buf_reset(&q);
		buf_printf(&q, "%s\\.staging", root);
		plat_mkdir(q.data, 0755);
		buf_adds(&q, "\\trash-abc");
		plat_mkdir(q.data, 0755);
		buf_adds(&q, "\\f.txt");
		put_text(q.data, "x");
		buf_reset(&q);
		buf_printf(&q, "%s\\.staging\\install-def.lock", root);
		held = plat_open(q.data, PLAT_O_WRITE | PLAT_O_CREATE, 0644);
		check_int("hold install lock", plat_lock(held, 1, 0), 0);
		buf_setlen(&q, q.len - 5);
		plat_mkdir(q.data, 0755);
		gc_sweep_staging(root);
		check_int("live install stays", plat_stat(q.data, &st2), 0);
		buf_reset(&q);
		buf_printf(&q, "%s\\.staging\\trash-abc", root);
		check_int("dead trash gone", plat_stat(q.data, &st2), -1);
		plat_close(held);
		gc_sweep_staging(root); /* now its lock is free: it goes */
		buf_reset(&q);
		buf_printf(&q, "%s\\.staging\\install-def", root);
		check_int("freed install goes", plat_stat(q.data, &st2), -1);
		buf_adds(&q, ".lock");
		check_int("and its lock file", plat_stat(q.data, &st2), -1);
		buf_reset(&q);
		buf_printf(&q, "%s\\.staging", root);
		check_int("rmdir .staging", plat_rmdir(q.data), 0);
	}
	check_int("my pid alive", plat_sys_pid_alive(plat_sys_pid()), 1);
	check_int("pid 0x7ffffff0 not", plat_sys_pid_alive(0x7ffffff0L), 0);

	plat_unlink(p.data);
	buf_reset(&q);
	buf_printf(&q, "%s\\moved " CAFE, root);
	plat_unlink(q.data);
	check_int("rmdir root", plat_rmdir(root), 0);
	buf_release(&p);
	buf_release(&q);
	buf_release(&text);
	err_release(&err);
}
