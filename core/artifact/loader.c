#include "artifact/loader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plat/plat_path.h"
#include "plat/file.h"
#include "plat/plat_fs.h"
#include "base/xalloc.h"

static const char *const source_names[] = {
	[LOADER_GIVEN] = "path",
	[LOADER_LOADED] = "already loaded",
	[LOADER_RPATH] = "RPATH",
	[LOADER_LIBRARY_PATH] = "LD_LIBRARY_PATH",
	[LOADER_RUNPATH] = "RUNPATH",
	[LOADER_CACHE] = "ld.so.cache",
	[LOADER_DEFAULT] = "default folders",
	[LOADER_MAPPED] = "mapped",
};

const char *loader_source_name(enum loader_source s)
{
	return source_names[s];
}

void loader_init(struct loader *l, const struct loader_env *env)
{
	memset(l, 0, sizeof(*l));
	l->env = *env;
	l->program = LOADER_NONE;
	/* glibc splits LD_LIBRARY_PATH at ':' and ';' alike */
	if (env->library_path) {
		struct buf b = BUF_INIT;

		buf_adds(&b, env->library_path);
		for (char *p = b.data; *p; p++)
			if (*p == ';')
				*p = ':';
		strv_split(&l->library_path, b.data, ':');
		buf_release(&b);
	}
}

void loader_release(struct loader *l)
{
	for (size_t i = 0; i < l->nobj; i++) {
		free(l->obj[i].path);
		strv_release(&l->obj[i].names);
		elf_info_release(&l->obj[i].elf);
		elf_symvers_release(&l->obj[i].vers);
	}
	for (size_t i = 0; i < l->nmiss; i++)
		FREE_EACH(l->miss[i].name, l->miss[i].why);
	for (size_t i = 0; i < l->nprob; i++)
		FREE_EACH(l->prob[i].version, l->prob[i].symbol);
	for (size_t i = 0; i < l->ndirs; i++) {
		free(l->dirs[i].path);
		strv_release(&l->dirs[i].names);
	}
	FREE_EACH(l->obj, l->miss, l->prob, l->dirs);
	strv_release(&l->library_path);
	memset(l, 0, sizeof(*l));
}

/* ---- expanding path lists ------------------------------------------------ */

/* The token at *p ("ORIGIN" or "{ORIGIN}" after a '$'), advancing *p. */
static bool token(const char **p, const char *name)
{
	size_t n = strlen(name);

	if (!strncmp(*p, name, n) &&
	    !((*p)[n] == '_' || ((*p)[n] >= 'A' && (*p)[n] <= 'Z') ||
	      ((*p)[n] >= 'a' && (*p)[n] <= 'z') ||
	      ((*p)[n] >= '0' && (*p)[n] <= '9'))) {
		*p += n;
		return true;
	}
	if (**p == '{' && !strncmp(*p + 1, name, n) && (*p)[n + 1] == '}') {
		*p += n + 2;
		return true;
	}
	return false;
}

bool loader_expand(const struct loader_env *env, const char *origin,
		   const char *entry, struct buf *out)
{
	buf_reset(out);
	for (const char *p = entry; *p;) {
		const char *value = NULL;

		if (*p != '$') {
			buf_addc(out, *p++);
			continue;
		}
		p++;
		if (token(&p, "ORIGIN"))
			value = origin;
		else if (token(&p, "LIB"))
			value = env->lib;
		else if (token(&p, "PLATFORM"))
			value = env->platform;
		else
			return false; /* an unknown token: ld.so drops it */
		if (!value)
			return false;
		buf_adds(out, value);
	}
	return true;
}

/* ---- finding and reading one object -------------------------------------- */

enum try_result {
	TRY_NONE,  /* no such file here: go on */
	TRY_OTHER, /* an ELF file of another class or machine: go on */
	TRY_BAD,   /* not ELF, or damaged: the search stops */
	TRY_FOUND,
};

/* The parts of the object read from path, before it joins the list. */
struct candidate {
	struct elf_info elf;
	struct elf_symvers vers;
	struct plat_file_id id;
	struct buf why;
};

static void candidate_release(struct candidate *c)
{
	elf_info_release(&c->elf);
	elf_symvers_release(&c->vers);
	buf_release(&c->why);
}

static enum try_result try_file(struct loader *l, const char *path,
				struct candidate *c)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct plat_stat st;
	struct file_map m;
	enum try_result res = TRY_FOUND;
	int rc;

	if (plat_stat(path, &st) || st.type != PLAT_F_REG)
		return TRY_NONE;
	rc = file_map(path, 1, &m, &err);
	if (rc == CUENV_NO) {
		file_unmap(&m);
		buf_adds(&c->why, m.regular ? "file too short" : "not a file");
		return TRY_BAD;
	}
	if (rc) {
		file_unmap(&m);
		return TRY_NONE; /* unreadable: ld.so goes on */
	}
	rc = elf_parse_dynamic(m.data, m.len, path, &c->elf, &err);
	if (!rc)
		rc = elf_parse_symvers(m.data, m.len, path, &c->vers, &err);
	if (rc) {
		buf_adds(&c->why,
			 rc == CUENV_NO ? "invalid ELF header" : err.msg.data);
		res = TRY_BAD;
	} else if (l->nobj &&
		   (c->elf.bits != l->bits || c->elf.machine != l->machine)) {
		res = TRY_OTHER;
	}
	file_unmap(&m);
	err_release(&err);
	c->id = st.id;
	return res;
}

/* ---- folders, listed once ------------------------------------------------ */

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* List folder path into d (d->path set). */
static void dir_list(struct loader_dir *d)
{
	const char *at = *d->path ? d->path : ".", *name;
	struct plat_dir *dir = plat_opendir(at);
	struct plat_stat st;

	d->names = (struct strv)STRV_INIT;
	if (!dir) {
		/* ld.so's open() fails in a folder that is not there */
		d->state = plat_stat(at, &st) || st.type != PLAT_F_DIR
				   ? LOADER_DIR_ABSENT
				   : LOADER_DIR_UNLISTED;
		return;
	}
	while ((name = plat_readdir(dir)))
		strv_push(&d->names, name);
	d->state = errno ? LOADER_DIR_UNLISTED : LOADER_DIR_LISTED;
	plat_closedir(dir);
	strv_sort(&d->names);
}

/* Folder path, listed the first time it is asked for. */
static const struct loader_dir *dir_get(struct loader *l, const char *path)
{
	size_t lo = 0, hi = l->ndirs;
	struct loader_dir *d;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(l->dirs[mid].path, path);

		if (!c)
			return &l->dirs[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	l->dirs = xrealloc(l->dirs, (l->ndirs + 1) * sizeof(*l->dirs));
	memmove(&l->dirs[lo + 1], &l->dirs[lo],
		(l->ndirs - lo) * sizeof(*l->dirs));
	l->ndirs++;
	d = &l->dirs[lo];
	d->path = xstrdup(path);
	dir_list(d);
	return d;
}

/* Could folder dir hold name? Only a listing without it says no. */
static bool dir_may_have(struct loader *l, const char *dir, const char *name)
{
	const struct loader_dir *d = dir_get(l, dir);

	if (d->state == LOADER_DIR_ABSENT)
		return false;
	return d->state != LOADER_DIR_LISTED ||
	       (d->names.n && bsearch(&name, d->names.v, d->names.n,
				      sizeof(char *), cmp_name));
}

/* Search folder dir (after expansion) for name. */
static enum try_result try_dir(struct loader *l, const char *dir,
			       const char *name, struct candidate *c,
			       struct buf *path)
{
	enum try_result r;

	if (!dir_may_have(l, dir, name))
		return TRY_NONE;
	buf_reset(path);
	buf_printf(path, "%s%s%s", dir, *dir ? "/" : "", name);
	r = try_file(l, path->data, c);
	if (r == TRY_OTHER) {
		elf_info_release(&c->elf);
		elf_symvers_release(&c->vers);
	}
	return r;
}

/* The folder of path: $ORIGIN. */
static void dir_of(const char *path, struct buf *out)
{
	const char *slash = strrchr(path, '/');

	buf_reset(out);
	if (!slash)
		buf_adds(out, ".");
	else if (slash == path)
		buf_adds(out, "/");
	else
		buf_add(out, path, (size_t)(slash - path));
}

/* Search each entry of a ':'-separated list (of object at, for $ORIGIN). */
static enum try_result try_list(struct loader *l, const char *list, size_t at,
				const char *name, struct candidate *c,
				struct buf *path)
{
	struct strv dirs = STRV_INIT;
	struct buf origin = BUF_INIT, dir = BUF_INIT;
	enum try_result r = TRY_NONE;

	strv_split(&dirs, list, ':');
	dir_of(l->obj[at].path, &origin);
	for (size_t i = 0; i < dirs.n && r != TRY_FOUND && r != TRY_BAD; i++)
		if (loader_expand(&l->env, origin.data, dirs.v[i], &dir))
			r = try_dir(l, dir.data, name, c, path);
	strv_release(&dirs);
	BUF_RELEASE_EACH(&origin, &dir);
	return r;
}

/* Object o's DT_RPATH if the loader searches it: only without DT_RUNPATH. */
static const char *rpath_of(const struct loader *l, size_t o)
{
	const struct elf_info *e;

	if (!l->obj || o >= l->nobj)
		return NULL;
	e = &l->obj[o].elf;
	return e->runpath ? NULL : e->rpath;
}

/* Step 3: the DT_RPATH of the loading chain, then of the program. */
static enum try_result try_rpaths(struct loader *l, size_t by, const char *name,
				  struct candidate *c, struct buf *path)
{
	enum try_result r = TRY_NONE;
	bool program_seen = false;
	const char *rpath;

	for (size_t o = by; o < l->nobj; o = l->obj[o].loader) {
		program_seen |= o == l->program;
		rpath = rpath_of(l, o);
		if (rpath)
			r = try_list(l, rpath, o, name, c, path);
		if (r == TRY_FOUND || r == TRY_BAD)
			return r;
	}
	rpath = program_seen ? NULL : rpath_of(l, l->program);
	if (rpath)
		r = try_list(l, rpath, l->program, name, c, path);
	return r;
}

/* Steps 6 and 7: the cache, then the default folders. */
static enum try_result try_system(struct loader *l, const char *name,
				  struct candidate *c, struct buf *path,
				  enum loader_source *src)
{
	enum try_result r = TRY_NONE;

	*src = LOADER_CACHE;
	for (size_t i = 0; l->env.cache && i < l->env.cache->n; i++) {
		const struct ldcache_entry *e = &l->env.cache->v[i];

		if (strcmp(e->soname, name))
			continue;
		buf_sets(path, e->path);
		r = try_file(l, path->data, c);
		if (r == TRY_FOUND || r == TRY_BAD)
			return r;
		if (r == TRY_OTHER) {
			elf_info_release(&c->elf);
			elf_symvers_release(&c->vers);
		}
	}
	*src = LOADER_DEFAULT;
	for (size_t i = 0; l->env.defaults && i < l->env.defaults->n; i++) {
		r = try_dir(l, l->env.defaults->v[i], name, c, path);
		if (r == TRY_FOUND || r == TRY_BAD)
			return r;
	}
	return TRY_NONE;
}

/* Search for name as asked by object by: fills path, *src. */
static enum try_result search(struct loader *l, size_t by, const char *name,
			      struct candidate *c, struct buf *path,
			      enum loader_source *src)
{
	const struct elf_info *asker = by != LOADER_NONE ? &l->obj[by].elf
				       : l->program != LOADER_NONE
					       ? &l->obj[l->program].elf
					       : NULL;
	enum try_result r = TRY_NONE;

	if (strchr(name, '/')) {
		*src = LOADER_GIVEN;
		buf_sets(path, name);
		return try_file(l, name, c);
	}
	if (!asker || !asker->runpath) {
		*src = LOADER_RPATH;
		r = try_rpaths(l, by, name, c, path);
		if (r == TRY_FOUND || r == TRY_BAD)
			return r;
	}
	*src = LOADER_LIBRARY_PATH;
	for (size_t i = 0; i < l->library_path.n; i++) {
		struct buf dir = BUF_INIT;
		bool ok =
			loader_expand(&l->env, "", l->library_path.v[i], &dir);

		r = ok ? try_dir(l, dir.data, name, c, path) : TRY_NONE;
		buf_release(&dir);
		if (r == TRY_FOUND || r == TRY_BAD)
			return r;
	}
	if (asker && asker->runpath) {
		size_t at = by != LOADER_NONE ? by : l->program;

		*src = LOADER_RUNPATH;
		r = try_list(l, asker->runpath, at, name, c, path);
		if (r == TRY_FOUND || r == TRY_BAD)
			return r;
	}
	if (asker && asker->nodeflib)
		return TRY_NONE;
	return try_system(l, name, c, path, src);
}

/* ---- the list of loaded objects ------------------------------------------ */

const struct loader_obj *loader_find(const struct loader *l, const char *name)
{
	for (size_t i = 0; i < l->nobj; i++)
		if (strv_find(&l->obj[i].names, name) >= 0)
			return &l->obj[i];
	return NULL;
}

static void add_miss(struct loader *l, const char *name, size_t by,
		     const char *why)
{
	l->miss = xrealloc(l->miss, (l->nmiss + 1) * sizeof(*l->miss));
	l->miss[l->nmiss++] =
		(struct loader_miss){ xstrdup(name), by, xstrdup(why) };
}

void loader_forget_misses(struct loader *l, size_t from)
{
	for (size_t i = from; i < l->nmiss; i++)
		FREE_EACH(l->miss[i].name, l->miss[i].why);
	if (from < l->nmiss)
		l->nmiss = from;
}

bool loader_defaults_parse(const char *help, struct strv *out)
{
	static const char tag[] = " (system search path)";
	struct strv lines = STRV_INIT;
	bool any = false;

	strv_split(&lines, help, '\n');
	for (size_t i = 0; i < lines.n; i++) {
		char *p = lines.v[i], *end = strstr(p, tag);

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '/' || !end || end[sizeof(tag) - 1])
			continue;
		*end = '\0';
		if (strv_find(out, p) < 0)
			strv_push(out, p);
		any = true;
	}
	strv_release(&lines);
	return any;
}

static bool is_dir(const char *path)
{
	struct plat_stat st;

	return !plat_stat(path, &st) && st.type == PLAT_F_DIR;
}

void loader_defaults_guess(const char *machine, struct strv *out)
{
	static const struct {
		const char *machine, *triplet;
	} arch[] = {
		{ "x86_64", "x86_64-linux-gnu" },
		{ "aarch64", "aarch64-linux-gnu" },
		{ "ppc64le", "powerpc64le-linux-gnu" },
	};
	const char *triplet = NULL;
	struct buf d = BUF_INIT;
	const char *tops[] = { "/lib", "/usr/lib" };

	for (size_t i = 0; i < sizeof(arch) / sizeof(*arch); i++)
		if (machine && !strcmp(machine, arch[i].machine))
			triplet = arch[i].triplet;
	for (size_t i = 0; i < 2; i++) {
		buf_reset(&d);
		if (triplet)
			buf_path(&d, tops[i], triplet);
		if (!triplet || !is_dir(d.data)) {
			buf_reset(&d);
			buf_printf(&d, "%s64", tops[i]);
		}
		if (is_dir(d.data) && strv_find(out, d.data) < 0)
			strv_push(out, d.data);
	}
	for (size_t i = 0; i < 2; i++)
		if (is_dir(tops[i]) && strv_find(out, tops[i]) < 0)
			strv_push(out, tops[i]);
	buf_release(&d);
}

/* Name an object by name too (what a later request matches). */
static void add_name(struct loader_obj *o, const char *name)
{
	if (strv_find(&o->names, name) < 0)
		strv_push(&o->names, name);
}

/*
 * Resolve name as asked by object by; *idx is its object. False when it
 * cannot be loaded (recorded in l->miss).
 */
static bool resolve(struct loader *l, size_t by, const char *name, size_t *idx)
{
	struct candidate c = { .why = BUF_INIT };
	struct buf path = BUF_INIT;
	enum loader_source src;
	enum try_result r;
	struct loader_obj *o;
	bool ok = true;

	for (size_t i = 0; i < l->nobj; i++) {
		if (strv_find(&l->obj[i].names, name) >= 0 ||
		    (l->obj[i].elf.soname &&
		     !strcmp(l->obj[i].elf.soname, name))) {
			*idx = i;
			return true;
		}
	}
	elf_info_init(&c.elf);
	elf_symvers_init(&c.vers);
	r = search(l, by, name, &c, &path, &src);
	if (r != TRY_FOUND) {
		add_miss(l, name, by,
			 r == TRY_BAD ? c.why.data
				      : "cannot open shared "
					"object file: No such "
					"file or directory");
		ok = false;
		goto out;
	}
	/* the same file under another name is the same object */
	for (size_t i = 0; i < l->nobj; i++) {
		if (l->obj[i].id.dev == c.id.dev &&
		    l->obj[i].id.ino == c.id.ino) {
			add_name(&l->obj[i], name);
			*idx = i;
			goto out;
		}
	}
	if (!l->nobj) {
		l->bits = c.elf.bits;
		l->machine = c.elf.machine;
	}
	l->obj = xrealloc(l->obj, (l->nobj + 1) * sizeof(*l->obj));
	o = &l->obj[l->nobj];
	memset(o, 0, sizeof(*o));
	o->path = buf_detach(&path);
	o->source = src;
	o->loader = by;
	o->elf = c.elf;
	o->vers = c.vers;
	o->id = c.id;
	elf_info_init(&c.elf);
	elf_symvers_init(&c.vers);
	add_name(o, name);
	if (o->elf.soname)
		add_name(o, o->elf.soname);
	*idx = l->nobj++;
out:
	candidate_release(&c);
	buf_release(&path);
	return ok;
}

/* Load the DT_NEEDED entries of every object from first on, breadth
 * first: the list grows as it is walked. */
static void load_deps(struct loader *l, size_t first)
{
	for (size_t i = first; i < l->nobj; i++) {
		for (size_t j = 0; j < l->obj[i].elf.needed.n; j++) {
			size_t idx;
			/* the list may move as it grows: copy the name */
			char *name = xstrdup(l->obj[i].elf.needed.v[j]);

			resolve(l, i, name, &idx);
			free(name);
		}
	}
}

int loader_program(struct loader *l, const char *path, struct cuenv_err *err)
{
	size_t idx, first = l->nobj;

	if (!resolve(l, LOADER_NONE, path, &idx))
		return cuenv_fail(err, CUENV_E_STORE, "cannot load '%s': %s",
				  path, l->miss[l->nmiss - 1].why);
	l->program = idx;
	load_deps(l, first);
	return CUENV_OK;
}

bool loader_adopt(struct loader *l, const char *path, bool program)
{
	size_t idx, first = l->nobj, nmiss = l->nmiss;

	if (!resolve(l, LOADER_NONE, path, &idx)) {
		loader_forget_misses(l, nmiss); /* not ELF: a data file */
		return false;
	}
	if (idx >= first)
		l->obj[idx].source = LOADER_MAPPED;
	if (program)
		l->program = idx;
	return true;
}

int loader_dlopen(struct loader *l, size_t by, const char *name, size_t *idx)
{
	size_t first = l->nobj;

	if (!resolve(l, by, name, idx))
		return CUENV_NO;
	load_deps(l, first);
	return CUENV_OK;
}

/* ---- symbol versions ----------------------------------------------------- */

static void add_problem(struct loader *l, size_t user, size_t provider,
			const char *version, const char *symbol)
{
	l->prob = xrealloc(l->prob, (l->nprob + 1) * sizeof(*l->prob));
	l->prob[l->nprob++] =
		(struct loader_problem){ user, provider, xstrdup(version),
					 symbol ? xstrdup(symbol) : NULL };
}

static size_t index_of(const struct loader *l, const char *name)
{
	const struct loader_obj *o = loader_find(l, name);

	return o ? (size_t)(o - l->obj) : LOADER_NONE;
}

/* Does any loaded object define sym with version? An object without
 * version definitions matches any version (glibc's check_match). */
static bool defined_anywhere(const struct loader *l, const char *sym,
			     const char *version)
{
	for (size_t i = 0; i < l->nobj; i++) {
		const struct elf_symvers *v = &l->obj[i].vers;

		if (elf_symvers_defines(v, sym, version))
			return true;
		if (!v->have_verdef && elf_symvers_defines(v, sym, NULL))
			return true;
	}
	return false;
}

void loader_check_versions(struct loader *l)
{
	for (size_t i = 0; i < l->nprob; i++)
		FREE_EACH(l->prob[i].version, l->prob[i].symbol);
	l->nprob = 0;
	for (size_t u = 0; u < l->nobj; u++) {
		const struct elf_symvers *v = &l->obj[u].vers;

		for (size_t r = 0; r < v->nrefs; r++) {
			size_t p = index_of(l, v->refs[r].file);
			const struct elf_symvers *pv;

			if (p == LOADER_NONE || v->refs[r].weak)
				continue;
			pv = &l->obj[p].vers;
			if (pv->have_verdef &&
			    strv_find(&pv->defined_versions,
				      v->refs[r].version) < 0)
				add_problem(l, u, p, v->refs[r].version, NULL);
		}
		for (size_t s = 0; s < v->nundef; s++) {
			const struct elf_symref *ref = &v->undef[s];
			size_t p = index_of(l, ref->file);

			/* an unloaded library is a miss already */
			if (p == LOADER_NONE || !l->obj[p].vers.symbols_known)
				continue;
			if (!defined_anywhere(l, ref->name, ref->version))
				add_problem(l, u, p, ref->version, ref->name);
		}
	}
}
