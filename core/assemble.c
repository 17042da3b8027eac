#include "assemble.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "file.h"
#include "unpack.h"
#include "xalloc.h"

/* How much of an untrusted name or link target an error message shows. */
#define SHOWN_MAX 200
/* Where a link cannot be made: copied in blocks of this size. */
#define COPY_BLOCK (1 << 16)

struct assemble {
	int dest;	    /* the version folder */
	char *dest_path;    /* for messages */
	struct strv trees;  /* the trees added so far, in order */
	struct strv labels; /* ... and their archives' names */
};

/* One tree being added. */
struct walk {
	struct assemble *a;
	const char *tree, *label;
	struct buf rel; /* the entry's path, relative to both roots */
	unsigned long entries;
};

/* ---- messages ------------------------------------------------------------ */

static const char *kind_of(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a folder";
	if (S_ISREG(mode))
		return "a file";
	if (S_ISLNK(mode))
		return "a symbolic link";
	return "a special file";
}

/*
 * The entry at rel under the folder root, never through a link (lstat
 * semantics for the last name, and no folder on the way may be a link).
 * Returns 0 or -1 (errno set).
 */
static int stat_beneath(int root, const char *rel, struct stat *st)
{
	const char *p = rel;
	int fd = dup(root), rc = -1;

	if (fd < 0)
		return -1;
	for (;;) {
		size_t n = strcspn(p, "/");
		char *name = xstrndup(p, n);
		int next;

		if (!p[n]) {
			rc = fstatat(fd, name, st, AT_SYMLINK_NOFOLLOW);
			free(name);
			break;
		}
		next = openat(fd, name,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		free(name);
		close(fd);
		fd = next;
		if (fd < 0)
			return -1;
		p += n + 1;
	}
	close(fd);
	return rc;
}

/*
 * The archive that put the entry at w->rel there first: the first earlier
 * tree that has an entry of that type at that path.
 */
static const char *first_owner(const struct walk *w, mode_t have)
{
	const struct assemble *a = w->a;

	for (size_t i = 0; i < a->trees.n; i++) {
		struct stat st;
		int root =
			open(a->trees.v[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		int found;

		if (root < 0)
			continue;
		found = !stat_beneath(root, w->rel.data, &st) &&
			(st.st_mode & S_IFMT) == (have & S_IFMT);
		close(root);
		if (found)
			return a->labels.v[i];
	}
	return "an earlier archive";
}

static int conflict(const struct walk *w, mode_t have, mode_t want,
		    struct cuenv_err *err)
{
	struct buf shown = BUF_INIT;

	buf_add_display(&shown, w->rel.data, SHOWN_MAX);
	cuenv_fail(err, CUENV_E_UNPACK,
		   "refused archives: '%s' is %s in '%s' and %s in '%s'",
		   shown.data, kind_of(have), first_owner(w, have),
		   kind_of(want), w->label);
	buf_release(&shown);
	return CUENV_E_UNPACK;
}

static int store_failed(const struct walk *w, const char *what,
			struct cuenv_err *err)
{
	int eno = errno;

	return cuenv_fail(err, CUENV_E_STORE, "cannot %s '%s/%s': %s", what,
			  w->a->dest_path, w->rel.data, strerror(eno));
}

/* ---- one entry ----------------------------------------------------------- */

/* Is the existing entry at name in to of type want? Fails otherwise. */
static int check_existing(const struct walk *w, int to, const char *name,
			  mode_t want, struct cuenv_err *err)
{
	struct stat st;

	if (fstatat(to, name, &st, AT_SYMLINK_NOFOLLOW))
		return store_failed(w, "stat", err);
	if ((st.st_mode & S_IFMT) != (want & S_IFMT))
		return conflict(w, st.st_mode, want, err);
	return CUENV_OK;
}

static int copy_at(const struct walk *w, int from, int to, const char *name,
		   mode_t mode, struct cuenv_err *err)
{
	char *block = NULL;
	int in = -1, out = -1, rc = CUENV_OK;
	ssize_t n;

	in = openat(from, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0) {
		rc = store_failed(w, "read the pool's copy of", err);
		goto out;
	}
	/* O_EXCL: never through a link, never over anything. */
	out = openat(to, name,
		     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		     mode & 0755);
	if (out < 0 && errno == EEXIST) {
		rc = check_existing(w, to, name, S_IFREG, err);
		goto out;
	}
	if (out < 0) {
		rc = store_failed(w, "create", err);
		goto out;
	}
	block = xmalloc(COPY_BLOCK);
	while ((n = file_read_full(in, block, COPY_BLOCK)) != 0) {
		if (n < 0) {
			rc = store_failed(w, "read the pool's copy of", err);
			goto out;
		}
		if (file_write_full(out, block, (size_t)n)) {
			rc = store_failed(w, "write", err);
			goto out;
		}
	}
out:
	if (out >= 0 && close(out) && !rc)
		rc = store_failed(w, "write", err);
	if (in >= 0)
		close(in);
	free(block);
	return rc;
}

static int add_file(struct walk *w, int from, int to, const char *name,
		    const struct stat *st, struct cuenv_err *err)
{
	/* linkat with no flags neither follows from's name nor to's. */
	if (!linkat(from, name, to, name, 0))
		return CUENV_OK;
	if (errno == EEXIST)
		return check_existing(w, to, name, S_IFREG, err);
	/* Another file system, too many links, a protected link: copy. */
	return copy_at(w, from, to, name, st->st_mode, err);
}

static int add_symlink(struct walk *w, int from, int to, const char *name,
		       const struct stat *st, struct cuenv_err *err)
{
	size_t want = (size_t)st->st_size + 2;
	char *target = xmalloc(want);
	ssize_t n;
	int rc;

	n = readlinkat(from, name, target, want);
	if (n < 0 || (size_t)n >= want - 1) {
		if (n >= 0)
			errno = EAGAIN; /* it changed under us */
		rc = cuenv_fail(err, CUENV_E_STORE,
				"cannot read link '%s/%s': %s", w->tree,
				w->rel.data, strerror(errno));
		goto out;
	}
	target[n] = '\0';
	/*
	 * Its folders in the assembled tree are folders (never links), so
	 * where it sits there is its path in its own tree.
	 */
	rc = unpack_check_entry(w->rel.data, S_IFLNK, 0, target, NULL, err);
	if (rc) {
		char *why = buf_detach(&err->msg);

		cuenv_fail(err, rc, "%s (in '%s')", why, w->label);
		free(why);
		goto out;
	}
	if (!symlinkat(target, to, name))
		goto out;
	if (errno == EEXIST)
		rc = check_existing(w, to, name, S_IFLNK, err);
	else
		rc = store_failed(w, "create", err);
out:
	free(target);
	return rc;
}

static int add_dir(struct walk *w, int from, int to, struct cuenv_err *err);

static int add_entry(struct walk *w, int from, int to, const char *name,
		     struct cuenv_err *err)
{
	struct stat st;
	int sub_from = -1, sub_to = -1, rc;

	if (fstatat(from, name, &st, AT_SYMLINK_NOFOLLOW))
		return cuenv_fail(err, CUENV_E_STORE, "cannot stat '%s/%s': %s",
				  w->tree, w->rel.data, strerror(errno));
	/* Old pool trees were not all checked as closely as new ones. */
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode) &&
	    !S_ISLNK(st.st_mode))
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "refused archive entry '%s' (in '%s'): not a "
				  "file, folder or symbolic link",
				  w->rel.data, w->label);
	w->entries++;
	if (S_ISREG(st.st_mode))
		return add_file(w, from, to, name, &st, err);
	if (S_ISLNK(st.st_mode))
		return add_symlink(w, from, to, name, &st, err);

	if (mkdirat(to, name, 0755) && errno != EEXIST)
		return store_failed(w, "create", err);
	/* An existing name that is not a folder is never gone through. */
	sub_to = openat(to, name,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub_to < 0) {
		rc = errno == ENOTDIR || errno == ELOOP
			     ? check_existing(w, to, name, S_IFDIR, err)
			     : store_failed(w, "open", err);
		if (!rc) /* it became a folder meanwhile: not ours */
			rc = cuenv_fail(err, CUENV_E_STORE,
					"'%s/%s' changed during the install",
					w->a->dest_path, w->rel.data);
		goto out;
	}
	sub_from = openat(from, name,
			  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub_from < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot open '%s/%s': %s",
				w->tree, w->rel.data, strerror(errno));
		goto out;
	}
	rc = add_dir(w, sub_from, sub_to, err);
out:
	if (sub_from >= 0)
		close(sub_from);
	if (sub_to >= 0)
		close(sub_to);
	return rc;
}

/* The names in the folder from, sorted, into names. */
static int list_dir(const struct walk *w, int from, struct strv *names,
		    struct cuenv_err *err)
{
	int fd = dup(from);
	struct dirent *de;
	DIR *d;

	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return cuenv_fail(err, CUENV_E_STORE, "cannot read '%s/%s': %s",
				  w->tree, w->rel.data, strerror(errno));
	}
	errno = 0;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			strv_push(names, de->d_name);
		errno = 0;
	}
	if (errno) {
		int eno = errno;

		closedir(d);
		return cuenv_fail(err, CUENV_E_STORE, "cannot read '%s/%s': %s",
				  w->tree, w->rel.data, strerror(eno));
	}
	closedir(d);
	strv_sort(names);
	return CUENV_OK;
}

/* Merge the folder from into the folder to (both open descriptors). */
static int add_dir(struct walk *w, int from, int to, struct cuenv_err *err)
{
	struct strv names = STRV_INIT;
	size_t at = w->rel.len;
	int rc;

	rc = list_dir(w, from, &names, err);
	for (size_t i = 0; !rc && i < names.n; i++) {
		buf_setlen(&w->rel, at);
		if (at)
			buf_addc(&w->rel, '/');
		buf_adds(&w->rel, names.v[i]);
		rc = add_entry(w, from, to, names.v[i], err);
	}
	buf_setlen(&w->rel, at);
	strv_release(&names);
	return rc;
}

/* ---- the module's interface ---------------------------------------------- */

int assemble_open(struct assemble **out, const char *dest,
		  struct cuenv_err *err)
{
	struct assemble *a;
	int fd;

	*out = NULL;
	fd = open(dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				  dest, strerror(errno));
	a = xcalloc(1, sizeof(*a));
	a->dest = fd;
	a->dest_path = xstrdup(dest);
	a->trees = (struct strv)STRV_INIT;
	a->labels = (struct strv)STRV_INIT;
	*out = a;
	return CUENV_OK;
}

int assemble_add(struct assemble *a, const char *tree, const char *label,
		 struct cuenv_err *err)
{
	struct walk w = {
		.a = a,
		.tree = tree,
		.label = label,
		.rel = BUF_INIT,
	};
	int from, rc;

	from = open(tree, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (from < 0)
		return cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				  tree, strerror(errno));
	rc = add_dir(&w, from, a->dest, err);
	close(from);
	if (!rc && !w.entries)
		rc = cuenv_fail(err, CUENV_E_UNPACK,
				"refused archive '%s': nothing in it to install",
				label);
	if (!rc) {
		strv_push(&a->trees, tree);
		strv_push(&a->labels, label);
	}
	buf_release(&w.rel);
	return rc;
}

void assemble_free(struct assemble *a)
{
	if (!a)
		return;
	close(a->dest);
	free(a->dest_path);
	strv_release(&a->trees);
	strv_release(&a->labels);
	free(a);
}
