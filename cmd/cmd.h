/*
 * cmd.h: what every subcommand sees.
 *
 * Each cmd/<name>.c exports one `const struct cuenv_cmd cmd_<name>`
 * (CUENV_CMD below) and keeps everything else static. The dispatcher
 * (main.c) fills a struct cuenv_ctx from the process's environment once,
 * so that nothing below reads getenv() itself.
 */
#ifndef CUENV_CMD_H
#define CUENV_CMD_H

#include <stdint.h>
#include <stdio.h>

#include "select/activate.h"
#include "nvidia/catalog.h"
#include "base/err.h"
#include "install/plan.h"
#include "plat/shell.h"
#include "store/store.h"
#include "base/opts.h"

enum {
	CMD_NEEDS_STORE = 1 << 0, /* open (creating) and lock the store first */
	CMD_EMITS_SHELL = 1 << 1, /* stdout is shell code; humans get stderr */
	CMD_HIDDEN = 1 << 2,	  /* not listed by `cuenv help` */
	CMD_STOP_AT_ARG = 1 << 3, /* options end at the first argument */
	/*
	 * Runs in cuenv-net, the companion binary that links libcurl,
	 * OpenSSL and libarchive, so that the binary the prompt hook runs
	 * never loads them: cuenv execs it with the same arguments.
	 */
	CMD_EXTERNAL = 1 << 4,
};

/*
 * The run of a CMD_EXTERNAL command: its table entry (name, usage,
 * options) is in both binaries, its body in cuenv-net only.
 */
#ifdef CUENV_NET
#define CMD_NET_RUN(f) (f)
#else
#define CMD_NET_RUN(f) NULL
#endif

/*
 * Define cmd_<id>, the command's table entry: its name, summary, usage,
 * options and notes from docs/cli.txt (CLI_FIELDS, from the generated
 * "cli/<id>.h" the file includes), how many positional arguments it
 * takes (max -1: no limit), then the other fields as designated
 * initializers (.run, .flags).
 */
#define CUENV_CMD(id, min, max, ...)                                           \
	const struct cuenv_cmd cmd_##id = { CLI_FIELDS, .min_args = (min),     \
					    .max_args = (max), __VA_ARGS__ }

struct cuenv_ctx {
	const char *root;      /* CUENV_ROOT or ~/.cuenv, absolute */
	const char *cwd;       /* logical working directory */
	const char *exe;       /* absolute path of this binary */
	const char *shell;     /* CUENV_SHELL (set by the hook) or NULL */
	char *const *envp;     /* the process's environment */
	struct store store;    /* open when the command has CMD_NEEDS_STORE */
	struct opt_values opt; /* the command's options, parsed by its table */
};

struct cuenv_cmd {
	/* name, summary, usage, options, notes: docs/cli.txt (core/base/opts.h) */
	struct opt_cmd cli;
	int min_args; /* positional arguments, after options */
	int max_args; /* -1: no limit */
	unsigned flags;
	int (*run)(struct cuenv_ctx *ctx, int argc, char **argv,
		   struct cuenv_err *err);
	/* Optional: does this command line need cuenv-net (argv[0] is the
	 * command's name)? Then cuenv runs it there, as CMD_EXTERNAL. */
	int (*wants_net)(int argc, char **argv);
};

/* The command table, sorted by name (table.c). */
extern const struct cuenv_cmd *const cuenv_cmds[];
extern const size_t cuenv_ncmds;
const struct cuenv_cmd *cmd_find(const char *name);
/*
 * For an unknown command name: the command (with its arguments, for
 * some) it most likely means, by a list of other tools' words (pyenv's
 * `shell` is `use`) or at most two typing mistakes away; or NULL.
 */
const char *cmd_suggest(const char *name);

/*
 * Check the number of positional arguments left after getopt, returning
 * CUENV_E_USAGE with a message naming the command when it is wrong.
 */
int cmd_check_args(const struct cuenv_cmd *cmd, int nargs,
		   struct cuenv_err *err);

/*
 * Colour, decided once by main: --color=always|never|auto (auto, the
 * default: on a terminal, unless NO_COLOR is set and not empty or TERM
 * is dumb). Only the "cuenv: error:", "cuenv: warning:" and "hint:"
 * prefixes and the headings of the reports (cmd_print_report) are
 * coloured. cmd_color_parse: 0, or -1 for a WHEN that is none of those.
 */
enum cmd_color { CMD_COLOR_AUTO, CMD_COLOR_ALWAYS, CMD_COLOR_NEVER };
int cmd_color_parse(const char *when, enum cmd_color *c);
void cmd_color_setup(enum cmd_color c, char *const *envp);
/*
 * Print a text report (doctor, explain, needs) on stdout: where stdout
 * is coloured, the label of each heading (a line that starts a section,
 * "problems:", "libcudnn.so.8:", "installed:") is bold, problems red and
 * warnings yellow.
 */
void cmd_print_report(const struct buf *text);

/* Print a warning line to stderr: "cuenv: warning: ...". */
void cmd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a note to stderr: "cuenv: ..." */
void cmd_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print cmd's help (core/base/opts.h) to f. */
void cmd_print_help(const struct cuenv_cmd *cmd, FILE *f);
/* Print err on stderr (err_render): main does, for the command's error. */
void cmd_print_error(const struct cuenv_err *err);

/*
 * Compute the activation for ctx, starting from start (NULL: the process's
 * environment); isolate forces --isolate. Its warnings go to stderr.
 */
int cmd_activation(const struct cuenv_ctx *ctx, struct envmap *start,
		   int isolate, struct activation *a, struct cuenv_err *err);

/*
 * For `export` and `use`: hook_emit for ctx (pid > 0: the hook's shell),
 * what it says on stderr, then its shell code on stdout.
 */
int cmd_emit(const struct cuenv_ctx *ctx, struct envmap *before,
	     struct envmap *start, enum shell sh, long pid,
	     struct cuenv_err *err);

/*
 * For `remove` and `uninstall`: the one install `[cuda|cudnn] SPEC`
 * (argv after the options) names (select_install), dropped by drop
 * (register_remove, register_uninstall), whose lines go to stdout.
 */
int cmd_drop_install(struct cuenv_ctx *ctx, const struct cuenv_cmd *cmd,
		     int argc, char **argv,
		     int (*drop)(struct store *st,
				 const struct store_version *in,
				 struct buf *out, struct cuenv_err *err),
		     struct cuenv_err *err);

/*
 * For `local` and `global`: show, set (--cudnn, --cupti, --isolate,
 * --no-isolate, --force) or --unset the selection in the .cuenv-format
 * file: the store's default ($CUENV_ROOT/version) when global, else
 * ./.cuenv. Their options (docs/cli.txt: local's) are in ctx->opt.
 */
int cmd_selection_file(const struct cuenv_ctx *ctx, const struct cuenv_cmd *cmd,
		       int global, int argc, char **argv,
		       struct cuenv_err *err);

/*
 * The fetch settings of every command that downloads (install, mirror,
 * update, needs): fetch's defaults, then the CUENV_FETCH_* variables of
 * ctx->envp over them, each checked (install_request_fetch_env, which
 * install_request_env also runs). CUENV_E_USAGE naming a bad variable.
 */
struct fetch_opts;
int cmd_fetch_env(const struct cuenv_ctx *ctx, struct fetch_opts *fo,
		  struct cuenv_err *err);

/*
 * Before taking st's lock: describe this command to those who will wait
 * for it (what: "global"), and say once on stderr what this one waits
 * for, if the lock is busy.
 */
void cmd_store_waiting(struct store *st, const char *what);

struct check_report;
/*
 * `cuenv check`'s smoke test (check.c), for check and `exec --check`: run
 * cuenv-probe on device in a's environment (killed after timeout
 * seconds), then with compile the nvcc step, into r (initialised). Returns
 * CUENV_OK, the code of the failed layer (*first: its index), or an error
 * running the probe itself (*first: -1; err says why).
 */
int cmd_check_run(const struct cuenv_ctx *ctx, const struct activation *a,
		  int device, unsigned timeout, int compile,
		  struct check_report *r, int *first, struct cuenv_err *err);

/* Shell snippets embedded at build time (build/shells.c). */
extern const char embedded_cuenv_sh[]; /* bash and zsh share it */
extern const char embedded_cuenv_bash[];
extern const char embedded_cuenv_zsh[];
extern const char embedded_cuenv_fish[];
extern const char embedded_cuenv_direnv[];
extern const char embedded_cuenv_pwsh[];   /* PowerShell */
extern const char embedded_cuenv_doskey[]; /* cmd: a doskey macro file */
/* Completion scripts (shells/completion.*), printed by `cuenv completion`. */
extern const char embedded_completion_bash[];
extern const char embedded_completion_zsh[];
extern const char embedded_completion_fish[];

extern const struct cuenv_cmd cmd_add, cmd_env, cmd_exec, cmd_export, cmd_gc,
	cmd_global, cmd_help, cmd_init, cmd_install, cmd_list_remote, cmd_local,
	cmd_remove, cmd_uninstall, cmd_update, cmd_use, cmd_version,
	cmd_versions, cmd_which;
extern const struct cuenv_cmd cmd_check;
extern const struct cuenv_cmd cmd_doctor;
extern const struct cuenv_cmd cmd_lock;
extern const struct cuenv_cmd cmd_needs;
extern const struct cuenv_cmd cmd_explain;
extern const struct cuenv_cmd cmd_completion;
extern const struct cuenv_cmd cmd_modules;
extern const struct cuenv_cmd cmd_latest, cmd_prefix, cmd_root;
extern const struct cuenv_cmd cmd_mirror;

/*
 * The catalogue (manifests_catalog_env) and the compatibility tables'
 * folder (manifests_compat_env) as ctx's environment says.
 */
int cmd_catalog(const struct cuenv_ctx *ctx, struct catalog *cat,
		struct cuenv_err *err);
int cmd_compat_dir(const struct cuenv_ctx *ctx, struct buf *out,
		   struct cuenv_err *err);

struct framework_builds;
/*
 * For `install --for` and `mirror --for`: plan_framework_for, whose
 * notes (which build was picked, why the preferred one was skipped) go
 * to stderr unless quiet.
 */
int cmd_framework_pick(const struct cuenv_ctx *ctx, const char *arg,
		       const struct catalog *cat, const char *cudnn, int source,
		       int quiet, struct framework_builds *out,
		       struct cuenv_err *err);

/*
 * For `needs` and `explain`: needs_installed_here for ctx, its warnings
 * on stderr.
 */
struct needs_scan;
struct needs_python;
struct needs_installed;
int cmd_needs_installed(const struct cuenv_ctx *ctx, struct needs_scan *s,
			const struct needs_python *py,
			struct needs_installed *in, struct cuenv_err *err);

#endif
