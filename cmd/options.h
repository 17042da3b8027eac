/*
 * options.h: a command's options, declared once.
 *
 * Each command's options are written in docs/cli.txt, beside its usage
 * and notes:
 *
 *	option --cudnn V: version; complete installed cudnn
 *		cuDNN V, among builds for the selected CUDA major
 *
 * tools/cli.c turns them into one array of struct cmd_option per command,
 * and its enum (O_CUDNN, ...) into "cli/<command>.h", as git's
 * parse-options and tmux's cmd_entry declare theirs. From that one array
 * the dispatcher builds getopt_long's tables, parses and checks the
 * values before the command runs (its body reads ctx->opt), prints the
 * option list of `--help`, and answers the completion scripts (`cuenv
 * completion --options CMD`) and writes the options of the usage
 * synopsis where the usage's text says CMD_SYN_OPTS (cmd_usage); the
 * unit and end-to-end tests compare the completion scripts and the man
 * page against it.
 */
#ifndef CUENV_CMD_OPTIONS_H
#define CUENV_CMD_OPTIONS_H

#include <stdint.h>
#include <stdio.h>
#include <unistd.h> /* optind */

#include "../core/err.h"

/* What an option's argument must be; checked before the command runs. */
enum opt_value {
	OPT_TEXT,    /* anything */
	OPT_VERSION, /* a version: numbers and dots (12.4, 9.1.0.70) */
	OPT_NUMBER,  /* a whole number from .min to .max */
	OPT_WORD,    /* one of .words */
};

enum {
	OPT_OPTIONAL = 1 << 0, /* the argument may be left out */
	OPT_REPEAT = 1 << 1,   /* may be given again: every value is kept */
	/* in the synopsis, an alternative to the option before it: [--a | --b] */
	OPT_ALT = 1 << 2,
};

/*
 * Where in a usage's synopsis lines (its forms, "usage: cuenv CMD ..."
 * and the lines under it down to the first blank one) the options of the
 * command's table go, each as [--NAME ARG]: the first form's, unless the
 * option's .forms says otherwise.
 */
#define CMD_SYN_OPTS "\001"
/* .forms: the synopsis forms (1, 2, ...) that show the option */
#define CMD_FORM(n) (1u << ((n)-1))
/* .forms: none; the usage's own text names it (cuenv use --unset) */
#define CMD_NAMED (1u << 31)

struct cmd_option {
	const char *name; /* the long name, without "--" */
	char alias;	  /* a short name (-l), or 0 */
	const char *arg;  /* the argument's name in help (V, N), NULL: none */
	enum opt_value value;
	/*
	 * OPT_WORD: the choices, separated by spaces. OPT_TEXT: words the
	 * completion scripts offer, the command checking the value itself
	 * (a comma-separated list of them, say).
	 */
	const char *words;
	uint64_t min, max; /* OPT_NUMBER */
	unsigned flags;	   /* OPT_OPTIONAL, OPT_REPEAT, OPT_ALT */
	unsigned forms;	   /* CMD_FORM(n)s or CMD_NAMED; 0: CMD_FORM(1) */
	/*
	 * OPT_OPTIONAL: whether the next word, when separate (--python
	 * python3.11), is the argument; getopt takes only --python=X.
	 */
	int (*takes)(const char *word);
	/*
	 * What the completion scripts offer for the argument: "installed
	 * cuda", "installed cudnn", "remote cudnn", "files", "dirs", or
	 * NULL (the words of OPT_WORD, else nothing).
	 */
	const char *complete;
	const char *help; /* for --help: lines joined by '\n' */
};

#define CMD_OPTS_MAX 24
/* The most values of OPT_REPEAT options one command line may give. */
#define CMD_OPTS_REPEAT_MAX 64

/* Options as parsed, indexed as the command's table. */
struct cmd_opts {
	const char *arg[CMD_OPTS_MAX]; /* the last one given; "" for a flag */
	uint64_t num[CMD_OPTS_MAX];    /* OPT_NUMBER: its value */
	unsigned seq[CMD_OPTS_MAX]; /* when last given (1, 2, ...); 0: never */
	/* OPT_REPEAT: every value given, in order, and whose it is */
	struct cmd_opt_value {
		unsigned opt; /* the index into the command's table */
		const char *arg;
	} all[CMD_OPTS_REPEAT_MAX];
	unsigned nall;
};

struct cuenv_cmd;

/*
 * Parse argv (argv[0] is the command's name) by cmd's table into out,
 * permuting it as getopt_long does (not past the first argument for
 * CMD_STOP_AT_ARG), and leave optind at the first positional argument.
 * -h and --help set *help, and win over any error. Returns CUENV_OK, or
 * CUENV_E_USAGE with one message naming the command and the option (and
 * the bad value) and a hint `see: cuenv CMD --help`.
 */
int cmd_options_parse(const struct cuenv_cmd *cmd, int argc, char **argv,
		      struct cmd_opts *out, int *help, struct cuenv_err *err);

/*
 * cmd's usage text, its synopsis lines' CMD_SYN_OPTS replaced by the
 * options of that form ("[--cudnn V] [--isolate | --no-isolate]
 * [--for F==V]... [--format lua|tcl]"), wrapped at 79 columns under the
 * line's first argument.
 */
struct buf;
void cmd_usage(const struct cuenv_cmd *cmd, struct buf *out);

/* Print cmd's help to f: its usage, the options from the table, notes. */
void cmd_options_help(const struct cuenv_cmd *cmd, FILE *f);

/*
 * For the completion scripts: one line per option of cmd, --help
 * included: "--NAME<TAB>ARG<TAB>VALUES<TAB>HELP", where ARG is "" (a
 * flag) or the argument's name, VALUES the words to offer (or
 * "@installed cuda" and the like) and HELP the first line of its help.
 */
void cmd_options_complete(const struct cuenv_cmd *cmd, FILE *f);

/* Whether option o (an index into the command's table) was given. */
static inline int cmd_opt_given(const struct cmd_opts *o, int i)
{
	return o->seq[i] != 0;
}

#endif
