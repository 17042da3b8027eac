/*
 * main.c: global options, dispatch, and the one place that prints errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "needs/wheel.h"
#include "nvidia/manifests.h"
#include "plat/plat_main.h"
#include "plat/plat_proc.h"
#include "plat/plat_sys.h"
#include "select/selhint.h"
#include "select/startup.h"
#include "base/suggest.h"
#include "base/xalloc.h"
#include "cmd.h"

/* The Makefile defines it from VERSION; the analyzers read this file
 * without the build's definitions. */
#ifndef CUENV_VERSION_STRING
#define CUENV_VERSION_STRING "unknown"
#endif

/* ---- context -------------------------------------------------------------- */

/* The last --color word before the command, for cuenv-net too; or NULL. */
static const char *color_word;

#ifndef CUENV_NET
/*
 * Run cuenv-net with our arguments (manifests_helper says where it is
 * looked for). Returns only on failure.
 */
static int exec_net(const struct cuenv_ctx *ctx, char **argv,
		    struct cuenv_err *err)
{
	struct buf tried = BUF_INIT;
	char *net = manifests_helper(ctx->envp, ctx->exe, "cuenv-net", &tried);

	if (net) {
		int code, n = 0;
		char **args;

		fflush(stdout);
		while (argv[n])
			n++;
		/* net, its --color as given, the command and its words */
		args = xcalloc((size_t)n + 2, sizeof(*args));
		args[0] = net;
		if (color_word)
			args[1] = (char *)color_word;
		memcpy(args + 1 + !!color_word, argv + 1,
		       (size_t)(n - 1) * sizeof(*args));
		/* Linux: in place of this process; Windows: its exit code. */
		code = plat_exec(args, ctx->envp);
		free(args);
		if (code >= 0) {
			free(net);
			buf_release(&tried);
			return code;
		}
	}
	cuenv_fail(err, CUENV_E_USAGE,
		   "cuenv %s needs cuenv-net, which is not installed (looked "
		   "for %s)",
		   argv[1], tried.data);
	cuenv_hint(err, "install both: make install PREFIX=...");
	free(net);
	buf_release(&tried);
	return err->rc;
}

#endif

/*
 * The rest of the context, from the environment main captured in
 * ctx->envp (nothing below main reads getenv()).
 */
static int setup_ctx(struct cuenv_ctx *ctx, struct buf *root, char **cwd,
		     struct cuenv_err *err)
{
	int gone;

	if (startup_root(ctx->envp, root, err))
		return err->rc;
	*cwd = startup_cwd(env_get(ctx->envp, "PWD"), &gone);
	if (!*cwd)
		return cuenv_fail(err, CUENV_E_STORE,
				  "cannot find the working directory: %s",
				  strerror(errno));
	if (gone)
		cmd_warn("the working directory '%s' no longer exists; the "
			 ".cuenv files left above it decide",
			 *cwd);
	ctx->root = root->data;
	ctx->cwd = *cwd;
	ctx->shell = env_get_nonempty(ctx->envp, "CUENV_SHELL");
	return CUENV_OK;
}

/* ---- dispatch ------------------------------------------------------------- */

/*
 * A command's help. For one whose stdout is shell code for eval
 * (CMD_EMITS_SHELL: `eval "$(cuenv use --help)"` in the shell's wrapper),
 * the help goes to stderr and stdout stays empty.
 */
static void print_help(const struct cuenv_cmd *cmd)
{
	cmd_print_help(cmd, cmd->flags & CMD_EMITS_SHELL ? stderr : stdout);
}

static int finish_stdout(int rc)
{
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		if (errno != EPIPE)
			fprintf(stderr,
				"cuenv: error: cannot write output: %s\n",
				strerror(errno));
		return rc ? rc : CUENV_E_STORE;
	}
	return rc;
}

/*
 * The global options before the command: --color[=WHEN] (alone: always),
 * taken out of argv (argv[0] moves up). Then colour is set up, from them
 * and the environment; a WHEN that is not auto, always or never is a
 * usage error.
 */
static int global_options(int *argc, char ***argv, char *const *envp,
			  struct cuenv_err *err)
{
	enum cmd_color c = CMD_COLOR_AUTO;

	while (*argc > 1 && !strncmp((*argv)[1], "--color", 7) &&
	       ((*argv)[1][7] == '=' || !(*argv)[1][7])) {
		const char *w = (*argv)[1];

		if (cmd_color_parse(w[7] ? w + 8 : "always", &c)) {
			cmd_color_setup(CMD_COLOR_AUTO, envp);
			return cuenv_fail(err, CUENV_E_USAGE,
					  "bad --color '%s': auto, always or "
					  "never",
					  w + 8);
		}
		color_word = w;
		(*argv)[1] = (*argv)[0];
		(*argv)++;
		(*argc)--;
	}
	cmd_color_setup(c, envp);
	return CUENV_OK;
}

/*
 * The command argv[1] names (help for none, -h or --help), with *argc
 * and *argv moved past its name. NULL when there is nothing to run:
 * --version was printed, or *rc and err say what is wrong.
 */
static const struct cuenv_cmd *pick_command(int *argc, char ***argv, int *rc,
					    struct cuenv_err *err)
{
	const struct cuenv_cmd *cmd;
	char *name = *argc < 2 ? NULL : (*argv)[1];

	*rc = CUENV_OK;
	if (!name) {
#ifdef CUENV_NET
		fputs("cuenv-net is run by cuenv: see cuenv help\n", stderr);
		*rc = CUENV_E_USAGE;
		return NULL;
#else
		return &cmd_help;
#endif
	}
	if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
		printf("cuenv %s\n", CUENV_VERSION_STRING);
		return NULL;
	}
#ifndef CUENV_NET
	if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
		*argc = 1;
		return &cmd_help;
	}
#endif
	cmd = cmd_find(name);
	if (!cmd) {
		*rc = suggest_unknown(name, cmd_suggest(name), err);
		return NULL;
	}
	(*argc)--;
	(*argv)++;
	return cmd;
}

/*
 * The options, by the command's table, before anything else: --help
 * needs neither HOME nor a store. cuenv-net's commands are parsed here
 * too (a copy: cuenv-net gets the words as given), so that their help
 * and usage errors need no cuenv-net. *first_arg: where the arguments
 * begin in argv, permuted; *done: help was printed.
 */
static int parse_options(const struct cuenv_cmd *cmd, int argc, char **argv,
			 struct opt_values *opt, int *first_arg, int *done,
			 struct cuenv_err *err)
{
	char **words = xcalloc((size_t)argc + 1, sizeof(*words));
	int help, rc, external = 0;

#ifndef CUENV_NET
	external = cmd->flags & CMD_EXTERNAL;
#endif
	memcpy(words, argv, (size_t)argc * sizeof(*words));
	rc = opts_parse(&cmd->cli, cmd->flags & CMD_STOP_AT_ARG, argc, words,
			opt, &help, err);
	/* how many arguments: commands may check more closely */
	if (!rc && !help)
		rc = cmd_check_args(cmd, argc - optind, err);
	if (!rc && !external)
		memcpy(argv, words, (size_t)argc * sizeof(*words));
	*first_arg = optind;
	free(words);
	if (help)
		print_help(cmd);
	*done = rc || help;
	return rc;
}

/*
 * Run cmd with its context: in cuenv-net when it needs that, else here,
 * with the store opened and locked first where the command says so.
 */
static int run_command(const struct cuenv_cmd *cmd, struct cuenv_ctx *ctx,
		       int argc, char **argv, int first_arg, struct buf *root,
		       char **cwd, struct cuenv_err *err)
{
	int rc;

#ifndef CUENV_NET
	if ((cmd->flags & CMD_EXTERNAL) ||
	    (cmd->wants_net && cmd->wants_net(argc, argv)))
		return exec_net(ctx, argv - 1, err);
#endif
	rc = setup_ctx(ctx, root, cwd, err);
	if (!rc && (cmd->flags & CMD_NEEDS_STORE)) {
		rc = store_open(&ctx->store, ctx->root, true, err);
		cmd_store_waiting(&ctx->store, cmd->cli.name);
		if (!rc)
			rc = store_lock(&ctx->store, err);
	}
	if (!rc) {
		/* argv was permuted: its arguments begin at optind */
		optind = first_arg;
		rc = cmd->run(ctx, argc, argv, err);
	}
	if (ctx->store.root) {
		for (size_t i = 0; i < ctx->store.warnings.n; i++)
			cmd_warn("skipped an incomplete version: %s",
				 ctx->store.warnings.v[i]);
		store_release(&ctx->store);
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct cuenv_ctx ctx = { 0 };
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf root = BUF_INIT;
	const struct cuenv_cmd *cmd;
	char *cwd = NULL, *exe = NULL, **envp;
	int rc, first_arg = 1, done, bare = 0;

	ctx.store.lock_fd = -1;
	/* the one read of the environment (and of argv in UTF-8) */
	plat_main_args(&argc, &argv, &envp);
	ctx.envp = envp;
	/*
	 * cuenv's JSON is its own receipts: no hash flooding to fear, so
	 * spare every run (the prompt hook's too) jansson's read of
	 * /dev/urandom for a seed.
	 */
	json_object_seed(1);
#ifdef CUENV_NET
	{
		/* the wheels an install or needs reads are the platform's
		 * it acts for (a bad value is install's to say) */
		const char *platform;
		struct cuenv_err perr = CUENV_ERR_INIT;

		if (!manifests_platform(env_get(envp, "CUENV_PLATFORM"),
					&platform, &perr))
			wheel_for_platform(platform);
		err_release(&perr);
	}
#endif
	cmd = NULL;
	rc = global_options(&argc, &argv, envp, &err);
	if (rc)
		goto out;
	bare = argc < 2;
	cmd = pick_command(&argc, &argv, &rc, &err);
	if (!cmd)
		goto out;
	rc = parse_options(cmd, argc, argv, &ctx.opt, &first_arg, &done, &err);
	if (done)
		goto out;
	exe = plat_sys_exe_path();
	ctx.exe = exe ? exe : "cuenv";
	rc = run_command(cmd, &ctx, argc, argv, first_arg, &root, &cwd, &err);
	/* No command: the help, and a failure, as git and pyenv do. */
	if (bare && !rc)
		rc = CUENV_NO;
out:
	/* Not for the prompt hook: reading the catalogue takes its time. */
	if (rc == CUENV_E_NOT_INSTALLED)
		selhint_not_installed(ctx.envp, ctx.root, ctx.exe,
				      !cmd || (cmd->flags & CMD_HIDDEN), &err);
	if (rc && err.rc)
		cmd_print_error(&err);
	err_release(&err);
	buf_release(&root);
	free(cwd);
	free(exe);
	return finish_stdout(rc);
}
