/*
 * startup.c: cuenv's root and working directory (see the header).
 */
#include "startup.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "plat_fs.h"
#include "plat_path.h"
#include "trust.h"
#include "xalloc.h"

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
	return trust_check_listable(root->data,
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
