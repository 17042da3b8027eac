#include "store/trust.h"

#include <stdlib.h>
#include <string.h>

#include "plat/plat_path.h"
#include "plat/plat_fs.h"
#include "plat/plat_owner.h"
#include "plat/shell.h"
#include "base/xalloc.h"

/* What may not stand in a listable path under r. */
static const char *unlistable(const struct plat_path_rules *r)
{
	return r->style == PLAT_PATH_WINDOWS ? ";\n" : ":;\n";
}

bool trust_path_listable_in(const struct plat_path_rules *r, const char *path)
{
	return plat_path_is_abs(r, path) && !strpbrk(path, unlistable(r));
}

bool trust_path_listable(const char *path)
{
	return trust_path_listable_in(plat_path_native(), path);
}

int trust_check_listable(const char *path, const char *what,
			 struct cuenv_err *err)
{
	struct buf shown = BUF_INIT;
	const struct plat_path_rules *r = plat_path_native();
	const char *bad = strpbrk(path, unlistable(r));
	int rc;

	if (trust_path_listable_in(r, path))
		return CUENV_OK;
	buf_add_display(&shown, path, 4096);
	if (!plat_path_is_abs(r, path))
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"%s '%s' is not an absolute path", what,
				shown.data);
	else
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"%s '%s' holds a %s, which would split its "
				"entry in PATH or LD_LIBRARY_PATH",
				what, shown.data,
				*bad == ':'   ? "':'"
				: *bad == ';' ? "';'"
					      : "newline");
	cuenv_hint(err, "move or rename it to a path without %s",
		   r->style == PLAT_PATH_WINDOWS ? "';' or newlines"
						 : "':', ';' or newlines");
	buf_release(&shown);
	return rc;
}

/* ---- owners and modes, from / down ------------------------------------ */

/* Links followed on the way to a path at most, as Linux's resolution. */
#define MAX_LINKS 40

static int trusted_uid(plat_uid who, plat_uid uid)
{
	return who == uid || who == PLAT_UID_SYSTEM;
}

/*
 * Fail for path, whose owner and mode are st: what is wrong with it and
 * the chown (-h for a link) and/or chmod that fix it. beneath, when not
 * NULL, is what the walk was checking below path.
 */
static int refuse(const char *path, const struct plat_owner *st, plat_uid uid,
		  plat_uid owner, int check_mode, const char *beneath,
		  struct cuenv_err *err)
{
	struct buf shown = BUF_INIT, quoted = BUF_INIT, fix = BUF_INIT,
		   why = BUF_INIT, below = BUF_INIT;
	int bad_owner = !trusted_uid(st->uid, uid);
	int bad_mode = check_mode && st->others_write;
	int rc;

	buf_add_display(&shown, path, 4096);
	shell_quote(SHELL_SH, path, &quoted);
	/* Numeric uids: a name lookup could need NSS; chown takes either. */
	if (bad_owner) {
		buf_printf(&fix, "chown %s%lu %s", st->link ? "-h " : "",
			   (unsigned long)owner, quoted.data);
		buf_printf(&why, "owned by uid %lu", (unsigned long)st->uid);
	}
	if (bad_mode) {
		buf_printf(&fix, "%schmod go-w %s", fix.len ? " && " : "",
			   quoted.data);
		buf_printf(&why, "%swritable by others (mode %04o)",
			   bad_owner ? " and " : "", st->perm);
	}
	if (beneath) {
		buf_add_display(&below, beneath, 4096);
		rc = cuenv_fail(err, CUENV_E_STORE,
				"'%s' is %s: cuenv does not trust '%s' "
				"beneath it",
				shown.data, why.data, below.data);
	} else {
		rc = cuenv_fail(err, CUENV_E_STORE,
				"'%s' is %s: cuenv does not trust it",
				shown.data, why.data);
	}
	cuenv_hint(err, "fix it with: %s", fix.data);
	buf_release(&shown);
	buf_release(&quoted);
	buf_release(&fix);
	buf_release(&why);
	buf_release(&below);
	return rc;
}

/* Push path's names onto the stack todo, the first name on top. */
static void push_names(struct strv *todo, const char *path)
{
	struct strv names = STRV_INIT;

	strv_split(&names, path, '/');
	for (size_t i = names.n; i-- > 0;)
		if (*names.v[i] && strcmp(names.v[i], "."))
			strv_push(todo, names.v[i]);
	strv_release(&names);
}

/* A link's target (malloc'd), or NULL. */
static char *read_link(const char *path)
{
	size_t size = 256;

	for (;;) {
		char *t = xmalloc(size);
		ssize_t n = plat_readlink(path, t, size);

		if (n >= 0 && (size_t)n < size - 1)
			return t;
		free(t);
		if (n < 0 || size > 65536)
			return NULL;
		size *= 2;
	}
}

/*
 * May the folder dir (owner and mode d) lead to its entry at (e)? dir
 * must be the user's or root's; others may write it only when it is
 * sticky (/tmp) and the entry is the user's or root's, whom no one else
 * can rename it away from. path: what the walk is checking.
 */
static int check_step(const char *dir, const struct plat_owner *d,
		      const char *at, const struct plat_owner *e,
		      const char *path, plat_uid uid, plat_uid owner,
		      struct cuenv_err *err)
{
	if (!trusted_uid(d->uid, uid) || (d->others_write && !d->sticky))
		return refuse(dir, d, uid, owner, 1, path, err);
	if (d->others_write && !trusted_uid(e->uid, uid))
		return refuse(at, e, uid, owner, 0, path, err);
	return CUENV_OK;
}

/*
 * Resolve path name by name from /, as the system does, and check each
 * folder it passes (check_step), each link's folder and its target's
 * included, then what it ends at: nothing in the path can be renamed
 * away and replaced by anyone but the user and root.
 */
static int walk(const char *path, plat_uid uid, plat_uid owner,
		struct cuenv_err *err)
{
	struct strv todo = STRV_INIT;
	struct buf cur = BUF_INIT, next = BUF_INIT;
	struct plat_owner d, e;
	int links = 0, rc = CUENV_OK;

	buf_adds(&cur, "/");
	if (plat_owner_lget("/", &d))
		goto out;
	push_names(&todo, path);
	while (todo.n) {
		char *name = todo.v[--todo.n];

		if (!strcmp(name, "..")) {
			char *slash = strrchr(cur.data, '/');

			buf_setlen(&cur, slash == cur.data
						 ? 1
						 : (size_t)(slash - cur.data));
			free(name);
			if (plat_owner_lget(cur.data, &d))
				goto out;
			continue;
		}
		buf_reset(&next);
		buf_path(&next, cur.data, name);
		free(name);
		if (plat_owner_lget(next.data, &e))
			goto out; /* nothing there: nothing to take from it */
		rc = check_step(cur.data, &d, next.data, &e, path, uid, owner,
				err);
		if (rc)
			goto out;
		if (e.link) {
			char *target = read_link(next.data);

			if (!target || ++links > MAX_LINKS) {
				free(target);
				goto out; /* no one can use it either */
			}
			if (*target == '/') {
				buf_sets(&cur, "/");
				if (plat_owner_lget("/", &d)) {
					free(target);
					goto out;
				}
			}
			push_names(&todo, target);
			free(target);
			continue;
		}
		buf_sets(&cur, next.data);
		d = e;
	}
	if (!trusted_uid(d.uid, uid) || d.others_write)
		rc = refuse(cur.data, &d, uid, owner, 1, NULL, err);
out:
	strv_release(&todo);
	buf_release(&cur);
	buf_release(&next);
	return rc;
}

int trust_check_path(const char *path, plat_uid uid, plat_uid owner,
		     struct cuenv_err *err)
{
	struct plat_owner st;

	if (plat_path_native()->style != PLAT_PATH_WINDOWS)
		return walk(path, uid, owner, err);
	/* Windows: the path itself (see trust.h). */
	if (plat_owner_get(path, &st))
		return CUENV_OK; /* nothing there: nothing to take from it */
	if (trusted_uid(st.uid, uid) && !st.others_write)
		return CUENV_OK;
	return refuse(path, &st, uid, owner, 1, NULL, err);
}
