/*
 * doctor.c: `cuenv doctor`'s checks in their order and the audit's life
 * (the selection's label and folders, which environment programs get).
 * The checks are in doctor_select.c, doctor_path.c, doctor_driver.c,
 * doctor_pip.c, doctor_venv.c and doctor_dll.c; the helpers they write
 * findings with are in doctor_findings.c, below them all.
 */
#include "doctor/doctor.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor_int.h"
#include "select/env.h"
#include "nvidia/nvlib.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "plat/shell.h"
#include "base/xalloc.h"

/* ---- the audit's environment and the selection's folders ---------------- */

/* Windows: how a cmd takes the selection (cuenv init for the hooks). */
static const char win_env_fix[] =
	"in cmd: for /f \"delims=\" %i in ('cuenv env --format cmd') do "
	"set %i; or for one command: cuenv exec -- CMD; or for PowerShell "
	"and cmd's doskey: see cuenv init pwsh, cuenv init cmd";

/* Which environment do programs started here get? */
static void choose_env(struct audit *au)
{
	const struct envmap *env = au->in->env;
	const char *have = envmap_get(env, "CUENV_ACTIVE");
	const char *want = envmap_get(&au->a->after, "CUENV_ACTIVE");
	/* Windows' cmd takes cuenv env without __CUENV_STATE (no hook reads
	 * it there): CUENV_ACTIVE alone says the shell carries it */
	int carried = envmap_get(env, ENV_STATE_VAR) || au->in->win;

	au->eff = env;
	if (!au->a->ok)
		return;
	if (carried && have && want && !strcmp(have, want)) {
		au->shell_active = 1;
		return;
	}
	au->eff = &au->a->after;
	if (carried && have)
		doctor_emitf(au->out, "not-activated", DOCTOR_WARNING,
			     "programs started from this shell load the "
			     "other selection's libraries; the shell hook "
			     "switches at the next prompt, but a shell that "
			     "ran eval \"$(cuenv env)\" elsewhere keeps what "
			     "it got (doctor checked what the hook gives here)",
			     au->in->win ? win_env_fix
					 : "eval \"$(cuenv env)\" here, or set "
					   "up the hook: eval \"$(cuenv init "
					   "bash)\" in ~/.bashrc (see cuenv "
					   "init)",
			     "this shell carries cuda %s, but here %s is "
			     "selected",
			     have, au->label.data);
	else
		doctor_emitf(au->out, "not-activated", DOCTOR_INFO,
			     "programs started from this shell without cuenv "
			     "exec see none of the selection's folders and "
			     "load whatever CUDA the system has, or none",
			     au->in->win ? win_env_fix
					 : "eval \"$(cuenv init bash)\" in "
					   "~/.bashrc (zsh: ~/.zshrc; fish: "
					   "cuenv init fish | source), or run "
					   "programs with: cuenv exec -- CMD",
			     "this shell does not carry the selection (%s): "
			     "doctor checked the environment the shell hook "
			     "and cuenv exec give here",
			     au->label.data);
}

static void add_dirs(struct audit *au, const struct strv *dirs)
{
	for (size_t i = 0; i < dirs->n; i++) {
		char *real;
		struct plat_dir *d;
		const char *ent;

		if (strv_find(&au->dirs, dirs->v[i]) >= 0)
			continue;
		strv_push(&au->dirs, dirs->v[i]);
		real = plat_realpath(dirs->v[i]);
		if (real)
			strv_push_take(&au->real_dirs, real);
		d = plat_opendir(dirs->v[i]);
		if (!d)
			continue;
		while ((ent = plat_readdir(d)))
			if (strstr(ent, ".so"))
				doctor_push_unique(&au->provides, ent);
		plat_closedir(d);
	}
}

/* The selection's label and what its folders hold. */
static void take_stock(struct audit *au)
{
	const struct active *act = &au->a->act;

	if (!au->a->ok)
		return;
	buf_printf(&au->label, "cuda %s", act->cuda->version);
	if (act->cudnn)
		buf_printf(&au->label, " + cudnn %s", act->cudnn->version);
	if (act->cupti)
		buf_printf(&au->label, " + cupti %s", act->cupti->version);
	/* The order activation puts them on LD_LIBRARY_PATH. */
	if (act->cudnn)
		add_dirs(au, &act->cudnn->lib);
	add_dirs(au, &act->cuda->lib);
	add_dirs(au, &act->cuda->cupti);
	if (act->cupti)
		add_dirs(au, &act->cupti->cupti);
}

/* ---- the whole audit ---------------------------------------------------- */

/* Problems first, then warnings, then information, each in found order. */
static void sort_findings(struct findings *f, size_t from)
{
	size_t n = f->n - from, k = 0;
	struct finding *tmp;

	if (n < 2)
		return;
	tmp = xmalloc(n * sizeof(*tmp));
	for (int s = DOCTOR_PROBLEM; s <= DOCTOR_INFO; s++)
		for (size_t i = from; i < f->n; i++)
			if ((int)f->v[i].severity == s)
				tmp[k++] = f->v[i];
	memcpy(f->v + from, tmp, n * sizeof(*tmp));
	free(tmp);
}

void doctor_run(const struct doctor_in *in, struct findings *out)
{
	struct audit au = { .in = in, .out = out, .a = in->a };
	size_t from = out->n;

	au.eff = in->env;
	buf_init(&au.label);
	doctor_check_selection(&au);
	take_stock(&au);
	choose_env(&au);
	/* Windows' loader has no sonames, LD_LIBRARY_PATH nor cache */
	if (!in->win)
		doctor_check_sonames(&au);
	doctor_check_cudnn(&au);
	doctor_check_dlls(&au);
	if (!in->win) {
		doctor_check_ld_path(&au);
		doctor_check_cache(&au);
	}
	doctor_check_driver(&au);
	doctor_check_cuda_home(&au);
	doctor_check_wheels(&au);
	doctor_check_conda(&au);
	if (!in->win)
		doctor_check_python(&au);
	sort_findings(out, from);
	buf_release(&au.label);
	strv_release(&au.dirs);
	strv_release(&au.real_dirs);
	strv_release(&au.provides);
	strv_release(&au.missing);
}
