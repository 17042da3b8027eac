/*
 * opts.h: a command line's options, declared once in a table.
 *
 * cuenv's commands declare theirs in docs/cli.txt:
 *
 *	option --cudnn V: version; complete installed cudnn
 *		cuDNN V, among builds for the selected CUDA major
 *
 * which tools/cli.c turns into one array of struct opt_def per command,
 * and its enum (O_CUDNN, ...), as git's parse-options and tmux's
 * cmd_entry declare theirs. From that one array this module builds
 * getopt_long's tables, parses and checks the values (a command's body
 * reads the struct opt_values), writes the option list of `--help`, the
 * completion scripts' answers (`cuenv completion --options CMD`) and the
 * options of the usage synopsis where its text says OPT_SYN (opts_usage);
 * the unit and end-to-end tests compare the completion scripts and the
 * man page against it.
 */
#ifndef CUENV_OPTS_H
#define CUENV_OPTS_H

#include <stdint.h>
#include <unistd.h> /* optind */

#include "base/err.h"

struct buf;

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
#define OPT_SYN "\001"
/* .forms: the synopsis forms (1, 2, ...) that show the option */
#define OPT_FORM(n) (1u << ((n)-1))
/* .forms: none; the usage's own text names it (cuenv use --unset) */
#define OPT_NAMED (1u << 31)

struct opt_def {
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
	unsigned forms;	   /* OPT_FORM(n)s or OPT_NAMED; 0: OPT_FORM(1) */
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

#define OPTS_MAX 24
/* The most values of OPT_REPEAT options one command line may give. */
#define OPTS_REPEAT_MAX 64

/* Options as parsed, indexed as the command's table. */
struct opt_values {
	const char *arg[OPTS_MAX]; /* the last one given; "" for a flag */
	uint64_t num[OPTS_MAX];	   /* OPT_NUMBER: its value */
	unsigned seq[OPTS_MAX];	   /* when last given (1, 2, ...); 0: never */
	/* OPT_REPEAT: every value given, in order, and whose it is */
	struct opt_value_at {
		unsigned opt; /* the index into the command's table */
		const char *arg;
	} all[OPTS_REPEAT_MAX];
	unsigned nall;
};

/* A command line as the parser and its texts need it (docs/cli.txt). */
struct opt_cmd {
	const char *name;    /* the command's: "install" */
	const char *summary; /* one line */
	/* the synopsis (its OPT_SYN marks), a blank line, what it does */
	const char *usage;
	const struct opt_def *opts;
	size_t nopts;
	const char *notes; /* after the options in --help, or NULL */
};

/*
 * Parse argv (argv[0] is the command's name) by cmd's table into out,
 * permuting it as getopt_long does (with stop_at_arg, not past the first
 * argument), and leave optind at the first positional argument. -h and
 * --help set *help, and win over any error. Returns CUENV_OK, or
 * CUENV_E_USAGE with one message naming the command and the option (and
 * the bad value) and a hint `see: cuenv CMD --help`.
 */
int opts_parse(const struct opt_cmd *cmd, int stop_at_arg, int argc,
	       char **argv, struct opt_values *out, int *help,
	       struct cuenv_err *err);

/*
 * Parse s, a decimal count from 0 to max (no sign, no suffix, no
 * blanks), into *out; *out is left alone on failure. Else CUENV_E_USAGE:
 * "WHAT must be a whole number from 0 to MAX, not 'S'", what naming it
 * ("--timeout", "CUENV_FETCH_TIMEOUT").
 */
int opts_count(const char *what, const char *s, uint64_t max, uint64_t *out,
	       struct cuenv_err *err);

/*
 * cmd's usage text, its synopsis lines' OPT_SYN replaced by the
 * options of that form ("[--cudnn V] [--isolate | --no-isolate]
 * [--for F==V]... [--format lua|tcl]"), wrapped at 79 columns under the
 * line's first argument.
 */
void opts_usage(const struct opt_cmd *cmd, struct buf *out);

/* cmd's help into out: its usage, the options from the table, notes. */
void opts_help(const struct opt_cmd *cmd, struct buf *out);

/*
 * For the completion scripts: one line per option of cmd, --help
 * included: "--NAME<TAB>ARG<TAB>VALUES<TAB>HELP", where ARG is "" (a
 * flag) or the argument's name, VALUES the words to offer (or
 * "@installed cuda" and the like) and HELP the first line of its help.
 */
void opts_complete(const struct opt_cmd *cmd, struct buf *out);

/* Whether option o (an index into the command's table) was given. */
static inline int opt_given(const struct opt_values *o, int i)
{
	return o->seq[i] != 0;
}

#endif
