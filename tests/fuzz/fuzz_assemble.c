/*
 * fuzz_assemble.c: libFuzzer target for assemble_add(), which builds a
 * version folder from pool trees that untrusted archives filled.
 *
 * Each input describes 1 to 4 pool trees of random entries (folders,
 * files, symbolic links with random relative or absolute targets, hard
 * links), built in a sandbox (a mkdtemp folder in /dev/shm, else /tmp)
 * laid out as
 *
 *	run/pool/t0 .. t3   the trees
 *	run/v               the version folder, empty
 *	run/outside/        a folder beside it, with a file and a folder in it
 *
 * then assembled into run/v, tree by tree. The property: nothing outside
 * run/v is created, changed or followed into, whatever the trees hold,
 * alone or together. After each run it checks, aborting on a violation:
 *
 *   - run/outside is as it was before the trees were made, the trees as
 *     they were before assembly (the same entries, types, sizes, modes,
 *     mtimes and link targets; a file's link count may grow: v hard-links
 *     it), and nothing else appeared in run/;
 *   - every symbolic link in run/v, followed, stays beneath run/v (openat2
 *     with RESOLVE_BENEATH never answers EXDEV);
 *   - a failure, of unpack or assembly, is CUENV_E_UNPACK with a one-line
 *     message.
 *
 * Input layout:
 *
 *	byte 0        bits 0-1: the number of trees, less one; bit 2: build
 *	              each tree as a tar archive and unpack it with
 *	              unpack_stream() (as an install does; a refused archive
 *	              ends the run before assembly), rather than directly
 *	then records  op byte: bits 0-1 the tree, bits 2-3 the kind (folder,
 *	              file, symbolic link, hard link), bit 4 the file's
 *	              contents (two variants), then a path, then for a link
 *	              its target
 *	a path        name bytes up to 0xff (at most 8): byte % 12 picks
 *	              a, b, c, up, esc, lib, x, outside, v, pool, LICENSE, f
 *	a link target the same, where byte % 14 also gives ".." (12) and "."
 *	              (13), and 0xfe first makes it absolute (the sandbox's
 *	              run/ folder, so that names reach run/outside)
 *	a hard link   its target is a path in the same tree
 *
 * Entries are created in the trees without following anything (a name on
 * the way that is not a folder drops the entry), so the harness itself
 * never writes outside.
 *
 *	make fuzz [FUZZ_SECONDS=60]
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "store/assemble.h"
#include "base/buf.h"
#include "base/err.h"
#include "net/unpack.h"

#define MAX_COMPONENTS 8
#define END 0xff
#define ABSOLUTE 0xfe

static const char *const names[] = { "a",   "b",    "c",       "up",
				     "esc", "lib",  "x",       "outside",
				     "v",   "pool", "LICENSE", "f" };
#define NNAMES (sizeof(names) / sizeof(*names))

static char *sandbox; /* the mkdtemp folder, for the process's life */

struct reader {
	const uint8_t *p, *end;
};

static int next_byte(struct reader *r)
{
	return r->p < r->end ? *r->p++ : -1;
}

/* A path of names (at most MAX_COMPONENTS) into out; false when empty. */
static bool read_path(struct reader *r, struct buf *out)
{
	int b, n = 0;

	buf_reset(out);
	while ((b = next_byte(r)) >= 0 && b != END) {
		if (n++ >= MAX_COMPONENTS)
			continue;
		if (out->len)
			buf_addc(out, '/');
		buf_adds(out, names[b % NNAMES]);
	}
	return out->len > 0;
}

static void read_target(struct reader *r, const char *run, struct buf *out)
{
	int b, n = 0;

	buf_reset(out);
	while ((b = next_byte(r)) >= 0 && b != END) {
		if (b == ABSOLUTE && !out->len) {
			buf_adds(out, run);
			continue;
		}
		if (n++ >= MAX_COMPONENTS)
			continue;
		if (out->len && out->data[out->len - 1] != '/')
			buf_addc(out, '/');
		b %= NNAMES + 2;
		buf_adds(out, b == NNAMES	? ".."
			      : b == NNAMES + 1 ? "."
						: names[b]);
	}
	if (!out->len)
		buf_adds(out, ".");
}

/*
 * The folder holding path's last name, under the tree root, creating
 * folders on the way and following nothing; *last points at that name.
 * Returns the folder's descriptor or -1.
 */
static int parent_of(int root, const char *path, const char **last)
{
	int fd = dup(root);
	const char *p = path;

	for (;;) {
		size_t n = strcspn(p, "/");
		char name[64];
		int next;

		if (!p[n]) {
			*last = p;
			return fd;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		mkdirat(fd, name, 0755);
		next = openat(fd, name,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if (next < 0)
			return -1;
		fd = next;
		p += n + 1;
	}
}

static void make_entry(int root, int kind, int variant, const char *path,
		       const char *target)
{
	const char *last;
	int dir = parent_of(root, path, &last), fd;

	if (dir < 0)
		return;
	switch (kind) {
	case 0:
		mkdirat(dir, last, 0755);
		break;
	case 1:
		fd = openat(dir, last,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0644);
		if (fd >= 0) {
			const char *text = variant ? "one\n" : "other\n";

			if (write(fd, text, strlen(text)) < 0)
				abort();
			close(fd);
		}
		break;
	case 2:
		symlinkat(target, dir, last);
		break;
	default: {
		const char *tlast;
		int tdir = parent_of(root, target, &tlast);
		struct stat st;

		/* Only to a regular file, as unpack makes them. */
		if (tdir >= 0 &&
		    !fstatat(tdir, tlast, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode))
			linkat(tdir, tlast, dir, last, 0);
		if (tdir >= 0)
			close(tdir);
	}
	}
	close(dir);
}

/* ---- the same entries as archives, through unpack ------------------------ */

static la_ssize_t collect(struct archive *a, void *ctx, const void *p, size_t n)
{
	(void)a;
	buf_add(ctx, p, n);
	return (la_ssize_t)n;
}

static struct archive *archive_start(struct buf *out)
{
	struct archive *a = archive_write_new();

	if (!a || archive_write_set_format_pax_restricted(a) ||
	    archive_write_open(a, out, NULL, collect, NULL))
		abort();
	return a;
}

static void archive_put(struct archive *a, int kind, int variant,
			const char *path, const char *target)
{
	struct archive_entry *e = archive_entry_new();
	const char *text = variant ? "one\n" : "other\n";

	archive_entry_set_pathname(e, path);
	archive_entry_set_perm(e, kind == 0 ? 0755 : 0644);
	archive_entry_set_filetype(e, kind == 0	  ? AE_IFDIR
				      : kind == 2 ? AE_IFLNK
						  : AE_IFREG);
	if (kind == 2)
		archive_entry_set_symlink(e, target);
	if (kind == 3)
		archive_entry_set_hardlink(e, target);
	archive_entry_set_size(e, kind == 1 ? (la_int64_t)strlen(text) : 0);
	if (archive_write_header(a, e) != ARCHIVE_OK)
		abort();
	if (kind == 1 && archive_write_data(a, text, strlen(text)) !=
				 (la_ssize_t)strlen(text))
		abort();
	archive_entry_free(e);
}

struct mem {
	const struct buf *arc;
	bool done;
};

static ssize_t mem_read(void *ctx, const void **buf, struct cuenv_err *err)
{
	struct mem *m = ctx;

	(void)err;
	if (m->done)
		return 0;
	m->done = true;
	*buf = m->arc->data;
	return (ssize_t)m->arc->len;
}

/* ---- snapshots ----------------------------------------------------------- */

static struct strv *snap;
static const char *snap_skip; /* run/v, not part of the snapshot */

static int snap_visit(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	struct buf b = BUF_INIT;

	(void)flag;
	(void)ftw;
	if (snap_skip && !strcmp(path, snap_skip))
		return FTW_SKIP_SUBTREE;
	buf_printf(&b, "%s %o %lld %lld.%09ld", path, (unsigned)st->st_mode,
		   (long long)st->st_size, (long long)st->st_mtim.tv_sec,
		   st->st_mtim.tv_nsec);
	if (S_ISLNK(st->st_mode)) {
		char t[4096];
		ssize_t n = readlink(path, t, sizeof(t) - 1);

		if (n >= 0) {
			t[n] = '\0';
			buf_printf(&b, " -> %s", t);
		}
	}
	strv_push_take(snap, buf_detach(&b));
	return FTW_CONTINUE;
}

static void take_snapshot(const char *run, const char *v, struct strv *out)
{
	snap = out;
	snap_skip = v;
	if (nftw(run, snap_visit, 16, FTW_PHYS | FTW_ACTIONRETVAL))
		abort();
	strv_sort(out);
}

static int rm_visit(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) ? -1 : 0;
	return unlink(path) ? -1 : 0;
}

/* ---- the property -------------------------------------------------------- */

static void violation(const char *what, const char *detail,
		      const struct cuenv_err *err)
{
	fprintf(stderr, "fuzz_assemble: invariant broken: %s\n", what);
	if (detail)
		fprintf(stderr, "  %s\n", detail);
	if (err && err->msg.len)
		fprintf(stderr, "  assemble said (%d): %s\n", err->rc,
			err->msg.data);
	abort();
}

static int vfd = -1;
static const char *vpath;

/* Every link in v, followed, stays beneath v. */
static int link_visit(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH,
	};
	const char *rel = path + strlen(vpath);
	long fd;

	(void)flag;
	(void)ftw;
	if (!S_ISLNK(st->st_mode))
		return 0;
	while (*rel == '/')
		rel++;
	fd = syscall(SYS_openat2, vfd, rel, &how, sizeof(how));
	if (fd >= 0)
		close((int)fd);
	else if (errno == EXDEV)
		violation("a link in the version folder leads out of it", path,
			  NULL);
	return 0;
}

static void compare(const struct strv *before, const struct strv *after,
		    const struct cuenv_err *err)
{
	if (before->n != after->n)
		violation("something appeared or vanished outside", NULL, err);
	for (size_t i = 0; i < before->n; i++)
		if (strcmp(before->v[i], after->v[i])) {
			fprintf(stderr, "  before: %s\n  after:  %s\n",
				before->v[i], after->v[i]);
			violation("something changed outside", NULL, err);
		}
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		abort();
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void remove_sandbox(void)
{
	if (sandbox)
		rmdir(sandbox);
	free(sandbox);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = { data, data + size };
	struct buf run = BUF_INIT, v = BUF_INIT, p = BUF_INIT, path = BUF_INIT,
		   target = BUF_INIT;
	struct strv before = STRV_INIT, after = STRV_INIT,
		    out_before = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct assemble *a = NULL;
	struct archive *writers[4] = { NULL, NULL, NULL, NULL };
	struct buf arcs[4] = { BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT };
	int roots[4] = { -1, -1, -1, -1 }, ntrees, b, rc;
	bool through_unpack;

	if (size > 4096)
		return -1;
	if (!sandbox) {
		/* A tmpfs where there is one: a disk's metadata is slow. */
		char shm[] = "/dev/shm/fuzz-assemble.XXXXXX";
		char tmp[] = "/tmp/fuzz-assemble.XXXXXX";
		char *made = mkdtemp(shm);

		if (!made)
			made = mkdtemp(tmp);
		if (!made)
			abort();
		sandbox = realpath(made, NULL);
		atexit(remove_sandbox);
	}
	buf_printf(&run, "%s/run", sandbox);
	buf_printf(&v, "%s/v", run.data);
	if (mkdir(run.data, 0755) || mkdir(v.data, 0755))
		abort();
	buf_printf(&p, "%s/outside", run.data);
	mkdir(p.data, 0755);
	buf_adds(&p, "/keep");
	mkdir(p.data, 0755);
	buf_adds(&p, "/file");
	close(open(p.data, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	buf_reset(&p);
	buf_printf(&p, "%s/pool", run.data);
	mkdir(p.data, 0755);

	buf_reset(&p);
	buf_printf(&p, "%s/outside", run.data);
	take_snapshot(p.data, NULL, &out_before);

	b = next_byte(&r);
	ntrees = 1 + (b < 0 ? 0 : b & 3);
	through_unpack = b >= 0 && (b & 4);
	for (int i = 0; i < ntrees; i++) {
		buf_reset(&p);
		buf_printf(&p, "%s/pool/t%d", run.data, i);
		mkdir(p.data, 0755);
		roots[i] = open(p.data, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (roots[i] < 0)
			abort();
		if (through_unpack)
			writers[i] = archive_start(&arcs[i]);
	}
	while ((b = next_byte(&r)) >= 0) {
		int tree = (b & 3) % ntrees, kind = (b >> 2) & 3;
		int variant = (b >> 4) & 1;

		if (!read_path(&r, &path)) {
			if (kind >= 2)
				read_target(&r, run.data, &target);
			continue;
		}
		if (kind == 2)
			read_target(&r, run.data, &target);
		else if (kind == 3)
			read_path(&r, &target);
		if (through_unpack)
			archive_put(writers[tree], kind, variant, path.data,
				    target.data);
		else
			make_entry(roots[tree], kind, variant, path.data,
				   target.data);
	}

	/* Unpacked as an install would; a refused archive ends the run. */
	rc = CUENV_OK;
	for (int i = 0; i < ntrees && through_unpack; i++) {
		struct mem m = { &arcs[i], false };
		struct unpack_source src = { mem_read, &m };

		if (archive_write_close(writers[i]) != ARCHIVE_OK)
			abort();
		buf_reset(&p);
		buf_printf(&p, "%s/pool/t%d", run.data, i);
		if (!rc)
			rc = unpack_stream(p.data, &src, NULL, NULL, &err);
	}
	if (rc != CUENV_OK && rc != CUENV_E_UNPACK)
		violation("an unpack failure is CUENV_E_UNPACK", NULL, &err);

	buf_reset(&p);
	buf_printf(&p, "%s/pool", run.data);
	take_snapshot(p.data, NULL, &before);
	if (!rc)
		rc = assemble_open(&a, v.data, &err);
	for (int i = 0; i < ntrees && !rc; i++) {
		char label[4] = { 't', (char)('0' + i), 0, 0 };

		buf_reset(&p);
		buf_printf(&p, "%s/pool/t%d", run.data, i);
		rc = assemble_add(a, p.data, label, &err);
	}
	assemble_free(a);
	if (rc != CUENV_OK && rc != CUENV_E_UNPACK)
		violation("a failure is CUENV_E_UNPACK", NULL, &err);
	if (rc && strchr(err.msg.data, '\n'))
		violation("a refusal is one line", NULL, &err);
	buf_reset(&p);
	buf_printf(&p, "%s/pool", run.data);
	take_snapshot(p.data, NULL, &after);
	compare(&before, &after, &err);
	strv_release(&after);
	buf_reset(&p);
	buf_printf(&p, "%s/outside", run.data);
	take_snapshot(p.data, NULL, &after);
	compare(&out_before, &after, &err);
	/* Nothing beside run/'s own folders. */
	if (count_entries(run.data) != 3)
		violation("something appeared beside run/v", NULL, &err);
	vfd = open(v.data, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	vpath = v.data;
	if (vfd < 0 || nftw(v.data, link_visit, 16, FTW_PHYS))
		abort();
	close(vfd);

	for (int i = 0; i < ntrees; i++)
		close(roots[i]);
	if (nftw(run.data, rm_visit, 16, FTW_DEPTH | FTW_PHYS))
		abort();
	for (int i = 0; i < 4; i++) {
		if (writers[i])
			archive_write_free(writers[i]);
		buf_release(&arcs[i]);
	}
	strv_release(&before);
	strv_release(&after);
	strv_release(&out_before);
	err_release(&err);
	buf_release(&run);
	buf_release(&v);
	buf_release(&p);
	buf_release(&path);
	buf_release(&target);
	return 0;
}
