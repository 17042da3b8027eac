#include "store/assemble.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <archive_entry.h> /* AE_IFLNK, as unpack_check_entry takes */

#include "base/buf.h"
#include "plat/file.h"
#include "plat/plat_fs.h"
#include "net/unpack.h"
#include "base/xalloc.h"

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

/* A folder opened to walk, never through a link. */
#define DIR_FLAGS (PLAT_O_READ | PLAT_O_DIR | PLAT_O_NOFOLLOW)

/* ---- messages ------------------------------------------------------------ */

static const char *kind_of(enum plat_ftype type)
{
	if (type == PLAT_F_DIR)
		return "a folder";
	if (type == PLAT_F_REG)
		return "a file";
	if (type == PLAT_F_LINK)
		return "a symbolic link";
	return "a special file";
}

/*
 * The entry at rel under the folder root, never through a link (lstat
 * semantics for the last name, and no folder on the way may be a link).
 * Returns 0 or -1 (errno set).
 */
static int stat_beneath(int root, const char *rel, struct plat_stat *st)
{
	const char *p = rel;
	int fd = root, rc = -1;

	for (;;) {
		size_t n = strcspn(p, "/");
		char *name = xstrndup(p, n);
		int next;

		if (!p[n]) {
			rc = plat_stat_at(fd, name, 1, st);
			free(name);
			break;
		}
		next = plat_open_at(fd, name, DIR_FLAGS, 0);
		free(name);
		if (fd != root)
			plat_close(fd);
		fd = next;
		if (fd < 0)
			return -1;
		p += n + 1;
	}
	if (fd != root)
		plat_close(fd);
	return rc;
}

/*
 * The archive that put the entry at w->rel there first: the first earlier
 * tree that has an entry of that type at that path.
 */
static const char *first_owner(const struct walk *w, enum plat_ftype have)
{
	const struct assemble *a = w->a;

	for (size_t i = 0; i < a->trees.n; i++) {
		struct plat_stat st;
		int root =
			plat_open(a->trees.v[i], PLAT_O_READ | PLAT_O_DIR, 0);
		int found;

		if (root < 0)
			continue;
		found = !stat_beneath(root, w->rel.data, &st) &&
			st.type == have;
		plat_close(root);
		if (found)
			return a->labels.v[i];
	}
	return "an earlier archive";
}

static int conflict(const struct walk *w, enum plat_ftype have,
		    enum plat_ftype want, struct cuenv_err *err)
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
			  enum plat_ftype want, struct cuenv_err *err)
{
	struct plat_stat st;

	if (plat_stat_at(to, name, 1, &st))
		return store_failed(w, "stat", err);
	if (st.type != want)
		return conflict(w, st.type, want, err);
	return CUENV_OK;
}

static int copy_at(const struct walk *w, int from, int to, const char *name,
		   unsigned mode, struct cuenv_err *err)
{
	char *block = NULL;
	int in = -1, out = -1, rc = CUENV_OK;
	ssize_t n;

	in = plat_open_at(from, name, PLAT_O_READ | PLAT_O_NOFOLLOW, 0);
	if (in < 0) {
		rc = store_failed(w, "read the pool's copy of", err);
		goto out;
	}
	/* O_EXCL: never through a link, never over anything. */
	out = plat_open_at(to, name,
			   PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_EXCL |
				   PLAT_O_NOFOLLOW,
			   mode & 0755);
	if (out < 0 && errno == EEXIST) {
		rc = check_existing(w, to, name, PLAT_F_REG, err);
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
	if (out >= 0 && plat_close(out) && !rc)
		rc = store_failed(w, "write", err);
	if (in >= 0)
		plat_close(in);
	free(block);
	return rc;
}

static int add_file(struct walk *w, int from, int to, const char *name,
		    const struct plat_stat *st, struct cuenv_err *err)
{
	/* linkat with no flags neither follows from's name nor to's. */
	if (!plat_link_at(from, name, to, name))
		return CUENV_OK;
	if (errno == EEXIST)
		return check_existing(w, to, name, PLAT_F_REG, err);
	/* Another file system, too many links, a protected link: copy. */
	return copy_at(w, from, to, name, st->perm, err);
}

static int add_symlink(struct walk *w, int from, int to, const char *name,
		       const struct plat_stat *st, struct cuenv_err *err)
{
	size_t want = (size_t)st->size + 2;
	char *target = xmalloc(want);
	ssize_t n;
	int rc;

	n = plat_readlink_at(from, name, target, want);
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
	rc = unpack_check_entry(w->rel.data, AE_IFLNK, 0, target, NULL, false,
				err);
	if (rc) {
		char *why = buf_detach(&err->msg);

		cuenv_fail(err, rc, "%s (in '%s')", why, w->label);
		free(why);
		goto out;
	}
	if (!plat_symlink_at(target, to, name))
		goto out;
	if (errno == EEXIST)
		rc = check_existing(w, to, name, PLAT_F_LINK, err);
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
	struct plat_stat st;
	int sub_from = -1, sub_to = -1, rc;

	if (plat_stat_at(from, name, 1, &st))
		return cuenv_fail(err, CUENV_E_STORE, "cannot stat '%s/%s': %s",
				  w->tree, w->rel.data, strerror(errno));
	/* Old pool trees were not all checked as closely as new ones. */
	if (st.type != PLAT_F_DIR && st.type != PLAT_F_REG &&
	    st.type != PLAT_F_LINK)
		return cuenv_fail(err, CUENV_E_UNPACK,
				  "refused archive entry '%s' (in '%s'): not a "
				  "file, folder or symbolic link",
				  w->rel.data, w->label);
	w->entries++;
	if (st.type == PLAT_F_REG)
		return add_file(w, from, to, name, &st, err);
	if (st.type == PLAT_F_LINK)
		return add_symlink(w, from, to, name, &st, err);

	if (plat_mkdir_at(to, name, 0755) && errno != EEXIST)
		return store_failed(w, "create", err);
	/* An existing name that is not a folder is never gone through. */
	sub_to = plat_open_at(to, name, DIR_FLAGS, 0);
	if (sub_to < 0) {
		rc = errno == ENOTDIR || errno == ELOOP
			     ? check_existing(w, to, name, PLAT_F_DIR, err)
			     : store_failed(w, "open", err);
		if (!rc) /* it became a folder meanwhile: not ours */
			rc = cuenv_fail(err, CUENV_E_STORE,
					"'%s/%s' changed during the install",
					w->a->dest_path, w->rel.data);
		goto out;
	}
	sub_from = plat_open_at(from, name, DIR_FLAGS, 0);
	if (sub_from < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot open '%s/%s': %s",
				w->tree, w->rel.data, strerror(errno));
		goto out;
	}
	rc = add_dir(w, sub_from, sub_to, err);
out:
	if (sub_from >= 0)
		plat_close(sub_from);
	if (sub_to >= 0)
		plat_close(sub_to);
	return rc;
}

/* The names in the folder from, sorted, into names. */
static int list_dir(const struct walk *w, int from, struct strv *names,
		    struct cuenv_err *err)
{
	struct plat_dir *d = plat_fdopendir(from);
	const char *name;

	if (!d)
		return cuenv_fail(err, CUENV_E_STORE, "cannot read '%s/%s': %s",
				  w->tree, w->rel.data, strerror(errno));
	while ((name = plat_readdir(d)))
		strv_push(names, name);
	if (errno) {
		int eno = errno;

		plat_closedir(d);
		return cuenv_fail(err, CUENV_E_STORE, "cannot read '%s/%s': %s",
				  w->tree, w->rel.data, strerror(eno));
	}
	plat_closedir(d);
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
	fd = plat_open(dest, DIR_FLAGS, 0);
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

	from = plat_open(tree, DIR_FLAGS, 0);
	if (from < 0)
		return cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				  tree, strerror(errno));
	rc = add_dir(&w, from, a->dest, err);
	plat_close(from);
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
	plat_close(a->dest);
	free(a->dest_path);
	strv_release(&a->trees);
	strv_release(&a->labels);
	free(a);
}
