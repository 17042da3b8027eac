/*
 * needs.c: `cuenv needs`: which CUDA libraries a framework's binaries ask
 * for, and which versions, installed or in the catalogue, give them.
 *
 * The matching is core/needs: this file parses the command line, has
 * core read each PATH, WHEEL or NAME==VERSION (core/needs_args, and in
 * cuenv-net core/wheel's wheel_needs_scan) and ask the Python that
 * --python names (core/needs_ask), gathers the store, the active
 * selection and the catalogue, and prints the report core builds
 * (core/needs_render).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "nvidia/compat.h"
#include "net/fetch.h"
#include "needs/needs.h"
#include "needs/needs_ask.h"
#include "needs/needs_render.h"
#include "cmd.h"
#include "cli/needs.h"
#ifdef CUENV_NET
#include "needs/wheel.h"
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

/* A wheel or the package index: cuenv-net's (core/needs_args). */
static int wants_net(int argc, char **argv)
{
	return needs_args_want_net(argc, argv);
}

/*
 * Each parent framework a report's package is a plugin of (jax for
 * jax-cuda12-plugin): its rows of the frameworks table, into s.
 */
static int parent_rows(const struct cuenv_ctx *ctx, struct needs_scan *s,
		       struct cuenv_err *err)
{
	struct buf dir = BUF_INIT;
	struct strv done = STRV_INIT;
	int rc = CUENV_OK;
	size_t n = s->nrep;

	for (size_t i = 0; i < n && !rc; i++) {
		const char *p = needs_plugin_parent(s->rep[i].framework);
		struct framework_builds rows = { 0 };

		bool seen = false;

		for (size_t k = 0; p && k < done.n; k++)
			seen = seen || !strcmp(done.v[k], p);
		if (!p || seen)
			continue;
		strv_push(&done, p);
		if (!dir.len)
			rc = cmd_compat_dir(ctx, &dir, err);
		if (!rc)
			rc = compat_frameworks(dir.data, p, NULL, &rows, err);
		if (!rc)
			needs_parent_rows(s, p, &rows);
		framework_builds_release(&rows);
	}
	buf_release(&dir);
	strv_release(&done);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct needs_scan s;
	struct needs_python py;
	struct needs_installed in;
	struct needs_offer o;
	struct catalog cat = { 0 };
	struct needs_fetches rms = { 0 };
	struct strv warnings = STRV_INIT;
	struct buf out = BUF_INIT;
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct buf pytag = BUF_INIT;
	struct strv paths = STRV_INIT;
	const char *python = NULL;
	size_t warned = 0, warned_py = 0; /* of s.warnings, of warnings */
	int rc, asked, satisfied = 1;
	struct needs_args args = {
		.v = argv + optind,
		.n = argc - optind,
		.python = opt_given(&ctx->opt, O_PYTHON) ||
			  opt_given(&ctx->opt, O_IMPORT),
		.index = ctx->opt.arg[O_INDEX],
		.platform = ctx->opt.arg[O_PLATFORM],
		.envp = ctx->envp,
#ifdef CUENV_NET
		.net = wheel_needs_scan,
#endif
		.fetch = &fo,
	};

	needs_scan_init(&s);
	needs_python_init(&py, NULL);
	needs_installed_init(&in);
	needs_offer_init(&o);
	if (args.python)
		python = ctx->opt.arg[O_PYTHON] && *ctx->opt.arg[O_PYTHON]
				 ? ctx->opt.arg[O_PYTHON]
				 : "python3";
#ifdef CUENV_NET
	rc = cmd_fetch_env(ctx, &fo, err);
	if (rc)
		goto out;
	/* NAME==VERSION: the wheel pip would pick for the Python asked for,
	 * else for this interpreter */
	if (ctx->opt.arg[O_PYTHON_VERSION]) {
		rc = needs_python_version_tag(ctx->opt.arg[O_PYTHON_VERSION],
					      &pytag, err);
		if (rc)
			goto out;
		args.py = pytag.data;
	} else if (needs_args_want_net(argc, argv) &&
		   !ctx->opt.arg[O_PLATFORM]) {
		const char *exe = python ? python : "python3";

		if (!needs_python_tag(exe, ctx->envp, &pytag))
			args.py = pytag.data;
	}
#endif
	/* --python: its frameworks' folders are read as PATHs are */
	for (int i = 0; i < args.n; i++)
		strv_push(&paths, args.v[i]);
	if (python) {
		rc = needs_python_find(&py, python, ctx->envp, &warnings, err);
		warn_new(&warnings, &warned_py);
		if (rc)
			goto out;
		for (size_t i = 0; i < py.nfound; i++)
			for (size_t k = 0; k < py.found[i].folders.n; k++)
				if (strv_find(&paths,
					      py.found[i].folders.v[k]) < 0)
					strv_push(&paths,
						  py.found[i].folders.v[k]);
	}
	args.v = paths.v;
	args.n = (int)paths.n;
	rc = needs_scan_args(&s, &args, &rms, err);
	warn_new(&s.warnings, &warned);
	if (!rc && opt_given(&ctx->opt, O_IMPORT)) {
		py.exe = python;
		/* what went wrong short of not starting it is a warning */
		rc = needs_ask_python(&py, ctx->envp, NEEDS_ASK_SECONDS,
				      &warnings, err);
		warn_new(&warnings, &warned_py);
	}
	if (rc)
		goto out;

	/* A plugin's parent framework: its row of the frameworks table. */
	{
		struct cuenv_err cerr = CUENV_ERR_INIT;

		if (parent_rows(ctx, &s, &cerr))
			cmd_warn("%s; the parent framework's minimums are not "
				 "shown",
				 cerr.msg.data);
		err_release(&cerr);
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
	/* what cuenv does not install, as ld.so would find it here */
	needs_outside(&s, ctx->envp);
	needs_render(&out, &s, &py, &in, &o, &rms, asked, satisfied,
		     opt_given(&ctx->opt, O_JSON));
	cmd_print_report(&out);
	/* a load no file fixes the version of: not known, not satisfied */
	rc = satisfied && !needs_unknown(&s, &py, NULL) && !s.outside.n
		     ? CUENV_OK
		     : CUENV_NO;
	/* a framework whose import fails is a problem, not an answer */
	for (int i = 0; i < NEEDS_FRAMEWORKS; i++)
		if (py.fw[i].absent && py.fw[i].problem)
			rc = CUENV_NO;
	/* what could not be read may ask for anything: never an answer */
	if (s.unread.n)
		rc = needs_unread_fail(&s, err);
out:
	needs_scan_release(&s);
	needs_python_release(&py);
	needs_installed_release(&in);
	needs_offer_release(&o);
	catalog_release(&cat);
	needs_fetches_release(&rms);
	strv_release(&warnings);
	buf_release(&out);
	buf_release(&pytag);
	strv_release(&paths);
	return rc;
}

CUENV_CMD(needs, 0, -1, .run = run, .wants_net = wants_net);
