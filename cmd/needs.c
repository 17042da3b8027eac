/*
 * needs.c: `cuenv needs`: which CUDA libraries a framework's binaries ask
 * for, and which versions, installed or in the catalogue, give them.
 *
 * The matching is core/needs: this file parses the command line, has
 * core read each PATH, WHEEL (core/wheel_local) or NAME==VERSION
 * (core/wheel) and ask the Python that --python names (core/needs_ask),
 * gathers the store, the active selection and the catalogue, and prints
 * the report core builds (core/needs_render, core/needs_json).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "../core/needs.h"
#include "../core/needs_ask.h"
#include "../core/needs_render.h"
#include "../core/xalloc.h"
#include "cmd.h"
#include "cli/needs.h"
#ifdef CUENV_NET
#include "../core/install.h"
#include "../core/wheel.h"
#include "../core/wheel_local.h"
#endif

/*
 * "python3", "/usr/bin/python3.11", "venv/bin/python": an interpreter
 * (docs/cli.txt: --python's "takes").
 */
int looks_like_python(const char *a)
{
	const char *base = strrchr(a, '/');
	struct stat st;

	base = base ? base + 1 : a;
	return !strncmp(base, "python", 6) &&
	       !(stat(a, &st) == 0 && S_ISDIR(st.st_mode));
}

/* Print warnings[*shown..] and move *shown past them. */
static void warn_new(const struct strv *warnings, size_t *shown)
{
	for (; *shown < warnings->n; (*shown)++)
		cmd_warn("%s", warnings->v[*shown]);
}

/* ---- asking Python ------------------------------------------------------- */

/* Ask py->exe about its frameworks (core/needs_ask), saying what went
 * wrong short of not starting it. */
static int ask_python(const struct cuenv_ctx *ctx, struct needs_python *py,
		      struct cuenv_err *err)
{
	struct strv warnings = STRV_INIT;
	size_t shown = 0;
	int rc = needs_ask_python(py, ctx->envp, NEEDS_ASK_SECONDS, &warnings,
				  err);

	warn_new(&warnings, &shown);
	strv_release(&warnings);
	return rc;
}

/* ---- wheels and the package index ---------------------------------------- */

/* A .whl file, read in place by cuenv-net. */
static int is_wheel_arg(const char *a)
{
	size_t n = strlen(a);

	return n > 4 && !strcmp(a + n - 4, ".whl");
}

/* "tensorflow==2.6.5": a requirement, not a path. */
static int is_requirement_arg(const char *a)
{
	const char *eq = strstr(a, "==");
	struct stat st;

	return eq && eq > a && eq[2] && !strchr(a, '/') && stat(a, &st);
}

/* Does this command line need cuenv-net (a wheel or the index)? */
static int wants_net(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			continue;
		if (argv[i][0] == '-')
			continue;
		if (is_wheel_arg(argv[i]) || is_requirement_arg(argv[i]))
			return 1;
	}
	return 0;
}

/* A .whl file or NAME==VERSION: cuenv-net's to read. */
static int scan_net(struct needs_scan *s, const char *arg, const char *index,
		    const char *platform, struct needs_fetches *rms,
		    struct cuenv_err *err)
{
#ifdef CUENV_NET
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct wheel_requirement rm;
	int rc;

	if (is_wheel_arg(arg))
		return wheel_local_scan(s, arg, err);
	fo.allow_http = !strncmp(index, "http://", 7); /* the user asked */
	fo.allow_file = !strncmp(index, "file://", 7);
	rc = wheel_requirement_scan(s, arg, index, platform, &fo, &rm, err);
	if (rm.wheel) {
		struct needs_fetched x = {
			.size = rm.st.size,
			.bytes = rm.st.bytes,
			.requests = rm.st.requests,
			.metadata = rm.st.metadata,
		};

		needs_fetches_add(rms, rm.wheel, index, &x);
	}
	wheel_requirement_release(&rm);
	return rc;
#else
	(void)s;
	(void)index;
	(void)platform;
	(void)rms;
	return cuenv_fail(err, CUENV_E_BUG,
			  "needs: '%s' is cuenv-net's to "
			  "read",
			  arg);
#endif
}

/* ---- output -------------------------------------------------------------- */

static void print_text(const struct needs_scan *s,
		       const struct needs_python *py,
		       const struct needs_installed *in,
		       const struct needs_offer *o,
		       const struct needs_fetches *rms, int asked,
		       int satisfied)
{
	struct buf out = BUF_INIT;

	needs_render_text(&out, s, py, in, o, rms, asked, satisfied);
	fwrite(out.data, 1, out.len, stdout);
	buf_release(&out);
}

static void print_json(const struct needs_scan *s,
		       const struct needs_python *py,
		       const struct needs_installed *in,
		       const struct needs_offer *o,
		       const struct needs_fetches *fs, int satisfied)
{
	json_t *j = needs_json(s, py, in, o, fs, satisfied);

	cmd_print_json(j);
	json_decref(j);
}

/* ---- the command --------------------------------------------------------- */

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct needs_scan s;
	struct needs_python py;
	struct needs_installed in;
	struct needs_offer o;
	struct catalog cat = { 0 };
	char **av = argv;
	size_t warned = 0;
	int ac = argc, rc = CUENV_OK, json = opt_given(&ctx->opt, O_JSON),
	    asked, satisfied = 1;
	const char *index = env_get(ctx->envp, "CUENV_PYPI_INDEX"),
		   *platform = NULL;
	struct needs_fetches rms = { 0 };

	needs_scan_init(&s);
	needs_python_init(&py, NULL);
	needs_installed_init(&in);
	needs_offer_init(&o);
	if (opt_given(&ctx->opt, O_PYTHON))
		py.exe = *ctx->opt.arg[O_PYTHON] ? ctx->opt.arg[O_PYTHON]
						 : "python3";
	if (ctx->opt.arg[O_INDEX])
		index = ctx->opt.arg[O_INDEX];
	if (ctx->opt.arg[O_PLATFORM])
		platform = ctx->opt.arg[O_PLATFORM];
	if (optind == ac && !py.exe) {
		rc = cuenv_fail(err, CUENV_E_USAGE, "needs: missing argument");
		cuenv_hint(err, "see: cuenv needs --help");
		goto out;
	}
	if (!index || !*index)
		index = "https://pypi.org/simple";
	for (int i = optind; i < ac; i++) {
		if (is_wheel_arg(av[i]) || is_requirement_arg(av[i]))
			rc = scan_net(&s, av[i], index, platform, &rms, err);
		else
			rc = needs_scan_path(&s, av[i], err);
		warn_new(&s.warnings, &warned);
		if (rc)
			goto out;
	}
	needs_scan_finish(&s);
	if (py.exe) {
		rc = ask_python(ctx, &py, err);
		if (rc)
			goto out;
	}

	/* The catalogue describes the sonames; without one, say so. */
	{
		struct cuenv_err cerr = CUENV_ERR_INIT;

		if (cmd_catalog(ctx, &cat, &cerr))
			cmd_warn("%s; only what is installed is looked at",
				 cerr.msg.data);
		err_release(&cerr);
	}
	needs_describe(&s, &cat);

	asked = needs_asked(&s, &py);
	if (asked) {
		rc = cmd_needs_installed(ctx, &s, &py, &in, err);
		if (rc)
			goto out;
		satisfied = in.pick.cuda != NULL;
		if (!satisfied)
			needs_find_offer(&cat, &s, &py, &o);
	}
	if (json)
		print_json(&s, &py, &in, &o, &rms, satisfied);
	else
		print_text(&s, &py, &in, &o, &rms, asked, satisfied);
	rc = satisfied ? CUENV_OK : CUENV_NO;
out:
	needs_scan_release(&s);
	needs_python_release(&py);
	needs_installed_release(&in);
	needs_offer_release(&o);
	catalog_release(&cat);
	needs_fetches_release(&rms);
	return rc;
}

CUENV_CMD(needs, 0, -1, .run = run, .wants_net = wants_net);
