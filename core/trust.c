#include "trust.h"

#include <string.h>

#include "plat_owner.h"
#include "plat_path.h"
#include "shell.h"

/*
 * The first character of path that would split a list entry: ';' or a
 * newline anywhere, ':' past the root (a Windows drive's "C:" is no
 * separator there: PATH lists are ';'-separated). NULL when none.
 */
static const char *splitter(const char *path)
{
	size_t root = 0;
	const char *bad = strpbrk(path, ";\n");
	const char *colon;

	plat_path_kind(plat_path_native(), path, &root);
	colon = strchr(path + root, ':');
	if (!bad || (colon && colon < bad))
		bad = colon;
	return bad;
}

bool trust_path_listable(const char *path)
{
	return plat_path_is_abs(plat_path_native(), path) && !splitter(path);
}

int trust_check_listable(const char *path, const char *what,
			 struct cuenv_err *err)
{
	struct buf shown = BUF_INIT;
	const char *bad = splitter(path);
	int rc;

	if (trust_path_listable(path))
		return CUENV_OK;
	buf_add_display(&shown, path, 4096);
	if (!plat_path_is_abs(plat_path_native(), path))
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
	cuenv_hint(err, "move or rename it to a path without ':', ';' or "
			"newlines");
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
