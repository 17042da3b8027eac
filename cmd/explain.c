/*
 * explain.c: `cuenv explain`: what a framework's error message, a pasted
 * log, a soname or a DLL name means, what this machine has instead, and
 * the commands that fix it.
 *
 * The reading, the reasoning, the fix and the JSON report are
 * core/explain's (the fix from what core/needs answers for the libraries
 * and cuDNN the text asks for). This file gathers the text, the tables,
 * the store, the loader's path and the catalogue, and prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../core/env.h"
#include "../core/explain.h"
#include "../core/explain_render.h"
#include "../core/file.h"
#include "../core/xalloc.h"
#include "cmd.h"
#include "cli/explain.h"

/* A log pasted on standard input, at most this large. */
#define STDIN_MAX (16u << 20)

static int read_stdin(struct buf *out, struct cuenv_err *err)
{
	if (!file_read_fd(0, STDIN_MAX, out))
		return CUENV_OK;
	if (errno == EFBIG)
		return cuenv_fail(err, CUENV_E_USAGE,
				  "explain: standard input is larger than %u "
				  "MiB",
				  STDIN_MAX >> 20);
	return cuenv_fail(err, CUENV_E_STORE, "cannot read standard input: %s",
			  strerror(errno));
}

/* ---- text ---------------------------------------------------------------- */

static void print_text(const struct explain *ex, const struct explain_fix *fx)
{
	struct buf out = BUF_INIT;

	explain_render_text(&out, ex, fx);
	fwrite(out.data, 1, out.len, stdout);
	buf_release(&out);
}

static void print_json(const struct explain *ex, const struct explain_fix *fx)
{
	json_t *j = explain_json(ex, fx);

	cmd_print_json(j);
	json_decref(j);
}

/* ---- the command --------------------------------------------------------- */

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct explain ex;
	struct explain_fix fx;
	struct catalog cat = { 0 };
	struct ldcache cache = { 0 };
	struct buf text = BUF_INIT, dir = BUF_INIT;
	struct cuenv_err cerr = CUENV_ERR_INIT;
	const char *cache_path = env_get(ctx->envp, "CUENV_LD_SO_CACHE");
	int rc = CUENV_OK, have_cache = 0;

	explain_init(&ex);
	explain_fix_init(&fx);

	if (argc - optind == 1 && !strcmp(argv[optind], "-")) {
		rc = read_stdin(&text, err);
		if (rc)
			goto out;
	} else {
		for (int i = optind; i < argc; i++)
			buf_printf(&text, "%s%s", i > optind ? " " : "",
				   argv[i]);
	}
	explain_parse(&ex, text.data, text.len);
	if (!ex.n) {
		rc = cuenv_fail(err, CUENV_NO,
				"nothing in the text names a CUDA library or a "
				"CUDA error that cuenv knows");
		cuenv_hint(err, "give the message as printed, a soname "
				"(libcudnn.so.8) or a DLL name "
				"(cudart64_110.dll)");
		goto out;
	}

	/* The frameworks table; without one, say so and go on. */
	if (cmd_compat_dir(ctx, &dir, &cerr) ||
	    explain_frameworks(&ex, dir.data, &cerr))
		cmd_warn("%s; the frameworks that ask for it are not shown",
			 cerr.msg.data);
	err_release(&cerr);
	err_init(&cerr);
	if (!cache_path || !*cache_path)
		cache_path = "/etc/ld.so.cache";
	if (ldcache_read(cache_path, &cache, &cerr) == CUENV_OK)
		have_cache = 1;
	err_release(&cerr);
	err_init(&cerr);
	if (cmd_catalog(ctx, &cat, &cerr))
		cmd_warn("%s; no install line can be given", cerr.msg.data);
	err_release(&cerr);

	explain_scan(&ex, &fx.s);
	needs_scan_finish(&fx.s);
	rc = cmd_needs_installed(ctx, &fx.s, NULL, &fx.in, err);
	if (rc)
		goto out;
	explain_fix_decide(&fx, &cat);
	explain_machine(&ex, &fx.in, have_cache ? &cache : NULL,
			env_get(ctx->envp, "LD_LIBRARY_PATH"));
	if (opt_given(&ctx->opt, O_JSON))
		print_json(&ex, &fx);
	else
		print_text(&ex, &fx);
	if (!explain_recognised(&ex)) {
		rc = cuenv_fail(err, CUENV_NO,
				"no release ships %s under that name",
				ex.v[0].name);
	}
out:
	explain_release(&ex);
	explain_fix_release(&fx);
	catalog_release(&cat);
	ldcache_release(&cache);
	buf_release(&text);
	buf_release(&dir);
	return rc;
}

CUENV_CMD(explain, 1, -1, .flags = CMD_STOP_AT_ARG, .run = run);
