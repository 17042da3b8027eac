/*
 * install_request.c: what one `cuenv install` asks for (see the header).
 */
#include "install/install_request.h"
#include "base/opts.h"

#include <limits.h>
#include <string.h>

#include "select/dotfile.h"
#include "select/env.h"
#include "install/lockfile.h"
#include "plat/plat_path.h"
#include "store/store.h"
#include "base/version.h"

/*
 * opts_count for the variable name of envp, when it is set: an unset one
 * leaves *out as it was; a set one that is not such a number ("", "abc",
 * "-1", "12x") fails naming the variable.
 */
static int install_request_env_count(char *const *envp, const char *name,
				     uint64_t max, uint64_t *out,
				     struct cuenv_err *err)
{
	const char *v = env_get(envp, name);

	return v ? opts_count(name, v, max, out, err) : CUENV_OK;
}

int install_request_fetch_env(char *const *envp, struct fetch_opts *fo,
			      struct cuenv_err *err)
{
	static const struct {
		const char *name;
		uint64_t max;
	} vars[] = {
		{ "CUENV_FETCH_RETRIES", 1000 },
		{ "CUENV_FETCH_STALL_SECONDS", 86400 },
		{ "CUENV_FETCH_BACKOFF_MS", 3600000 },
		{ "CUENV_FETCH_LOW_SPEED", UINT_MAX },
		{ "CUENV_FETCH_TIMEOUT", UINT_MAX / 1000 },
	};
	unsigned *field[] = { &fo->retries, &fo->stall_seconds, &fo->backoff_ms,
			      &fo->low_speed, &fo->timeout_seconds };
	int rc;

	for (size_t i = 0; i < sizeof(vars) / sizeof(*vars); i++) {
		uint64_t v = *field[i];

		rc = install_request_env_count(envp, vars[i].name, vars[i].max,
					       &v, err);
		if (rc)
			return rc;
		*field[i] = (unsigned)v;
	}
	return install_request_env_count(envp, "CUENV_FETCH_MAX_BYTES",
					 UINT64_MAX, &fo->max_bytes, err);
}

int install_request_env(char *const *envp, struct install_env *e,
			struct cuenv_err *err)
{
	uint64_t ratio = e->expand_ratio;
	int rc;

	e->mirror = env_get(envp, "CUENV_MIRROR");
	e->pypi_index = env_get(envp, "CUENV_PYPI_INDEX");
	rc = install_request_fetch_env(envp, &e->fetch, err);
	if (!rc)
		rc = install_request_env_count(envp, "CUENV_UNPACK_MAX_RATIO",
					       1000000, &ratio, err);
	e->expand_ratio = (unsigned)ratio;
	return rc;
}

int install_request_source(char *const *envp, const char *cwd, int *source,
			   struct cuenv_err *err)
{
	const char *v = env_get(envp, "CUENV_SOURCE");
	struct buf dir = BUF_INIT, file = BUF_INIT;
	struct dotfile df;
	enum source_kind sk;
	int rc = CUENV_NO;

	if (v && *v) {
		if (source_parse(v, &sk) || sk == SRC_TARBALL) {
			cuenv_fail(err, CUENV_E_USAGE,
				   "CUENV_SOURCE: unknown source '%s'", v);
			return cuenv_hint(err, "sources are " DOTFILE_SOURCES);
		}
		*source = (int)sk;
		return CUENV_OK;
	}
	dotfile_init(&df);
	buf_sets(&dir, cwd);
	do {
		buf_reset(&file);
		buf_path(&file, dir.data, ".cuenv");
		rc = dotfile_read(file.data, &df, err);
	} while (rc == CUENV_NO && plat_path_up(&dir));
	if (!rc && df.source && !source_parse(df.source, &sk))
		*source = (int)sk;
	dotfile_release(&df);
	BUF_RELEASE_EACH(&dir, &file);
	return rc == CUENV_NO ? CUENV_OK : rc;
}

int install_request_mirror_url(const char *command, const char *url,
			       struct fetch_opts *fo, struct cuenv_err *err)
{
	if (!strncmp(url, "https://", 8))
		return CUENV_OK;
	if (!strncmp(url, "http://", 7)) {
		fo->allow_http = 1; /* the user asked for it */
		return CUENV_OK;
	}
	if (!strncmp(url, "file://", 7)) {
		fo->allow_file = 1;
		return CUENV_OK;
	}
	return cuenv_fail(err, CUENV_E_USAGE,
			  "%s: mirror '%s' is not https://, http:// or file://",
			  command, url);
}

int install_request_kind(struct install_request *q, int nargs,
			 char *const *words, int *used, struct cuenv_err *err)
{
	enum kit_kind kind;

	*used = 0;
	if (nargs < 1 || kit_kind_parse(words[0], &kind))
		return CUENV_OK;
	if (kind == KIT_CUDA) {
		*used = 1;
		return CUENV_OK;
	}
	if (kind == KIT_CUPTI) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "install: CUPTI comes from a CUDA release");
		return cuenv_hint(err, "cuenv install SPEC --cupti V");
	}
	if (nargs != 2 || q->cudnn) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "install: cudnn needs one version (and no --cudnn)");
		/* The form, not a command for here: 9.1 is an example. */
		return cuenv_hint(err, "for example: cuenv install cudnn 9.1 "
				       "(for the CUDA selected here), or "
				       "cuenv install 12.4 --cudnn 9.1");
	}
	q->cudnn = words[1];
	*used = 2;
	return version_check("cudnn", q->cudnn, 0, err);
}

int install_request_mode(const struct install_request *q, int nargs,
			 enum install_mode *mode, struct cuenv_err *err)
{
	if (q->locked) {
		if (nargs > 0 || q->for_spec || q->cudnn || q->cupti ||
		    q->source >= 0)
			return cuenv_fail(err, CUENV_E_USAGE,
					  "install: --locked installs what "
					  ".cuenv.lock pins; give no SPEC, "
					  "--for, --cudnn, --cupti or --source");
		*mode = INSTALL_LOCKED;
	} else if (q->for_spec) {
		if (nargs > 0)
			return cuenv_fail(err, CUENV_E_USAGE,
					  "install: give a SPEC or --for, not "
					  "both");
		*mode = INSTALL_FOR;
	} else {
		*mode = nargs > 0 ? INSTALL_SPEC : INSTALL_SELECTED;
	}
	return CUENV_OK;
}

int install_request_selected(struct install_request *q,
			     const struct selection *sel, struct cuenv_err *err)
{
	if (!selection_active(sel)) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "install: no version given and none selected here");
		return cuenv_hint(err, "cuenv install 12.4, or write one with "
				       "cuenv local 12.4 --force");
	}
	q->spec = sel->cuda;
	if (!q->cudnn)
		q->cudnn = sel->cudnn;
	if (!q->cupti)
		q->cupti = sel->cupti;
	return CUENV_OK;
}

int install_request_select(struct install_request *q, const char *cwd,
			   const char *root, char *const *envp,
			   struct selection *sel, struct cuenv_err *err)
{
	struct envmap env = ENVMAP_INIT;
	struct select_in in;
	int rc;

	envmap_from(&env, envp);
	env_select_in(&env, cwd, root, &in);
	rc = select_find(&in, sel, err);
	envmap_release(&env);
	return rc ? rc : install_request_selected(q, sel, err);
}

int install_request_list_only(int all, int json, struct cuenv_err *err)
{
	if (!all && !json)
		return CUENV_OK;
	cuenv_fail(err, CUENV_E_USAGE,
		   "install: --all and --json go with --list");
	return cuenv_hint(err, "see: cuenv install --help");
}

void install_request_build(struct install_request *q,
			   const struct framework_build *b)
{
	q->spec = b->cuda;
	if (!q->cudnn)
		q->cudnn = b->cudnn;
}

int install_request_check(const struct install_request *q,
			  struct cuenv_err *err)
{
	int rc = version_check("cuda", q->spec, 0, err);

	if (!rc && q->cudnn)
		rc = version_check("cudnn", q->cudnn, 0, err);
	if (!rc && q->cupti)
		rc = version_check("cupti", q->cupti, 0, err);
	return rc;
}

const char *install_request_index(const char *index)
{
	return index && *index ? index : INSTALL_PYPI_INDEX_DEFAULT;
}

int install_request_index_http(const char *index)
{
	return index && !strncmp(index, "http://", 7);
}

void install_request_dry_run(const struct catalog_choice *ch, int source,
			     struct buf *out)
{
	buf_printf(out, "would install cuda %s", ch->cuda->version);
	if (ch->cudnn)
		buf_printf(out, " + cudnn %s", ch->cudnn->version);
	if (ch->cupti)
		buf_printf(out, " + cupti %s", ch->cupti->version);
	buf_printf(out, " (%s)\n",
		   source == SRC_PYPI ? "pypi" : source_name(ch->cuda->source));
}

void install_request_what(const struct release *rel, struct buf *out)
{
	buf_printf(out, "%s %s", kit_kind_name(rel->kind), rel->version);
	if (rel->kind == KIT_CUDNN)
		buf_printf(out, " for CUDA %u", rel->cuda_major);
}

void install_request_fetch_hint(int rc, const char *mirror,
				const struct release *rel,
				const struct plan_opts *plan,
				struct cuenv_err *err)
{
	int mirrored = mirror && *mirror;
	struct buf asked = BUF_INIT;

	if (rc != CUENV_E_FETCH || err->hint.len || rel->source == SRC_PYPI)
		return;
	/* the request as it was made: the hint installs what it asked */
	if (plan && plan->components) {
		buf_adds(&asked, " --components ");
		for (size_t i = 0; i < plan->components->n; i++)
			buf_printf(&asked, "%s%s", i ? "," : "",
				   plan->components->v[i]);
	} else if (plan && plan->runtime_only) {
		buf_adds(&asked, " --runtime-only");
	}
	/* Offline machines, proxies and clusters: say where else to look. */
	if (rel->kind == KIT_CUDA && rel->source == SRC_REDIST && rel->on_index)
		cuenv_hint(err,
			   "if %s cannot be reached from here, install from "
			   "the package index%s: cuenv install %s --source "
			   "pypi%s",
			   mirrored ? "the mirror" : "NVIDIA's servers",
			   mirrored ? "" : " (or a mirror: --mirror URL)",
			   rel->version, asked.data);
	else if (!mirrored)
		cuenv_hint(err, "if NVIDIA's servers cannot be reached from "
				"here, install from a mirror: --mirror URL or "
				"CUENV_MIRROR (README: Mirrors)");
	buf_release(&asked);
}

int install_request_lock_platform(const char *path, const char *lock_platform,
				  const char *platform, struct cuenv_err *err)
{
	if (!strcmp(lock_platform, platform))
		return CUENV_OK;
	return cuenv_fail(err, CUENV_E_USAGE,
			  "install: '%s' is for %s, this machine is %s", path,
			  lock_platform, platform);
}

/* "cuda 12.4", or "no cudnn" for none. */
static void spec_words(struct buf *b, const char *key, const char *spec)
{
	buf_reset(b);
	if (spec)
		buf_printf(b, "%s %s", key, spec);
	else
		buf_printf(b, "no %s", key);
}

/*
 * The .cuenv beside the lock at path must ask for what lk was made for,
 * as `uv sync --locked` and `poetry install` refuse a lock their project
 * file has moved away from: installing it would leave the .cuenv asking
 * for something else. None beside it: the lock alone says what to install.
 */
static int lock_agrees(const char *path, const struct lockfile *lk,
		       struct cuenv_err *err)
{
	static const char *const keys[] = { "cuda", "cudnn", "cupti" };
	const char *have[] = { lk->cuda, lk->cudnn, lk->cupti };
	struct dotfile df;
	struct buf dot = BUF_INIT, a = BUF_INIT, b = BUF_INIT;
	int rc;

	/* lock_find's path: the .cuenv's own, ".lock" after it */
	dotfile_init(&df);
	buf_add(&dot, path, strlen(path) - strlen(".lock"));
	rc = dotfile_read(dot.data, &df, err);
	for (size_t i = 0; !rc && i < 3; i++) {
		const char *want[] = { df.cuda, df.cudnn, df.cupti };

		if (want[i] == have[i] ||
		    (want[i] && have[i] && !strcmp(want[i], have[i])))
			continue;
		spec_words(&a, keys[i], want[i]);
		spec_words(&b, keys[i], have[i]);
		rc = cuenv_fail(err, CUENV_E_MANIFEST,
				"install: '%s' asks for %s but '%s' was made "
				"for %s",
				dot.data, a.data, path, b.data);
		cuenv_hint(err, "update the lock with: cuenv lock");
	}
	dotfile_release(&df);
	BUF_RELEASE_EACH(&dot, &a, &b);
	return rc == CUENV_NO ? CUENV_OK : rc;
}

int install_request_lock(const char *cwd, const char *platform,
			 struct buf *path, struct lockfile *lk,
			 struct cuenv_err *err)
{
	int rc;

	if (lock_find(cwd, path)) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "install: --locked but no %s here or above",
			   LOCK_NAME);
		return cuenv_hint(err, "write it with: cuenv lock");
	}
	rc = lock_read(path->data, lk, err);
	if (!rc)
		rc = install_request_lock_platform(path->data, lk->platform,
						   platform, err);
	if (!rc)
		rc = lock_agrees(path->data, lk, err);
	return rc;
}
