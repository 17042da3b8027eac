/*
 * startup.c: cuenv's root and working directory (see the header).
 */
#include "select/startup.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plat/envmap.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "store/trust.h"
#include "base/xalloc.h"

/* The root when CUENV_ROOT does not name one. */
static int default_root(char *const *envp, const struct plat_path_rules *rules,
			struct buf *root, struct cuenv_err *err)
{
	int windows = rules->style == PLAT_PATH_WINDOWS;
	const char *var = windows ? "LOCALAPPDATA" : "HOME";
	const char *base = env_get_nonempty(envp, var);
	char *joined;

	if (!base)
		return cuenv_fail(err, CUENV_E_USAGE,
				  "neither CUENV_ROOT nor %s is set", var);
	joined = plat_path_join(rules, base, windows ? "cuenv" : ".cuenv");
	buf_sets(root, joined);
	free(joined);
	return CUENV_OK;
}

/*
 * The folders a system keeps directly beneath its top (the FHS's, and
 * Windows' own beneath a drive): cuenv's gc and uninstall would remove
 * what it made in them, beside what others keep there.
 */
static const char *const system_top[] = {
	"bin",
	"boot",
	"dev",
	"etc",
	"home",
	"lib",
	"lib32",
	"lib64",
	"libx32",
	"media",
	"mnt",
	"opt",
	"proc",
	"root",
	"run",
	"sbin",
	"snap",
	"srv",
	"sys",
	"tmp",
	"usr",
	"var",
	"Windows",
	"Program Files",
	"Program Files (x86)",
	"ProgramData",
	"Users",
};

/*
 * Is path one the system shares, which cuenv may not take for its root:
 * a file system's root, one of system_top beneath it (/usr, /home, /opt,
 * C:\Windows), or on POSIX a folder directly beneath /usr or /var
 * (/usr/local, /var/lib)? A folder of its own at the top (/cuenv, or
 * /.cuenv for HOME=/ in a container) is no system folder. A ".." counts
 * as a name: planned_root resolves them.
 */
static int is_system_folder(const struct plat_path_rules *r, const char *path)
{
	struct strv parts = STRV_INIT;
	char *top = NULL;
	int yes = 0;

	plat_path_split(r, path, &top, &parts);
	if (parts.n == 0)
		yes = 1;
	for (size_t i = 0;
	     parts.n == 1 && i < sizeof(system_top) / sizeof(*system_top); i++)
		yes |= r->style == PLAT_PATH_POSIX
			       ? !strcmp(parts.v[0], system_top[i])
			       : !strcasecmp(parts.v[0], system_top[i]);
	if (parts.n == 2 && r->style == PLAT_PATH_POSIX)
		yes = !strcmp(parts.v[0], "usr") || !strcmp(parts.v[0], "var");
	free(top);
	strv_release(&parts);
	return yes;
}

/*
 * The folder root names once it is made: the real path of the longest
 * part of it that exists (links followed), then the rest name by name,
 * "." left out and ".." taking a name off, as making the folders would.
 * malloc'd; NULL when a real path cannot be had but for an absence.
 */
static char *planned_root(const struct plat_path_rules *r, const char *root)
{
	struct strv parts = STRV_INIT;
	struct buf out = BUF_INIT;
	char *top = NULL, *real = NULL;
	size_t k;

	plat_path_split(r, root, &top, &parts);
	for (k = parts.n;; k--) {
		buf_sets(&out, top);
		for (size_t i = 0; i < k; i++)
			buf_path(&out, out.data, parts.v[i]);
		real = plat_realpath(out.data);
		if (real || (errno != ENOENT && errno != ENOTDIR) || !k)
			break;
	}
	if (real) {
		buf_sets(&out, real);
		for (size_t i = k; i < parts.n; i++) {
			if (!strcmp(parts.v[i], ".."))
				plat_path_up(&out);
			else
				buf_path(&out, out.data, parts.v[i]);
		}
	}
	free(top);
	strv_release(&parts);
	if (!real) {
		buf_release(&out);
		return NULL;
	}
	free(real);
	return buf_detach(&out);
}

/*
 * cuenv makes folders in its root (versions, pool, cache, .staging,
 * .locks, run) and gc and uninstall remove what it made there: a folder
 * the system shares is refused, as written and as it resolves.
 */
static int check_own_folder(const struct plat_path_rules *r, const char *root,
			    const char *what, struct cuenv_err *err)
{
	char *real = planned_root(r, root);
	int rc = CUENV_OK;

	if (is_system_folder(r, root))
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"%s '%s' is a folder the system shares: "
				"cuenv's root must be a folder of its own",
				what, root);
	else if (real && is_system_folder(r, real))
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"%s '%s' is '%s', a folder the system shares: "
				"cuenv's root must be a folder of its own",
				what, root, real);
	if (rc)
		cuenv_hint(err,
			   "set CUENV_ROOT to a folder of cuenv's own, such "
			   "as ~/.cuenv or /opt/cuenv");
	free(real);
	return rc;
}

int startup_root(char *const *envp, struct buf *root, struct cuenv_err *err)
{
	const struct plat_path_rules *rules = plat_path_native();
	const char *r = env_get_nonempty(envp, "CUENV_ROOT");
	size_t root_len = 0;

	if (r)
		buf_adds(root, r);
	else if (default_root(envp, rules, root, err))
		return err->rc;
	plat_path_kind(rules, root->data, &root_len);
	while (root->len > root_len &&
	       plat_path_is_sep(rules, root->data[root->len - 1]))
		buf_setlen(root, root->len - 1);
	if (!plat_path_is_abs(rules, root->data))
		return cuenv_fail(err, CUENV_E_USAGE,
				  "CUENV_ROOT must be an absolute path, not "
				  "'%s'",
				  root->data);
	if (trust_check_listable(root->data, r ? "CUENV_ROOT" : "cuenv's root",
				 err))
		return err->rc;
	return check_own_folder(rules, root->data,
				r ? "CUENV_ROOT" : "cuenv's root", err);
}

char *startup_cwd(const char *pwd, int *gone)
{
	int clean = pwd && pwd[0] == '/' && !strstr(pwd, "/./") &&
		    !strstr(pwd, "/../");
	struct plat_stat a, b;
	char *cwd;

	*gone = 0;
	if (clean && !plat_stat(pwd, &a) && !plat_stat(".", &b) &&
	    a.id.dev == b.id.dev && a.id.ino == b.id.ino)
		return xstrdup(pwd);
	cwd = plat_getcwd();
	if (!cwd && errno == ENOENT && clean) {
		*gone = 1;
		cwd = xstrdup(pwd);
	}
	return cwd;
}
