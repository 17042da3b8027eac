/*
 * common.c: helpers every subcommand may use.
 */
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/compat.h"
#include "../core/needs.h"
#include "../core/dotfile.h"
#include "../core/fetch.h"
#include "../core/install_request.h"
#include "../core/manifests.h"
#include "../core/file.h"
#include "../core/plan.h"
#include "../core/plat_fs.h"
#include "../core/plat_path.h"
#include "../core/selfile.h"
#include "../core/selhint.h"
#include "../core/version.h"
#include "../core/xalloc.h"
#include "cmd.h"
#include "cli/local.h" /* local and global's options */

static void say(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cmd_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("cuenv: warning: ", fmt, ap);
	va_end(ap);
}

void cmd_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("cuenv: ", fmt, ap);
	va_end(ap);
}

void cmd_print_help(const struct cuenv_cmd *cmd, FILE *f)
{
	struct buf out = BUF_INIT;

	opts_help(&cmd->cli, &out);
	fputs(out.data, f);
	buf_release(&out);
}

void cmd_print_json(const struct json_t *j)
{
	char *text = json_dumps(j, JSON_INDENT(2));

	if (text)
		printf("%s\n", text);
	free(text);
}

int cmd_fetch_env(const struct cuenv_ctx *ctx, struct fetch_opts *fo,
		  struct cuenv_err *err)
{
	return install_request_fetch_env(ctx->envp, fo, err);
}

int cmd_mirror_url(const struct cuenv_cmd *cmd, const char *url,
		   struct fetch_opts *fo, struct cuenv_err *err)
{
	return install_request_mirror_url(cmd->cli.name, url, fo, err);
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

int cmd_check_version(const char *what, const char *v, int allow_system,
		      struct cuenv_err *err)
{
	return version_check(what, v, allow_system, err);
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


/* FNV-1a over s, going on from h. */
/* What `use` says it did: where the version now comes from. */
static void note_use(const struct activation *a, const struct envmap *start)
{
	struct buf why = BUF_INIT;

	if (a->ok && a->sel.origin == SEL_SHELL) {
		cmd_note("using cuda %s%s%s in this shell",
			 a->act.cuda->version, a->act.cudnn ? " + cudnn " : "",
			 a->act.cudnn ? a->act.cudnn->version : "");
	} else if (envmap_get(start, "CUENV_VERSION")) {
		/* cuenv use system */
		cmd_note("using the system's cuda in this shell (cuenv adds "
			 "nothing)");
	} else if (a->ok) {
		selection_describe_origin(&a->sel, &why);
		cmd_note("this shell's selection dropped: cuda %s%s%s (%s)",
			 a->act.cuda->version, a->act.cudnn ? " + cudnn " : "",
			 a->act.cudnn ? a->act.cudnn->version : "", why.data);
	} else {
		cmd_note(
			"this shell's selection dropped: nothing selected here");
	}
	buf_release(&why);
}

/*
 * With CUENV_ANNOUNCE=1 in the shell's environment, the hook says in one
 * line on stderr what it changed, as direnv does: "cuenv: cuda 12.4.1 +
 * cudnn 9.1.0.70 (set by /p/.cuenv)" when a selection is loaded or
 * changes, "cuenv: cuda 12.4.1+cudnn9.1.0 unloaded" when one goes.
 * Nothing when CUENV_ACTIVE stays what it was.
 */
static void announce(const struct activation *a, const struct envmap *before)
{
	const char *on = envmap_get(before, "CUENV_ANNOUNCE");
	const char *was = envmap_get(before, "CUENV_ACTIVE");
	const char *now = envmap_get(&a->after, "CUENV_ACTIVE");
	struct buf why = BUF_INIT;

	if (!on || strcmp(on, "1"))
		return;
	if (was && now && !strcmp(was, now))
		return;
	if (a->ok && now) {
		selection_describe_origin(&a->sel, &why);
		cmd_note("cuda %s%s%s (%s)", a->act.cuda->version,
			 a->act.cudnn ? " + cudnn " : "",
			 a->act.cudnn ? a->act.cudnn->version : "", why.data);
	} else if (was) {
		cmd_note("cuda %s unloaded", was);
	}
	buf_release(&why);
}

/*
 * cmd's `set` lines cannot carry every value (shell_cmd_export): none is
 * written unless all of them can be, so that cmd is never left with half
 * an activation.
 */
static int cmd_carry(const struct envmap *before, const struct envmap *after,
		     struct cuenv_err *err)
{
	struct env_changes ch = { 0 };
	struct buf line = BUF_INIT;
	int rc = CUENV_OK;

	env_diff(before, after, &ch);
	for (size_t i = 0; i < ch.n && !rc; i++) {
		const char *v = ch.v[i].value;

		if (shell_cmd_export(ch.v[i].name, v, &line))
			rc = cuenv_fail(err, CUENV_E_USAGE,
					"%s holds %s, which cmd's set cannot "
					"carry",
					ch.v[i].name,
					v && strchr(v, '!')
						? "'!' (delayed expansion "
						  "would expand it)"
						: "a line break");
	}
	env_changes_release(&ch);
	buf_release(&line);
	return rc;
}

/*
 * Shared by `export` and `use`: compute, warn, and print the code. For the
 * hook (pid > 0) the code is printed even when the selection is bad, so
 * that the shell deactivates and watches for the fix, and the error is
 * printed here (then cleared: the hook's code must run); for `use` (pid 0)
 * nothing is printed then, and the shell's stamp is left as it is.
 *
 * The hook says nothing that the shell was told last (CUENV__SAID, see
 * activation_said): a prompt that runs it again for the same state (a
 * .cuenv written just before, a stamp within its 50 ms) or right after
 * `cuenv use` said the same would repeat the same lines.
 */
int cmd_emit(const struct cuenv_ctx *ctx, struct envmap *before,
	     struct envmap *start, enum shell sh, long pid,
	     struct cuenv_err *err)
{
	struct activation a;
	struct buf out = BUF_INIT, stamp = BUF_INIT, said = BUF_INIT;
	const char *last = pid > 0 ? env_get(ctx->envp, "CUENV__SAID") : NULL;
	int rc, quiet;

	activation_init(&a);
	rc = activation_compute(ctx->root, ctx->cwd, start, 0, &a, err);
	if (rc)
		cmd_hint_skipped(ctx, err);
	activation_said(&a, rc, err, &said);
	quiet = last && said.len && !strcmp(last, said.data);
	for (size_t i = 0; i < a.warnings.n && !quiet; i++)
		cmd_warn("%s", a.warnings.v[i]);
	if (pid > 0) {
		struct store st;
		struct cuenv_err e2 = CUENV_ERR_INIT;

		if (!store_open(&st, ctx->root, false, &e2))
			store_stamp(&st, pid, &stamp);
		store_release(&st);
		err_release(&e2);
		/*
		 * A store refused (core/trust.h) is fixed by a chmod or chown,
		 * which changes no mtime the hook watches: no stamp, so that
		 * the hook looks again at each prompt until it is fixed.
		 */
		if (a.untrusted)
			buf_reset(&stamp);
		announce(&a, before);
		if (rc && rc != CUENV_E_BUG) {
			if (!quiet) {
				fprintf(stderr, "cuenv: error: %s\n",
					err->msg.data);
				if (err->hint.len)
					fprintf(stderr, "hint: %s\n",
						err->hint.data);
			}
			err_release(err);
			rc = CUENV_OK;
		}
	} else if (!rc) {
		note_use(&a, start);
	}
	if ((pid > 0 || !rc) && sh == SHELL_CMD)
		rc = cmd_carry(before, &a.after, err);
	if (pid > 0 || !rc) {
		activation_emit(&a, before, sh, ctx->root,
				pid > 0 ? stamp.data : NULL, &out);
		shell_local(sh, "__cuenv_said", said.data, &out);
		fwrite(out.data, 1, out.len, stdout);
	}
	activation_release(&a);
	buf_release(&out);
	buf_release(&stamp);
	buf_release(&said);
	return rc;
}


/* ---- local and global ----------------------------------------------------- */

static int show_file(const char *path, struct cuenv_err *err)
{
	struct buf out = BUF_INIT;
	int rc = selfile_show(path, &out, err);

	fputs(out.data, stdout);
	buf_release(&out);
	return rc;
}

/* Is what df asks for installed? The same check activation makes. */
static int check_installed(const struct cuenv_ctx *ctx,
			   const struct dotfile *df, struct cuenv_err *err)
{
	const char *insecure = env_get(ctx->envp, "CUENV_INSECURE_ROOTS");
	int rc = selfile_check_installed(
		df, ctx->root, env_get(ctx->envp, "CUENV_SYSTEM_ROOTS"),
		insecure && !strcmp(insecure, "1"), err);

	if (rc == CUENV_E_NOT_INSTALLED)
		buf_adds(&err->hint, "; or write it anyway: --force");
	return rc;
}

/*
 * What the selection options ask to write into set (cudnn, cupti,
 * isolate), and whether --unset and --force were given. Returns whether
 * any of the options was.
 */
static int selection_options(const struct cuenv_ctx *ctx, struct dotfile *set,
			     int *unset, int *force)
{
	int any = 0;

	for (int i = 0; i < OPTS_MAX; i++)
		any |= opt_given(&ctx->opt, i);
	if (ctx->opt.arg[O_CUDNN])
		set->cudnn = xstrdup(ctx->opt.arg[O_CUDNN]);
	if (ctx->opt.arg[O_CUPTI])
		set->cupti = xstrdup(ctx->opt.arg[O_CUPTI]);
	/* the last of --isolate and --no-isolate wins */
	if (opt_given(&ctx->opt, O_ISOLATE) ||
	    opt_given(&ctx->opt, O_NO_ISOLATE))
		set->isolate =
			ctx->opt.seq[O_ISOLATE] > ctx->opt.seq[O_NO_ISOLATE];
	*unset = opt_given(&ctx->opt, O_UNSET);
	*force = opt_given(&ctx->opt, O_FORCE);
	return any;
}

/*
 * The SPEC to write (none with --unset, where --cudnn and --cupti make
 * no sense either) into set->cuda, checked.
 */
static int selection_spec(const struct cuenv_cmd *cmd, int unset, int argc,
			  char **argv, struct dotfile *set,
			  struct cuenv_err *err)
{
	int rc;

	if (unset ? optind != argc || set->cudnn || set->cupti
		  : optind != argc - 1) {
		rc = cmd_check_args(cmd, unset ? 9 : argc - optind, err);
		if (!rc) {
			rc = cuenv_fail(err, CUENV_E_USAGE,
					"%s: these options go with a SPEC, the "
					"version to select",
					cmd->cli.name);
			cuenv_hint(err, "for example: cuenv %s 12.4 --cudnn 9",
				   cmd->cli.name);
		}
		return rc;
	}
	if (unset)
		return CUENV_OK;
	rc = cmd_check_version("cuda", argv[optind], 1, err);
	if (!rc)
		set->cuda = xstrdup(argv[optind]);
	return rc;
}

/* Write out to path; a file left with no text goes away. */
static int selection_write(const char *path, const struct buf *out, int unset,
			   struct cuenv_err *err)
{
	int rc = selfile_write(path, out, err);

	if (!rc && unset)
		cmd_note(out->len ? "removed cuenv's keys from %s"
				  : "removed %s",
			 path);
	else if (!rc)
		cmd_note("wrote %s", path);
	return rc;
}

int cmd_selection_file(const struct cuenv_ctx *ctx, const struct cuenv_cmd *cmd,
		       int global, int argc, char **argv, struct cuenv_err *err)
{
	struct dotfile set, old;
	struct buf text = BUF_INIT, out = BUF_INIT, file = BUF_INIT;
	const char *path;
	int rc, unset, force, any;

	if (global)
		store_global_path(&ctx->store, &file);
	else
		buf_path(&file, ctx->cwd, ".cuenv");
	path = file.data;
	dotfile_init(&set);
	dotfile_init(&old);
	any = selection_options(ctx, &set, &unset, &force);
	if (!any && optind == argc)
		rc = show_file(path, err);
	else
		rc = selection_spec(cmd, unset, argc, argv, &set, err);
	if (rc || (!any && optind == argc))
		goto out;
	rc = selfile_read(path, &text, &old, err);
	if (!rc && !unset && !force) {
		/* Keep cudnn/cupti the file had unless told otherwise. */
		struct dotfile want = selfile_want(&set, &old);

		rc = check_installed(ctx, &want, err);
	}
	if (!rc) {
		selfile_rewrite(&text, &set, unset, &out);
		rc = selection_write(path, &out, unset, err);
	}
out:
	dotfile_release(&set);
	dotfile_release(&old);
	buf_release(&text);
	buf_release(&out);
	buf_release(&file);
	return rc;
}

/* ---- finding one install ---------------------------------------------------- */

int cmd_find_install(struct cuenv_ctx *ctx, const struct cuenv_cmd *cmd,
		     int argc, char **argv, struct install_list *list,
		     const struct install **found, struct cuenv_err *err)
{
	enum kit_kind kind = KIT_CUDA;
	const char *spec;
	const struct install *hit = NULL;
	size_t hits = 0;
	struct buf names = BUF_INIT;
	int rc;

	*found = NULL;
	if (argc == 2 && kit_kind_parse(argv[0], &kind)) {
		cuenv_fail(err, CUENV_E_USAGE, "%s: '%s' is not cuda or cudnn",
			   cmd->cli.name, argv[0]);
		return cuenv_hint(err, "see: cuenv %s --help", cmd->cli.name);
	}
	spec = argv[argc - 1];
	rc = store_list(&ctx->store, kind, list, err);
	if (rc)
		return rc;
	hits = select_named(list, spec, &hit, &names);
	if (hits == 1) {
		*found = hit;
	} else if (!hits) {
		struct buf shown = BUF_INIT;

		buf_add_display(&shown, spec, 64);
		rc = cuenv_fail(err, CUENV_E_NOT_INSTALLED,
				"%s %s is not in the store",
				kit_kind_name(kind), shown.data);
		cuenv_hint(err, "see: cuenv versions");
		buf_release(&shown);
	} else {
		rc = cuenv_fail(err, CUENV_E_USAGE, "%s %s is ambiguous: %s",
				kit_kind_name(kind), spec, names.data);
		cuenv_hint(err, "name one exactly");
	}
	buf_release(&names);
	return rc;
}

/* ---- the catalogue ------------------------------------------------------------ */

int cmd_data_dir(const struct cuenv_ctx *ctx, struct buf *out)
{
	return manifests_data_dir(ctx->exe, out);
}

char *cmd_find_helper(const struct cuenv_ctx *ctx, const char *name,
		      struct buf *tried)
{
	const struct plat_path_rules *rules = plat_path_native();
	char *here = ctx->exe ? plat_path_parent(rules, ctx->exe) : NULL;
	const char *where[3] = { env_get(ctx->envp, "CUENV_LIBEXEC"), here,
				 NULL };
	struct buf libexec = BUF_INIT, p = BUF_INIT;
	char *found = NULL;

	if (here) {
		buf_path(&libexec, here, "../libexec/cuenv");
		where[2] = libexec.data;
	}
	for (int i = 0; i < 3 && !found; i++) {
		if (!where[i] || !*where[i])
			continue;
		buf_reset(&p);
		buf_path(&p, where[i], name);
		/* Windows' programs are NAME.exe. */
		if (rules->style == PLAT_PATH_WINDOWS)
			buf_adds(&p, ".exe");
		if (plat_can_exec(p.data))
			found = xstrdup(p.data);
		buf_adds(tried, tried->len ? ", " : "");
		buf_adds(tried, p.data);
	}
	free(here);
	buf_release(&libexec);
	buf_release(&p);
	return found;
}

void cmd_hint_skipped(const struct cuenv_ctx *ctx, struct cuenv_err *err)
{
	selhint_skipped(ctx->root, err);
}

void cmd_hint_installable(const struct cuenv_ctx *ctx, struct cuenv_err *err)
{
	struct catalog cat = { 0 };
	struct cuenv_err e = CUENV_ERR_INIT;

	if (ctx->root && selhint_spec(err, NULL) && !cmd_catalog(ctx, &cat, &e))
		selhint_installable(&cat, err);
	catalog_release(&cat);
	err_release(&e);
}

int cmd_catalog(const struct cuenv_ctx *ctx, struct catalog *cat,
		struct cuenv_err *err)
{
	const char *platform;
	int rc = manifests_platform(env_get(ctx->envp, "CUENV_PLATFORM"),
				    &platform, err);

	return rc ? rc : cmd_catalog_for(ctx, platform, cat, err);
}

int cmd_catalog_for(const struct cuenv_ctx *ctx, const char *platform,
		    struct catalog *cat, struct cuenv_err *err)
{
	struct buf dir = BUF_INIT;
	int rc = manifests_catalog(cat, env_get(ctx->envp, "CUENV_MANIFESTS"),
				   cmd_data_dir(ctx, &dir) ? NULL : dir.data,
				   ctx->root, platform, ctx->exe, err);

	buf_release(&dir);
	return rc;
}

/* ---- the compatibility tables -------------------------------------------------- */

int cmd_compat_dir(const struct cuenv_ctx *ctx, struct buf *out,
		   struct cuenv_err *err)
{
	struct buf dir = BUF_INIT;
	int rc = manifests_compat_dir(env_get(ctx->envp, "CUENV_MANIFESTS"),
				      cmd_data_dir(ctx, &dir) ? NULL : dir.data,
				      ctx->exe, out, err);

	buf_release(&dir);
	return rc;
}

int cmd_framework_pick(const struct cuenv_ctx *ctx, const char *arg,
		       const struct catalog *cat, const char *cudnn, int source,
		       int quiet, struct framework_builds *out,
		       struct cuenv_err *err)
{
	struct framework_choice c = FRAMEWORK_CHOICE_INIT;
	struct buf dir = BUF_INIT, name = BUF_INIT, updated = BUF_INIT;
	struct strv notes = STRV_INIT;
	const char *spec;
	int rc = plan_framework_arg(arg, &name, &spec, err);

	if (!rc)
		rc = cmd_compat_dir(ctx, &dir, err);
	/* what `cuenv update --frameworks` read from the index, first */
	buf_printf(&updated, "%s/manifests/compat", ctx->root);
	if (!rc)
		rc = plan_framework_choose(dir.data, updated.data, name.data,
					   spec, cat, cudnn, source, &c, err);
	plan_framework_notes(&c, rc, &notes);
	for (size_t i = 0; i < notes.n && !quiet; i++)
		cmd_note("%s", notes.v[i]);
	plan_framework_best(&c, out);
	strv_release(&notes);
	framework_choice_release(&c);
	buf_release(&dir);
	buf_release(&name);
	buf_release(&updated);
	return rc;
}

int cmd_plan_opts(const struct cuenv_cmd *cmd, const char *list,
		  int runtime_only, struct strv *comps, struct plan_opts *o,
		  struct cuenv_err *err)
{
	return plan_opts_parse(cmd->cli.name, list, runtime_only, comps, o,
			       err);
}

int cmd_plan_opts_check(const struct cuenv_cmd *cmd, const struct plan_opts *o,
			struct cuenv_err *err)
{
	return plan_opts_check(cmd->cli.name, o, err);
}

/* ---- what is installed, for needs and explain ------------------------------ */

/*
 * What is installed and the selection in force here are the command's
 * to gather (and to warn about); core matches the scan against them.
 */
int cmd_needs_installed(const struct cuenv_ctx *ctx, struct needs_scan *s,
			const struct needs_python *py,
			struct needs_installed *in, struct cuenv_err *err)
{
	struct activation a;
	struct cuenv_err ignored = CUENV_ERR_INIT;
	struct needs_combo act = { 0 };
	const struct needs_combo *active = NULL;
	int rc = needs_installed_load(in, ctx->root, err);

	for (size_t i = 0; i < in->warnings.n; i++)
		cmd_warn("skipped an incomplete version: %s",
			 in->warnings.v[i]);
	if (rc)
		return rc;
	activation_init(&a);
	if (!cmd_activation(ctx, NULL, 0, &a, &ignored) && a.ok) {
		act.cuda = a.act.cuda;
		act.cudnn = a.act.cudnn;
		act.cupti = a.act.cupti;
		active = &act;
	}
	needs_match_installed(s, py, active, in);
	activation_release(&a);
	err_release(&ignored);
	return CUENV_OK;
}
