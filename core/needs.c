#include "needs.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "version.h"
#include "xalloc.h"

/* Folders nested deeper than this are not entered (a loop guard). */
#define WALK_DEPTH 64

/* The frameworks to look at: none when Python was not asked. */
static int frameworks(const struct needs_python *py)
{
	return py && py->exe ? NEEDS_FRAMEWORKS : 0;
}

/* ---- versions ------------------------------------------------------------ */

/* Does version v satisfy a framework built with want: same major, and at
 * least want (minor-version compatibility)? */
static int at_least(const char *v, const char *want)
{
	struct version a, b;

	if (version_parse(v, &a) || version_parse(want, &b) ||
	    a.part[0] != b.part[0])
		return 0;
	return version_matches(&a, &b) || version_cmp(&a, &b) > 0;
}

/* ---- what the files ask for ---------------------------------------------- */

void needs_scan_init(struct needs_scan *s)
{
	memset(s, 0, sizeof(*s));
}

void needs_scan_release(struct needs_scan *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct needs_want *w = &s->v[i];

		free(w->soname);
		strv_release(&w->needed_by);
		strv_release(&w->named_by);
		free(w->provided_by);
		free(w->found);
		free(w->range);
	}
	free(s->v);
	strv_release(&s->provides);
	strv_release(&s->warnings);
	needs_scan_init(s);
}

static void add_warning(struct needs_scan *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_warning(struct needs_scan *s, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	strv_push_take(&s->warnings, buf_detach(&b));
}

bool needs_want_managed(const struct needs_want *w)
{
	return w->lib != NVLIB_NCCL && !w->provided_by;
}

static int is_toolkit(enum nvlib_id lib)
{
	return lib != NVLIB_CUDNN && lib != NVLIB_NCCL;
}

static struct needs_want *want_get(struct needs_scan *s, const char *soname)
{
	struct needs_want *w;
	enum nvlib_id lib;
	const char *ver;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].soname, soname))
			return &s->v[i];
	if (!elf_cuda_soname(soname, &lib, &ver))
		return NULL;
	s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	w = &s->v[s->n++];
	memset(w, 0, sizeof(*w));
	w->soname = xstrdup(soname);
	w->lib = lib;
	w->version = w->soname + (ver - soname);
	return w;
}

void needs_scan_add(struct needs_scan *s, const char *path,
		    const struct elf_info *e)
{
	enum nvlib_id lib;
	const char *ver;
	struct needs_want *w;

	s->files++;
	for (size_t i = 0; i < e->needed.n; i++) {
		w = want_get(s, e->needed.v[i]);
		if (w && strv_find(&w->needed_by, path) < 0)
			strv_push(&w->needed_by, path);
	}
	for (size_t i = 0; i < e->cuda_named.n; i++) {
		if (strv_find(&e->needed, e->cuda_named.v[i]) >= 0)
			continue;
		w = want_get(s, e->cuda_named.v[i]);
		if (w && strv_find(&w->named_by, path) < 0)
			strv_push(&w->named_by, path);
	}
	if (e->soname && elf_cuda_soname(e->soname, &lib, &ver)) {
		strv_push(&s->provides, e->soname);
		strv_push(&s->provides, path);
	}
}

/*
 * Read one file. named: the user gave it as PATH, so a file that is not
 * ELF, or a broken one, is an error; inside a folder the first is skipped
 * quietly and the second with a warning.
 */
static int scan_file(struct needs_scan *s, const char *path, int named,
		     struct cuenv_err *err)
{
	struct elf_info e;
	struct cuenv_err own = CUENV_ERR_INIT;
	int rc;

	elf_info_init(&e);
	rc = elf_read_file(path, &e, named ? err : &own);
	if (!rc)
		needs_scan_add(s, path, &e);
	else if (named && rc == CUENV_NO)
		err->rc = rc = CUENV_E_USAGE;
	else if (!named && rc != CUENV_NO)
		add_warning(s, "skipped: %s", own.msg.data);
	if (!named)
		rc = CUENV_OK;
	elf_info_release(&e);
	err_release(&own);
	return rc;
}

/* Every ELF file under path (a folder), in name order, links not followed. */
static void walk(struct needs_scan *s, struct buf *path, unsigned depth)
{
	struct strv names = STRV_INIT;
	struct dirent *de;
	DIR *d = opendir(path->data);

	if (!d) {
		add_warning(s, "skipped '%s': %s", path->data, strerror(errno));
		return;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			strv_push(&names, de->d_name);
	closedir(d);
	strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		size_t keep = path->len;
		struct stat st;

		buf_path(path, path->data, names.v[i]);
		if (lstat(path->data, &st)) {
			add_warning(s, "skipped '%s': %s", path->data,
			     strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			if (depth < WALK_DEPTH)
				walk(s, path, depth + 1);
			else
				add_warning(s, "skipped '%s': nested too deep",
				     path->data);
		} else if (S_ISREG(st.st_mode)) {
			scan_file(s, path->data, 0, NULL);
		}
		buf_setlen(path, keep);
	}
	strv_release(&names);
}

int needs_scan_path(struct needs_scan *s, const char *path,
		    struct cuenv_err *err)
{
	struct stat st;
	struct buf walked = BUF_INIT, shown = BUF_INIT;
	int rc = CUENV_OK;

	buf_add_display(&shown, path, 200);
	if (stat(path, &st)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
				shown.data, strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		buf_adds(&walked, path);
		walk(s, &walked, 0);
	} else if (S_ISREG(st.st_mode)) {
		rc = scan_file(s, path, 1, err);
	} else {
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"'%s' is not a file or a folder", shown.data);
	}
	buf_release(&walked);
	buf_release(&shown);
	return rc;
}

static int cmp_want(const void *a, const void *b)
{
	const struct needs_want *x = a, *y = b;

	if (x->lib != y->lib)
		return x->lib < y->lib ? -1 : 1;
	return strcmp(x->soname, y->soname);
}

void needs_scan_finish(struct needs_scan *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_want);
	for (size_t i = 0; i < s->n; i++) {
		long k = strv_find(&s->provides, s->v[i].soname);

		/* provides holds pairs: an even index is a soname */
		for (size_t j = 0; k >= 0 && j + 1 < s->provides.n; j += 2) {
			if (!strcmp(s->provides.v[j], s->v[i].soname)) {
				free(s->v[i].provided_by);
				s->v[i].provided_by =
					xstrdup(s->provides.v[j + 1]);
				break;
			}
		}
	}
}

/* ---- what Python's frameworks report ------------------------------------- */

/*
 * fd 3 keeps the answer apart from whatever the frameworks print on
 * stdout or stderr. Versions come back as strings: cuDNN's integer
 * (8902, 90100) as "8.9.2", "9.1.0".
 */
const char needs_python_script[] =
	"import json, os, sys\n"
	"os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '3')\n"
	"def dnn(v):\n"
	"    if v is None:\n"
	"        return None\n"
	"    v = int(v)\n"
	"    if v >= 10000:\n"
	"        return '%d.%d.%d' % (v // 10000, v % 10000 // 100, v % 100)\n"
	"    return '%d.%d.%d' % (v // 1000, v % 1000 // 100, v % 100)\n"
	"def tensorflow():\n"
	"    import tensorflow as m\n"
	"    b = dict(m.sysconfig.get_build_info())\n"
	"    return {'version': m.__version__, 'cuda': b.get('cuda_version'),\n"
	"            'cudnn': b.get('cudnn_version')}\n"
	"def torch():\n"
	"    import torch as m\n"
	"    c = None\n"
	"    try:\n"
	"        c = dnn(m.backends.cudnn.version())\n"
	"    except Exception:\n"
	"        pass\n"
	"    return {'version': m.__version__, 'cuda': m.version.cuda,\n"
	"            'cudnn': c}\n"
	"def jax():\n"
	"    import jax as m\n"
	"    r = {'version': m.__version__, 'cuda': None, 'cudnn': None}\n"
	"    try:\n"
	"        from jax._src.lib import cuda_versions as cv\n"
	"        if cv is not None:\n"
	"            v = int(cv.cuda_runtime_build_version())\n"
	"            r['cuda'] = '%d.%d' % (v // 1000, v % 1000 // 10)\n"
	"            r['cudnn'] = dnn(cv.cudnn_build_version())\n"
	"    except Exception:\n"
	"        pass\n"
	"    return r\n"
	"out = {'python': sys.version.split()[0], 'frameworks': {}}\n"
	"for name, f in (('tensorflow', tensorflow), ('torch', torch),\n"
	"                ('jax', jax)):\n"
	"    try:\n"
	"        r = f()\n"
	"        out['frameworks'][name] = dict(\n"
	"            (k, None if v is None else str(v))\n"
	"            for k, v in r.items())\n"
	"    except BaseException as e:\n"
	"        out['frameworks'][name] = {\n"
	"            'absent': '%s: %s' % (type(e).__name__, e)}\n"
	"with os.fdopen(3, 'w') as f:\n"
	"    json.dump(out, f)\n";

const char *const needs_framework_names[NEEDS_FRAMEWORKS] = {
	"tensorflow", "torch", "jax"
};

void needs_python_init(struct needs_python *py, const char *exe)
{
	memset(py, 0, sizeof(*py));
	py->exe = exe;
}

void needs_python_release(struct needs_python *py)
{
	free(py->version);
	for (int i = 0; i < NEEDS_FRAMEWORKS; i++) {
		free(py->fw[i].version);
		free(py->fw[i].cuda);
		free(py->fw[i].cudnn);
		free(py->fw[i].absent);
	}
	needs_python_init(py, py->exe);
}

static char *json_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? xstrdup(s) : NULL;
}

/* A version from Python, or NULL when it is none ("11.2" yes, "None" no). */
static char *json_version(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s && version_is_valid(s) ? xstrdup(s) : NULL;
}

int needs_python_parse(struct needs_python *py, const char *text,
		       size_t len)
{
	json_t *j = json_loadb(text, len, 0, NULL), *fws;

	if (!j || !json_is_object(j)) {
		json_decref(j);
		return -1;
	}
	free(py->version);
	py->version = json_str(j, "python");
	fws = json_object_get(j, "frameworks");
	for (int i = 0; i < NEEDS_FRAMEWORKS; i++) {
		json_t *o = json_object_get(fws, needs_framework_names[i]);
		struct needs_framework *f = &py->fw[i];

		if (!json_is_object(o))
			continue;
		free(f->absent);
		free(f->version);
		free(f->cuda);
		free(f->cudnn);
		memset(f, 0, sizeof(*f));
		f->absent = json_str(o, "absent");
		if (f->absent)
			continue;
		f->version = json_str(o, "version");
		if (!f->version)
			f->version = xstrdup("?");
		f->cuda = json_version(o, "cuda");
		f->cudnn = json_version(o, "cudnn");
	}
	json_decref(j);
	return 0;
}

bool needs_asked(const struct needs_scan *s, const struct needs_python *py)
{
	for (size_t i = 0; i < s->n; i++)
		if (needs_want_managed(&s->v[i]))
			return true;
	for (int i = 0; i < frameworks(py); i++)
		if (py->fw[i].cuda || py->fw[i].cudnn)
			return true;
	return false;
}

/* ---- installed selections ------------------------------------------------ */

static int dirs_have(const struct strv *dirs, const char *name,
		     struct buf *found)
{
	struct stat st;

	for (size_t i = 0; i < dirs->n; i++) {
		buf_reset(found);
		buf_path(found, dirs->v[i], name);
		if (!stat(found->data, &st) && S_ISREG(st.st_mode))
			return 1;
	}
	return 0;
}

static int install_has(const struct install *in, const char *name,
		       struct buf *found)
{
	return in && (dirs_have(&in->lib, name, found) ||
		      dirs_have(&in->cupti, name, found));
}

static int combo_has(const struct needs_combo *c, const char *name,
		     struct buf *found)
{
	return install_has(c->cuda, name, found) ||
	       install_has(c->cudnn, name, found) ||
	       install_has(c->cupti, name, found);
}

/*
 * How many of the requests c fails, each named in lacks when given; with
 * record, the files it has go into the wants' found.
 */
static size_t combo_check(const struct needs_combo *c, struct needs_scan *s,
			  const struct needs_python *py, struct strv *lacks,
			  int record)
{
	struct buf found = BUF_INIT, why = BUF_INIT;
	size_t miss = 0;

	for (size_t i = 0; i < s->n; i++) {
		struct needs_want *w = &s->v[i];
		int has;

		if (w->provided_by)
			continue;
		has = combo_has(c, w->soname, &found);
		if (has && record) {
			free(w->found);
			w->found = xstrdup(found.data);
		}
		if (has || !needs_want_managed(w))
			continue;
		miss++;
		if (lacks)
			strv_push(lacks, w->soname);
	}
	for (int i = 0; i < frameworks(py); i++) {
		const struct needs_framework *f = &py->fw[i];

		if (f->cuda && !at_least(c->cuda->version, f->cuda)) {
			miss++;
			buf_reset(&why);
			buf_printf(&why, "CUDA %s (%s)", f->cuda,
				   needs_framework_names[i]);
			if (lacks)
				strv_push(lacks, why.data);
		}
		if (f->cudnn &&
		    !(c->cudnn && at_least(c->cudnn->version, f->cudnn))) {
			miss++;
			buf_reset(&why);
			buf_printf(&why, "cuDNN %s (%s)", f->cudnn,
				   needs_framework_names[i]);
			if (lacks)
				strv_push(lacks, why.data);
		}
	}
	buf_release(&found);
	buf_release(&why);
	return miss;
}

void needs_combo_describe(const struct needs_combo *c, struct buf *out)
{
	buf_printf(out, "cuda %s", c->cuda->version);
	if (c->cudnn)
		buf_printf(out, " + cudnn %s (cuda%u)", c->cudnn->version,
			   c->cudnn->cuda_major);
	if (c->cupti)
		buf_printf(out, " + cupti %s", c->cupti->version);
}

void needs_installed_init(struct needs_installed *in)
{
	memset(in, 0, sizeof(*in));
}

void needs_installed_release(struct needs_installed *in)
{
	install_list_release(&in->cudas);
	install_list_release(&in->cudnns);
	install_list_release(&in->cuptis);
	strv_release(&in->warnings);
	strv_release(&in->report);
	needs_installed_init(in);
}

int needs_installed_load(struct needs_installed *in, const char *root,
			 struct cuenv_err *err)
{
	struct store st;
	int rc;

	rc = store_open(&st, root, false, err);
	if (!rc)
		rc = store_list(&st, KIT_CUDA, &in->cudas, err);
	if (!rc)
		rc = store_list(&st, KIT_CUDNN, &in->cudnns, err);
	if (!rc)
		rc = store_list(&st, KIT_CUPTI, &in->cuptis, err);
	for (size_t i = 0; i < st.warnings.n; i++)
		strv_push(&in->warnings, st.warnings.v[i]);
	store_release(&st);
	return rc;
}

/* The install of l in the same folder as x, or NULL. */
static const struct install *same_install(const struct install_list *l,
					  const struct install *x)
{
	const struct install *found = NULL;

	for (size_t i = 0; x && i < l->n; i++)
		if (!strcmp(l->v[i]->dir, x->dir))
			found = l->v[i];
	return found;
}

/* The best combo for toolkit cu, its misses into *miss. */
static struct needs_combo best_for(const struct install *cu,
				   struct needs_scan *s,
				   const struct needs_python *py,
				   const struct needs_installed *in,
				   int want_dnn, size_t *miss)
{
	struct needs_combo best = { cu, NULL, NULL };
	size_t best_miss = (size_t)-1;

	/*
	 * Each cuDNN for this major, newest first, then none; or, when
	 * nothing asks for cuDNN, none first. CUPTI: none first, then each,
	 * newest first.
	 */
	for (size_t k = in->cudnns.n + 1; k-- > 0;) {
		size_t ni = want_dnn ? (k + in->cudnns.n) % (in->cudnns.n + 1)
				     : k;
		const struct install *dn =
			ni == in->cudnns.n ? NULL : in->cudnns.v[ni];

		if (dn && dn->cuda_major != cu->cuda_major)
			continue;
		for (size_t pi = in->cuptis.n + 1; pi-- > 0;) {
			struct needs_combo c = {
				cu, dn,
				pi == in->cuptis.n ? NULL : in->cuptis.v[pi]
			};
			size_t m = combo_check(&c, s, py, NULL, 0);

			if (m < best_miss) {
				best = c;
				best_miss = m;
			}
		}
	}
	*miss = best_miss;
	return best;
}

/* "cuda 12.4.1: lacks x, y" or "...: provides everything", into report. */
static void report_combo(const struct needs_combo *c, struct needs_scan *s,
			 const struct needs_python *py, struct strv *report)
{
	struct strv lacks = STRV_INIT;
	struct buf line = BUF_INIT;

	combo_check(c, s, py, &lacks, 0);
	needs_combo_describe(c, &line);
	if (lacks.n) {
		buf_adds(&line, ": lacks ");
		for (size_t k = 0; k < lacks.n; k++)
			buf_printf(&line, "%s%s", k ? ", " : "", lacks.v[k]);
	} else {
		buf_adds(&line, ": provides everything");
	}
	strv_push(report, line.data);
	strv_release(&lacks);
	buf_release(&line);
}

void needs_match_installed(struct needs_scan *s, const struct needs_python *py,
			   const struct needs_combo *active,
			   struct needs_installed *in)
{
	int want_dnn = 0;

	if (active && active->cuda && !combo_check(active, s, py, NULL, 0)) {
		/* the same installs, from our own lists */
		in->pick.cuda = same_install(&in->cudas, active->cuda);
		in->pick.cudnn = same_install(&in->cudnns, active->cudnn);
		in->pick.cupti = same_install(&in->cuptis, active->cupti);
		in->active = in->pick.cuda &&
			     !!in->pick.cudnn == !!active->cudnn &&
			     !!in->pick.cupti == !!active->cupti;
		if (!in->active)
			memset(&in->pick, 0, sizeof(in->pick));
	}

	for (size_t i = 0; i < s->n; i++)
		want_dnn |= needs_want_managed(&s->v[i]) &&
			    s->v[i].lib == NVLIB_CUDNN;
	for (int i = 0; i < frameworks(py); i++)
		want_dnn |= py->fw[i].cudnn != NULL;
	for (size_t ci = in->cudas.n; ci-- > 0;) {
		size_t miss;
		struct needs_combo best = best_for(in->cudas.v[ci], s, py, in,
						   want_dnn, &miss);

		if (!miss && !in->pick.cuda)
			in->pick = best;
		report_combo(&best, s, py, &in->report);
	}
	if (in->pick.cuda)
		combo_check(&in->pick, s, py, NULL, 1);
}

/* ---- the catalogue ------------------------------------------------------- */

void needs_offer_init(struct needs_offer *o)
{
	memset(o, 0, sizeof(*o));
	buf_init(&o->why);
}

void needs_offer_release(struct needs_offer *o)
{
	free(o->line);
	buf_release(&o->why);
	needs_offer_init(o);
}

static int cmp_version_desc(const void *a, const void *b)
{
	return version_cmp_str(*(char *const *)b, *(char *const *)a);
}

/* Every CUDA version the catalogue offers, newest first. */
static void cuda_versions(const struct catalog *cat, struct strv *out)
{
	for (size_t i = 0; i < cat->n; i++)
		if (cat->v[i]->kind == KIT_CUDA &&
		    strv_find(out, cat->v[i]->version) < 0)
			strv_push(out, cat->v[i]->version);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_version_desc);
}

/* Does release v give w's library under w's soname? */
static int gives(const char *v, const struct needs_want *w, struct buf *tmp)
{
	return elf_cuda_soname_version(w->lib, v, tmp) &&
	       version_matches_str(w->version, tmp->data);
}

/*
 * "CUDA 11.x", "CUDA 11.2", "CUDA 11.2-11.8, 12.x": the releases in all
 * (newest first) that give w, by minor; a major whose every minor does is
 * "M.x".
 */
static void describe_range(const struct strv *all, const struct needs_want *w,
			   struct buf *out)
{
	struct buf tmp = BUF_INIT;
	struct version *minors = NULL;
	int *hit = NULL;
	size_t n = 0, shown = 0;

	/* the distinct minors, oldest first, and whether any release of
	 * each gives w */
	for (size_t i = all->n; i-- > 0;) {
		struct version v;
		int g = gives(all->v[i], w, &tmp);

		if (version_parse(all->v[i], &v) || v.n < 2)
			continue;
		v.n = 2;
		if (n && !version_cmp(&minors[n - 1], &v)) {
			hit[n - 1] |= g;
			continue;
		}
		minors = xrealloc(minors, (n + 1) * sizeof(*minors));
		hit = xrealloc(hit, (n + 1) * sizeof(*hit));
		minors[n] = v;
		hit[n++] = g;
	}
	buf_reset(out);
	for (size_t i = 0; i < n;) {
		unsigned long M = minors[i].part[0];
		size_t end = i, hits = 0;

		while (end < n && minors[end].part[0] == M)
			hits += (size_t)hit[end++];
		if (hits && hits == end - i) {
			buf_printf(out, "%s%lu.x", shown++ ? ", " : "", M);
		} else {
			for (size_t k = i; k < end; k++) {
				size_t r = k;

				if (!hit[k])
					continue;
				while (r + 1 < end && hit[r + 1])
					r++;
				buf_printf(out, "%s%lu.%lu",
					   shown++ ? ", " : "", M,
					   minors[k].part[1]);
				if (r > k)
					buf_printf(out, "-%lu.%lu", M,
						   minors[r].part[1]);
				k = r;
			}
		}
		i = end;
	}
	if (shown) {
		struct buf t = BUF_INIT;

		buf_printf(&t, "CUDA %s", out->data);
		buf_sets(out, t.data);
		buf_release(&t);
	}
	free(minors);
	free(hit);
	buf_release(&tmp);
}

void needs_describe(struct needs_scan *s, const struct catalog *cat)
{
	struct strv all = STRV_INIT;
	struct buf b = BUF_INIT;

	cuda_versions(cat, &all);
	for (size_t i = 0; i < s->n; i++) {
		struct needs_want *w = &s->v[i];

		buf_reset(&b);
		if (w->lib == NVLIB_CUDNN)
			buf_printf(&b, "cuDNN %lu.x", version_major(w->version));
		else if (w->lib == NVLIB_NCCL)
			buf_adds(&b, "NCCL (cuenv does not install it)");
		else
			describe_range(&all, w, &b);
		if (!b.len)
			buf_adds(&b, "no CUDA release in the catalogue");
		free(w->range);
		w->range = buf_detach(&b);
	}
	buf_release(&b);
	strv_release(&all);
}

/*
 * The shortest prefix of version that the catalogue resolves to it; for
 * CUDA at least major.minor, as people name CUDA releases (12.4).
 */
static char *short_spec(const struct catalog *cat, enum kit_kind kind,
			const char *version, unsigned cuda_major)
{
	struct version v;
	struct buf b = BUF_INIT;

	if (version_parse(version, &v))
		return xstrdup(version);
	for (unsigned n = kind == KIT_CUDA && v.n > 1 ? 2 : 1; n <= v.n; n++) {
		const struct release *r;

		buf_reset(&b);
		for (unsigned k = 0; k < n; k++)
			buf_printf(&b, "%s%lu", k ? "." : "", v.part[k]);
		r = catalog_find(cat, kind, b.data, cuda_major, -1);
		if (r && !strcmp(r->version, version))
			return buf_detach(&b);
	}
	buf_release(&b);
	return xstrdup(version);
}

/* The newest CUDA (cudnn: cuDNN) version any framework reports, or NULL. */
static const char *newest_report(const struct needs_python *py, int cudnn)
{
	const char *top = NULL;

	for (int k = 0; k < frameworks(py); k++) {
		const char *v = cudnn ? py->fw[k].cudnn : py->fw[k].cuda;

		if (v && (!top || version_cmp_str(v, top) > 0))
			top = v;
	}
	return top;
}

/* Does v suit every framework's report (at least it, same major), and,
 * with top, match top itself? */
static int suits(const char *v, const struct needs_python *py, int cudnn,
		 const char *top)
{
	for (int k = 0; k < frameworks(py); k++) {
		const char *want = cudnn ? py->fw[k].cudnn : py->fw[k].cuda;

		if (want && !at_least(v, want))
			return 0;
	}
	return !top || version_matches_str(v, top);
}

/*
 * The newest cuDNN for CUDA major M that gives every cuDNN soname asked
 * for (one major, or 0) and suits every framework; with top, of that
 * very version.
 */
static const struct release *pick_cudnn(const struct catalog *cat,
					unsigned M, unsigned long dnn_major,
					const struct needs_python *py,
					const char *top)
{
	const struct release *best = NULL;

	for (size_t i = 0; i < cat->n; i++) {
		const struct release *r = cat->v[i];

		if (r->kind != KIT_CUDNN || r->cuda_major != M ||
		    (dnn_major && version_major(r->version) != dnn_major) ||
		    !suits(r->version, py, 1, top))
			continue;
		if (!best || version_cmp_str(r->version, best->version) > 0)
			best = r;
	}
	return best;
}

/* Can CUDA release v give everything (CUPTI from elsewhere when
 * !own_cupti: then *cupti is the CUPTI soname version it must add)? */
static int toolkit_fits(const char *v, const struct needs_scan *s,
			const struct needs_python *py, int own_cupti,
			const char *top, const char **cupti)
{
	struct buf tmp = BUF_INIT;
	int ok = 1;

	*cupti = NULL;
	for (size_t i = 0; ok && i < s->n; i++) {
		const struct needs_want *w = &s->v[i];

		if (!needs_want_managed(w) || !is_toolkit(w->lib) ||
		    gives(v, w, &tmp))
			continue;
		if (w->lib == NVLIB_CUPTI && !own_cupti &&
		    (!*cupti || !strcmp(*cupti, w->version)))
			*cupti = w->version;
		else
			ok = 0;
	}
	buf_release(&tmp);
	return ok && suits(v, py, 0, top);
}

/* The release in all whose CUPTI has soname version cupti, or NULL. */
static const struct release *cupti_release(const struct catalog *cat,
					   const struct strv *all,
					   const char *cupti)
{
	const struct release *cp = NULL;
	struct buf t = BUF_INIT;

	for (size_t k = 0; k < all->n && !cp; k++)
		if (elf_cuda_soname_version(NVLIB_CUPTI, all->v[k], &t) &&
		    !strcmp(t.data, cupti))
			cp = catalog_find(cat, KIT_CUDA, all->v[k], 0, -1);
	buf_release(&t);
	return cp;
}

/* The `cuenv install` line for what o holds. */
static char *install_line(const struct catalog *cat,
			  const struct needs_offer *o)
{
	struct buf line = BUF_INIT;
	char *c = short_spec(cat, KIT_CUDA, o->cuda->version, 0);

	buf_printf(&line, "cuenv install %s", c);
	free(c);
	if (o->cudnn) {
		char *d = short_spec(cat, KIT_CUDNN, o->cudnn->version,
				     o->cuda->cuda_major);

		buf_printf(&line, " --cudnn %s", d);
		free(d);
	}
	if (o->cupti) {
		char *p = short_spec(cat, KIT_CUDA, o->cupti->version, 0);

		buf_printf(&line, " --cupti %s", p);
		free(p);
	}
	return buf_detach(&line);
}

void needs_find_offer(const struct catalog *cat, const struct needs_scan *s,
		      const struct needs_python *py, struct needs_offer *o)
{
	struct strv all = STRV_INIT;
	unsigned long dnn_major = 0;
	int need_dnn = 0;
	const char *top_cuda = newest_report(py, 0),
		   *top_dnn = newest_report(py, 1);

	for (size_t i = 0; i < s->n; i++) {
		const struct needs_want *w = &s->v[i];

		if (!needs_want_managed(w) || w->lib != NVLIB_CUDNN)
			continue;
		if (dnn_major && dnn_major != version_major(w->version)) {
			buf_printf(&o->why, "they ask for two cuDNN majors "
					    "(%lu and %lu)",
				   dnn_major, version_major(w->version));
			goto out;
		}
		dnn_major = version_major(w->version);
		need_dnn = 1;
	}
	need_dnn |= top_dnn != NULL;
	cuda_versions(cat, &all);
	/*
	 * The newest version a framework reports first (11.8 for 11.2 and
	 * 11.8), then any that suits them all; CUPTI of its own first.
	 */
	for (int exact = top_cuda != NULL; exact >= 0 && !o->cuda; exact--) {
		for (int own = 1; own >= 0 && !o->cuda; own--) {
			for (size_t i = 0; i < all.n && !o->cuda; i++) {
				const char *v = all.v[i], *cupti = NULL;
				const struct release *dn = NULL, *cp = NULL;
				unsigned M = (unsigned)version_major(v);

				if (!toolkit_fits(v, s, py, own,
						  exact ? top_cuda : NULL,
						  &cupti))
					continue;
				if (need_dnn) {
					if (top_dnn)
						dn = pick_cudnn(cat, M,
								dnn_major, py,
								top_dnn);
					if (!dn)
						dn = pick_cudnn(cat, M,
								dnn_major, py,
								NULL);
					if (!dn)
						continue;
				}
				if (cupti) {
					cp = cupti_release(cat, &all, cupti);
					if (!cp)
						continue;
				}
				o->cuda = catalog_find(cat, KIT_CUDA, v, 0, -1);
				o->cudnn = dn;
				o->cupti = cp;
			}
		}
	}
	if (!o->cuda) {
		buf_adds(&o->why, "no CUDA release in the catalogue gives all "
				  "of them");
		goto out;
	}
	o->line = install_line(cat, o);
out:
	strv_release(&all);
}
