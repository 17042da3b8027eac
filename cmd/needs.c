/*
 * needs.c: `cuenv needs`: which CUDA libraries a framework's binaries ask
 * for, and which versions, installed or in the catalogue, give them.
 *
 * The files say it two ways: DT_NEEDED entries (libtorch_cuda.so needs
 * libcudart.so.12) and names spelled out for dlopen (TensorFlow's
 * "libcupti.so.11.2"); core/elf reads both. A soname is satisfied by an
 * installed selection when one of its library folders holds that file,
 * and by a catalogue release when the release gives that library that
 * soname (elf_cuda_soname_version). With --python, the frameworks the
 * interpreter imports say what they were built with, which narrows the
 * choice further.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "../core/elf.h"
#include "../core/version.h"
#include "../core/xalloc.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv needs [--python [PYTHON]] [--json] PATH...\n"
	"\n"
	"Read the ELF files at PATH (a file, or every ELF file under a\n"
	"folder such as a framework's site-packages/tensorflow or torch/lib;\n"
	"symbolic links are not followed): the CUDA libraries they load\n"
	"(DT_NEEDED) and those they name to dlopen (libcudart.so.11.0,\n"
	"libcupti.so.11.2, libcudnn.so.8). Say which file asks for which,\n"
	"which installed CUDA, cuDNN and CUPTI versions provide them all,\n"
	"and otherwise which releases in the catalogue do, with the\n"
	"`cuenv install` line that gets them. A library that a file under\n"
	"PATH itself provides (its soname) is not asked of cuenv.\n"
	"\n"
	"  --python [PYTHON]  also ask the frameworks that PYTHON (default\n"
	"                     python3) imports what they were built with:\n"
	"                     TensorFlow's build info, torch.version.cuda and\n"
	"                     its cuDNN, jax; one that does not import is\n"
	"                     reported absent. PATH may then be left out\n"
	"  --json             one JSON object on stdout, for scripts\n"
	"\n"
	"Exit status: 0 when an installed selection provides everything (or\n"
	"nothing is asked of cuenv), 1 when something is missing (the install\n"
	"line is printed), 2 for a bad command line or a PATH that is not an\n"
	"ELF file or a folder, 3 for a corrupt ELF file named as PATH, 7 for\n"
	"a PATH that cannot be read.\n";

enum { O_PYTHON = 256, O_JSON };

static const struct option opts[] = {
	{ "python", optional_argument, NULL, O_PYTHON },
	{ "json", no_argument, NULL, O_JSON },
	{ NULL, 0, NULL, 0 },
};

/* Folders nested deeper than this are not entered (a loop guard). */
#define WALK_DEPTH 64
/* Files listed under each soname in the text report. */
#define SHOW_FILES 4

/* ---- what the files ask for ---------------------------------------------- */

struct want {
	char *soname;
	enum cuda_lib lib;
	const char *version;   /* into soname: "11.0" */
	struct strv needed_by; /* files whose DT_NEEDED name it */
	struct strv named_by;  /* files that name it in their bytes */
	char *provided_by;     /* a file under PATH whose soname it is */
	char *found;	       /* the file in the installed selection */
	char *range;	       /* "CUDA 11.x": the releases that give it */
};

struct scan {
	struct want *v;
	size_t n;
	size_t files;	     /* ELF files read */
	struct strv provides; /* soname, path, soname, path, ... */
};

static void scan_release(struct scan *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct want *w = &s->v[i];

		free(w->soname);
		strv_release(&w->needed_by);
		strv_release(&w->named_by);
		free(w->provided_by);
		free(w->found);
		free(w->range);
	}
	free(s->v);
	strv_release(&s->provides);
}

/*
 * Is it asked of cuenv? Not when a file under PATH provides it, and never
 * NCCL, which is reported but not something cuenv installs.
 */
static int managed(const struct want *w)
{
	return w->lib != CUDA_LIB_NCCL && !w->provided_by;
}

static int is_toolkit(enum cuda_lib lib)
{
	return lib != CUDA_LIB_CUDNN && lib != CUDA_LIB_NCCL;
}

static struct want *want_get(struct scan *s, const char *soname)
{
	struct want *w;
	enum cuda_lib lib;
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

static void add_file(struct scan *s, const char *path,
		     const struct elf_info *e)
{
	enum cuda_lib lib;
	const char *ver;
	struct want *w;

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
static int scan_file(struct scan *s, const char *path, int named,
		     struct cuenv_err *err)
{
	struct elf_info e;
	struct cuenv_err own = CUENV_ERR_INIT;
	int rc;

	elf_info_init(&e);
	rc = elf_read_file(path, &e, named ? err : &own);
	if (!rc)
		add_file(s, path, &e);
	else if (named && rc == CUENV_NO)
		err->rc = rc = CUENV_E_USAGE;
	else if (!named && rc != CUENV_NO)
		cmd_warn("skipped: %s", own.msg.data);
	if (!named)
		rc = CUENV_OK;
	elf_info_release(&e);
	err_release(&own);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every ELF file under path (a folder), in name order, links not followed. */
static void walk(struct scan *s, struct buf *path, unsigned depth)
{
	struct strv names = STRV_INIT;
	struct dirent *de;
	DIR *d = opendir(path->data);

	if (!d) {
		cmd_warn("skipped '%s': %s", path->data, strerror(errno));
		return;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			strv_push(&names, de->d_name);
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.n; i++) {
		size_t keep = path->len;
		struct stat st;

		buf_path(path, path->data, names.v[i]);
		if (lstat(path->data, &st)) {
			cmd_warn("skipped '%s': %s", path->data,
				 strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			if (depth < WALK_DEPTH)
				walk(s, path, depth + 1);
			else
				cmd_warn("skipped '%s': nested too deep",
					 path->data);
		} else if (S_ISREG(st.st_mode)) {
			scan_file(s, path->data, 0, NULL);
		}
		buf_setlen(path, keep);
	}
	strv_release(&names);
}

static int scan_path(struct scan *s, const char *arg, struct cuenv_err *err)
{
	struct stat st;
	struct buf path = BUF_INIT, shown = BUF_INIT;
	int rc = CUENV_OK;

	buf_add_display(&shown, arg, 200);
	if (stat(arg, &st)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
				shown.data, strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		buf_adds(&path, arg);
		walk(s, &path, 0);
	} else if (S_ISREG(st.st_mode)) {
		rc = scan_file(s, arg, 1, err);
	} else {
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"'%s' is not a file or a folder", shown.data);
	}
	buf_release(&path);
	buf_release(&shown);
	return rc;
}

static int cmp_want(const void *a, const void *b)
{
	const struct want *x = a, *y = b;

	if (x->lib != y->lib)
		return x->lib < y->lib ? -1 : 1;
	return strcmp(x->soname, y->soname);
}

/* After the scan: sort, and mark what the scanned files provide. */
static void scan_finish(struct scan *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_want);
	for (size_t i = 0; i < s->n; i++) {
		long k = strv_find(&s->provides, s->v[i].soname);

		/* provides holds pairs: an even index is a soname */
		for (size_t j = 0; k >= 0 && j + 1 < s->provides.n; j += 2) {
			if (!strcmp(s->provides.v[j], s->v[i].soname)) {
				s->v[i].provided_by =
					xstrdup(s->provides.v[j + 1]);
				break;
			}
		}
	}
}

/* ---- asking Python ------------------------------------------------------- */

/*
 * Run by PYTHON -c: imports each framework and writes one JSON object to
 * fd 3, so that whatever the frameworks print on stdout or stderr (which
 * go to /dev/null) cannot garble it. Versions come back as strings:
 * cuDNN's integer (8902, 90100) as "8.9.2", "9.1.0".
 */
static const char python_script[] =
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

#define NFW 3
static const char *const fw_names[NFW] = { "tensorflow", "torch", "jax" };

struct framework {
	char *version; /* NULL: absent */
	char *cuda;    /* a valid version, or NULL (a build without CUDA) */
	char *cudnn;
	char *absent;  /* why it did not import */
};

struct python {
	const char *exe; /* NULL: not asked */
	char *version;
	struct framework fw[NFW];
};

static void python_release(struct python *py)
{
	free(py->version);
	for (int i = 0; i < NFW; i++) {
		free(py->fw[i].version);
		free(py->fw[i].cuda);
		free(py->fw[i].cudnn);
		free(py->fw[i].absent);
	}
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

static void parse_python(struct python *py, const char *text, size_t len)
{
	json_t *j = json_loadb(text, len, 0, NULL), *fws;

	if (!j || !json_is_object(j)) {
		cmd_warn("%s said nothing readable about its frameworks",
			 py->exe);
		json_decref(j);
		return;
	}
	py->version = json_str(j, "python");
	fws = json_object_get(j, "frameworks");
	for (int i = 0; i < NFW; i++) {
		json_t *o = json_object_get(fws, fw_names[i]);
		struct framework *f = &py->fw[i];

		if (!json_is_object(o))
			continue;
		free(f->absent);
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
}

/* An fd of at least 10, so that the child's dup2 onto 3 never is a no-op. */
static int high_fd(int fd)
{
	int hi = fcntl(fd, F_DUPFD_CLOEXEC, 10);

	close(fd);
	return hi;
}

#define PYTHON_OUT_MAX (1 << 20)
#define PYTHON_SECONDS 300

static int ask_python(const struct cuenv_ctx *ctx, struct python *py,
		      struct cuenv_err *err)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { (char *)py->exe, "-c", (char *)python_script, NULL };
	struct buf out = BUF_INIT;
	char chunk[16384];
	int p[2], rc = CUENV_OK, status = 0, killed = 0;
	pid_t pid;
	time_t start = time(NULL);

	/* until it answers */
	for (int i = 0; i < NFW; i++) {
		struct buf why = BUF_INIT;

		buf_printf(&why, "no answer from %s", py->exe);
		py->fw[i].absent = buf_detach(&why);
	}
	if (pipe2(p, O_CLOEXEC))
		return cuenv_fail(err, CUENV_E_STORE, "cannot make a pipe: %s",
				  strerror(errno));
	p[0] = high_fd(p[0]);
	p[1] = high_fd(p[1]);
	if (p[0] < 0 || p[1] < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot make a pipe: %s",
				strerror(errno));
		goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 3);
	rc = strchr(py->exe, '/')
		     ? posix_spawn(&pid, py->exe, &fa, NULL, argv,
				   ctx->environ)
		     : posix_spawnp(&pid, py->exe, &fa, NULL, argv,
				    ctx->environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	p[1] = -1;
	if (rc) {
		struct buf shown = BUF_INIT;

		buf_add_display(&shown, py->exe, 200);
		rc = cuenv_fail(err, CUENV_E_USAGE, "cannot run '%s': %s",
				shown.data, strerror(rc));
		cuenv_hint(err, "name the interpreter: --python=/path/to/"
				"python3");
		buf_release(&shown);
		goto out;
	}
	/* Importing TensorFlow takes seconds; a hung import is killed. */
	for (;;) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		long left = PYTHON_SECONDS - (long)(time(NULL) - start);
		ssize_t n;

		if (left <= 0 || out.len > PYTHON_OUT_MAX) {
			kill(pid, SIGKILL);
			killed = 1;
			break;
		}
		if (poll(&pf, 1, (int)(left * 1000)) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!pf.revents)
			continue;
		n = read(p[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		buf_add(&out, chunk, (size_t)n);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (killed)
		cmd_warn("%s took too long to import the frameworks; stopped "
			 "it", py->exe);
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		cmd_warn("%s failed while importing the frameworks (%s %d)",
			 py->exe, WIFEXITED(status) ? "exit" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status)
					   : WTERMSIG(status));
	else
		parse_python(py, out.data, out.len);
out:
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	buf_release(&out);
	return rc;
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

static unsigned long major_of(const char *v)
{
	struct version x;

	return version_parse(v, &x) ? 0 : x.part[0];
}

/* ---- installed selections ------------------------------------------------ */

struct combo {
	const struct install *cuda, *cudnn, *cupti;
};

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

static int combo_has(const struct combo *c, const char *name,
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
static size_t combo_check(const struct combo *c, struct scan *s,
			  const struct python *py, struct strv *lacks,
			  int record)
{
	struct buf found = BUF_INIT, why = BUF_INIT;
	size_t miss = 0;

	for (size_t i = 0; i < s->n; i++) {
		struct want *w = &s->v[i];
		int has;

		if (w->provided_by)
			continue;
		has = combo_has(c, w->soname, &found);
		if (has && record) {
			free(w->found);
			w->found = xstrdup(found.data);
		}
		if (has || !managed(w))
			continue;
		miss++;
		if (lacks)
			strv_push(lacks, w->soname);
	}
	for (int i = 0; py->exe && i < NFW; i++) {
		const struct framework *f = &py->fw[i];

		if (f->cuda && !at_least(c->cuda->version, f->cuda)) {
			miss++;
			buf_reset(&why);
			buf_printf(&why, "CUDA %s (%s)", f->cuda, fw_names[i]);
			if (lacks)
				strv_push(lacks, why.data);
		}
		if (f->cudnn &&
		    !(c->cudnn && at_least(c->cudnn->version, f->cudnn))) {
			miss++;
			buf_reset(&why);
			buf_printf(&why, "cuDNN %s (%s)", f->cudnn,
				   fw_names[i]);
			if (lacks)
				strv_push(lacks, why.data);
		}
	}
	buf_release(&found);
	buf_release(&why);
	return miss;
}

struct installed {
	struct install_list cudas, cudnns, cuptis;
	struct combo pick;   /* pick.cuda NULL: nothing satisfies */
	int active;	     /* pick is the active selection */
	struct strv report;  /* "cuda 12.4.1: lacks x, y" per toolkit */
};

static void installed_release(struct installed *in)
{
	install_list_release(&in->cudas);
	install_list_release(&in->cudnns);
	install_list_release(&in->cuptis);
	strv_release(&in->report);
}

static void describe_combo(const struct combo *c, struct buf *out)
{
	buf_printf(out, "cuda %s", c->cuda->version);
	if (c->cudnn)
		buf_printf(out, " + cudnn %s (cuda%u)", c->cudnn->version,
			   c->cudnn->cuda_major);
	if (c->cupti)
		buf_printf(out, " + cupti %s", c->cupti->version);
}

/*
 * Find an installed selection that provides everything: the active one
 * when it does, else the newest CUDA with the fewest extras. For each
 * toolkit, the best it can do goes into in->report.
 */
static int find_installed(const struct cuenv_ctx *ctx, struct scan *s,
			  const struct python *py, struct installed *in,
			  struct cuenv_err *err)
{
	struct store st;
	struct activation a;
	struct cuenv_err ignored = CUENV_ERR_INIT;
	int rc, want_dnn = 0;

	rc = store_open(&st, ctx->root, false, err);
	if (!rc)
		rc = store_list(&st, KIT_CUDA, &in->cudas, err);
	if (!rc)
		rc = store_list(&st, KIT_CUDNN, &in->cudnns, err);
	if (!rc)
		rc = store_list(&st, KIT_CUPTI, &in->cuptis, err);
	for (size_t i = 0; i < st.warnings.n; i++)
		cmd_warn("skipped an incomplete version: %s", st.warnings.v[i]);
	store_release(&st);
	if (rc)
		return rc;

	activation_init(&a);
	if (!cmd_activation(ctx, NULL, 0, &a, &ignored) && a.ok) {
		struct combo c = { a.act.cuda, a.act.cudnn, a.act.cupti };

		if (!combo_check(&c, s, py, NULL, 0)) {
			/* the same installs, from our own lists */
			for (size_t i = 0; i < in->cudas.n; i++)
				if (!strcmp(in->cudas.v[i]->dir, c.cuda->dir))
					in->pick.cuda = in->cudas.v[i];
			for (size_t i = 0; c.cudnn && i < in->cudnns.n; i++)
				if (!strcmp(in->cudnns.v[i]->dir,
					    c.cudnn->dir))
					in->pick.cudnn = in->cudnns.v[i];
			for (size_t i = 0; c.cupti && i < in->cuptis.n; i++)
				if (!strcmp(in->cuptis.v[i]->dir,
					    c.cupti->dir))
					in->pick.cupti = in->cuptis.v[i];
			in->active = in->pick.cuda &&
				     !!in->pick.cudnn == !!c.cudnn &&
				     !!in->pick.cupti == !!c.cupti;
			if (!in->active)
				memset(&in->pick, 0, sizeof(in->pick));
		}
	}
	activation_release(&a);
	err_release(&ignored);

	for (size_t i = 0; i < s->n; i++)
		want_dnn |= managed(&s->v[i]) && s->v[i].lib == CUDA_LIB_CUDNN;
	for (int i = 0; py->exe && i < NFW; i++)
		want_dnn |= py->fw[i].cudnn != NULL;
	for (size_t ci = in->cudas.n; ci-- > 0;) {
		struct combo best = { 0 };
		size_t best_miss = (size_t)-1;
		const struct install *cu = in->cudas.v[ci];

		/*
		 * Each cuDNN for this major, newest first, then none; or,
		 * when nothing asks for cuDNN, none first.
		 */
		for (size_t k = in->cudnns.n + 1; k-- > 0;) {
			size_t ni = want_dnn ? (k + in->cudnns.n) %
						       (in->cudnns.n + 1)
					     : k;
			const struct install *dn =
				ni == in->cudnns.n ? NULL : in->cudnns.v[ni];

			if (dn && dn->cuda_major != cu->cuda_major)
				continue;
			for (size_t pi = in->cuptis.n + 1; pi-- > 0;) {
				struct combo c = {
					cu, dn,
					pi == in->cuptis.n ? NULL
							   : in->cuptis.v[pi]
				};
				size_t miss = combo_check(&c, s, py, NULL, 0);

				if (miss < best_miss) {
					best = c;
					best_miss = miss;
				}
			}
		}
		if (!best_miss && !in->pick.cuda)
			in->pick = best;
		{
			struct strv lacks = STRV_INIT;
			struct buf line = BUF_INIT;

			combo_check(&best, s, py, &lacks, 0);
			describe_combo(&best, &line);
			if (lacks.n) {
				buf_adds(&line, ": lacks ");
				for (size_t k = 0; k < lacks.n; k++)
					buf_printf(&line, "%s%s",
						   k ? ", " : "", lacks.v[k]);
			} else {
				buf_adds(&line, ": provides everything");
			}
			strv_push(&in->report, line.data);
			strv_release(&lacks);
			buf_release(&line);
		}
	}
	if (in->pick.cuda)
		combo_check(&in->pick, s, py, NULL, 1);
	return CUENV_OK;
}

/* ---- the catalogue ------------------------------------------------------- */

struct offer {
	const struct release *cuda, *cudnn, *cupti;
	char *line;	     /* "cuenv install 11.2 --cudnn 8" */
	struct buf why;	     /* when nothing fits: the reason */
};

static void offer_release(struct offer *o)
{
	free(o->line);
	buf_release(&o->why);
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
static int gives(const char *v, const struct want *w, struct buf *tmp)
{
	return elf_cuda_soname_version(w->lib, v, tmp) &&
	       version_matches_str(w->version, tmp->data);
}

/*
 * "CUDA 11.x", "CUDA 11.2", "CUDA 11.2-11.8, 12.x": the releases in all
 * (newest first) that give w, by minor; a major whose every minor does is
 * "M.x".
 */
static void describe_range(const struct strv *all, const struct want *w,
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

static void describe_wants(struct scan *s, const struct strv *all)
{
	struct buf b = BUF_INIT;

	for (size_t i = 0; i < s->n; i++) {
		struct want *w = &s->v[i];

		buf_reset(&b);
		if (w->lib == CUDA_LIB_CUDNN)
			buf_printf(&b, "cuDNN %lu.x", major_of(w->version));
		else if (w->lib == CUDA_LIB_NCCL)
			buf_adds(&b, "NCCL (cuenv does not install it)");
		else
			describe_range(all, w, &b);
		if (!b.len)
			buf_adds(&b, "no CUDA release in the catalogue");
		w->range = buf_detach(&b);
	}
	buf_release(&b);
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
static const char *newest_report(const struct python *py, int cudnn)
{
	const char *top = NULL;

	for (int k = 0; py->exe && k < NFW; k++) {
		const char *v = cudnn ? py->fw[k].cudnn : py->fw[k].cuda;

		if (v && (!top || version_cmp_str(v, top) > 0))
			top = v;
	}
	return top;
}

/* Does v suit every framework's report (at least it, same major), and,
 * with top, match top itself? */
static int suits(const char *v, const struct python *py, int cudnn,
		 const char *top)
{
	for (int k = 0; py->exe && k < NFW; k++) {
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
					const struct python *py,
					const char *top)
{
	const struct release *best = NULL;

	for (size_t i = 0; i < cat->n; i++) {
		const struct release *r = cat->v[i];

		if (r->kind != KIT_CUDNN || r->cuda_major != M ||
		    (dnn_major && major_of(r->version) != dnn_major) ||
		    !suits(r->version, py, 1, top))
			continue;
		if (!best || version_cmp_str(r->version, best->version) > 0)
			best = r;
	}
	return best;
}

/* Can CUDA release v give everything (CUPTI from elsewhere when
 * !own_cupti: then *cupti is the CUPTI soname version it must add)? */
static int toolkit_fits(const char *v, const struct scan *s,
			const struct python *py, int own_cupti,
			const char *top, const char **cupti)
{
	struct buf tmp = BUF_INIT;
	int ok = 1;

	*cupti = NULL;
	for (size_t i = 0; ok && i < s->n; i++) {
		const struct want *w = &s->v[i];

		if (!managed(w) || !is_toolkit(w->lib) || gives(v, w, &tmp))
			continue;
		if (w->lib == CUDA_LIB_CUPTI && !own_cupti &&
		    (!*cupti || !strcmp(*cupti, w->version)))
			*cupti = w->version;
		else
			ok = 0;
	}
	buf_release(&tmp);
	return ok && suits(v, py, 0, top);
}

static void find_offer(const struct catalog *cat, const struct strv *all,
		       const struct scan *s, const struct python *py,
		       struct offer *o)
{
	unsigned long dnn_major = 0;
	int need_dnn = 0;
	const char *top_cuda = newest_report(py, 0),
		   *top_dnn = newest_report(py, 1);
	struct buf line = BUF_INIT;

	for (size_t i = 0; i < s->n; i++) {
		const struct want *w = &s->v[i];

		if (!managed(w) || w->lib != CUDA_LIB_CUDNN)
			continue;
		if (dnn_major && dnn_major != major_of(w->version)) {
			buf_printf(&o->why, "they ask for two cuDNN majors "
					    "(%lu and %lu)",
				   dnn_major, major_of(w->version));
			return;
		}
		dnn_major = major_of(w->version);
		need_dnn = 1;
	}
	need_dnn |= top_dnn != NULL;
	/*
	 * The newest version a framework reports first (11.8 for 11.2 and
	 * 11.8), then any that suits them all; CUPTI of its own first.
	 */
	for (int exact = top_cuda != NULL; exact >= 0 && !o->cuda; exact--) {
		for (int own = 1; own >= 0 && !o->cuda; own--) {
			for (size_t i = 0; i < all->n && !o->cuda; i++) {
				const char *v = all->v[i], *cupti = NULL;
				const struct release *dn = NULL, *cp = NULL;
				unsigned M = (unsigned)major_of(v);

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
				for (size_t k = 0; cupti && k < all->n && !cp;
				     k++) {
					struct buf t = BUF_INIT;

					if (elf_cuda_soname_version(
						    CUDA_LIB_CUPTI, all->v[k],
						    &t) &&
					    !strcmp(t.data, cupti))
						cp = catalog_find(
							cat, KIT_CUDA,
							all->v[k], 0, -1);
					buf_release(&t);
				}
				if (cupti && !cp)
					continue;
				o->cuda = catalog_find(cat, KIT_CUDA, v, 0, -1);
				o->cudnn = dn;
				o->cupti = cp;
			}
		}
	}
	if (!o->cuda) {
		buf_adds(&o->why, "no CUDA release in the catalogue gives all "
				  "of them");
		return;
	}
	{
		char *c = short_spec(cat, KIT_CUDA, o->cuda->version, 0);

		buf_printf(&line, "cuenv install %s", c);
		free(c);
	}
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
	o->line = buf_detach(&line);
}

/* ---- output -------------------------------------------------------------- */

static void print_files(const char *how, const struct strv *files)
{
	for (size_t i = 0; i < files->n && i < SHOW_FILES; i++)
		printf("    %-11s %s\n", i ? "" : how, files->v[i]);
	if (files->n > SHOW_FILES)
		printf("    %-11s ... and %zu more\n", "",
		       files->n - SHOW_FILES);
}

static void print_text(const struct scan *s, const struct python *py,
		       const struct installed *in, const struct offer *o,
		       int asked, int satisfied)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct want *w = &s->v[i];

		printf("%-22s %s\n", w->soname, w->range);
		print_files("needed by", &w->needed_by);
		print_files("named by", &w->named_by);
		if (w->provided_by)
			printf("    %-11s %s (under PATH)\n", "provided by",
			       w->provided_by);
		else if (w->found)
			printf("    %-11s %s\n", "found in", w->found);
	}
	if (py->exe) {
		printf("%sframeworks (%s%s%s):\n", s->n ? "\n" : "", py->exe,
		       py->version ? " " : "",
		       py->version ? py->version : "");
		for (int i = 0; i < NFW; i++) {
			const struct framework *f = &py->fw[i];
			struct buf shown = BUF_INIT;

			if (f->absent) {
				buf_add_display(&shown, f->absent, 120);
				printf("  %-11s absent: %s\n", fw_names[i],
				       shown.data);
			} else if (!f->cuda && !f->cudnn) {
				buf_add_display(&shown, f->version, 40);
				printf("  %-11s %s, built without CUDA\n",
				       fw_names[i], shown.data);
			} else {
				buf_add_display(&shown, f->version, 40);
				printf("  %-11s %s, built with CUDA %s%s%s\n",
				       fw_names[i], shown.data,
				       f->cuda ? f->cuda : "?",
				       f->cudnn ? ", cuDNN " : "",
				       f->cudnn ? f->cudnn : "");
			}
			buf_release(&shown);
		}
	}
	if (s->n || py->exe)
		printf("\n");
	if (!asked) {
		if (!s->n)
			printf("no CUDA library is named by these files (%zu "
			       "ELF file%s read)\n",
			       s->files, s->files == 1 ? "" : "s");
		else
			printf("nothing here is asked of cuenv: the files "
			       "under PATH provide every CUDA library they "
			       "name\n");
		return;
	}
	if (satisfied) {
		struct buf b = BUF_INIT;

		describe_combo(&in->pick, &b);
		printf("installed: %s provides everything%s\n", b.data,
		       in->active ? " (the active selection)" : "");
		if (!in->active) {
			printf("select it with:\n  cuenv local %s",
			       in->pick.cuda->version);
			if (in->pick.cudnn)
				printf(" --cudnn %s", in->pick.cudnn->version);
			if (in->pick.cupti)
				printf(" --cupti %s", in->pick.cupti->version);
			printf("\n");
		}
		buf_release(&b);
		return;
	}
	printf("installed: nothing provides everything\n");
	if (!in->report.n)
		printf("  nothing is installed\n");
	for (size_t i = 0; i < in->report.n; i++)
		printf("  %s\n", in->report.v[i]);
	if (!o->line) {
		printf("catalogue: %s\n",
		       o->why.len ? o->why.data : "not read");
		return;
	}
	printf("catalogue: cuda %s (%s)", o->cuda->version,
	       source_name(o->cuda->source));
	if (o->cudnn)
		printf(" + cudnn %s for CUDA %u (%s)", o->cudnn->version,
		       o->cudnn->cuda_major, source_name(o->cudnn->source));
	if (o->cupti)
		printf(" + CUPTI of cuda %s", o->cupti->version);
	printf("\ninstall them with:\n  %s\n", o->line);
}

static json_t *json_strv(const struct strv *v)
{
	json_t *a = json_array();

	for (size_t i = 0; i < v->n; i++)
		json_array_append_new(a, json_string(v->v[i]));
	return a;
}

static json_t *json_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static void print_json(const struct scan *s, const struct python *py,
		       const struct installed *in, const struct offer *o,
		       int satisfied)
{
	json_t *j = json_object(), *arr = json_array();
	char *text;

	json_object_set_new(j, "files_read",
			    json_integer((json_int_t)s->files));
	for (size_t i = 0; i < s->n; i++) {
		const struct want *w = &s->v[i];
		json_t *x = json_object();

		json_object_set_new(x, "soname", json_string(w->soname));
		json_object_set_new(x, "library",
				    json_string(elf_cuda_lib_name(w->lib)));
		json_object_set_new(x, "releases", json_string(w->range));
		json_object_set_new(x, "needed_by", json_strv(&w->needed_by));
		json_object_set_new(x, "named_by", json_strv(&w->named_by));
		json_object_set_new(x, "provided_by",
				    json_or_null(w->provided_by));
		json_object_set_new(x, "found", json_or_null(w->found));
		json_array_append_new(arr, x);
	}
	json_object_set_new(j, "sonames", arr);
	if (py->exe) {
		json_t *f = json_object();

		json_object_set_new(f, "python", json_string(py->exe));
		json_object_set_new(f, "python_version",
				    json_or_null(py->version));
		for (int i = 0; i < NFW; i++) {
			const struct framework *fw = &py->fw[i];
			json_t *x = json_object();

			if (fw->absent) {
				json_object_set_new(x, "absent",
						    json_string(fw->absent));
			} else {
				json_object_set_new(x, "version",
						    json_string(fw->version));
				json_object_set_new(x, "cuda",
						    json_or_null(fw->cuda));
				json_object_set_new(x, "cudnn",
						    json_or_null(fw->cudnn));
			}
			json_object_set_new(f, fw_names[i], x);
		}
		json_object_set_new(j, "frameworks", f);
	}
	json_object_set_new(j, "satisfied", json_boolean(satisfied));
	if (in->pick.cuda) {
		const struct combo *c = &in->pick;
		json_t *x = json_object();

		json_object_set_new(x, "cuda", json_string(c->cuda->version));
		json_object_set_new(x, "cudnn",
				    json_or_null(c->cudnn ? c->cudnn->version
							  : NULL));
		json_object_set_new(x, "cupti",
				    json_or_null(c->cupti ? c->cupti->version
							  : NULL));
		json_object_set_new(x, "active", json_boolean(in->active));
		json_object_set_new(j, "installed", x);
	} else {
		json_object_set_new(j, "installed", json_null());
	}
	if (o->line) {
		json_t *x = json_object();

		json_object_set_new(x, "cuda", json_string(o->cuda->version));
		json_object_set_new(x, "cuda_source",
				    json_string(source_name(o->cuda->source)));
		json_object_set_new(x, "cudnn",
				    json_or_null(o->cudnn ? o->cudnn->version
							  : NULL));
		json_object_set_new(x, "cupti",
				    json_or_null(o->cupti ? o->cupti->version
							  : NULL));
		json_object_set_new(x, "install", json_string(o->line));
		json_object_set_new(j, "catalogue", x);
	} else {
		json_object_set_new(j, "catalogue", json_null());
		if (o->why.len)
			json_object_set_new(j, "catalogue_problem",
					    json_string(o->why.data));
	}
	text = json_dumps(j, JSON_INDENT(2));
	printf("%s\n", text);
	free(text);
	json_decref(j);
}

/* ---- the command --------------------------------------------------------- */

/* "python3", "/usr/bin/python3.11", "venv/bin/python": an interpreter. */
static int looks_like_python(const char *a)
{
	const char *base = strrchr(a, '/');
	struct stat st;

	base = base ? base + 1 : a;
	return !strncmp(base, "python", 6) &&
	       !(stat(a, &st) == 0 && S_ISDIR(st.st_mode));
}

/*
 * getopt's optional arguments must be attached (--python=X); accept the
 * separate form too when the next word names an interpreter.
 */
static char **join_python_arg(int argc, char **argv)
{
	char **v = xcalloc((size_t)argc + 1, sizeof(*v));
	int n = 0;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < argc)
				v[n++] = xstrdup(argv[i++]);
			break;
		}
		if (!strcmp(argv[i], "--python") && i + 1 < argc &&
		    looks_like_python(argv[i + 1])) {
			struct buf b = BUF_INIT;

			buf_printf(&b, "--python=%s", argv[++i]);
			v[n++] = buf_detach(&b);
			continue;
		}
		v[n++] = xstrdup(argv[i]);
	}
	v[n] = NULL;
	return v;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct scan s = { 0 };
	struct python py = { 0 };
	struct installed in = { 0 };
	struct offer o = { 0 };
	struct catalog cat = { 0 };
	struct strv all = STRV_INIT;
	char **av = join_python_arg(argc, argv);
	int ac = 0, c, rc = CUENV_OK, json = 0, asked = 0, satisfied = 0;

	while (av[ac])
		ac++;
	while ((c = getopt_long(ac, av, "", opts, NULL)) != -1) {
		if (c == O_PYTHON) {
			py.exe = optarg && *optarg ? optarg : "python3";
		} else if (c == O_JSON) {
			json = 1;
		} else {
			rc = cmd_bad_usage(&cmd_needs, err);
			goto out;
		}
	}
	if (optind == ac && !py.exe) {
		rc = cuenv_fail(err, CUENV_E_USAGE, "needs: missing argument");
		cuenv_hint(err, "see: cuenv needs --help");
		goto out;
	}
	for (int i = optind; i < ac; i++) {
		rc = scan_path(&s, av[i], err);
		if (rc)
			goto out;
	}
	scan_finish(&s);
	if (py.exe) {
		rc = ask_python(ctx, &py, err);
		if (rc)
			goto out;
	}

	/* The catalogue describes the sonames; without one, say so. */
	{
		struct cuenv_err cerr = CUENV_ERR_INIT;

		if (cmd_catalog(ctx, &cat, &cerr))
			cmd_warn("%s; only what is installed is looked at",
				 cerr.msg.data);
		err_release(&cerr);
	}
	cuda_versions(&cat, &all);
	describe_wants(&s, &all);

	for (size_t i = 0; i < s.n; i++)
		asked |= managed(&s.v[i]);
	for (int i = 0; py.exe && i < NFW; i++)
		asked |= py.fw[i].cuda || py.fw[i].cudnn;
	if (asked) {
		rc = find_installed(ctx, &s, &py, &in, err);
		if (rc)
			goto out;
		satisfied = in.pick.cuda != NULL;
		if (!satisfied)
			find_offer(&cat, &all, &s, &py, &o);
	} else {
		satisfied = 1;
	}
	if (json)
		print_json(&s, &py, &in, &o, satisfied);
	else
		print_text(&s, &py, &in, &o, asked, satisfied);
	rc = satisfied ? CUENV_OK : CUENV_NO;
out:
	for (int i = 0; av[i]; i++)
		free(av[i]);
	free(av);
	scan_release(&s);
	python_release(&py);
	installed_release(&in);
	offer_release(&o);
	catalog_release(&cat);
	strv_release(&all);
	return rc;
}

const struct cuenv_cmd cmd_needs = {
	.name = "needs",
	.summary = "which CUDA and cuDNN a framework's binaries need",
	.usage = usage,
	.min_args = 0,
	.max_args = -1,
	.run = run,
};
