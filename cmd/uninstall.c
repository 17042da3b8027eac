#include <stdio.h>
#include <string.h>

#include "select/env.h"
#include "plat/plat_sys.h"
#include "store/register.h"
#include "select/select.h"
#include "cmd.h"
#include "cli/uninstall.h"

/* "a, b and c" of the selections in who. */
static void join_users(const struct strv *who, struct buf *out)
{
	for (size_t i = 0; i < who->n; i++) {
		if (i)
			buf_adds(out, i + 1 == who->n ? " and " : ", ");
		buf_adds(out, who->v[i]);
	}
}

/* Which selections use in (select_users), listed from ctx's store. */
static int users(struct cuenv_ctx *ctx, const struct store_version *in,
		 struct strv *who, struct cuenv_err *err)
{
	struct store_version_list lists[KIT_KINDS] = { { 0 } };
	struct envmap env = ENVMAP_INIT;
	struct select_in sin;
	int rc = CUENV_OK;

	for (int k = 0; k < KIT_KINDS && !rc; k++)
		rc = store_list(&ctx->store, (enum kit_kind)k, &lists[k], err);
	if (!rc) {
		struct select_lists l = { &lists[KIT_CUDA], &lists[KIT_CUDNN],
					  &lists[KIT_CUPTI] };

		envmap_from(&env, ctx->envp);
		env_select_in(&env, ctx->cwd, ctx->root, &sin);
		select_users(&sin, &l, in, who);
	}
	for (int k = 0; k < KIT_KINDS; k++)
		store_version_list_release(&lists[k]);
	envmap_release(&env);
	return rc;
}

/* Read one line of stdin (at most 64 bytes kept) into out; 0 at EOF. */
static int read_answer(struct buf *out)
{
	int c, any = 0;

	while ((c = getc(stdin)) != EOF) {
		any = 1;
		if (c == '\n')
			break;
		if (c != '\r' && out->len < 64)
			buf_addc(out, (char)c);
	}
	return any;
}

/*
 * A version in use goes only with --force or a yes typed on the terminal
 * (stdin); without one to ask, CUENV_E_IN_USE. CUENV_NO for a no.
 */
static int confirm(struct cuenv_ctx *ctx, const struct store_version *in,
		   struct cuenv_err *err)
{
	struct strv who = STRV_INIT;
	struct buf list = BUF_INIT;
	struct buf line = BUF_INIT;
	int rc;

	if (in->registered || opt_given(&ctx->opt, O_FORCE))
		return CUENV_OK; /* register_uninstall refuses the first */
	rc = users(ctx, in, &who, err);
	if (rc || !who.n)
		goto out;
	join_users(&who, &list);
	if (!plat_sys_stdin_tty()) {
		rc = cuenv_fail(err, CUENV_E_IN_USE,
				"%s %s is in use: selected by %s",
				kit_kind_name(in->kind), in->name, list.data);
		cuenv_hint(err,
			   "uninstall it anyway: cuenv uninstall --force %s %s",
			   kit_kind_name(in->kind), in->name);
		goto out;
	}
	fprintf(stderr, "cuenv: %s %s is selected by %s; uninstall it? [y/N] ",
		kit_kind_name(in->kind), in->name, list.data);
	fflush(stderr);
	if (!read_answer(&line))
		fputc('\n', stderr);
	if (strcmp(line.data, "y") && strcmp(line.data, "yes") &&
	    strcmp(line.data, "Y") && strcmp(line.data, "YES")) {
		cmd_note("kept %s %s", kit_kind_name(in->kind), in->name);
		rc = CUENV_NO;
	}
out:
	buf_release(&line);
	strv_release(&who);
	buf_release(&list);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct store_version_list list = { 0 };
	struct buf out = BUF_INIT;
	const struct store_version *in;
	int rc = select_install(&ctx->store, cmd_uninstall.cli.name,
				argc - optind, argv + optind, &list, &in, err);

	if (!rc)
		rc = confirm(ctx, in, err);
	if (!rc)
		rc = register_uninstall(&ctx->store, in, &out, err);
	fputs(out.data, stdout);
	store_version_list_release(&list);
	buf_release(&out);
	return rc;
}

CUENV_CMD(uninstall, 1, 2, .flags = CMD_NEEDS_STORE, .run = run);
