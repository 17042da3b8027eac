#include "trust.h"

#include <string.h>
#include <sys/stat.h>

#include "shell.h"

bool trust_path_listable(const char *path)
{
	return path[0] == '/' && !strpbrk(path, ":;\n");
}

int trust_check_listable(const char *path, const char *what,
			 struct cuenv_err *err)
{
	struct buf shown = BUF_INIT;
	int rc = CUENV_OK;

	if (trust_path_listable(path))
		return CUENV_OK;
	buf_add_display(&shown, path, 4096);
	if (path[0] != '/')
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"%s '%s' is not an absolute path", what,
				shown.data);
	else
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"%s '%s' holds a %s, which would split its "
				"entry in PATH or LD_LIBRARY_PATH",
				what, shown.data,
				*strpbrk(path, ":;\n") == ':'   ? "':'"
				: *strpbrk(path, ":;\n") == ';' ? "';'"
								: "newline");
	cuenv_hint(err, "move or rename it to a path without ':', ';' or "
			"newlines");
	buf_release(&shown);
	return rc;
}

/* Numeric: a name lookup could need NSS, and chown takes either. */
static void user_name(uid_t uid, struct buf *out)
{
	buf_printf(out, "%lu", (unsigned long)uid);
}

int trust_check_path(const char *path, uid_t uid, uid_t owner,
		     struct cuenv_err *err)
{
	struct buf shown = BUF_INIT, quoted = BUF_INIT, who = BUF_INIT,
		   fix = BUF_INIT;
	struct stat st;
	int bad_owner, bad_mode, rc = CUENV_OK;

	if (stat(path, &st))
		return CUENV_OK; /* nothing there: nothing to take from it */
	bad_owner = st.st_uid != uid && st.st_uid != 0;
	bad_mode = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
	if (!bad_owner && !bad_mode)
		return CUENV_OK;

	buf_add_display(&shown, path, 4096);
	shell_quote(SHELL_SH, path, &quoted);
	if (bad_owner) {
		user_name(st.st_uid, &who);
		buf_adds(&fix, "chown ");
		user_name(owner, &fix);
		buf_printf(&fix, " %s", quoted.data);
	}
	if (bad_mode)
		buf_printf(&fix, "%schmod go-w %s", fix.len ? " && " : "",
			   quoted.data);
	if (bad_owner && bad_mode)
		rc = cuenv_fail(err, CUENV_E_STORE,
				"'%s' is owned by uid %s and writable by others "
				"(mode %04o): cuenv does not trust it",
				shown.data, who.data,
				(unsigned)(st.st_mode & 07777));
	else if (bad_owner)
		rc = cuenv_fail(err, CUENV_E_STORE,
				"'%s' is owned by uid %s: cuenv does not trust "
				"it",
				shown.data, who.data);
	else
		rc = cuenv_fail(err, CUENV_E_STORE,
				"'%s' is writable by others (mode %04o): "
				"cuenv does not trust it",
				shown.data, (unsigned)(st.st_mode & 07777));
	cuenv_hint(err, "fix it with: %s", fix.data);
	buf_release(&shown);
	buf_release(&quoted);
	buf_release(&who);
	buf_release(&fix);
	return rc;
}
