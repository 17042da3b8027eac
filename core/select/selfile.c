#include "select/selfile.h"

#include <string.h>

#include "select/activate.h"
#include "plat/file.h"
#include "select/select.h"
#include "store/store.h"
#include "base/version.h"

int selfile_read(const char *path, struct buf *text, struct dotfile *old,
		 struct cuenv_err *err)
{
	int rc;

	if (store_is_dir(path)) {
		rc = cuenv_fail(err, CUENV_E_STORE,
				"'%s' is a folder (cuenv's root, by default), "
				"so this folder cannot hold a project .cuenv",
				path);
		cuenv_hint(err, "use cuenv global here, or set CUENV_ROOT to "
				"another folder");
		return rc;
	}
	rc = file_read(path, DOTFILE_MAX_BYTES, FILE_MAY_BE_MISSING, text, err);
	if (rc == CUENV_NO)
		rc = CUENV_OK;
	else if (!rc)
		rc = dotfile_parse(path, text->data, text->len, old, err);
	if (rc)
		cuenv_hint(err, "fix or remove '%s' first", path);
	return rc;
}

int selfile_check_installed(const struct dotfile *want, const char *root,
			    const char *system_roots, int insecure_roots,
			    struct cuenv_err *err)
{
	struct selection sel;
	struct activation a;
	struct active act;
	int rc;

	if (!want->cuda || !strcmp(want->cuda, DOTFILE_SYSTEM))
		return CUENV_OK;
	selection_init(&sel);
	sel.cuda = want->cuda;
	sel.cudnn = want->cudnn;
	sel.cupti = want->cupti;
	activation_init(&a);
	a.insecure_roots = insecure_roots;
	rc = activation_list(root, system_roots, &a, err);
	if (!rc)
		rc = select_resolve(&sel, &a.cudas, &a.cudnns, &a.cuptis, &act,
				    err);
	activation_release(&a);
	return rc;
}

void selfile_rewrite(const struct buf *text, const struct dotfile *set,
		     int unset, struct buf *out)
{
	/* "system" replaces the cuda line alone: cudnn, cupti and isolate
	 * stay, unused while cuda is the system's (selection_active), and
	 * apply again when a version comes back, as pyenv's "system" keeps
	 * the rest of a project's settings. */
	dotfile_rewrite(text->data, text->len, set, unset, out);
}

int selfile_write(const char *path, const struct buf *text,
		  struct cuenv_err *err)
{
	return text->len ? file_write(path, text->data, text->len,
				      FILE_MODE_KEEP, err)
			 : file_remove(path, err);
}

int selfile_show(const char *path, struct buf *out, struct cuenv_err *err)
{
	struct dotfile df;
	int rc;

	dotfile_init(&df);
	rc = dotfile_read(path, &df, err);
	if (rc == CUENV_NO || (!rc && dotfile_is_empty(&df))) {
		buf_printf(out, "none (no %s)\n", path);
		rc = CUENV_NO;
	} else if (!rc && !strcmp(df.cuda, DOTFILE_SYSTEM)) {
		/* the other keys wait for a version: they select nothing */
		buf_printf(out, "%s (%s)\n", df.cuda, path);
	} else if (!rc) {
		buf_printf(out, "%s", df.cuda);
		if (df.cudnn)
			buf_printf(out, " + cudnn %s", df.cudnn);
		if (df.cupti)
			buf_printf(out, " + cupti from %s", df.cupti);
		if (df.isolate > 0)
			buf_adds(out, ", isolated");
		buf_printf(out, " (%s)\n", path);
	}
	dotfile_release(&df);
	return rc;
}

struct dotfile selfile_want(const struct dotfile *set,
			    const struct dotfile *old)
{
	struct dotfile want = *set;

	if (!want.cudnn)
		want.cudnn = old->cudnn;
	if (!want.cupti)
		want.cupti = old->cupti;
	return want;
}

/* Is what want selects installed? The same check activation makes. */
static int check_installed(const struct selfile_request *r,
			   const struct dotfile *want, struct cuenv_err *err)
{
	const char *insecure = env_get(r->envp, "CUENV_INSECURE_ROOTS");
	int rc = selfile_check_installed(want, r->root,
					 env_get(r->envp, "CUENV_SYSTEM_ROOTS"),
					 insecure && !strcmp(insecure, "1"),
					 err);

	if (rc == CUENV_E_NOT_INSTALLED)
		buf_adds(&err->hint, "; or write it anyway: --force");
	return rc;
}

/*
 * The SPEC to write (none with --unset, where --cudnn and --cupti make
 * no sense either), checked.
 */
static int check_spec(const struct selfile_request *r, struct cuenv_err *err)
{
	if (r->unset ? r->nargs || r->set->cudnn || r->set->cupti
		     : r->nargs != 1) {
		if (r->unset || r->nargs > 1) {
			cuenv_fail(err, CUENV_E_USAGE, "%s: too many arguments",
				   r->command);
			return cuenv_hint(err, "see: cuenv %s --help",
					  r->command);
		}
		cuenv_fail(err, CUENV_E_USAGE,
			   "%s: these options go with a SPEC, the version to "
			   "select",
			   r->command);
		return cuenv_hint(err, "for example: cuenv %s 12.4 --cudnn 9",
				  r->command);
	}
	return r->unset ? CUENV_OK : version_check("cuda", r->spec, 1, err);
}

int selfile_update(const struct selfile_request *r, struct buf *out,
		   struct buf *note, struct cuenv_err *err)
{
	struct dotfile set = *r->set, old;
	struct buf text = BUF_INIT, rewritten = BUF_INIT;
	int rc;

	if (!r->any && !r->nargs)
		return selfile_show(r->path, out, err);
	rc = check_spec(r, err);
	if (rc)
		return rc;
	set.cuda = r->unset ? NULL : (char *)r->spec;
	dotfile_init(&old);
	rc = selfile_read(r->path, &text, &old, err);
	if (!rc && !r->unset && !r->force) {
		/* Keep cudnn/cupti the file had unless told otherwise. */
		struct dotfile want = selfile_want(&set, &old);

		rc = check_installed(r, &want, err);
	}
	if (!rc) {
		selfile_rewrite(&text, &set, r->unset, &rewritten);
		rc = selfile_write(r->path, &rewritten, err);
	}
	if (!rc && r->unset)
		buf_printf(note,
			   rewritten.len ? "removed cuenv's keys from %s"
					 : "removed %s",
			   r->path);
	else if (!rc)
		buf_printf(note, "wrote %s", r->path);
	dotfile_release(&old);
	buf_release(&text);
	buf_release(&rewritten);
	return rc;
}
