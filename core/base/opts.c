/*
 * opts.c: getopt_long, --help and the completion scripts' answers, all
 * from a command's one table of options (opts.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/opts.h"
#include "base/version.h"
#include "base/wrap.h"
#include "base/xalloc.h"

/* getopt_long's value for table entry i; below it, short names. */
#define LONG_BASE 256
#define HELP_VAL (LONG_BASE + OPTS_MAX)

/*
 * The word that named option val on the command line: "--cudnn" (getopt
 * gives LONG_BASE + i), "-l" (the short name), or for an unknown long
 * option (0) the word at argv[at] up to its '='.
 */
static void option_word(const struct opt_cmd *cmd, int val, char **argv, int at,
			struct buf *out)
{
	struct buf name = BUF_INIT;

	buf_reset(out);
	if (val >= LONG_BASE && val < LONG_BASE + (int)cmd->nopts) {
		buf_printf(out, "--%s", cmd->opts[val - LONG_BASE].name);
		return;
	}
	if (val > 0 && val < LONG_BASE)
		buf_printf(&name, "-%c", val);
	else
		buf_add(&name, argv[at], strcspn(argv[at], "="));
	buf_add_display(out, name.data, 64);
	buf_release(&name);
}

static int usage_error(const struct opt_cmd *cmd, struct cuenv_err *err)
{
	return cuenv_hint(err, "see: cuenv %s --help", cmd->name);
}

/* The long options that begin with word ("--ver"): for a clear error. */
static size_t prefix_matches(const struct opt_cmd *cmd, const char *word,
			     struct buf *names)
{
	size_t n = 0, len;

	if (strncmp(word, "--", 2))
		return 0;
	word += 2;
	len = strcspn(word, "=");
	for (size_t i = 0; i < cmd->nopts; i++) {
		if (strncmp(cmd->opts[i].name, word, len))
			continue;
		buf_printf(names, "%s--%s", n ? ", " : "", cmd->opts[i].name);
		n++;
	}
	return n;
}

int opts_count(const char *what, const char *s, uint64_t max, uint64_t *out,
	       struct cuenv_err *err)
{
	uint64_t v = 0;
	struct buf shown = BUF_INIT;
	int rc = CUENV_OK;

	for (const char *p = s; rc == CUENV_OK && *p; p++) {
		if (*p < '0' || *p > '9' ||
		    v > (max - (uint64_t)(*p - '0')) / 10)
			rc = CUENV_E_USAGE;
		else
			v = v * 10 + (uint64_t)(*p - '0');
	}
	if (!*s || rc) {
		buf_add_display(&shown, s, 64);
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"%s must be a whole number from 0 to %llu, "
				"not '%s'",
				what, (unsigned long long)max, shown.data);
		buf_release(&shown);
		return rc;
	}
	*out = v;
	return CUENV_OK;
}

/* Check arg against opt's kind; fill out->num for numbers. */
static int check_value(const struct opt_cmd *cmd, const struct opt_def *opt,
		       const char *arg, uint64_t *num, struct cuenv_err *err)
{
	struct buf shown = BUF_INIT, what = BUF_INIT;
	int rc = CUENV_OK;

	buf_add_display(&shown, arg, 64);
	buf_printf(&what, "%s: --%s", cmd->name, opt->name);
	switch (opt->value) {
	case OPT_TEXT:
		break;
	case OPT_VERSION:
		if (version_is_valid(arg))
			break;
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"%s: invalid --%s version '%s'", cmd->name,
				opt->name, shown.data);
		cuenv_hint(err, "a version is numbers and dots, such as 12.4 "
				"or 9.1.0.70");
		break;
	case OPT_NUMBER: {
		struct cuenv_err e = CUENV_ERR_INIT;

		rc = opts_count(what.data, arg, opt->max, num, &e);
		if (!rc && *num < opt->min)
			rc = CUENV_E_USAGE;
		if (rc) {
			cuenv_fail(err, rc,
				   "%s must be a whole number from %llu to "
				   "%llu, not '%s'",
				   what.data, (unsigned long long)opt->min,
				   (unsigned long long)opt->max, shown.data);
			usage_error(cmd, err);
		}
		err_release(&e);
		break;
	}
	case OPT_WORD: {
		size_t n = strlen(arg);
		const char *w = opt->words;

		while (*w) {
			size_t k = strcspn(w, " ");

			if (k == n && n && !strncmp(w, arg, n))
				break;
			w += k;
			w += strspn(w, " ");
		}
		if (*w)
			break;
		rc = cuenv_fail(err, CUENV_E_USAGE, "%s: unknown %s '%s'",
				cmd->name, opt->name, shown.data);
		buf_reset(&what);
		for (w = opt->words; *w; w++)
			buf_adds(&what, *w == ' ' ? ", " : (char[]){ *w, 0 });
		cuenv_hint(err, "--%s is one of: %s", opt->name, what.data);
		break;
	}
	}
	buf_release(&shown);
	buf_release(&what);
	return rc;
}

/* getopt_long's tables for cmd: longs (nopts + 2 entries) and shorts. */
static void getopt_tables(const struct opt_cmd *cmd, int stop_at_arg,
			  struct option *longs, struct buf *shorts)
{
	/* '+': stop at the first argument; ':': tell a missing argument */
	buf_adds(shorts, stop_at_arg ? "+:h" : ":h");
	for (size_t i = 0; i < cmd->nopts; i++) {
		const struct opt_def *o = &cmd->opts[i];
		int has = !o->arg		    ? no_argument
			  : o->flags & OPT_OPTIONAL ? optional_argument
						    : required_argument;

		longs[i] = (struct option){ o->name, has, NULL,
					    LONG_BASE + (int)i };
		if (o->alias) {
			buf_addc(shorts, o->alias);
			if (has != no_argument)
				buf_adds(shorts,
					 has == optional_argument ? "::" : ":");
		}
	}
	longs[cmd->nopts] =
		(struct option){ "help", no_argument, NULL, HELP_VAL };
}

/* The table entry getopt_long's c names, or -1. */
static int option_index(const struct opt_cmd *cmd, int c)
{
	int i = -1;

	if (c >= LONG_BASE && c < LONG_BASE + (int)cmd->nopts)
		i = c - LONG_BASE;
	for (size_t k = 0; c > 0 && c < LONG_BASE && k < cmd->nopts; k++)
		if (cmd->opts[k].alias == c)
			i = (int)k;
	return i;
}

/*
 * The error for getopt_long's '?' (an unknown or ambiguous option, or a
 * value given to one that takes none) at argv[at].
 */
static void bad_option(const struct opt_cmd *cmd, char **argv, int at,
		       struct cuenv_err *err)
{
	struct buf word = BUF_INIT, names = BUF_INIT;

	if (!strncmp(argv[at], "--", 2) && optopt < LONG_BASE)
		optopt = 0; /* glibc leaves it as it was */
	if (optopt >= LONG_BASE) {
		option_word(cmd, optopt, argv, at, &word);
		cuenv_fail(err, CUENV_E_USAGE, "%s: %s takes no value",
			   cmd->name, word.data);
	} else if (optopt) {
		option_word(cmd, optopt, argv, at, &word);
		cuenv_fail(err, CUENV_E_USAGE, "%s: unknown option '%s'",
			   cmd->name, word.data);
	} else {
		option_word(cmd, 0, argv, at, &word);
		if (prefix_matches(cmd, argv[at], &names) > 1)
			cuenv_fail(err, CUENV_E_USAGE,
				   "%s: ambiguous option '%s' (%s)", cmd->name,
				   word.data, names.data);
		else
			cuenv_fail(err, CUENV_E_USAGE,
				   "%s: unknown option '%s'", cmd->name,
				   word.data);
	}
	usage_error(cmd, err);
	buf_release(&word);
	buf_release(&names);
}

/*
 * Record table entry i, found by getopt_long, in out (seq: its order),
 * with its value (optarg, or the next word where the option's takes
 * accepts it), checked by its kind.
 */
static void take_option(const struct opt_cmd *cmd, int i, int argc, char **argv,
			struct opt_values *out, unsigned *seq,
			struct cuenv_err *err)
{
	if (!optarg && cmd->opts[i].arg && optind < argc &&
	    cmd->opts[i].takes && cmd->opts[i].takes(argv[optind]))
		optarg = argv[optind++];
	out->arg[i] = optarg ? optarg : "";
	out->seq[i] = ++*seq;
	if (cmd->opts[i].flags & OPT_REPEAT) {
		if (out->nall == OPTS_REPEAT_MAX) {
			cuenv_fail(err, CUENV_E_USAGE,
				   "%s: more than %d values of repeated "
				   "options",
				   cmd->name, OPTS_REPEAT_MAX);
			usage_error(cmd, err);
			return;
		}
		out->all[out->nall++] =
			(struct opt_value_at){ (unsigned)i, out->arg[i] };
	}
	if (optarg)
		check_value(cmd, &cmd->opts[i], optarg, &out->num[i], err);
}

int opts_parse(const struct opt_cmd *cmd, int stop_at_arg, int argc,
	       char **argv, struct opt_values *out, int *help,
	       struct cuenv_err *err)
{
	struct option *longs = xcalloc(cmd->nopts + 2, sizeof(*longs));
	struct buf shorts = BUF_INIT, word = BUF_INIT;
	struct cuenv_err first = CUENV_ERR_INIT;
	unsigned seq = 0;
	int c, rc = CUENV_OK;

	if (cmd->nopts > OPTS_MAX)
		BUG("%s: %zu options, OPTS_MAX is %d", cmd->name, cmd->nopts,
		    OPTS_MAX);
	memset(out, 0, sizeof(*out));
	*help = 0;
	getopt_tables(cmd, stop_at_arg, longs, &shorts);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, shorts.data, longs, NULL)) != -1) {
		int at = optind - 1 < argc ? optind - 1 : argc - 1;
		int i = option_index(cmd, c);

		if (c == 'h' || c == HELP_VAL) {
			*help = 1;
		} else if (first.rc) {
			/* only the first error is told */
		} else if (c == ':') {
			option_word(cmd, optopt, argv, at, &word);
			cuenv_fail(&first, CUENV_E_USAGE,
				   "%s: %s needs a value", cmd->name,
				   word.data);
			usage_error(cmd, &first);
		} else if (c == '?') {
			bad_option(cmd, argv, at, &first);
		} else if (i < 0) {
			BUG("getopt_long returned %d", c);
		} else {
			take_option(cmd, i, argc, argv, out, &seq, &first);
		}
	}
	if (first.rc && !*help) {
		rc = cuenv_fail(err, first.rc, "%s", first.msg.data);
		if (first.hint.len)
			cuenv_hint(err, "%s", first.hint.data);
	}
	err_release(&first);
	buf_release(&shorts);
	buf_release(&word);
	free(longs);
	return rc;
}

/* ---- the usage synopsis -------------------------------------------------- */

#define SYN_WIDTH 79

static int in_form(const struct opt_def *o, unsigned form)
{
	return o->forms ? (o->forms & OPT_FORM(form)) != 0 : form == 1;
}

/* "--cudnn V", "--python [PYTHON]", "--format lua|tcl" */
static void syn_option(const struct opt_def *o, struct buf *out)
{
	buf_printf(out, "--%s", o->name);
	if (o->value == OPT_WORD) {
		buf_addc(out, ' ');
		for (const char *w = o->words; *w; w++)
			buf_addc(out, *w == ' ' ? '|' : *w);
	} else if (o->arg) {
		buf_printf(out, o->flags & OPT_OPTIONAL ? " [%s]" : " %s",
			   o->arg);
	}
}

/* Form form's options, each group one word: "[--a X | --b]", "[--c V]..." */
static void syn_options(const struct opt_cmd *cmd, unsigned form,
			struct strv *words)
{
	struct buf w = BUF_INIT;

	for (size_t i = 0; i < cmd->nopts;) {
		int repeat = 0;
		size_t j = i;

		if (!in_form(&cmd->opts[i], form)) {
			i++;
			continue;
		}
		buf_reset(&w);
		buf_addc(&w, '[');
		do {
			if (j > i)
				buf_adds(&w, " | ");
			syn_option(&cmd->opts[j], &w);
			repeat |= cmd->opts[j].flags & OPT_REPEAT;
			j++;
		} while (j < cmd->nopts && (cmd->opts[j].flags & OPT_ALT) &&
			 in_form(&cmd->opts[j], form));
		buf_adds(&w, repeat ? "]..." : "]");
		strv_push(words, w.data);
		i = j;
	}
	buf_release(&w);
}

/* One synopsis line (form form, up to its '\n') with its options. */
static void syn_line(const struct opt_cmd *cmd, const char *line, size_t len,
		     unsigned form, struct buf *out)
{
	const char *mark = memchr(line, OPT_SYN[0], len);
	const char *cuenv = strstr(line, "cuenv ");
	struct strv words = STRV_INIT;
	size_t indent;

	if (!mark || !cuenv || cuenv > mark) {
		buf_add(out, line, len);
		buf_addc(out, '\n');
		return;
	}
	indent = (size_t)(cuenv - line) + strlen("cuenv ") + strlen(cmd->name);
	indent += line[indent] == ' ';
	if (line + indent > mark)
		indent = (size_t)(mark - line);
	buf_add(out, line, indent);
	wrap_split(line + indent, (size_t)(mark - line) - indent, &words,
		   WRAP_KEEP_BRACKETS);
	syn_options(cmd, form, &words);
	wrap_split(mark + 1, len - (size_t)(mark + 1 - line), &words,
		   WRAP_KEEP_BRACKETS);
	wrap_words(out, indent, indent, &words, SYN_WIDTH, WRAP_BREAK_BARS);
	strv_release(&words);
}

void opts_usage(const struct opt_cmd *cmd, struct buf *out)
{
	const char *p = cmd->usage, *blank = strstr(p, "\n\n");
	const char *end = blank ? blank + 1 : p + strlen(p);
	unsigned form = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		syn_line(cmd, p, len, ++form, out);
		p += len + (nl != NULL);
	}
	buf_adds(out, end);
}

/* "-l, --list", "--cudnn V", "--python [PYTHON]" */
static void option_label(const struct opt_def *o, struct buf *out)
{
	buf_reset(out);
	if (o->alias)
		buf_printf(out, "-%c, ", o->alias);
	buf_printf(out, "--%s", o->name);
	if (o->arg)
		buf_printf(out, o->flags & OPT_OPTIONAL ? " [%s]" : " %s",
			   o->arg);
}

void opts_help(const struct opt_cmd *cmd, struct buf *out)
{
	struct buf label = BUF_INIT;
	size_t width = 0;

	opts_usage(cmd, out);
	for (size_t i = 0; i < cmd->nopts; i++) {
		option_label(&cmd->opts[i], &label);
		if (label.len > width)
			width = label.len;
	}
	if (cmd->nopts)
		buf_addc(out, '\n');
	for (size_t i = 0; i < cmd->nopts; i++) {
		const char *h = cmd->opts[i].help, *nl;

		option_label(&cmd->opts[i], &label);
		buf_printf(out, "  %-*s  ", (int)width, label.data);
		/* continuation lines start under the first */
		while ((nl = strchr(h, '\n'))) {
			buf_printf(out, "%.*s\n%*s", (int)(nl - h), h,
				   (int)width + 4, "");
			h = nl + 1;
		}
		buf_printf(out, "%s\n", h);
	}
	if (cmd->notes)
		buf_printf(out, "\n%s", cmd->notes);
	buf_release(&label);
}

void opts_complete(const struct opt_cmd *cmd, struct buf *out)
{
	for (size_t i = 0; i < cmd->nopts; i++) {
		const struct opt_def *o = &cmd->opts[i];
		const char *values = o->complete ? o->complete
				     : o->words	 ? o->words
						 : "";

		buf_printf(out, "--%s\t%s\t%s%s\t%.*s\n", o->name,
			   o->arg ? o->arg : "", o->complete ? "@" : "", values,
			   (int)strcspn(o->help, "\n"), o->help);
	}
	buf_adds(out, "--help\t\t\tshow this command's help\n");
}
