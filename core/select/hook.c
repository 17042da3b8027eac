/*
 * hook.c: what `cuenv export` and `cuenv use` print (see the header).
 */
#include "select/hook.h"

#include <string.h>

#include "select/activate.h"
#include "plat/plat_sys.h"
#include "select/selhint.h"
#include "store/store.h"
#include "base/version.h"

/* "cuda V[ + cudnn V]" of the activation a, which must be ok. */
static void add_versions(struct buf *out, const struct activation *a)
{
	buf_printf(out, "cuda %s%s%s", a->act.cuda->version,
		   a->act.cudnn ? " + cudnn " : "",
		   a->act.cudnn ? a->act.cudnn->version : "");
}

/* What `use` says it did: where the version now comes from. */
static void note_use(const struct activation *a, const struct envmap *before,
		     const struct envmap *start, struct buf *says)
{
	struct buf why = BUF_INIT;

	if (a->ok && a->sel.origin == SEL_SHELL) {
		buf_adds(says, "cuenv: using ");
		add_versions(says, a);
		buf_adds(says, " in this shell\n");
	} else if (envmap_get(start, "CUENV_VERSION")) {
		/* cuenv use system */
		buf_adds(says, "cuenv: using the system's cuda in this shell "
			       "(cuenv adds nothing)\n");
	} else if (!envmap_get(before, "CUENV_VERSION")) {
		/* --unset where use had set nothing */
		buf_adds(says, "cuenv: this shell has no selection of its own "
			       "to drop");
		if (a->ok) {
			selection_describe_origin(&a->sel, &why);
			buf_adds(says, "; using ");
			add_versions(says, a);
			buf_printf(says, " (%s)", why.data);
		}
		buf_addc(says, '\n');
	} else if (a->ok) {
		selection_describe_origin(&a->sel, &why);
		buf_adds(says, "cuenv: this shell's selection dropped: ");
		add_versions(says, a);
		buf_printf(says, " (%s)\n", why.data);
	} else {
		buf_adds(says, "cuenv: this shell's selection dropped: nothing "
			       "selected here\n");
	}
	buf_release(&why);
}

/* CUENV_ANNOUNCE=1's line (see the header). */
static void announce(const struct activation *a, const struct envmap *before,
		     struct buf *says)
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
		buf_adds(says, "cuenv: ");
		add_versions(says, a);
		buf_printf(says, " (%s)\n", why.data);
	} else if (was) {
		buf_printf(says, "cuenv: cuda %s unloaded\n", was);
	}
	buf_release(&why);
}

/*
 * cmd's `set` lines cannot carry every value (shell_cmd_export): none is
 * written unless all of them can be, so that cmd is never left with half
 * an activation.
 */
static int cmd_carries(const struct envmap *before, const struct envmap *after,
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
 * The hook's stamp for pid: "" when the store cannot be opened, or is
 * refused (core/store/trust.h), which a chmod or chown fixes without changing
 * any mtime the hook watches: then the hook looks again at each prompt
 * until it is fixed.
 */
static void hook_stamp(const char *root, long pid, const struct activation *a,
		       struct buf *stamp)
{
	struct store st;
	struct cuenv_err e2 = CUENV_ERR_INIT;

	if (!store_open(&st, root, false, &e2))
		store_stamp(&st, pid, stamp);
	store_release(&st);
	err_release(&e2);
	if (a->untrusted)
		buf_reset(stamp);
}

/*
 * `use SPEC` of a version not installed: the message names no origin
 * ("set by CUENV_VERSION, which cuenv use sets"), as use set nothing.
 */
static void unset_origin(const struct selection *sel, struct cuenv_err *err)
{
	struct buf why = BUF_INIT;
	char *at;

	buf_adds(&why, " (");
	selection_describe_origin(sel, &why);
	buf_addc(&why, ')');
	at = strstr(err->msg.data, why.data);
	if (at)
		memmove(at, at + why.len, strlen(at + why.len) + 1);
	if (at)
		buf_setlen(&err->msg, err->msg.len - why.len);
	buf_release(&why);
}

/*
 * The hook says nothing that the shell was told last (CUENV__SAID, see
 * activation_said): a prompt that runs it again for the same state (a
 * .cuenv written just before, a stamp within its 50 ms) or right after
 * `cuenv use` said the same would repeat the same lines.
 */
int hook_emit(const struct hook_in *in, struct buf *says, struct buf *code,
	      struct cuenv_err *err)
{
	struct activation a;
	struct buf stamp = BUF_INIT, said = BUF_INIT;
	const char *last = in->pid > 0 ? in->last_said : NULL;
	int rc, quiet;

	activation_init(&a);
	rc = activation_compute(in->root, in->cwd, in->start, 0, &a, err);
	if (rc)
		selhint_skipped(in->root, err);
	activation_said(&a, rc, err, &said);
	quiet = last && said.len && !strcmp(last, said.data);
	for (size_t i = 0; i < a.warnings.n && !quiet; i++)
		buf_printf(says, "cuenv: warning: %s\n", a.warnings.v[i]);
	for (size_t i = 0; i < a.notes.n && !quiet; i++)
		buf_printf(says, "cuenv: %s\n", a.notes.v[i]);
	if (in->pid > 0) {
		hook_stamp(in->root, in->pid, &a, &stamp);
		announce(&a, in->before, says);
		if (rc && rc != CUENV_E_BUG) {
			/* the hook's code must run: said, then cleared */
			if (!quiet)
				err_render(err, says);
			err_release(err);
			rc = CUENV_OK;
		}
	} else if (!rc) {
		note_use(&a, in->before, in->start, says);
	} else if (rc == CUENV_E_NOT_INSTALLED && a.sel.origin == SEL_SHELL) {
		unset_origin(&a.sel, err);
	}
	if ((in->pid > 0 || !rc) && in->sh == SHELL_CMD)
		rc = cmd_carries(in->before, &a.after, err);
	if (in->pid > 0 || !rc) {
		activation_emit(&a, in->before, in->sh, in->root,
				in->pid > 0 ? stamp.data : NULL, code);
		shell_local(in->sh, "__cuenv_said", said.data, code);
	}
	activation_release(&a);
	buf_release(&stamp);
	buf_release(&said);
	return rc;
}

/* ---- cuenv use ------------------------------------------------------------ */

/* Can `use` change this shell? Its integration says which it is. */
static int check_shell(const char *shell, enum shell *sh, struct cuenv_err *err)
{
	if (shell && !shell_parse(shell, sh) && *sh != SHELL_SH)
		return CUENV_OK;
	cuenv_fail(err, CUENV_E_USAGE,
		   "use: this shell has no cuenv integration, so cuenv cannot "
		   "change it");
	if (!strcmp(plat_sys_platform(), "windows-x86_64"))
		return cuenv_hint(err,
				  "PowerShell: cuenv init pwsh | Out-String "
				  "| Invoke-Expression; cmd: its doskey macro "
				  "(cuenv init --help); or use: cuenv exec");
	return cuenv_hint(err, "add eval \"$(cuenv init bash)\" to ~/.bashrc "
			       "(zsh: init zsh; fish: cuenv init fish | "
			       "source), or use: cuenv exec");
}

int hook_use_start(const struct hook_use *u, const struct envmap *before,
		   enum shell *sh, struct envmap *start, struct cuenv_err *err)
{
	const char *spec = u->unset ? NULL : u->spec;
	int rc = check_shell(u->shell, sh, err);

	if (rc)
		return rc;
	if (u->unset ? u->nargs || u->cudnn || u->cupti || u->isolate
		     : !u->nargs) {
		cuenv_fail(err, CUENV_E_USAGE,
			   u->unset ? "use: --unset takes no SPEC and no other "
				      "option"
				    : "use: missing argument");
		return cuenv_hint(err, "see: cuenv use --help");
	}
	if (spec &&
	    ((rc = version_check("cuda", spec, 1, err)) ||
	     (u->cudnn && (rc = version_check("cudnn", u->cudnn, 0, err))) ||
	     (u->cupti && (rc = version_check("cupti", u->cupti, 0, err)))))
		return rc;
	envmap_copy(start, before);
	envmap_unset(start, "CUENV_VERSION");
	envmap_unset(start, "CUENV_CUDNN_VERSION");
	envmap_unset(start, "CUENV_CUPTI_VERSION");
	envmap_unset(start, "CUENV_ISOLATE");
	if (spec) {
		envmap_set(start, "CUENV_VERSION", spec);
		if (u->cudnn)
			envmap_set(start, "CUENV_CUDNN_VERSION", u->cudnn);
		if (u->cupti)
			envmap_set(start, "CUENV_CUPTI_VERSION", u->cupti);
		if (u->isolate)
			envmap_set(start, "CUENV_ISOLATE", "1");
	}
	return CUENV_OK;
}
