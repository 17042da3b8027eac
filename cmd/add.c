#include <stdlib.h>
#include <string.h>

#include "../core/detect.h"
#include "../core/ldsearch.h"
#include "../core/register.h"
#include "../core/version.h"
#include "cmd.h"
#include "cli/add.h"

/* Register in; an identical registration already there is fine. */
static int record(struct cuenv_ctx *ctx, struct install *in,
		  struct cuenv_err *err)
{
	struct buf said = BUF_INIT;
	int rc = register_record(&ctx->store, in, err);

	if (rc == CUENV_NO) {
		register_already(in, &said);
		fputs(said.data, stdout);
		rc = CUENV_OK;
	}
	buf_release(&said);
	return rc;
}

static void describe(const struct install *in)
{
	struct buf line = BUF_INIT;

	register_describe(in, &line);
	fputs(line.data, stdout);
	buf_release(&line);
}

/*
 * The folders the loader searches without LD_LIBRARY_PATH (core/ldsearch;
 * CUENV_LD_SO_CONF and CUENV_LD_SO_CACHE name other files, as for doctor).
 */
static void loader_dirs(const struct cuenv_ctx *ctx, struct strv *out)
{
	const char *conf_path = env_get(ctx->envp, "CUENV_LD_SO_CONF");
	const char *cache_path = env_get(ctx->envp, "CUENV_LD_SO_CACHE");

	ldsearch_dirs(conf_path && *conf_path ? conf_path : "/etc/ld.so.conf",
		      cache_path && *cache_path ? cache_path
						: "/etc/ld.so.cache",
		      out);
}

/* The KIND word, and --as and --cuda checked against it. */
static int add_kind(const struct cuenv_ctx *ctx, const char *word,
		    enum kit_kind *kind, struct cuenv_err *err)
{
	const char *as = ctx->opt.arg[O_AS];
	int rc;

	if (kit_kind_parse(word, kind)) {
		cuenv_fail(err, CUENV_E_USAGE, "add: '%s' is not cuda or cudnn",
			   word);
		return cuenv_hint(err, "for example: cuenv add cuda "
				       "/usr/local/cuda-12.4");
	}
	if (as && (rc = version_check(kit_kind_name(*kind), as, 0, err)))
		return rc;
	if (*kind == KIT_CUDA && ctx->opt.num[O_CUDA])
		return cuenv_fail(err, CUENV_E_USAGE,
				  "add: --cuda is for cudnn only");
	return CUENV_OK;
}

/*
 * What the loader would find of the found installs (first, and the
 * cuDNN inside a toolkit: also), checked, then recorded and described.
 */
static int add_found(struct cuenv_ctx *ctx, struct install *first,
		     struct install *also, struct cuenv_err *err)
{
	struct strv searched = STRV_INIT;
	int rc;

	loader_dirs(ctx, &searched);
	detect_activation(first, &searched);
	if (also)
		detect_activation(also, &searched);
	strv_release(&searched);
	rc = register_listable(first, err);
	if (!rc && also)
		rc = register_listable(also, err);
	if (!rc)
		rc = record(ctx, first, err);
	if (rc || !first->dir) /* already there */
		return rc;
	describe(first);
	if (also)
		rc = record(ctx, also, err);
	if (!rc && also && also->dir)
		describe(also);
	return rc;
}

/* Detect the toolkit at dir and register it (with a cuDNN inside). */
static int add_cuda(struct cuenv_ctx *ctx, const char *dir, const char *as,
		    struct cuenv_err *err)
{
	struct install cuda, cudnn;
	bool has_cudnn = false;
	int rc = detect_cuda(dir, as, &cuda, &cudnn, &has_cudnn, err);

	for (size_t i = 0; !rc && i < cuda.warnings.n; i++)
		cmd_warn("%s", cuda.warnings.v[i]);
	if (!rc)
		rc = add_found(ctx, &cuda, has_cudnn ? &cudnn : NULL, err);
	install_release(&cuda);
	install_release(&cudnn);
	return rc;
}

/*
 * --discover: every toolkit the environment names. A folder that is not
 * one is a warning; CUENV_NO when none could be registered.
 */
static int discover(struct cuenv_ctx *ctx, struct cuenv_err *err)
{
	struct strv dirs = STRV_INIT, names = STRV_INIT;
	size_t good = 0;
	int rc = CUENV_OK;

	detect_env_candidates(ctx->envp, &dirs, &names);
	for (size_t i = 0; i < dirs.n; i++) {
		struct cuenv_err e = CUENV_ERR_INIT;
		int one = add_cuda(ctx, dirs.v[i], NULL, &e);

		if (!one)
			good++;
		else if (one == CUENV_E_MANIFEST || one == CUENV_E_STORE)
			cmd_warn("%s=%s: %s", names.v[i], dirs.v[i],
				 e.msg.data);
		else
			rc = cuenv_fail(err, one, "%s", e.msg.data);
		err_release(&e);
		if (rc)
			break;
	}
	if (!rc && !good) {
		rc = cuenv_fail(err, CUENV_NO,
				"add: no toolkit found in CUDA_PATH_V*, "
				"CUDA_PATH or CUDA_HOME");
		cuenv_hint(err, "register one by its folder: cuenv add cuda "
				"PATH");
	}
	strv_release(&dirs);
	strv_release(&names);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct install cudnn;
	enum kit_kind kind;
	int rc;

	if (opt_given(&ctx->opt, O_DISCOVER)) {
		if (argc > optind || ctx->opt.arg[O_AS] || ctx->opt.num[O_CUDA])
			return cuenv_fail(err, CUENV_E_USAGE,
					  "add: --discover takes no PATH, --as "
					  "or --cuda");
		return discover(ctx, err);
	}
	if (argc - optind != 2) {
		cuenv_fail(err, CUENV_E_USAGE, "add: %s",
			   argc - optind < 2 ? "missing argument"
					     : "too many arguments");
		return cuenv_hint(err, "see: cuenv add --help");
	}
	rc = add_kind(ctx, argv[optind], &kind, err);
	if (rc)
		return rc;
	if (kind == KIT_CUDA)
		return add_cuda(ctx, argv[optind + 1], ctx->opt.arg[O_AS], err);
	rc = detect_cudnn(argv[optind + 1], ctx->opt.arg[O_AS],
			  (unsigned)ctx->opt.num[O_CUDA], &cudnn, err);
	for (size_t i = 0; !rc && i < cudnn.warnings.n; i++)
		cmd_warn("%s", cudnn.warnings.v[i]);
	if (!rc)
		rc = add_found(ctx, &cudnn, NULL, err);
	install_release(&cudnn);
	return rc;
}

CUENV_CMD(add, 0, 2, .flags = CMD_NEEDS_STORE, .run = run);
