#include "net/unpack.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <archive.h>
#include <archive_entry.h>

#include "plat/plat_path.h"
#include "base/buf.h"
#include "plat/file.h"
#include "plat/plat_fs.h"
#include "base/xalloc.h"

/* A name's longest component: Linux's, and NTFS's (255 UTF-16 units);
 * Windows' headers leave it out. */
#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* Read block for archives in files; streams come in the source's chunks. */
#define FILE_BLOCK (1 << 20)
/* How much of an untrusted name or link target an error message shows. */
#define SHOWN_MAX 200

/* ---- paths, lexically ---------------------------------------------------- */

/*
 * The next component of the path at *p (empty components skipped): returns
 * its start and sets *len, and moves *p past it; NULL at the end.
 */
static const char *next_component(const char **p, size_t *len)
{
	const char *s = *p;

	while (*s == '/')
		s++;
	if (!*s)
		return NULL;
	*len = strcspn(s, "/");
	*p = s + *len;
	return s;
}

static bool is_dot(const char *s, size_t len)
{
	return len == 1 && s[0] == '.';
}

static bool is_dotdot(const char *s, size_t len)
{
	return len == 2 && s[0] == '.' && s[1] == '.';
}

/*
 * Why path cannot be written under the destination, or NULL when it can:
 * it must be relative, name something (not just "." or "/"), and have no
 * ".." component.
 */
static const char *bad_path(const char *path)
{
	const char *c, *p = path;
	size_t len;
	bool named = false;

	if (path[0] == '/')
		return "absolute path";
	/* No system call could reach it: refused before a folder is made. */
	if (strlen(path) >= PATH_MAX)
		return "path too long";
	while ((c = next_component(&p, &len))) {
		if (is_dotdot(c, len))
			return "path leaves the destination";
		if (len > NAME_MAX)
			return "name too long";
		if (!is_dot(c, len))
			named = true;
	}
	return named ? NULL : "empty path";
}

/*
 * Why the symbolic link at path (already checked by bad_path) to target is
 * unsafe, or NULL. The target is resolved lexically from the link's folder
 * and must stay inside the destination. Its ".." components must moreover
 * all come first: after a name, which may itself be a link (to ".." say),
 * a ".." would go somewhere that lexical resolution cannot see. Leading
 * ".." only climb real folders (libarchive's SECURE_SYMLINKS never writes
 * through a link), so by induction every link stays inside.
 */
static const char *bad_symlink(const char *path, const char *target)
{
	const char *c, *p = path;
	size_t len;
	long depth = -1; /* the link itself is not a folder */
	bool named = false;

	if (!target || !*target)
		return "without a target";
	if (strlen(target) >= PATH_MAX)
		return "target too long";
	if (target[0] == '/')
		return "leaves the destination";
	while ((c = next_component(&p, &len)))
		if (!is_dot(c, len))
			depth++;
	p = target;
	while ((c = next_component(&p, &len))) {
		if (is_dot(c, len))
			continue;
		if (!is_dotdot(c, len)) {
			named = true;
			depth++;
			continue;
		}
		if (named)
			return "has '..' after a name";
		if (--depth < 0)
			return "leaves the destination";
	}
	return NULL;
}

/*
 * Whether the component c (len bytes) is one of Windows' device names,
 * which name the device in any folder and with any extension ("nul.txt",
 * "Com1.h"): CON, PRN, AUX, NUL, COM0-9, LPT0-9, and COM and LPT with a
 * superscript 1, 2 or 3 (UTF-8 C2 B9, C2 B2, C2 B3). Spaces before the
 * extension are dropped by Windows first ("nul .txt").
 */
static bool is_device_name(const char *c, size_t len)
{
	static const char *const three[] = { "con", "prn", "aux", "nul" };
	size_t n = 0;

	while (n < len && c[n] != '.')
		n++;
	while (n && c[n - 1] == ' ')
		n--;
	if (n == 3) {
		for (size_t i = 0; i < sizeof(three) / sizeof(*three); i++)
			if (!strncasecmp(c, three[i], 3))
				return true;
		return false;
	}
	if (n < 4 || (strncasecmp(c, "com", 3) && strncasecmp(c, "lpt", 3)))
		return false;
	if (n == 4)
		return c[3] >= '0' && c[3] <= '9';
	return n == 5 && (unsigned char)c[3] == 0xc2 &&
	       ((unsigned char)c[4] == 0xb9 || (unsigned char)c[4] == 0xb2 ||
		(unsigned char)c[4] == 0xb3);
}

const char *unpack_windows_name_problem(const char *path)
{
	const char *c, *p = path;
	size_t len;

	for (const char *q = path; *q; q++) {
		unsigned char ch = (unsigned char)*q;

		if (ch == '\\')
			return "backslash in a name (a folder separator on "
			       "Windows)";
		if (ch == ':')
			return "colon in a name (a drive or an alternate data "
			       "stream on Windows)";
		if (ch < 0x20 || ch == 0x7f)
			return "control character in a name";
		if (strchr("<>\"|?*", ch))
			return "character that Windows does not allow in a "
			       "name";
	}
	while ((c = next_component(&p, &len))) {
		if (is_dot(c, len) || is_dotdot(c, len))
			continue;
		if (c[len - 1] == '.' || c[len - 1] == ' ')
			return "name ending with a dot or a space (Windows "
			       "drops it)";
		if (is_device_name(c, len))
			return "Windows device name (CON, PRN, AUX, NUL, "
			       "COM1-9, LPT1-9)";
	}
	return NULL;
}

/* ---- checking one entry -------------------------------------------------- */

static int refuse(struct cuenv_err *err, const char *name, const char *what,
		  const char *target, const char *why)
{
	struct buf shown = BUF_INIT, tshown = BUF_INIT;

	buf_add_display(&shown, name, SHOWN_MAX);
	if (target) {
		buf_add_display(&tshown, target, SHOWN_MAX);
		cuenv_fail(err, CUENV_E_UNPACK,
			   "refused archive entry '%s': %s '%s' %s", shown.data,
			   what, tshown.data, why);
	} else {
		cuenv_fail(err, CUENV_E_UNPACK,
			   "refused archive entry '%s': %s", shown.data, what);
	}
	buf_release(&shown);
	buf_release(&tshown);
	return CUENV_E_UNPACK;
}

/* The mode bits refused (POSIX's S_ISUID, S_ISGID, S_ISVTX: the values
 * every archive format writes, which Windows' headers do not define). */
#define MODE_SUID 04000
#define MODE_SGID 02000
#define MODE_STICKY 01000

static const char *bad_type(mode_t type, const char *hardlink)
{
	switch (type) {
	case AE_IFREG:
	case AE_IFDIR:
	case AE_IFLNK:
		return NULL;
	case AE_IFCHR:
	case AE_IFBLK:
		return "device node";
	case AE_IFIFO:
		return "FIFO";
	case AE_IFSOCK:
		return "socket";
	case 0:
		/* Some formats leave a hard link's type to its target. */
		return hardlink ? NULL : "unknown file type";
	default:
		return "unknown file type";
	}
}

/*
 * unpack_check_entry, with name (the entry as the archive calls it) shown;
 * windows: also the names and link targets Windows cannot hold as they
 * are (unpack_windows_name_problem).
 */
static int check_entry(const char *name, const char *path, mode_t type,
		       mode_t mode, const char *symlink, const char *hardlink,
		       bool windows, struct cuenv_err *err)
{
	const char *why = bad_path(path);

	if (!why && windows)
		why = unpack_windows_name_problem(path);
	if (why)
		return refuse(err, name, why, NULL, NULL);
	if (windows && symlink && (why = unpack_windows_name_problem(symlink)))
		return refuse(err, name, "symbolic link to", symlink, why);
	if (windows && hardlink &&
	    (why = unpack_windows_name_problem(hardlink)))
		return refuse(err, name, "hard link to", hardlink, why);
	why = bad_type(type, hardlink);
	if (why)
		return refuse(err, name, why, NULL, NULL);
	if (mode & MODE_SUID)
		return refuse(err, name, "setuid bit", NULL, NULL);
	if (mode & MODE_SGID)
		return refuse(err, name, "setgid bit", NULL, NULL);
	if (mode & MODE_STICKY)
		return refuse(err, name, "sticky bit", NULL, NULL);
	if (type == AE_IFLNK || symlink) {
		why = bad_symlink(path, symlink);
		if (why && (!symlink || !*symlink))
			return refuse(err, name,
				      "symbolic link without a target", NULL,
				      NULL);
		if (why && strlen(symlink) >= PATH_MAX)
			return refuse(err, name,
				      "symbolic link target too long", NULL,
				      NULL);
		if (why)
			return refuse(err, name, "symbolic link to", symlink,
				      why);
	}
	if (hardlink && bad_path(hardlink))
		return refuse(err, name, "hard link to", hardlink,
			      "leaves the destination");
	return CUENV_OK;
}

int unpack_check_entry(const char *path, mode_t type, mode_t mode,
		       const char *symlink, const char *hardlink, bool windows,
		       struct cuenv_err *err)
{
	return check_entry(path, path, type, mode, symlink, hardlink, windows,
			   err);
}

/* ---- extracting ---------------------------------------------------------- */

struct reader {
	const struct unpack_source *src;
	struct cuenv_err *err;
	bool failed; /* the source failed and filled err */
};

static la_ssize_t read_source(struct archive *a, void *ctx, const void **buf)
{
	struct reader *r = ctx;
	ssize_t n = r->src->read(r->src->ctx, buf, r->err);

	if (n < 0) {
		r->failed = true;
		archive_set_error(a, EIO, "the archive's source failed");
		return ARCHIVE_FATAL;
	}
	return n;
}

struct job {
	struct archive *in, *disk;
	const char *dest; /* real path */
	const struct unpack_opts *opts;
	struct unpack_stats *stats;
	const struct reader *reader; /* NULL for a file */
	uint64_t written;	     /* file bytes, against opts->max_bytes */
	uint64_t room;		     /* free space believed left */
	const char *name;	     /* the entry being extracted, or NULL */
	uint64_t entries;	     /* entries written */
	struct buf raw, rel, full, link, target; /* name points into raw */
	struct buf wname, sym, hard;		 /* from wide names (Windows) */
};

/*
 * libarchive's message for a, as house style wants it: lowercase first,
 * on one line ("Truncated tar archive" becomes "truncated tar archive").
 */
static void add_reason(struct buf *b, struct archive *a, const char *dflt)
{
	const char *why = archive_error_string(a);
	size_t at = b->len;

	buf_add_display(b, why && *why ? why : dflt, SHOWN_MAX);
	if (b->data[at] >= 'A' && b->data[at] <= 'Z' &&
	    !(b->data[at + 1] >= 'A' && b->data[at + 1] <= 'Z'))
		b->data[at] = (char)(b->data[at] - 'A' + 'a');
}

/* The read side failed: the source's own error, or a corrupt archive. */
static int read_failed(const struct job *j, struct cuenv_err *err)
{
	struct buf shown = BUF_INIT, why = BUF_INIT;

	if (j->reader && j->reader->failed)
		return err->rc ? err->rc
			       : cuenv_fail(err, CUENV_E_BUG,
					    "archive source failed without "
					    "saying why");
	add_reason(&why, j->in, "unknown error");
	if (j->name) {
		buf_add_display(&shown, j->name, SHOWN_MAX);
		cuenv_fail(err, CUENV_E_UNPACK,
			   "cannot read archive entry '%s': %s", shown.data,
			   why.data);
	} else {
		cuenv_fail(err, CUENV_E_UNPACK, "cannot read archive: %s",
			   why.data);
	}
	buf_release(&shown);
	buf_release(&why);
	return CUENV_E_UNPACK;
}

/*
 * The disk side failed: a filesystem error (errno) is the store's, and
 * anything else is libarchive refusing the entry.
 */
static int write_failed(const struct job *j, struct cuenv_err *err)
{
	int eno = archive_errno(j->disk);
	struct buf why = BUF_INIT;

	if (eno > 0)
		return cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				  j->full.data, strerror(eno));
	add_reason(&why, j->disk, "cannot be written");
	refuse(err, j->name, why.data, NULL, NULL);
	buf_release(&why);
	return CUENV_E_UNPACK;
}

/*
 * raw with its first strip components removed (and "." and empty ones
 * dropped), then mapped, into out. Returns false when the entry is skipped.
 * raw has passed bad_path.
 */
static bool rewrite(const char *raw, const struct unpack_opts *opts,
		    struct buf *out)
{
	const char *c, *p = raw;
	unsigned strip = opts ? opts->strip : 0;
	size_t len;
	char *mapped;

	buf_reset(out);
	while ((c = next_component(&p, &len))) {
		if (is_dot(c, len))
			continue;
		if (strip) {
			strip--;
			continue;
		}
		if (out->len)
			buf_addc(out, '/');
		buf_add(out, c, len);
	}
	if (!out->len)
		return false;
	if (!opts || !opts->map)
		return true;
	mapped = opts->map(opts->map_ctx, out->data);
	if (!mapped)
		return false;
	buf_sets(out, mapped);
	free(mapped);
	return true;
}

/*
 * A hard link's target is checked where it lies: libarchive links to a
 * symbolic link itself, whose target then counts from the new folder.
 */
static int check_link_target(struct job *j, const char *rel,
			     struct cuenv_err *err)
{
	struct plat_stat st;
	char *to = NULL;
	ssize_t n;
	int rc = CUENV_OK;

	buf_reset(&j->target);
	buf_path(&j->target, j->dest, j->link.data);
	if (plat_lstat(j->target.data, &st)) {
		if (errno == ENOENT || errno == ENOTDIR)
			return refuse(err, j->name, "hard link to",
				      j->link.data, "which is not extracted");
		/* The archive's own links loop on the way to it. */
		if (errno == ELOOP || errno == ENAMETOOLONG)
			return refuse(err, j->name, "hard link to",
				      j->link.data, "through a symbolic link");
		return cuenv_fail(err, CUENV_E_STORE, "cannot stat '%s': %s",
				  j->target.data, strerror(errno));
	}
	if (st.type == PLAT_F_DIR)
		return refuse(err, j->name, "hard link to", j->link.data,
			      "which is a folder");
	if (st.type != PLAT_F_LINK)
		return CUENV_OK;
	to = xmalloc((size_t)st.size + 2);
	n = plat_readlink(j->target.data, to, (size_t)st.size + 2);
	if (n < 0 || (uint64_t)n > st.size) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot read link '%s': %s",
				j->target.data,
				n < 0 ? strerror(errno) : "it changed");
		goto out;
	}
	to[n] = '\0';
	if (bad_symlink(rel, to))
		rc = refuse(err, j->name, "hard link to symbolic link",
			    j->link.data, "leaves the destination");
out:
	free(to);
	return rc;
}

/* ---- bounds: the caller's, and the disk's -------------------------------- */

/* May more bytes be written without passing opts->max_bytes? */
static int within_bound(struct job *j, uint64_t more, struct cuenv_err *err)
{
	uint64_t max = j->opts ? j->opts->max_bytes : 0;
	struct buf shown = BUF_INIT;

	if (!max || j->written + more <= max)
		return CUENV_OK;
	if (j->stats)
		j->stats->bounded = 1;
	buf_add_display(&shown, j->name ? j->name : "", SHOWN_MAX);
	cuenv_fail(err, CUENV_E_UNPACK,
		   "refused archive: it expands past %llu bytes, its bound "
		   "(at entry '%s')",
		   (unsigned long long)max, shown.data);
	buf_release(&shown);
	return CUENV_E_UNPACK;
}

/*
 * Is there room for a file of size bytes? The disk's free space, less a
 * reserve (1/64 of it, at most 64 MiB) so that the disk never fills, is
 * asked for only when the room counted down since the last time runs out:
 * one statvfs per many files.
 */
static int disk_room(struct job *j, uint64_t size, struct cuenv_err *err)
{
	uint64_t need = size + 4096, avail, total, reserve;

	if (need <= j->room) {
		j->room -= need;
		return CUENV_OK;
	}
	if (plat_disk_space(j->dest, &avail, &total))
		return CUENV_OK; /* cannot tell: the write will say */
	reserve = total / 64;
	if (reserve > (64u << 20))
		reserve = 64u << 20;
	j->room = avail > reserve ? avail - reserve : 0;
	if (need > j->room)
		return cuenv_fail(err, CUENV_E_STORE,
				  "cannot write '%s': %s (it needs %llu bytes, "
				  "%llu are free)",
				  j->full.data, strerror(ENOSPC),
				  (unsigned long long)size,
				  (unsigned long long)avail);
	j->room -= need;
	return CUENV_OK;
}

static int copy_data(struct job *j, struct cuenv_err *err)
{
	const void *p;
	size_t n;
	la_int64_t off;

	for (;;) {
		int r = archive_read_data_block(j->in, &p, &n, &off);

		if (r == ARCHIVE_EOF)
			return CUENV_OK;
		if (r != ARCHIVE_OK)
			return read_failed(j, err);
		if (within_bound(j, n, err))
			return CUENV_E_UNPACK;
		j->written += n;
		if (archive_write_data_block(j->disk, p, n, off) < 0)
			return write_failed(j, err);
		if (j->stats)
			j->stats->bytes += n;
	}
}

/*
 * An earlier entry of the archive that the entry would replace or go
 * beneath, where the two disagree on what the path is: a file beneath a
 * file, a folder replaced by anything else, a file or link replaced by a
 * folder, a link replaced by a file or the other way round. Only the same
 * kind again is replaced (as tar does with a later copy of a file).
 */
static int check_conflict(const struct job *j, mode_t type, bool hard,
			  struct cuenv_err *err)
{
	struct plat_stat st;
	mode_t have;

	if (plat_lstat(j->full.data, &st)) {
		if (errno == ENOENT)
			return CUENV_OK;
		if (errno == ENOTDIR)
			return refuse(err, j->name,
				      "conflicts with an earlier entry: a "
				      "folder on its path is a file",
				      NULL, NULL);
		/* Links on its path that loop, or grow it past PATH_MAX. */
		if (errno == ELOOP || errno == ENAMETOOLONG)
			return refuse(err, j->name,
				      "would be written through a symbolic "
				      "link",
				      NULL, NULL);
		return cuenv_fail(err, CUENV_E_STORE, "cannot stat '%s': %s",
				  j->full.data, strerror(errno));
	}
	have = st.type == PLAT_F_DIR	? AE_IFDIR
	       : st.type == PLAT_F_REG	? AE_IFREG
	       : st.type == PLAT_F_LINK ? AE_IFLNK
					: 0;
	if (hard || type == 0)
		type = AE_IFREG;
	if (have == type && have)
		return CUENV_OK;
	return refuse(err, j->name,
		      have == AE_IFDIR ? "conflicts with an earlier entry: "
					 "a folder"
		      : have == AE_IFLNK
			      ? "conflicts with an earlier entry: "
				"a symbolic link"
			      : "conflicts with an earlier entry: a file",
		      NULL, NULL);
}

/*
 * Whether j's names must also suit Windows: always in a zip, Windows'
 * own archive (NVIDIA's windows-x86_64 archives, wheels), and where the
 * caller asks.
 */
static bool windows_names(const struct job *j)
{
	return (j->opts && j->opts->windows_names) ||
	       (archive_format(j->in) & ARCHIVE_FORMAT_BASE_MASK) ==
		       ARCHIVE_FORMAT_ZIP;
}

/*
 * Check an entry's name (and a hard link's target) and map them into
 * j->rel (and j->link): the refusal, or CUENV_OK with *skip set when the
 * entry is not extracted (the archive's root, or left out by the map).
 * Names that must suit Windows are checked whole, before the strip and
 * the map: "CON" or "C:\x" beside the top folder is refused, not left
 * out, and on Windows, where libarchive reads a zip name without '/' with
 * '\' as its separator ("C:/x"), the strip cannot take its drive away.
 */
static int map_entry(struct job *j, mode_t type, const char *hardlink,
		     int *skip, struct cuenv_err *err)
{
	const char *why = bad_path(j->name);

	*skip = 1;
	/* "./" names the archive's own root (makeself payloads start so) */
	if (why && type == AE_IFDIR && !strcmp(why, "empty path"))
		return CUENV_OK;
	if (!why && windows_names(j))
		why = unpack_windows_name_problem(j->name);
	if (why)
		return refuse(err, j->name, why, NULL, NULL);
	if (!rewrite(j->name, j->opts, &j->rel))
		return CUENV_OK;
	*skip = 0;
	if (hardlink) {
		if (bad_path(hardlink))
			return refuse(err, j->name, "hard link to", hardlink,
				      "leaves the destination");
		if (!rewrite(hardlink, j->opts, &j->link))
			return refuse(err, j->name, "hard link to", hardlink,
				      "which is not extracted");
	}
	return CUENV_OK;
}

/*
 * Give e a path name: as it is on POSIX; on Windows, where libarchive's
 * char * names are the ANSI code page, as UTF-16 (plat_wide_names).
 */
static int set_name(struct archive_entry *e,
		    void (*narrow)(struct archive_entry *, const char *),
		    void (*wide)(struct archive_entry *, const wchar_t *),
		    const char *path)
{
	wchar_t *w;

	if (!plat_wide_names()) {
		narrow(e, path);
		return 0;
	}
	w = plat_to_wide(path);
	if (!w)
		return -1;
	wide(e, w);
	free(w);
	return 0;
}

/*
 * An entry's name as UTF-8: its char * form on POSIX; on Windows its
 * wide form converted into out (NULL when it has none).
 */
static const char *utf8_name(const char *narrow, const wchar_t *wide,
			     struct buf *out)
{
	char *s;

	if (!plat_wide_names())
		return narrow;
	s = wide ? plat_from_wide(wide) : NULL;
	if (!s)
		return NULL;
	buf_sets(out, s);
	free(s);
	return out->data;
}

/* Point e at its place under the destination, with the modes we keep. */
static int place_entry(struct job *j, struct archive_entry *e, mode_t type,
		       mode_t perm, int hard, struct cuenv_err *err)
{
	int rc;

	buf_reset(&j->full);
	buf_path(&j->full, j->dest, j->rel.data);
	if (j->full.len >= PATH_MAX)
		return refuse(err, j->name, "path too long", NULL, NULL);
	rc = check_conflict(j, type, hard, err);
	if (rc)
		return rc;
	rc = set_name(e, archive_entry_set_pathname,
		      archive_entry_copy_pathname_w, j->full.data);
	if (!rc && hard)
		rc = set_name(e, archive_entry_set_hardlink,
			      archive_entry_copy_hardlink_w, j->target.data);
	if (rc)
		return refuse(err, j->name, "name is not UTF-8", NULL, NULL);
	/* Folders stay writable by their owner, so that rm -r works. */
	perm &= 0755;
	if (type == AE_IFDIR)
		perm |= 0700;
	archive_entry_set_perm(e, perm);
	return CUENV_OK;
}

/* Write e (placed) to disk, its data within the bounds. */
static int write_entry(struct job *j, struct archive_entry *e, mode_t type,
		       int hard, struct cuenv_err *err)
{
	int rc;

	if (type == AE_IFREG && archive_entry_size_is_set(e)) {
		uint64_t size = (uint64_t)archive_entry_size(e);

		rc = within_bound(j, size, err);
		if (!rc)
			rc = disk_room(j, size, err);
		if (rc)
			return rc;
	}
	if (archive_write_header(j->disk, e) != ARCHIVE_OK)
		return write_failed(j, err);
	if (type == AE_IFREG || (hard && type == 0)) {
		rc = copy_data(j, err);
		if (rc)
			return rc;
	}
	if (archive_write_finish_entry(j->disk) != ARCHIVE_OK)
		return write_failed(j, err);
	return CUENV_OK;
}

static int extract_entry(struct job *j, struct archive_entry *e,
			 struct cuenv_err *err)
{
	int wide = plat_wide_names();
	const char *symlink =
		utf8_name(archive_entry_symlink(e),
			  wide ? archive_entry_symlink_w(e) : NULL, &j->sym);
	const char *hardlink =
		utf8_name(archive_entry_hardlink(e),
			  wide ? archive_entry_hardlink_w(e) : NULL, &j->hard);
	mode_t type = archive_entry_filetype(e);
	mode_t perm = archive_entry_perm(e);
	int rc, skip;

	rc = map_entry(j, type, hardlink, &skip, err);
	if (rc || skip)
		return rc;
	rc = check_entry(j->name, j->rel.data, type, perm, symlink,
			 hardlink ? j->link.data : NULL, windows_names(j), err);
	if (!rc && hardlink)
		rc = check_link_target(j, j->rel.data, err);
	if (!rc)
		rc = place_entry(j, e, type, perm, hardlink != NULL, err);
	if (!rc)
		rc = write_entry(j, e, type, hardlink != NULL, err);
	if (rc)
		return rc;
	j->entries++;
	if (j->stats)
		j->stats->entries++;
	return CUENV_OK;
}

/*
 * Add a decompression filter to a only where libarchive decodes it
 * itself. Built without the filter's library (the Windows build has only
 * zlib), libarchive says ARCHIVE_WARN and would run an external program
 * (`xz -d`, found in PATH) on untrusted bytes: a throwaway reader asks
 * first, as a filter once added cannot be taken back.
 */
static void support_filter(struct archive *a, int (*add)(struct archive *))
{
	struct archive *probe = archive_read_new();
	int own;

	if (!probe)
		BUG("cannot allocate an archive reader");
	own = add(probe) == ARCHIVE_OK;
	archive_read_free(probe);
	if (own)
		add(a);
}

/* Formats and filters both entry points read. */
static struct archive *reader_new(void)
{
	struct archive *a = archive_read_new();

	if (!a)
		BUG("cannot allocate an archive reader");
	/*
	 * Not support_filter_all: it would also run external programs
	 * (lrzip, grzip, lzop) on untrusted bytes. These are libarchive's
	 * own decoders where it was built with their libraries, as Debian's
	 * is (makeself offers gzip, bzip2, xz, zstd and lz4).
	 */
	support_filter(a, archive_read_support_filter_gzip);
	support_filter(a, archive_read_support_filter_bzip2);
	support_filter(a, archive_read_support_filter_xz);
	support_filter(a, archive_read_support_filter_lzma);
	support_filter(a, archive_read_support_filter_zstd);
	support_filter(a, archive_read_support_filter_lz4);
	archive_read_support_format_tar(a);
	archive_read_support_format_cpio(a);
	return a;
}

/*
 * The real path of dest, which must be a folder (heap, in *real).
 *
 * Entries are written by absolute path under it, and SECURE_SYMLINKS
 * checks every component of that path: the real path has no link in it
 * (a home folder reached through a link would otherwise refuse every
 * entry). Absolute paths rule out SECURE_NOABSOLUTEPATHS; bad_path refuses
 * absolute names instead, before dest is prefixed.
 */
static int open_dest(const char *dest, char **real, struct cuenv_err *err)
{
	struct plat_stat st;

	*real = plat_realpath(dest);
	if (!*real)
		return cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				  dest, strerror(errno));
	if (plat_stat(*real, &st) || st.type != PLAT_F_DIR)
		return cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				  dest, strerror(ENOTDIR));
	return CUENV_OK;
}

/* Extract the opened archive in into dest, a folder's real path. */
static int extract(struct archive *in, const char *dest,
		   const struct unpack_opts *opts, struct unpack_stats *stats,
		   const struct reader *reader, struct cuenv_err *err)
{
	struct job j = {
		.in = in,
		.dest = dest,
		.opts = opts,
		.stats = stats,
		.reader = reader,
	};
	/* the job's buffers, set up and released together */
	struct buf *bufs[] = { &j.raw,	  &j.rel,   &j.full, &j.link,
			       &j.target, &j.wname, &j.sym,  &j.hard };
	struct archive_entry *e;
	int rc = CUENV_OK;

	for (size_t i = 0; i < sizeof(bufs) / sizeof(*bufs); i++)
		buf_init(bufs[i]);
	j.disk = archive_write_disk_new();
	if (!j.disk)
		BUG("cannot allocate an archive writer");
	archive_write_disk_set_options(j.disk,
				       ARCHIVE_EXTRACT_PERM |
					       ARCHIVE_EXTRACT_SECURE_SYMLINKS |
					       ARCHIVE_EXTRACT_SECURE_NODOTDOT);
	for (;;) {
		const char *name;
		int r;

		j.name = NULL;
		r = archive_read_next_header(in, &e);
		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN) {
			rc = read_failed(&j, err);
			goto out;
		}
		name = plat_wide_names()
			       ? utf8_name(NULL, archive_entry_pathname_w(e),
					   &j.wname)
			       : archive_entry_pathname(e);
		if (!name)
			name = archive_entry_pathname_utf8(e);
		if (!name) {
			rc = cuenv_fail(err, CUENV_E_UNPACK,
					"refused archive entry: it has no "
					"readable name");
			goto out;
		}
		/* The entry's own copy changes when it is renamed. */
		buf_sets(&j.raw, name);
		j.name = j.raw.data;
		rc = extract_entry(&j, e, err);
		if (rc)
			goto out;
	}
	/* Folders' permissions are set last, here. */
	if (archive_write_close(j.disk) != ARCHIVE_OK) {
		int eno = archive_errno(j.disk);
		struct buf why = BUF_INIT;

		if (eno > 0)
			buf_adds(&why, strerror(eno));
		else
			add_reason(&why, j.disk, "failed");
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot finish '%s': %s",
				dest, why.data);
		buf_release(&why);
	} else if (!j.entries) {
		/* It would install as an empty release. */
		rc = cuenv_fail(err, CUENV_E_UNPACK,
				"refused archive: nothing in it to install");
	}
out:
	archive_write_free(j.disk);
	buf_release_each(bufs, sizeof(bufs) / sizeof(*bufs));
	return rc;
}

int unpack_stream(const char *dest, const struct unpack_source *src,
		  const struct unpack_opts *opts, struct unpack_stats *stats,
		  struct cuenv_err *err)
{
	struct reader reader = { .src = src, .err = err };
	struct archive *a = NULL;
	struct job j = { .reader = &reader };
	char *real = NULL;
	int rc;

	if (stats)
		*stats = (struct unpack_stats){ 0, 0, 0 };
	rc = open_dest(dest, &real, err);
	if (rc)
		goto out;
	a = j.in = reader_new();
	if (archive_read_open(a, &reader, NULL, read_source, NULL) !=
	    ARCHIVE_OK) {
		rc = read_failed(&j, err);
		goto out;
	}
	rc = extract(a, real, opts, stats, &reader, err);
out:
	archive_read_free(a);
	free(real);
	return rc;
}

int unpack_file(const char *dest, const char *archive,
		const struct unpack_opts *opts, struct unpack_stats *stats,
		struct cuenv_err *err)
{
	struct archive *a = NULL;
	struct job j = { 0 };
	struct plat_stat st;
	char *real = NULL;
	int fd = -1, rc;

	if (stats)
		*stats = (struct unpack_stats){ 0, 0, 0 };
	rc = open_dest(dest, &real, err);
	if (rc)
		goto out;
	fd = file_open_read(PLAT_AT_CWD, archive, 0, &st);
	if (fd == FILE_NOT_REGULAR) {
		rc = cuenv_fail(err, CUENV_E_STORE, "'%s' is %s, not a file",
				archive, file_type_name(st.type));
		goto out;
	}
	if (fd < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				archive, strerror(errno));
		goto out;
	}
	a = j.in = reader_new();
	/* Wheels are zips, whose directory is at the end. */
	archive_read_support_format_zip_seekable(a);
	if (archive_read_open_fd(a, fd, FILE_BLOCK) != ARCHIVE_OK) {
		rc = read_failed(&j, err);
		goto out;
	}
	rc = extract(a, real, opts, stats, NULL, err);
out:
	archive_read_free(a);
	if (fd >= 0)
		plat_close(fd);
	free(real);
	return rc;
}

/* ---- reading zip members in place ----------------------------------------- */

/* One member's bytes into out, at most max (more: CUENV_E_UNPACK). */
static int read_member(struct archive *a, const char *name, size_t max,
		       struct buf *out, struct cuenv_err *err)
{
	char chunk[65536];
	la_ssize_t n;

	buf_reset(out);
	while ((n = archive_read_data(a, chunk, sizeof(chunk))) > 0) {
		if (out->len + (size_t)n > max)
			return cuenv_fail(err, CUENV_E_UNPACK,
					  "zip member '%s' is larger than %zu "
					  "bytes",
					  name, max);
		buf_add(out, chunk, (size_t)n);
	}
	if (n < 0)
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "cannot read zip member '%s': %s", name,
				  archive_error_string(a));
	return CUENV_OK;
}

int unpack_zip_member(const void *local, size_t len, size_t max,
		      struct buf *out, struct cuenv_err *err)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	int rc;

	/* one local header and its data, read as a zip stream */
	archive_read_support_format_zip_streamable(a);
	if (archive_read_open_memory(a, local, len) != ARCHIVE_OK ||
	    archive_read_next_header(a, &e) != ARCHIVE_OK) {
		rc = cuenv_fail(err, CUENV_E_UNPACK, "not a zip member: %s",
				archive_error_string(a));
		goto out;
	}
	rc = read_member(a, archive_entry_pathname(e), max, out, err);
out:
	archive_read_free(a);
	return rc;
}

/* ---- one member, streamed ------------------------------------------------ */

struct unpack_member {
	struct archive *a;
	unpack_read_fn *read;
	void *ctx;
	char *name;
	struct cuenv_err err; /* read()'s failure */
	bool started, failed;
};

static la_ssize_t member_source(struct archive *a, void *ctx, const void **p)
{
	struct unpack_member *m = ctx;
	ssize_t n = m->read(m->ctx, p, &m->err);

	if (n < 0) {
		m->failed = true;
		archive_set_error(a, EIO, "%s", m->err.msg.data);
		return -1;
	}
	return (la_ssize_t)n;
}

struct unpack_member *unpack_member_open(unpack_read_fn *read, void *ctx,
					 const char *name)
{
	struct unpack_member *m = xcalloc(1, sizeof(*m));

	m->read = read;
	m->ctx = ctx;
	m->name = xstrdup(name);
	err_init(&m->err);
	return m;
}

static ssize_t member_failed(struct unpack_member *m, struct cuenv_err *err)
{
	if (m->failed) {
		cuenv_fail(err, m->err.rc ? m->err.rc : CUENV_E_FETCH, "%s",
			   m->err.msg.data);
		return -1;
	}
	cuenv_fail(err, CUENV_E_UNPACK, "cannot read zip member '%s': %s",
		   m->name, archive_error_string(m->a));
	return -1;
}

ssize_t unpack_member_read(struct unpack_member *m, const void **p,
			   struct cuenv_err *err)
{
	struct archive_entry *e;
	size_t size;
	la_int64_t off;
	int h;

	if (!m->started) {
		m->started = true;
		m->a = archive_read_new();
		/* one local header and its data, read as a zip stream */
		archive_read_support_format_zip_streamable(m->a);
		if (archive_read_open(m->a, m, NULL, member_source, NULL) !=
			    ARCHIVE_OK ||
		    archive_read_next_header(m->a, &e) != ARCHIVE_OK)
			return member_failed(m, err);
	}
	if (!m->a)
		return member_failed(m, err);
	h = archive_read_data_block(m->a, p, &size, &off);
	if (h == ARCHIVE_EOF)
		return 0;
	/* ARCHIVE_WARN at the end: the bytes inflated are not the size or
	 * CRC that the local header or data descriptor says (libarchive
	 * checks; install's copy_data fails on it too) */
	if (h != ARCHIVE_OK)
		return member_failed(m, err);
	return (ssize_t)size;
}

void unpack_member_close(struct unpack_member *m)
{
	if (!m)
		return;
	archive_read_free(m->a);
	err_release(&m->err);
	free(m->name);
	free(m);
}

/* ---- makeself ------------------------------------------------------------ */

/*
 * The number at s (at most 9 digits, then the byte end), or 0 when there
 * is none.
 */
static uint64_t parse_count(const char *s, const char *lim, const char *end)
{
	uint64_t n = 0;
	size_t digits = 0;

	for (; s < lim && *s >= '0' && *s <= '9'; s++, digits++)
		n = n * 10 + (uint64_t)(*s - '0');
	if (!digits || digits > 9)
		return 0;
	if (strlen(end) > (size_t)(lim - s) || memcmp(s, end, strlen(end)))
		return 0;
	return n;
}

/* `skip="N"` starting a line (makeself >= 2.4.2). */
static uint64_t line_skip(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if ((size_t)(e - s) > 6 && !memcmp(s, "skip=\"", 6))
		return parse_count(s + 6, e, "\"");
	return 0;
}

/* A literal `head -n N "$0"` within a line (older makeself). */
static uint64_t line_head(const char *s, const char *e)
{
	static const char head_n[] = "head -n ";
	const char *p = s;
	uint64_t n;

	while ((p = mem_find(p, (size_t)(e - p), head_n, sizeof(head_n) - 1))) {
		p += sizeof(head_n) - 1;
		n = parse_count(p, e, " \"$0\"");
		if (n)
			return n;
	}
	return 0;
}

/* Offset just after the n-th newline, or -1 when it is not within len. */
static int64_t after_lines(const char *head, size_t len, uint64_t n)
{
	const char *p = head, *end = head + len;

	while (n--) {
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return -1;
		p++;
	}
	return p - head;
}

int unpack_makeself_offset(const char *head, size_t len, uint64_t *offset,
			   struct cuenv_err *err)
{
	/* The script is text: the payload's first NUL ends the search. */
	const char *nul = memchr(head, '\0', len);
	size_t text = nul ? (size_t)(nul - head) : len;
	uint64_t skip = 0, hn = 0, n;
	size_t skip_at = 0, hn_at = 0, at;
	int64_t off;

	if (len < 2 || head[0] != '#' || head[1] != '!')
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "not a makeself archive: no '#!' line");
	for (size_t s = 0; s < text && !skip;) {
		const char *nl = memchr(head + s, '\n', text - s);
		size_t e = nl ? (size_t)(nl - head) : text;

		skip = line_skip(head + s, head + e);
		skip_at = s;
		if (!hn) {
			hn = line_head(head + s, head + e);
			hn_at = s;
		}
		s = e + 1;
	}
	/* A count given by a line after the header is the payload's. */
	n = skip ? skip : hn;
	at = skip ? skip_at : hn_at;
	if (!n)
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "not a makeself archive: no line count "
				  "(skip=\"N\" or head -n N) in its header");
	off = after_lines(head, len, n);
	if (off < 0)
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "makeself header of %llu lines is longer than "
				  "the %zu bytes read",
				  (unsigned long long)n, len);
	if ((size_t)off <= at)
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "not a makeself archive: its line count %llu "
				  "is not within its header",
				  (unsigned long long)n);
	*offset = (uint64_t)off;
	return CUENV_OK;
}
