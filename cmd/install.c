#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/compat.h"
#include "../core/dotfile.h"
#include "../core/install.h"
#include "../core/install_request.h"
#include "../core/lock.h"
#include "../core/plan_index.h"
#include "../core/plat_sys.h"
#include "../core/progress.h"
#include "../core/version.h"
#include "../core/xalloc.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv install [[cuda] SPEC | --for FRAMEWORK[==VERSION]] " CMD_SYN_OPTS
	"\n"
	"       cuenv install cudnn V [OPTIONS]\n"
	"       cuenv install --locked " CMD_SYN_OPTS " ...\n"
	"       cuenv install --list [cuda|cudnn] [PREFIX] " CMD_SYN_OPTS "\n"
	"\n"
	"Download CUDA SPEC (the newest release matching it: 12.4 is the newest\n"
	"12.4.x) and, with --cudnn, a cuDNN built for its major, from NVIDIA's\n"
	"archives, checking every byte against the catalogue's sha256, and\n"
	"install them side by side in $CUENV_ROOT. With no SPEC, install what\n"
	"the nearest .cuenv asks for; `install cudnn V` installs cuDNN V for\n"
	"the CUDA selected here (and that CUDA, when missing). Releases before\n"
	"11.4 come from NVIDIA's runfile installers, unpacked without running\n"
	"them. --list (-l) lists what can be installed, as list-remote.\n";

static const char notes[] =
	"A transfer slower than CUENV_FETCH_LOW_SPEED bytes/s (default 1000) for\n"
	"CUENV_FETCH_STALL_SECONDS (30) is retried, CUENV_FETCH_RETRIES times (5)\n"
	"after a pause of CUENV_FETCH_BACKOFF_MS (500), doubling. A server that\n"
	"ignores or refuses range requests is read again from the start.\n";

enum {
	O_FOR,
	O_CUDNN,
	O_CUPTI,
	O_COMPONENTS,
	O_RUNTIME,
	O_SOURCE,
	O_MIRROR,
	O_INDEX,
	O_JOBS,
	O_NOCACHE,
	O_TIMEOUT,
	O_MAXDL,
	O_MAXEXP,
	O_LOCKED,
	O_QUIET,
	O_LIST,
	O_ALL,
	O_JSON,
	O_DRYRUN
};

static const struct cmd_option opts[] = {
	[O_FOR] = { "for", .forms = CMD_NAMED, .arg = "F==V",
		    .help = "the CUDA and cuDNN that framework F (tensorflow,\n"
			    "torch, jax) release V was built and tested with\n"
			    "(manifests/compat/frameworks.tsv): --for\n"
			    "tensorflow==2.6 installs 11.2 --cudnn 8.1; with\n"
			    "no ==V, the newest release the catalogue can\n"
			    "install" },
	[O_CUDNN] = CMD_VERSION_OPTION("cudnn", "remote cudnn",
				       "cuDNN V for the selected CUDA's major"),
	[O_CUPTI] = CMD_VERSION_OPTION(
		"cupti", "remote cuda",
		"also CUPTI from CUDA release V (an exact soname)"),
	[O_COMPONENTS] = { "components", .arg = "LIST",
			   .help = "comma-separated redist components\n"
				   "(default: runtime, CUPTI, nvcc, NVRTC,\n"
				   "headers and the math libraries)" },
	[O_RUNTIME] = { "runtime-only", .flags = OPT_ALT,
			.forms = CMD_FORM(1) | CMD_FORM(3),
			.help = "only the shared libraries an application loads" },
	[O_SOURCE] = { "source", .arg = "S", .value = OPT_WORD,
		       .words = "redist runfile pypi",
		       .help = "redist (default from 11.4), runfile, or pypi:\n"
			       "NVIDIA's wheels on a Python package index" },
	[O_MIRROR] = { "mirror", .forms = CMD_FORM(1) | CMD_FORM(3),
		       .arg = "URL",
		       .help = "NVIDIA's paths under URL (https://, file://, or\n"
			       "http:// when asked for); also CUENV_MIRROR" },
	[O_INDEX] = { "index", .arg = "URL",
		      .help = "the package index for --source pypi (PEP 691);\n"
			      "also CUENV_PYPI_INDEX (default pypi.org/simple)" },
	[O_JOBS] = { "jobs", .arg = "N", .value = OPT_NUMBER, .min = 1,
		     .max = 64,
		     .help = "archives in flight at once (default: cores)" },
	[O_NOCACHE] = { "no-cache",
			.help = "neither use nor fill $CUENV_ROOT/cache" },
	[O_TIMEOUT] = { "timeout", .arg = "S", .value = OPT_NUMBER,
			.max = UINT_MAX / 1000,
			.help = "give up on an archive not downloaded after S\n"
				"seconds, retries included (default 14400; 0:\n"
				"no limit); also CUENV_FETCH_TIMEOUT" },
	[O_MAXDL] = { "max-download", .arg = "N", .value = OPT_NUMBER,
		      .max = UINT64_MAX,
		      .help = "the most bytes a download whose size the\n"
			      "catalogue does not give may have (runfiles,\n"
			      "wheels from HTML indexes; default 17179869184,\n"
			      "16 GiB; 0: no limit); also\n"
			      "CUENV_FETCH_MAX_BYTES. A download longer than\n"
			      "the catalogue's size fails" },
	[O_MAXEXP] = { "max-expansion", .arg = "R", .value = OPT_NUMBER,
		       .max = 1000000,
		       .help = "an archive may unpack to R times its size\n"
			       "(default 50; 0: no limit); also\n"
			       "CUENV_UNPACK_MAX_RATIO. Unpacking also stops\n"
			       "before the disk is full" },
	[O_LOCKED] = { "locked", .forms = CMD_NAMED,
		       .help = "install exactly what the nearest .cuenv.lock\n"
			       "pins (cuenv lock), or fail naming the difference" },
	[O_QUIET] = { "quiet", .help = "errors only" },
	[O_LIST] = { "list", 'l', .forms = CMD_NAMED,
		     .help = "list the versions that can be installed, as\n"
			     "cuenv list-remote (with its --all and --json)" },
	[O_ALL] = { "all", .forms = CMD_FORM(4),
		    .help = "with --list: every release" },
	[O_JSON] = { "json", .forms = CMD_FORM(4),
		     .help = "with --list: as JSON" },
	[O_DRYRUN] = { "dry-run",
		       .help = "say which releases would be installed (one\n"
			       "line: cuda V [+ cudnn V] [+ cupti V] (SOURCE))\n"
			       "and stop: nothing is downloaded or written" },
};

#ifdef CUENV_NET /* the rest runs in cuenv-net */

/* ---- progress ------------------------------------------------------------ */

struct show {
	int quiet;
	const char *what; /* "cuda 12.4.1" */
	struct timespec start;
	struct progress pg;
	int noted;	    /* a note was printed (on_note) */
	int begun;	    /* "installing ..." was printed */
	const char *source; /* "redist" */
};

/*
 * "installing cuda 12.4.1 (redist)", once, when the install really starts
 * (its first progress, note or wait): a version already installed gets
 * only "already installed".
 */
static void begin(struct show *s)
{
	if (s->quiet || __atomic_exchange_n(&s->begun, 1, __ATOMIC_RELAXED))
		return;
	fprintf(stderr, "cuenv: installing %s (%s)\n", s->what, s->source);
}

/* The terminal's width, 80 when it cannot be asked. */
static unsigned columns(void)
{
	unsigned cols = 0;

	plat_sys_stderr_tty(&cols);
	return cols ? cols : 80;
}

static double since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) +
	       (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void on_progress(void *ctx, const struct part_progress *p, size_t n)
{
	struct show *s = ctx;
	struct buf out = BUF_INIT;
	double t = since(&s->start);

	if (s->quiet)
		return;
	begin(s);
	progress_update(&s->pg, p, n, t, s->pg.tty ? columns() : 80, &out);
	fputs(out.data, stderr);
	buf_release(&out);
}

/* From a transfer's thread: once per install. */
static void on_note(void *ctx, const char *msg)
{
	struct show *s = ctx;

	begin(s);
	if (!s->quiet && !__atomic_exchange_n(&s->noted, 1, __ATOMIC_RELAXED))
		fprintf(stderr, "cuenv: %s\n", msg);
}

static void on_waiting(void *ctx, const char *what)
{
	struct show *s = ctx;

	begin(s);
	if (!s->quiet)
		fprintf(stderr,
			"cuenv: another install of %s is running; waiting "
			"for it\n",
			what);
}

/* ---- one release ----------------------------------------------------------- */

static int install_one(struct cuenv_ctx *ctx, const struct release *rel,
		       struct install_opts *o, int quiet, struct cuenv_err *err)
{
	struct show s = { 0 };
	struct install done;
	struct buf what = BUF_INIT;
	unsigned cols;
	int rc;

	install_request_what(rel, &what);
	s.quiet = quiet;
	s.what = what.data;
	s.source = source_name(rel->source);
	progress_init(&s.pg, plat_sys_stderr_tty(&cols), what.data,
		      rel->source == SRC_REDIST ? rel->nparts + 16 : 32);
	clock_gettime(CLOCK_MONOTONIC, &s.start);
	o->progress = on_progress;
	o->waiting = on_waiting;
	o->progress_ctx = &s;
	o->fetch.note = on_note;
	o->fetch.note_ctx = &s;
	rc = install_run(&ctx->store, rel, o, &done, err);
	install_request_fetch_hint(rc, o->mirror, (int)rel->source, err);
	if (rc == CUENV_NO) {
		if (!quiet)
			printf("%s is already installed (%s)\n", what.data,
			       done.dir);
		rc = CUENV_OK;
	} else if (!rc && !quiet) {
		printf("installed %s in %s (%.1f s)\n", what.data, done.dir,
		       since(&s.start));
	}
	install_release(&done);
	/* s lives on this stack: leave no pointer to it behind */
	o->progress = NULL;
	o->waiting = NULL;
	o->progress_ctx = NULL;
	o->fetch.note = NULL;
	o->fetch.note_ctx = NULL;
	progress_release(&s.pg);
	buf_release(&what);
	return rc;
}

/* --locked: the releases the nearest .cuenv.lock pins, checked against
 * the catalogue, through the normal install path. */
static int install_locked(struct cuenv_ctx *ctx, struct install_opts *o,
			  int quiet, struct cuenv_err *err)
{
	static const enum kit_kind kinds[] = { KIT_CUDA, KIT_CUDNN, KIT_CUPTI };
	struct buf path = BUF_INIT;
	struct lockfile lk;
	struct catalog cat = { 0 };
	int rc;

	lock_init(&lk);
	if (lock_find(ctx->cwd, &path)) {
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"install: --locked but no "
				"%s here or above",
				LOCK_NAME);
		cuenv_hint(err, "write it with: cuenv lock");
		goto out;
	}
	rc = lock_read(path.data, &lk, err);
	if (!rc)
		rc = install_request_lock_platform(path.data, lk.platform,
						   catalog_platform(), err);
	if (!rc)
		rc = cmd_catalog(ctx, &cat, err);
	if (!rc)
		rc = lock_verify(&lk, &cat, err);
	if (!rc)
		rc = store_open(&ctx->store, ctx->root, true, err);
	if (rc)
		goto out;
	cmd_store_waiting(&ctx->store, "install");
	fetch_global_init();
	for (size_t i = 0; i < 3 && !rc; i++) {
		struct release rel;
		struct install_opts lo = *o;
		struct strv names = STRV_INIT;

		if (lock_to_release(&lk, kinds[i], &rel))
			continue;
		/* Exactly the locked components, unless narrowed further. */
		lo.plan = plan_locked_opts(&rel, kinds[i], &o->plan, &names);
		rc = install_one(ctx, &rel, &lo, quiet, err);
		strv_release(&names);
		free(rel.parts);
	}
out:
	lock_release(&lk);
	catalog_release(&cat);
	buf_release(&path);
	return rc;
}

/*
 * `install cuda SPEC` is `install SPEC`; `install cudnn V` is `install
 * --cudnn V` for the CUDA selected here. Moves optind past the kind.
 */
static int kind_word(int argc, char **argv, const char **cudnn,
		     struct cuenv_err *err)
{
	enum kit_kind kind;

	if (optind >= argc || kit_kind_parse(argv[optind], &kind))
		return cmd_check_args(&cmd_install, argc - optind, err);
	if (kind == KIT_CUPTI) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "install: CUPTI comes from a CUDA release");
		return cuenv_hint(err, "cuenv install SPEC --cupti V");
	}
	optind++;
	if (kind == KIT_CUDA)
		return cmd_check_args(&cmd_install, argc - optind, err);
	if (optind != argc - 1 || *cudnn) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "install: cudnn needs one version (and no --cudnn)");
		/* The form, not a command for here: 9.1 is an example. */
		return cuenv_hint(err, "for example: cuenv install cudnn 9.1 "
				       "(for the CUDA selected here), or "
				       "cuenv install 12.4 --cudnn 9.1");
	}
	*cudnn = argv[optind++];
	return version_check("cudnn", *cudnn, 0, err);
}

/* --list: list-remote's listing, with its words and options. */
static int list(struct cuenv_ctx *ctx, int argc, char **argv,
		struct cuenv_err *err)
{
	char **v = xcalloc((size_t)argc + 3, sizeof(*v));
	int n = 0, rc, help;

	v[n++] = (char *)"list-remote";
	for (int i = optind; i < argc; i++)
		v[n++] = argv[i];
	if (cmd_opt_given(&ctx->opt, O_ALL))
		v[n++] = (char *)"--all";
	if (cmd_opt_given(&ctx->opt, O_JSON))
		v[n++] = (char *)"--json";
	rc = cmd_options_parse(&cmd_list_remote, n, v, &ctx->opt, &help, err);
	if (!rc)
		rc = cmd_list_remote.run(ctx, n, v, err);
	free(v);
	return rc;
}

/* --for from the framework's own wheel on the package index
 * (core/plan_index); said, unless quiet. */
static int framework_from_index(const char *for_spec,
				const struct install_opts *o,
				const struct catalog *cat, int quiet,
				struct framework_builds *out, struct buf *why)
{
	struct buf said = BUF_INIT;
	int rc = plan_index_framework(for_spec,
				      install_request_index(o->pypi_index),
				      &o->fetch, cat, out, why, &said);

	if (!rc && !quiet)
		cmd_note("%s", said.data);
	buf_release(&said);
	return rc;
}

/* What one `cuenv install` asks for, from its words and options. */
struct request {
	struct install_request r;
	int quiet;
	struct strv comps;
	struct selection sel;
	struct framework_builds fw;
};

/* The options into o (over what the environment said) and q. */
static int read_options(struct cuenv_ctx *ctx, struct install_opts *o,
			struct request *q, struct cuenv_err *err)
{
	enum source_kind sk;
	int rc;

	q->r.cudnn = ctx->opt.arg[O_CUDNN];
	q->r.cupti = ctx->opt.arg[O_CUPTI];
	rc = plan_opts_parse(cmd_install.name, ctx->opt.arg[O_COMPONENTS],
			     cmd_opt_given(&ctx->opt, O_RUNTIME), &q->comps,
			     &o->plan, err);
	if (rc)
		return rc;
	if (ctx->opt.arg[O_SOURCE] &&
	    !source_parse(ctx->opt.arg[O_SOURCE], &sk))
		q->r.source = (int)sk;
	if (ctx->opt.arg[O_MIRROR])
		o->mirror = ctx->opt.arg[O_MIRROR];
	if (ctx->opt.arg[O_INDEX])
		o->pypi_index = ctx->opt.arg[O_INDEX];
	if (cmd_opt_given(&ctx->opt, O_JOBS))
		o->jobs = (unsigned)ctx->opt.num[O_JOBS];
	o->no_cache = cmd_opt_given(&ctx->opt, O_NOCACHE);
	q->quiet = cmd_opt_given(&ctx->opt, O_QUIET);
	q->r.for_spec = ctx->opt.arg[O_FOR];
	q->r.locked = cmd_opt_given(&ctx->opt, O_LOCKED);
	if (cmd_opt_given(&ctx->opt, O_TIMEOUT))
		o->fetch.timeout_seconds = (unsigned)ctx->opt.num[O_TIMEOUT];
	if (cmd_opt_given(&ctx->opt, O_MAXDL))
		o->fetch.max_bytes = ctx->opt.num[O_MAXDL];
	if (cmd_opt_given(&ctx->opt, O_MAXEXP))
		o->expand_ratio = (unsigned)ctx->opt.num[O_MAXEXP];
	return CUENV_OK;
}

/* --for: the CUDA and cuDNN of the framework's build (the framework's
 * own wheel first; the shipped table offline); --cudnn still wins. */
static int for_request(const struct cuenv_ctx *ctx, struct request *q,
		       const struct install_opts *o, struct catalog *cat,
		       struct cuenv_err *err)
{
	struct buf why = BUF_INIT;
	int rc = CUENV_OK;

	/* The row is chosen by what the catalogue can install. */
	if (q->r.cudnn)
		rc = version_check("cudnn", q->r.cudnn, 0, err);
	if (!rc)
		rc = cmd_catalog(ctx, cat, err);
	if (!rc) {
		rc = framework_from_index(q->r.for_spec, o, cat, q->quiet,
					  &q->fw, &why);
		if (rc == CUENV_NO) {
			if (why.len && !q->quiet)
				cmd_note("%s; the shipped framework "
					 "table answers",
					 why.data);
			rc = cmd_framework_pick(ctx, q->r.for_spec, cat,
						q->r.cudnn, q->r.source,
						q->quiet, &q->fw, err);
		}
	}
	buf_release(&why);
	if (!rc)
		install_request_build(&q->r, &q->fw.v[0]);
	return rc;
}

/* No SPEC: what the nearest .cuenv (or cuenv use) asks for. */
static int selected_request(const struct cuenv_ctx *ctx, struct request *q,
			    struct cuenv_err *err)
{
	struct select_in in = {
		.cwd = ctx->cwd,
		.root = ctx->root,
		.env_cuda = env_get(ctx->envp, "CUENV_VERSION"),
		.env_cudnn = env_get(ctx->envp, "CUENV_CUDNN_VERSION"),
		.env_cupti = env_get(ctx->envp, "CUENV_CUPTI_VERSION")
	};
	int rc = select_find(&in, &q->sel, err);

	return rc ? rc : install_request_selected(&q->r, &q->sel, err);
}

/* The releases of ch, in the order and with the options plan_steps
 * gives them. */
static int install_choice(struct cuenv_ctx *ctx,
			  const struct catalog_choice *ch, int source,
			  const struct install_opts *o, int quiet,
			  struct cuenv_err *err)
{
	struct plan_step steps[KIT_KINDS];
	size_t n = plan_steps(ch, source, &o->plan, steps);
	int rc;

	rc = store_open(&ctx->store, ctx->root, true, err);
	if (rc)
		return rc;
	cmd_store_waiting(&ctx->store, "install");
	fetch_global_init();
	for (size_t i = 0; i < n && !rc; i++) {
		struct install_opts so = *o;

		so.plan = steps[i].opts;
		so.keep_partial = steps[i].keep_partial;
		rc = install_one(ctx, &steps[i].rel, &so, quiet, err);
	}
	return rc;
}

/* The options into o and q, checked; not for --list. */
static int install_setup(struct cuenv_ctx *ctx, int argc, char **argv,
			 struct install_opts *o, struct request *q,
			 struct cuenv_err *err)
{
	int rc;

	if (cmd_opt_given(&ctx->opt, O_ALL) ||
	    cmd_opt_given(&ctx->opt, O_JSON)) {
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"install: --all and --json go with --list");
		cuenv_hint(err, "see: cuenv install --help");
		return rc;
	}
	rc = read_options(ctx, o, q, err);
	if (!rc)
		rc = kind_word(argc, argv, &q->r.cudnn, err);
	if (!rc)
		rc = plan_opts_check(cmd_install.name, &o->plan, err);
	if (!rc && o->mirror && *o->mirror &&
	    (rc = install_request_mirror_url(cmd_install.name, o->mirror,
					     &o->fetch, err)))
		cuenv_hint(err, "for example: --mirror file:///srv/nvidia");
	if (!rc && install_request_index_http(o->pypi_index))
		o->fetch.allow_http = 1;
	return rc;
}

/*
 * What to install into q, by its mode: from --for (which loads cat),
 * the SPEC given, or the selection here; its versions checked. *locked
 * when it is what .cuenv.lock pins instead.
 */
static int request_spec(struct cuenv_ctx *ctx, int argc, char **argv,
			struct request *q, struct install_opts *o,
			struct catalog *cat, int *locked, struct cuenv_err *err)
{
	enum install_mode mode;
	int rc = install_request_mode(&q->r, argc - optind, &mode, err);

	if (rc)
		return rc;
	switch (mode) {
	case INSTALL_LOCKED:
		*locked = 1;
		return CUENV_OK;
	case INSTALL_FOR:
		rc = for_request(ctx, q, o, cat, err);
		break;
	case INSTALL_SPEC:
		q->r.spec = argv[optind];
		break;
	case INSTALL_SELECTED:
		rc = selected_request(ctx, q, err);
		break;
	}
	if (!rc)
		rc = install_request_check(&q->r, err);
	if (!rc && mode != INSTALL_FOR) /* else loaded above */
		rc = cmd_catalog(ctx, cat, err);
	return rc;
}

/* The request's releases installed, or with --dry-run named. */
static int install_request(struct cuenv_ctx *ctx, const struct request *q,
			   const struct catalog *cat, struct install_opts *o,
			   struct cuenv_err *err)
{
	struct catalog_choice found;
	struct buf line = BUF_INIT;
	int rc = catalog_resolve(cat, q->r.spec, q->r.cudnn, q->r.cupti,
				 q->r.source, &found, err);

	if (!rc && cmd_opt_given(&ctx->opt, O_DRYRUN)) {
		install_request_dry_run(&found, q->r.source, &line);
		fputs(line.data, stdout);
	} else if (!rc) {
		rc = install_choice(ctx, &found, q->r.source, o, q->quiet, err);
	}
	buf_release(&line);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct install_env env = { .fetch = FETCH_OPTS_INIT,
				   .expand_ratio =
					   INSTALL_EXPAND_RATIO_DEFAULT };
	struct install_opts o = { 0 };
	struct request q = { .r.source = -1, .comps = STRV_INIT };
	struct catalog cat = { 0 };
	int rc, locked = 0;

	selection_init(&q.sel);
	rc = install_request_env(ctx->envp, &env, err);
	o.mirror = env.mirror;
	o.pypi_index = env.pypi_index;
	o.fetch = env.fetch;
	o.expand_ratio = env.expand_ratio;
	if (rc)
		goto out;
	if (cmd_opt_given(&ctx->opt, O_LIST)) {
		rc = list(ctx, argc, argv, err);
		goto out;
	}
	rc = install_setup(ctx, argc, argv, &o, &q, err);
	if (!rc)
		rc = request_spec(ctx, argc, argv, &q, &o, &cat, &locked, err);
	if (!rc && locked)
		rc = install_locked(ctx, &o, q.quiet, err);
	else if (!rc)
		rc = install_request(ctx, &q, &cat, &o, err);
out:
	framework_builds_release(&q.fw);
	selection_release(&q.sel);
	strv_release(&q.comps);
	catalog_release(&cat);
	return rc;
}

#endif /* CUENV_NET */

CUENV_CMD(install, "install", 0, 2 /* [cuda] SPEC, cudnn V */,
	  "download and install CUDA, cuDNN and CUPTI versions",
	  CMD_OPTIONS(opts), .notes = notes, .flags = CMD_EXTERNAL,
	  .run = CMD_NET_RUN(run));
