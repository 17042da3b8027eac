/*
 * common.c: helpers every subcommand may use.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "select/hook.h"
#include "plat/plat_path.h"
#include "install/install_request.h"
#include "nvidia/manifests.h"
#include "needs/needs.h"
#include "install/plan.h"
#include "plat/plat_sys.h"
#include "select/select.h"
#include "select/selfile.h"
#include "base/xalloc.h"
#include "cmd.h"
#include "cli/local.h" /* local and global's options */

/* ---- colour ------------------------------------------------------------- */

#define SGR_BOLD "\033[1m"
#define SGR_RED "\033[1;31m"
#define SGR_YELLOW "\033[1;33m"
#define SGR_CYAN "\033[1;36m"
#define SGR_RESET "\033[m"

/* Are stdout and stderr coloured? main decides, before any output. */
static int color_out, color_err;

int cmd_color_parse(const char *when, enum cmd_color *c)
{
	static const char *const words[] = { "auto", "always", "never" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(when, words[i])) {
			*c = (enum cmd_color)i;
			return 0;
		}
	return -1;
}

void cmd_color_setup(enum cmd_color c, char *const *envp)
{
	const char *term = env_get(envp, "TERM");

	if (c != CMD_COLOR_AUTO) {
		color_out = color_err = c == CMD_COLOR_ALWAYS;
		return;
	}
	/* https://no-color.org: set and not empty */
	if (env_get_nonempty(envp, "NO_COLOR") ||
	    (term && !strcmp(term, "dumb")))
		return;
	color_out = plat_sys_color_tty(1);
	color_err = plat_sys_color_tty(2);
}

/* prefix on stderr, in sgr where stderr is coloured */
static void put_prefix(const char *sgr, const char *prefix)
{
	if (color_err)
		fprintf(stderr, "%s%s" SGR_RESET " ", sgr, prefix);
	else
		fprintf(stderr, "%s ", prefix);
}

/* The label a heading line starts with ("problems:", "installed:"), as
 * its length with the colon; 0 for any other line. */
static size_t heading_label(const char *line, size_t len)
{
	const char *colon = memchr(line, ':', len);
	size_t n;

	if (!len || *line == ' ' || !colon)
		return 0;
	n = (size_t)(colon - line) + 1;
	if (n > 40 || (n < len && line[n] != ' ') || memchr(line, ',', n))
		return 0;
	return n;
}

void cmd_print_report(const struct buf *text)
{
	const char *p = text->data, *end = text->data + text->len;

	if (!color_out) {
		fwrite(text->data, 1, text->len, stdout);
		return;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t n = heading_label(p, len);

		if (n) {
			const char *sgr =
				n == 9 && !strncmp(p, "problems:", 9) ? SGR_RED
				: n == 9 && !strncmp(p, "warnings:", 9)
					? SGR_YELLOW
					: SGR_BOLD;

			fprintf(stdout, "%s%.*s" SGR_RESET, sgr, (int)n, p);
		}
		fwrite(p + n, 1, len - n + (nl != NULL), stdout);
		p += len + (nl != NULL);
	}
}

/* ---- messages ------------------------------------------------------------ */

void cmd_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_prefix(SGR_YELLOW, "cuenv: warning:");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void cmd_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("cuenv: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void cmd_print_help(const struct cuenv_cmd *cmd, FILE *f)
{
	struct buf out = BUF_INIT;

	opts_help(&cmd->cli, &out);
	fputs(out.data, f);
	buf_release(&out);
}

void cmd_print_error(const struct cuenv_err *err)
{
	struct buf text = BUF_INIT;
	static const char error[] = "cuenv: error:", hint[] = "hint:";
	const char *p;

	err_render(err, &text);
	if (!color_err) {
		fputs(text.data, stderr);
		goto out;
	}
	/* err_render's lines: "cuenv: error: MSG", then "hint: HINT" */
	for (p = text.data; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);

		if (!strncmp(p, error, sizeof(error) - 1)) {
			put_prefix(SGR_RED, error);
			p += sizeof(error);
			len -= sizeof(error);
		} else if (!strncmp(p, hint, sizeof(hint) - 1)) {
			put_prefix(SGR_CYAN, hint);
			p += sizeof(hint);
			len -= sizeof(hint);
		}
		fwrite(p, 1, len, stderr);
		p += len;
	}
out:
	buf_release(&text);
}

int cmd_fetch_env(const struct cuenv_ctx *ctx, struct fetch_opts *fo,
		  struct cuenv_err *err)
{
	*fo = (struct fetch_opts)FETCH_OPTS_INIT;
	return install_request_fetch_env(ctx->envp, fo, err);
}

static void on_store_waiting(void *ctx, const char *holder)
{
	(void)ctx;
	cmd_note("waiting for the store's lock, held by %s", holder);
}

void cmd_store_waiting(struct store *st, const char *what)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "cuenv %s", what);
	store_lock_describe(st, b.data);
	st->waiting = on_store_waiting;
	st->waiting_ctx = NULL;
	buf_release(&b);
}

int cmd_check_args(const struct cuenv_cmd *cmd, int nargs,
		   struct cuenv_err *err)
{
	if (nargs < cmd->min_args)
		cuenv_fail(err, CUENV_E_USAGE, "%s: missing argument",
			   cmd->cli.name);
	else if (cmd->max_args >= 0 && nargs > cmd->max_args)
		cuenv_fail(err, CUENV_E_USAGE, "%s: too many arguments",
			   cmd->cli.name);
	else
		return CUENV_OK;
	return cuenv_hint(err, "see: cuenv %s --help", cmd->cli.name);
}

int cmd_activation(const struct cuenv_ctx *ctx, struct envmap *start,
		   int isolate, struct activation *a, struct cuenv_err *err)
{
	struct envmap own = ENVMAP_INIT;
	int rc;

	if (!start) {
		envmap_from(&own, ctx->envp);
		start = &own;
	}
	rc = activation_compute(ctx->root, ctx->cwd, start, isolate, a, err);
	for (size_t i = 0; i < a->warnings.n; i++)
		cmd_warn("%s", a->warnings.v[i]);
	envmap_release(&own);
	return rc;
}


/*
 * Shared by `export` and `use`: what hook_emit says goes to stderr, then
 * its code to stdout.
 */
int cmd_emit(const struct cuenv_ctx *ctx, struct envmap *before,
	     struct envmap *start, enum shell sh, long pid,
	     struct cuenv_err *err)
{
	struct hook_in in = {
		.root = ctx->root,
		.cwd = ctx->cwd,
		.before = before,
		.start = start,
		.sh = sh,
		.pid = pid,
		.last_said = env_get(ctx->envp, "CUENV__SAID"),
	};
	struct buf says = BUF_INIT, code = BUF_INIT;
	int rc = hook_emit(&in, &says, &code, err);

	fputs(says.data, stderr);
	fwrite(code.data, 1, code.len, stdout);
	buf_release(&says);
	buf_release(&code);
	return rc;
}

int cmd_drop_install(struct cuenv_ctx *ctx, const struct cuenv_cmd *cmd,
		     int argc, char **argv,
		     int (*drop)(struct store *st,
				 const struct store_version *in,
				 struct buf *out, struct cuenv_err *err),
		     struct cuenv_err *err)
{
	struct store_version_list list = { 0 };
	struct buf out = BUF_INIT;
	const struct store_version *in;
	int rc = select_install(&ctx->store, cmd->cli.name, argc - optind,
				argv + optind, &list, &in, err);

	if (!rc)
		rc = drop(&ctx->store, in, &out, err);
	fputs(out.data, stdout);
	store_version_list_release(&list);
	buf_release(&out);
	return rc;
}

/* ---- local and global ----------------------------------------------------- */

/*
 * What the selection options ask to write into r's set (cudnn, cupti,
 * isolate), and whether --unset and --force, or any of them, were given.
 */
static void selection_options(const struct cuenv_ctx *ctx, struct dotfile *set,
			      struct selfile_request *r)
{
	for (int i = 0; i < OPTS_MAX; i++)
		r->any |= opt_given(&ctx->opt, i);
	if (ctx->opt.arg[O_CUDNN])
		set->cudnn = xstrdup(ctx->opt.arg[O_CUDNN]);
	if (ctx->opt.arg[O_CUPTI])
		set->cupti = xstrdup(ctx->opt.arg[O_CUPTI]);
	/* the last of --isolate and --no-isolate wins */
	if (opt_given(&ctx->opt, O_ISOLATE) ||
	    opt_given(&ctx->opt, O_NO_ISOLATE))
		set->isolate =
			ctx->opt.seq[O_ISOLATE] > ctx->opt.seq[O_NO_ISOLATE];
	r->unset = opt_given(&ctx->opt, O_UNSET);
	r->force = opt_given(&ctx->opt, O_FORCE);
}

int cmd_selection_file(const struct cuenv_ctx *ctx, const struct cuenv_cmd *cmd,
		       int global, int argc, char **argv, struct cuenv_err *err)
{
	struct dotfile set;
	struct selfile_request r = {
		.command = cmd->cli.name,
		.set = &set,
		.nargs = argc - optind,
		.spec = optind < argc ? argv[optind] : NULL,
		.root = ctx->root,
		.envp = ctx->envp,
	};
	struct buf out = BUF_INIT, note = BUF_INIT, file = BUF_INIT;
	int rc;

	if (global)
		store_global_path(&ctx->store, &file);
	else
		buf_path(&file, ctx->cwd, ".cuenv");
	r.path = file.data;
	dotfile_init(&set);
	selection_options(ctx, &set, &r);
	rc = selfile_update(&r, &out, &note, err);
	fputs(out.data, stdout);
	if (note.len)
		cmd_note("%s", note.data);
	dotfile_release(&set);
	buf_release(&out);
	buf_release(&note);
	buf_release(&file);
	return rc;
}

/* ---- the catalogue and compatibility tables ---------------------------------- */

int cmd_catalog(const struct cuenv_ctx *ctx, struct catalog *cat,
		struct cuenv_err *err)
{
	return manifests_catalog_env(ctx->envp, ctx->root, ctx->exe, NULL, cat,
				     err);
}

int cmd_compat_dir(const struct cuenv_ctx *ctx, struct buf *out,
		   struct cuenv_err *err)
{
	return manifests_compat_env(ctx->envp, ctx->exe, out, err);
}

int cmd_framework_pick(const struct cuenv_ctx *ctx, const char *arg,
		       const struct catalog *cat, const char *cudnn, int source,
		       int quiet, struct framework_builds *out,
		       struct cuenv_err *err)
{
	struct strv notes = STRV_INIT;
	int rc = plan_framework_for(ctx->envp, ctx->exe, ctx->root, arg, cat,
				    cudnn, source, &notes, out, err);

	for (size_t i = 0; i < notes.n && !quiet; i++)
		cmd_note("%s", notes.v[i]);
	strv_release(&notes);
	return rc;
}

/* ---- what is installed, for needs and explain ------------------------------ */

int cmd_needs_installed(const struct cuenv_ctx *ctx, struct needs_scan *s,
			const struct needs_python *py,
			struct needs_installed *in, struct cuenv_err *err)
{
	struct strv warnings = STRV_INIT;
	int rc = needs_installed_here(ctx->root, ctx->cwd, ctx->envp, s, py, in,
				      &warnings, err);

	for (size_t i = 0; i < warnings.n; i++)
		cmd_warn("%s", warnings.v[i]);
	strv_release(&warnings);
	return rc;
}
