#include "select/env.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plat/plat_path.h"
#include "nvidia/nvlib.h"
#include "plat/plat_fs.h"
#include "store/trust.h"
#include "base/xalloc.h"

void env_select_in(const struct envmap *env, const char *cwd, const char *root,
		   struct select_in *in)
{
	*in = (struct select_in){
		.cwd = cwd,
		.root = root,
		.env_cuda = envmap_get(env, "CUENV_VERSION"),
		.env_cudnn = envmap_get(env, "CUENV_CUDNN_VERSION"),
		.env_cupti = envmap_get(env, "CUENV_CUPTI_VERSION"),
		.env_isolate = envmap_get(env, "CUENV_ISOLATE"),
	};
}

/* dir/name (and on Windows, name + each of PATHEXT's when name has no
 * extension) when it is an executable file, as a heap path. */
static char *which_in(const struct envmap *env, const char *dir,
		      const char *name)
{
	const struct plat_path_rules *r = envmap_rules(env);
	const char *exts = envmap_get(env, "PATHEXT");
	struct strv tries = STRV_INIT;
	char *found = NULL;

	strv_push(&tries, "");
	if (r->style == PLAT_PATH_WINDOWS && !strchr(name, '.'))
		strv_split(&tries, exts && *exts ? exts : ".COM;.EXE;.BAT;.CMD",
			   ';');
	for (size_t i = 0; i < tries.n && !found; i++) {
		struct buf p = BUF_INIT;
		struct plat_stat st;

		buf_path(&p, dir, name);
		buf_adds(&p, tries.v[i]);
		if (!plat_stat(p.data, &st) && st.type == PLAT_F_REG &&
		    plat_can_exec(p.data))
			found = buf_detach(&p);
		buf_release(&p);
	}
	strv_release(&tries);
	return found;
}

char *env_which(const struct envmap *env, const char *name)
{
	const struct plat_path_rules *r = envmap_rules(env);
	const char *path = envmap_get(env, "PATH");
	struct strv list = STRV_INIT;
	char *found = NULL;

	if (path)
		strv_split(&list, path, r->list_sep);
	for (size_t i = 0; i < list.n && !found; i++)
		if (plat_path_is_abs(r, list.v[i]))
			found = which_in(env, list.v[i], name);
	strv_release(&list);
	return found;
}

/* ---- state encoding ------------------------------------------------------ */

static void put_field(struct buf *b, const char *s)
{
	buf_addc(b, ',');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || c == '%' || c == ',' || c == ';')
			buf_printf(b, "%%%02X", c);
		else
			buf_addc(b, (char)c);
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Decode one record "P,VAR,..." into fields; -1 when malformed. */
static int split_record(const char *s, size_t len, struct strv *fields)
{
	struct buf f = BUF_INIT;

	for (size_t i = 0; i <= len; i++) {
		if (i == len || s[i] == ',') {
			strv_push_take(fields, buf_detach(&f));
			continue;
		}
		if (s[i] == '%') {
			int hi, lo;

			if (i + 2 >= len) {
				buf_release(&f);
				return -1;
			}
			hi = hexval(s[i + 1]);
			lo = hexval(s[i + 2]);
			if (hi < 0 || lo < 0) {
				buf_release(&f);
				return -1;
			}
			buf_addc(&f, (char)(hi * 16 + lo));
			i += 2;
			continue;
		}
		buf_addc(&f, s[i]);
	}
	return 0;
}

/* ---- path lists ---------------------------------------------------------- */

static void get_list(const struct envmap *env, const char *name,
		     struct strv *out)
{
	const char *v = envmap_get(env, name);

	if (v && *v)
		strv_split(out, v, envmap_rules(env)->list_sep);
}

static void set_list(struct envmap *env, const char *name,
		     const struct strv *list)
{
	struct buf b = BUF_INIT;

	strv_join(list, envmap_rules(env)->list_sep, &b);
	envmap_set(env, name, b.data);
	buf_release(&b);
}

struct removed {
	long index;
	char *entry;
};

static int cmp_removed(const void *a, const void *b)
{
	const struct removed *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* What the records say about one variable, and its list being undone. */
struct var_undo {
	struct strv list;
	struct removed *rm; /* entries cuenv removed, to put back */
	size_t nrm;
	const char *set, *old;
	int is_list, was_unset, was_empty;
};

/* One record (op, name, values...) of the variable, taken into u. */
static void undo_record(struct var_undo *u, const struct strv *f)
{
	char op = f->v[0][0];

	if (op == 'P' && f->n == 3) {
		long at = strv_find(&u->list, f->v[2]);

		u->is_list = 1;
		if (at >= 0)
			strv_remove(&u->list, (size_t)at);
	} else if (op == 'R' && f->n == 4) {
		u->is_list = 1;
		u->rm = xrealloc(u->rm, (u->nrm + 1) * sizeof(*u->rm));
		u->rm[u->nrm].index = strtol(f->v[2], NULL, 10);
		u->rm[u->nrm++].entry = f->v[3];
	} else if (op == 'U') {
		u->was_unset = 1;
	} else if (op == 'E') {
		u->was_empty = 1;
	} else if (op == 'S' && f->n == 3) {
		u->set = f->v[2];
	} else if (op == 'O' && f->n == 3) {
		u->old = f->v[2];
	}
}

/* The removed entries back at their places, lowest place first. */
static void undo_removals(struct var_undo *u)
{
	if (u->nrm)
		qsort(u->rm, u->nrm, sizeof(*u->rm), cmp_removed);
	for (size_t i = 0; i < u->nrm; i++)
		strv_insert(&u->list,
			    (size_t)(u->rm[i].index < 0 ? 0 : u->rm[i].index),
			    u->rm[i].entry);
}

/* The variable as the records leave it. */
static void undo_apply(struct envmap *env, const char *name,
		       const struct var_undo *u)
{
	const char *cur;

	if (u->is_list) {
		if (u->list.n)
			set_list(env, name, &u->list);
		else if (u->was_unset)
			envmap_unset(env, name);
		else if (u->was_empty || envmap_get(env, name))
			envmap_set(env, name, "");
		return;
	}
	cur = u->set ? envmap_get(env, name) : NULL;
	/* Only while it still holds what cuenv set. */
	if (cur && !strcmp(cur, u->set)) {
		if (u->old)
			envmap_set(env, name, u->old);
		else
			envmap_unset(env, name);
	}
}

/* Undo what the records fields[1..n-1] say cuenv did to name. */
static void undo_var(struct envmap *env, const char *name,
		     const struct strv *fields, size_t n)
{
	struct var_undo u = { STRV_INIT, NULL, 0, NULL, NULL, 0, 0, 0 };

	get_list(env, name, &u.list);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(fields[i].v[1], name))
			undo_record(&u, &fields[i]);
	undo_removals(&u);
	free(u.rm);
	undo_apply(env, name, &u);
	strv_release(&u.list);
}

/*
 * The records recs.v[1..] split into fields, and the names they touch,
 * each once, in order; false when one is malformed.
 */
static bool undo_parse(const struct strv *recs, struct strv *fields,
		       struct strv *names)
{
	for (size_t i = 1; i < recs->n; i++) {
		if (split_record(recs->v[i], strlen(recs->v[i]), &fields[i]) ||
		    fields[i].n < 2 || strlen(fields[i].v[0]) != 1)
			return false;
		/* a name with '=' would set another variable (the state's) */
		if (!*fields[i].v[1] || strchr(fields[i].v[1], '='))
			return false;
		if (strv_find(names, fields[i].v[1]) < 0)
			strv_push(names, fields[i].v[1]);
	}
	return true;
}

/*
 * A venv's activate saves PATH in _OLD_VIRTUAL_PATH and its deactivate
 * puts it back: cuenv's PATH entries are kept the same there, so that
 * a deactivate neither brings back a folder cuenv took out nor drops
 * one it put in. Undoing takes each entry cuenv prepended out of it
 * once (as the venv saved it from PATH, or as activation mirrored it).
 */
static void undo_venv_path(struct envmap *env, const struct strv *fields,
			   size_t n)
{
	const char *old = envmap_get(env, ENV_VENV_PATH);
	struct strv list = STRV_INIT;

	if (!old || !*old)
		return;
	get_list(env, ENV_VENV_PATH, &list);
	for (size_t i = 1; i < n; i++) {
		long at;

		if (strcmp(fields[i].v[0], "P") || fields[i].n != 3 ||
		    strcmp(fields[i].v[1], "PATH"))
			continue;
		at = strv_find(&list, fields[i].v[2]);
		if (at >= 0)
			strv_remove(&list, (size_t)at);
	}
	set_list(env, ENV_VENV_PATH, &list);
	strv_release(&list);
}

void env_undo(struct envmap *env)
{
	const char *state = envmap_get(env, ENV_STATE_VAR);
	struct strv recs = STRV_INIT, names = STRV_INIT;
	struct strv *fields = NULL;

	if (state && !strncmp(state, "1", 1) &&
	    (!state[1] || state[1] == ';')) {
		strv_split(&recs, state, ';');
		fields = xcalloc(recs.n, sizeof(*fields));
		/* malformed: touch nothing */
		if (undo_parse(&recs, fields, &names)) {
			for (size_t k = 0; k < names.n; k++)
				undo_var(env, names.v[k], fields, recs.n);
			undo_venv_path(env, fields, recs.n);
		}
	}
	envmap_unset(env, ENV_STATE_VAR);
	if (fields)
		for (size_t i = 0; i < recs.n; i++)
			strv_release(&fields[i]);
	free(fields);
	strv_release(&recs);
	strv_release(&names);
}

/* ---- activation ------------------------------------------------------------ */

int env_dir_has_cuda_libs(const char *dir, struct buf *example)
{
	struct plat_dir *d = plat_opendir(dir);
	const char *name;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (name = plat_readdir(d))) {
		unsigned long majors;

		if (nvlib_is_cuda_file(name) ||
		    nvlib_match_dll(name, &majors)) {
			buf_sets(example, name);
			found = 1;
		}
	}
	plat_closedir(d);
	return found;
}

static void real_paths(const struct strv *dirs, struct strv *out)
{
	for (size_t i = 0; i < dirs->n; i++) {
		char *r = plat_realpath(dirs->v[i]);

		if (r)
			strv_push_take(out, r);
	}
}

/* Is dir, followed through links, one of the folders in reals? */
static int same_folder(const struct strv *reals, const char *dir)
{
	char *r = plat_realpath(dir);
	int same = r && strv_find(reals, r) >= 0;

	free(r);
	return same;
}

/*
 * Prepend entries to the list variable name: a user entry equal to one of
 * ours is moved (recorded as R), foreign CUDA dirs are stripped when
 * isolate (R too) or reported.
 */
static void apply_list(struct envmap *env, const char *name,
		       const struct strv *entries, int isolate,
		       struct strv *warnings, struct buf *state)
{
	struct strv list = STRV_INIT, kept = STRV_INIT, reals = STRV_INIT;
	const char *cur = envmap_get(env, name);
	/* The list the loader searches: LD_LIBRARY_PATH; Windows' PATH. */
	int check_foreign =
		!strcmp(name, envmap_rules(env)->style == PLAT_PATH_WINDOWS
				      ? "PATH"
				      : "LD_LIBRARY_PATH");

	if (!entries->n)
		return;
	if (!cur)
		buf_printf(state, ";U,%s", name);
	else if (!*cur)
		buf_printf(state, ";E,%s", name);
	get_list(env, name, &list);
	if (check_foreign)
		real_paths(entries, &reals);
	for (size_t i = 0; i < list.n; i++) {
		struct buf ex = BUF_INIT;
		int ours = strv_find(entries, list.v[i]) >= 0;
		int foreign = !ours && check_foreign && *list.v[i] &&
			      !same_folder(&reals, list.v[i]) &&
			      env_dir_has_cuda_libs(list.v[i], &ex);

		if (ours || (foreign && isolate)) {
			buf_printf(state, ";R,%s,%zu", name, i);
			put_field(state, list.v[i]);
		} else {
			if (foreign && warnings) {
				struct buf w = BUF_INIT;

				buf_printf(&w, "%s (%s)", list.v[i], ex.data);
				strv_push_take(warnings, buf_detach(&w));
			}
			strv_push(&kept, list.v[i]);
		}
		buf_release(&ex);
	}
	for (size_t i = entries->n; i-- > 0;) {
		strv_insert(&kept, 0, entries->v[i]);
	}
	for (size_t i = 0; i < entries->n; i++) {
		buf_printf(state, ";P,%s", name);
		put_field(state, entries->v[i]);
	}
	set_list(env, name, &kept);
	strv_release(&list);
	strv_release(&kept);
	strv_release(&reals);
}

static void apply_scalar(struct envmap *env, const char *name,
			 const char *value, struct buf *state)
{
	const char *old = envmap_get(env, name);

	if (!value)
		return;
	buf_printf(state, ";S,%s", name);
	put_field(state, value);
	if (old) {
		buf_printf(state, ";O,%s", name);
		put_field(state, old);
	}
	envmap_set(env, name, value);
}

/*
 * Only absolute entries without ':' or newlines (core/store/trust.h): anything
 * else would put relative folders on the list that undo cannot remove.
 * Receipts and `cuenv add` refuse such paths already; this is the last
 * line.
 */
static void add_unique_but(const struct plat_path_rules *r, struct strv *to,
			   const struct strv *from, const struct strv *skip)
{
	for (size_t i = 0; i < from->n; i++)
		if (trust_path_listable_in(r, from->v[i]) &&
		    strv_find(to, from->v[i]) < 0 &&
		    (!skip || strv_find(skip, from->v[i]) < 0))
			strv_push(to, from->v[i]);
}

/*
 * An install's folders, less those the loader or the shell search already
 * (a system toolkit's /usr/lib/x86_64-linux-gnu, /usr/bin): put first on
 * the path they would shadow everything else the system has there.
 */
static void add_own(const struct plat_path_rules *r, struct strv *to,
		    const struct store_version *in, const struct strv *from)
{
	add_unique_but(r, to, from, &in->searched);
}

/*
 * For the linker (LIBRARY_PATH), which reads no ld.so.cache: only a
 * system toolkit's folders (prefix /usr, detect_activation()) are ones it
 * searches by default.
 */
static void add_link(const struct plat_path_rules *r, struct strv *to,
		     const struct store_version *in, const struct strv *from)
{
	size_t n = in->prefix ? strlen(in->prefix) : 0;
	bool system = n >= 4 && !strcmp(in->prefix + n - 4, "/usr");

	add_unique_but(r, to, from, system ? &in->searched : NULL);
}

/* PATH's new entries, in front of a venv's saved PATH too (undo_venv_path). */
static void venv_path(struct envmap *env, const struct strv *bin)
{
	const char *old = envmap_get(env, ENV_VENV_PATH);
	struct strv list = STRV_INIT;

	if (!old || !*old || !bin->n)
		return;
	get_list(env, ENV_VENV_PATH, &list);
	for (size_t i = bin->n; i-- > 0;)
		strv_insert(&list, 0, bin->v[i]);
	set_list(env, ENV_VENV_PATH, &list);
	strv_release(&list);
}

void env_activate(struct envmap *env, const struct active *act,
		  struct strv *warnings)
{
	const struct plat_path_rules *r = envmap_rules(env);
	int windows = r->style == PLAT_PATH_WINDOWS;
	struct strv bin = STRV_INIT, lib = STRV_INIT, inc = STRV_INIT;
	struct strv link = STRV_INIT;
	/* Windows' loader searches PATH: the libraries go there. */
	struct strv *libs = windows ? &bin : &lib;
	struct buf state = BUF_INIT, label = BUF_INIT;
	char *home;

	buf_adds(&state, "1");
	add_own(r, &bin, act->cuda, &act->cuda->bin);
	if (act->first_libs && !windows)
		add_unique_but(r, &lib, act->first_libs, NULL);
	if (act->cudnn) {
		add_own(r, libs, act->cudnn, &act->cudnn->lib);
		add_link(r, &link, act->cudnn, &act->cudnn->lib);
		add_own(r, &inc, act->cudnn, &act->cudnn->include);
	}
	add_own(r, libs, act->cuda, &act->cuda->lib);
	add_link(r, &link, act->cuda, &act->cuda->lib);
	add_own(r, libs, act->cuda, &act->cuda->cupti);
	add_link(r, &link, act->cuda, &act->cuda->cupti);
	if (act->cupti) {
		add_own(r, libs, act->cupti, &act->cupti->cupti);
		add_link(r, &link, act->cupti, &act->cupti->cupti);
	}
	add_own(r, &inc, act->cuda, &act->cuda->include);

	venv_path(env, &bin);
	if (windows) {
		apply_list(env, "PATH", &bin, act->isolate, warnings, &state);
	} else {
		apply_list(env, "PATH", &bin, 0, NULL, &state);
		apply_list(env, "LD_LIBRARY_PATH", &lib, act->isolate, warnings,
			   &state);
		apply_list(env, "LIBRARY_PATH", &link, 0, NULL, &state);
		apply_list(env, "CPATH", &inc, 0, NULL, &state);
	}
	home = store_version_cuda_home(act->cuda);
	apply_scalar(env, "CUDA_HOME", home, &state);
	apply_scalar(env, "CUDA_PATH", home, &state);
	free(home);
	if (act->cudnn)
		apply_scalar(env, "CUDNN_PATH", act->cudnn->prefix, &state);
	buf_adds(&label, act->cuda->version);
	if (act->cudnn)
		buf_printf(&label, "+cudnn%s", act->cudnn->version);
	if (act->cupti)
		buf_printf(&label, "+cupti%s", act->cupti->version);
	apply_scalar(env, "CUENV_ACTIVE", label.data, &state);
	envmap_set(env, ENV_STATE_VAR, state.data);

	strv_release(&bin);
	strv_release(&lib);
	strv_release(&link);
	strv_release(&inc);
	buf_release(&state);
	buf_release(&label);
}
