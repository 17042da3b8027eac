#include "trust.h"

#include <string.h>

#include "plat_owner.h"
#include "shell.h"

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

int trust_check_path(const char *path, plat_uid uid, plat_uid owner,
		     struct cuenv_err *err)
{
	struct buf shown = BUF_INIT, quoted = BUF_INIT, fix = BUF_INIT,
		   why = BUF_INIT;
	struct plat_owner st;
	int bad_owner, bad_mode, rc;

	if (plat_owner_get(path, &st))
		return CUENV_OK; /* nothing there: nothing to take from it */
	bad_owner = st.uid != uid && st.uid != PLAT_UID_SYSTEM;
	bad_mode = st.others_write;
	if (!bad_owner && !bad_mode)
		return CUENV_OK;

	buf_add_display(&shown, path, 4096);
	shell_quote(SHELL_SH, path, &quoted);
	/* Numeric uids: a name lookup could need NSS; chown takes either. */
	if (bad_owner) {
		buf_printf(&fix, "chown %lu %s", (unsigned long)owner,
			   quoted.data);
		buf_printf(&why, "owned by uid %lu", (unsigned long)st.uid);
	}
	if (bad_mode) {
		buf_printf(&fix, "%schmod go-w %s", fix.len ? " && " : "",
			   quoted.data);
		buf_printf(&why, "%swritable by others (mode %04o)",
			   bad_owner ? " and " : "", st.perm);
	}
	rc = cuenv_fail(err, CUENV_E_STORE,
			"'%s' is %s: cuenv does not trust it", shown.data,
			why.data);
	cuenv_hint(err, "fix it with: %s", fix.data);
	buf_release(&shown);
	buf_release(&quoted);
	buf_release(&fix);
	buf_release(&why);
	return rc;
}
