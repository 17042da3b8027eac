/*
 * needs_args.c: what the arguments of `cuenv needs` name, and reading
 * them into a scan (see needs.h). Part of the needs module, tested by
 * tests/unit/test_needs.c.
 */
#include <string.h>

#include "plat/envmap.h"
#include "needs/needs.h"
#include "plat/plat_fs.h"

int needs_is_name(const char *arg)
{
	size_t n = strspn(arg, "abcdefghijklmnopqrstuvwxyz"
			       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_");

	return n && !arg[n] && arg[0] != '-';
}

enum needs_arg needs_arg_kind(const char *arg)
{
	const char *eq = strstr(arg, "==");
	size_t n = strlen(arg);
	struct plat_stat st;

	if (n > 4 && !strcmp(arg + n - 4, ".whl"))
		return NEEDS_ARG_WHEEL;
	if (((eq && eq > arg && eq[2] && !strchr(arg, '/')) ||
	     needs_is_name(arg)) &&
	    plat_stat(arg, &st))
		return NEEDS_ARG_REQUIREMENT;
	return NEEDS_ARG_PATH;
}

int needs_args_want_net(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			continue;
		if (argv[i][0] == '-')
			continue;
		if (needs_arg_kind(argv[i]) != NEEDS_ARG_PATH)
			return 1;
	}
	return 0;
}

int needs_scan_args(struct needs_scan *s, const struct needs_args *a,
		    struct needs_fetches *fs, struct cuenv_err *err)
{
	const char *index =
		a->index ? a->index : env_get(a->envp, "CUENV_PYPI_INDEX");
	int rc;

	if (!a->n && !a->python) {
		cuenv_fail(err, CUENV_E_USAGE, "needs: missing argument");
		return cuenv_hint(err, "see: cuenv needs --help");
	}
	if (!index || !*index)
		index = "https://pypi.org/simple";
	for (int i = 0; i < a->n; i++) {
		if (needs_arg_kind(a->v[i]) == NEEDS_ARG_PATH)
			rc = needs_scan_path(s, a->v[i], err);
		else if (a->net)
			rc = a->net(s, a->v[i], index, a->platform, a->py,
				    a->fetch, fs, err);
		else
			rc = cuenv_fail(err, CUENV_E_BUG,
					"needs: '%s' is cuenv-net's to read",
					a->v[i]);
		if (rc)
			return rc;
	}
	needs_scan_finish(s);
	return CUENV_OK;
}
