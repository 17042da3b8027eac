/*
 * cli.c: turn docs/cli.txt, the description of cuenv's command line,
 * into C (build time only).
 *
 *	cli SPEC OUT.c OUTDIR [MAN.in MAN]
 *
 * OUT.c gets every command's usage, notes and option table; OUTDIR/NAME.h
 * (NAME: the command's name, '-' as '_') its option enum, O_CUDNN and so
 * on, and CLI_FIELDS, the designated initializers of its struct cuenv_cmd
 * that come from the spec (cmd.h's CUENV_CMD puts them in). A header is
 * written only when it changes, so that an edit of one command's help
 * rebuilds that command only. MAN is the manual page MAN.in with each
 * line `.\" @options NAME` replaced by command NAME's options and their
 * help, as roff.
 *
 * The format (docs/cli.txt says it again for those who edit it):
 *
 *	command NAME: SUMMARY
 *	usage			then its text, each line indented by a tab
 *	option -l, --NAME ARG: ATTR; ATTR...	then its help, indented
 *	options as OTHER	share OTHER's options (defined before)
 *	notes			then their text, indented
 *
 * ARG is "[ARG]" for an optional argument. ATTRs: version; number MIN..MAX;
 * one of WORDS; offer WORDS; complete WHAT; repeat; alt; named; forms N...;
 * takes FUNCTION. In usage, {options} marks where the synopsis lists the
 * options (OPT_SYN). A line starting with '#' is a comment, and a
 * blank line inside a text stays in it, unless the text ends there.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CMDS 64
#define MAX_OPTS 24
#define TEXT_MAX 8192

struct opt {
	char name[40], alias, arg[24];
	int optional, line;
	char value[16];	       /* "", "version", "number", "word" */
	char min[24], max[24]; /* number */
	char words[200];       /* one of, offer */
	char complete[40], takes[40];
	char flags[64]; /* "OPT_REPEAT | OPT_ALT" */
	char forms[80]; /* "OPT_NAMED", "OPT_FORM(1) | ..." */
	char help[TEXT_MAX];
};

struct cmd {
	char name[32], id[32], summary[200];
	char usage[TEXT_MAX], notes[TEXT_MAX];
	int has_notes, line;
	struct opt opts[MAX_OPTS];
	int nopts;
	int as;		  /* options as cmds[as], or -1 */
	char as_name[32]; /* as the spec names it */
	int as_line;
};

static struct cmd cmds[MAX_CMDS];
static int ncmds;
static const char *spec;
static int lineno;

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", spec, lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void copy(char *dst, size_t size, const char *src, size_t n,
		 const char *what)
{
	if (n >= size)
		die("%s too long", what);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void append(char *dst, const char *src, size_t size)
{
	if (strlen(dst) + strlen(src) >= size)
		die("text too long");
	strcat(dst, src);
}

/* "use" -> "use", "list-remote" -> "list_remote"; upper: "LIST_REMOTE" */
static void ident(char *dst, const char *name, int upper)
{
	for (; *name; name++)
		*dst++ = *name == '-' ? '_'
			 : upper      ? (char)toupper((unsigned char)*name)
				      : *name;
	*dst = '\0';
}

static int find_cmd(const char *name)
{
	for (int i = 0; i < ncmds; i++)
		if (!strcmp(cmds[i].name, name))
			return i;
	return -1;
}

/* One attribute of an option line ("number 1..64", "repeat"). */
static void attribute(struct opt *o, const char *a)
{
	const char *sp = strchr(a, ' ');
	size_t key = sp ? (size_t)(sp - a) : strlen(a);
	const char *v = sp ? sp + 1 : "";

#define IS(k) (key == strlen(k) && !strncmp(a, k, key))
	if (IS("version")) {
		strcpy(o->value, "version");
	} else if (IS("number")) {
		const char *dots = strstr(v, "..");

		if (!dots)
			die("number wants MIN..MAX: '%s'", a);
		strcpy(o->value, "number");
		copy(o->min, sizeof(o->min), v, (size_t)(dots - v), "min");
		copy(o->max, sizeof(o->max), dots + 2, strlen(dots + 2), "max");
		if (strspn(o->min, "0123456789") != strlen(o->min) ||
		    strspn(o->max, "0123456789") != strlen(o->max) ||
		    !*o->min || !*o->max)
			die("number wants whole numbers: '%s'", a);
	} else if (IS("one") && !strncmp(v, "of ", 3)) {
		strcpy(o->value, "word");
		copy(o->words, sizeof(o->words), v + 3, strlen(v + 3), "words");
	} else if (IS("offer")) {
		copy(o->words, sizeof(o->words), v, strlen(v), "words");
	} else if (IS("complete")) {
		copy(o->complete, sizeof(o->complete), v, strlen(v),
		     "complete");
	} else if (IS("takes")) {
		copy(o->takes, sizeof(o->takes), v, strlen(v), "takes");
	} else if (IS("repeat") || IS("alt")) {
		if (*o->flags)
			strcat(o->flags, " | ");
		strcat(o->flags, IS("repeat") ? "OPT_REPEAT" : "OPT_ALT");
	} else if (IS("named")) {
		strcpy(o->forms, "OPT_NAMED");
	} else if (IS("forms")) {
		for (const char *p = v; *p; p++) {
			char f[24];

			if (*p == ' ')
				continue;
			if (!isdigit((unsigned char)*p))
				die("forms wants numbers: '%s'", a);
			snprintf(f, sizeof(f), "%sOPT_FORM(%d)",
				 *o->forms ? " | " : "", atoi(p));
			append(o->forms, f, sizeof(o->forms));
			p += strspn(p, "0123456789") - 1;
		}
	} else {
		die("unknown option attribute '%s'", a);
	}
#undef IS
}

/* "option -l, --list: named" */
static void option_line(struct cmd *c, char *s)
{
	struct opt *o;
	char *attrs = strstr(s, ": "), *p = s, *arg;

	if (c->nopts == MAX_OPTS)
		die("more than %d options", MAX_OPTS);
	if (*c->as_name)
		die("'%s' shares its options: it has none of its own", c->name);
	o = &c->opts[c->nopts++];
	o->line = lineno;
	if (attrs)
		*attrs = '\0';
	if (p[0] == '-' && p[1] != '-') {
		if (!isalpha((unsigned char)p[1]) || strncmp(p + 2, ", ", 2))
			die("expected '-X, --NAME': '%s'", s);
		o->alias = p[1];
		p += 4;
	}
	if (strncmp(p, "--", 2))
		die("expected '--NAME': '%s'", s);
	p += 2;
	arg = strchr(p, ' ');
	copy(o->name, sizeof(o->name), p, arg ? (size_t)(arg - p) : strlen(p),
	     "name");
	if (strspn(o->name, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
	    strlen(o->name))
		die("bad option name '%s'", o->name);
	if (arg) {
		arg++;
		o->optional = *arg == '[';
		if (o->optional && arg[strlen(arg) - 1] != ']')
			die("expected '[ARG]': '%s'", arg);
		copy(o->arg, sizeof(o->arg), arg + o->optional,
		     strlen(arg) - 2 * (size_t)o->optional, "argument");
	}
	if (o->optional) {
		if (*o->flags)
			strcat(o->flags, " | ");
		strcat(o->flags, "OPT_OPTIONAL");
	}
	for (p = attrs ? attrs + 2 : NULL; p && *p;) {
		char *semi = strstr(p, "; ");

		if (semi)
			*semi = '\0';
		attribute(o, p);
		p = semi ? semi + 2 : NULL;
	}
	if (*o->value && !*o->arg)
		die("--%s has a kind but no argument", o->name);
}

/* The text a block ends with: no blank lines at its end. */
static void trim_text(char *t)
{
	size_t n = strlen(t);

	while (n >= 2 && t[n - 1] == '\n' && t[n - 2] == '\n')
		t[--n] = '\0';
}

static void parse(FILE *in)
{
	char line[1024], *text = NULL;
	size_t textsz = 0;
	struct cmd *c = NULL;

	while (fgets(line, sizeof(line), in)) {
		size_t n = strlen(line);

		lineno++;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		else if (!feof(in))
			die("line too long");
		if (line[0] == '#')
			continue;
		if (line[0] == '\t' || !line[0]) {
			if (!text) {
				if (line[0])
					die("text outside usage, notes or an "
					    "option");
				continue;
			}
			append(text, line + !!line[0], textsz);
			append(text, "\n", textsz);
			continue;
		}
		if (text)
			trim_text(text);
		text = NULL;
		if (!strncmp(line, "command ", 8)) {
			char *colon = strstr(line, ": ");

			if (ncmds == MAX_CMDS)
				die("too many commands");
			if (!colon)
				die("expected 'command NAME: SUMMARY'");
			c = &cmds[ncmds++];
			c->line = lineno;
			c->as = -1;
			copy(c->name, sizeof(c->name), line + 8,
			     (size_t)(colon - line - 8), "name");
			if (find_cmd(c->name) != ncmds - 1)
				die("command '%s' again", c->name);
			ident(c->id, c->name, 0);
			copy(c->summary, sizeof(c->summary), colon + 2,
			     strlen(colon + 2), "summary");
			continue;
		}
		if (!c)
			die("expected 'command NAME: SUMMARY' first");
		if (!strcmp(line, "usage")) {
			if (*c->usage)
				die("a second usage");
			text = c->usage;
			textsz = sizeof(c->usage);
		} else if (!strcmp(line, "notes")) {
			if (c->has_notes)
				die("a second notes");
			c->has_notes = 1;
			text = c->notes;
			textsz = sizeof(c->notes);
		} else if (!strncmp(line, "option ", 7)) {
			option_line(c, line + 7);
			text = c->opts[c->nopts - 1].help;
			textsz = sizeof(c->opts[0].help);
		} else if (!strncmp(line, "options as ", 11)) {
			if (c->nopts || *c->as_name)
				die("'options as' with other options");
			copy(c->as_name, sizeof(c->as_name), line + 11,
			     strlen(line + 11), "name");
			c->as_line = lineno;
		} else {
			die("unknown line '%s'", line);
		}
	}
	if (text)
		trim_text(text);
	if (ferror(in))
		die("read error");
	for (int i = 0; i < ncmds; i++) {
		struct cmd *k = &cmds[i];

		if (!*k->as_name)
			continue;
		lineno = k->as_line;
		k->as = find_cmd(k->as_name);
		if (k->as < 0 || k->as == i || *cmds[k->as].as_name)
			die("no command '%s' with options of its own",
			    k->as_name);
	}
}

/* s as C string literals, one a line, {options} as OPT_SYN. */
static void literal(FILE *f, const char *s, int chomp)
{
	const char *mark = "{options}";

	if (!*s) {
		fputs("\"\"", f);
		return;
	}
	fputs("\"", f);
	for (const char *p = s; *p; p++) {
		if (!strncmp(p, mark, strlen(mark))) {
			fputs("\" OPT_SYN \"", f);
			p += strlen(mark) - 1;
		} else if (*p == '\n') {
			if (chomp && !p[1])
				break;
			fputs(p[1] ? "\\n\"\n\t\"" : "\\n", f);
		} else {
			if (*p == '"' || *p == '\\')
				fputc('\\', f);
			fputc(*p, f);
		}
	}
	fputs("\"", f);
}

static void check(const struct cmd *c)
{
	lineno = c->line;
	if (!*c->usage)
		die("command '%s' has no usage", c->name);
	if (strncmp(c->usage, "usage: cuenv ", 13))
		die("'%s': usage must start 'usage: cuenv '", c->name);
	/* the summary goes into a header's macro as it is */
	if (strpbrk(c->summary, "\"\\"))
		die("'%s': a summary holds no '\"' or '\\'", c->name);
	for (int i = 0; i < c->nopts; i++) {
		lineno = c->opts[i].line;
		if (!*c->opts[i].help)
			die("--%s has no help", c->opts[i].name);
		for (int j = 0; j < i; j++)
			if (!strcmp(c->opts[i].name, c->opts[j].name))
				die("--%s again", c->opts[i].name);
	}
}

static void write_table(FILE *f, const struct cmd *c)
{
	fprintf(f, "\nconst char cli_%s_usage[] =\n\t", c->id);
	literal(f, c->usage, 0);
	fputs(";\n", f);
	if (c->has_notes) {
		fprintf(f, "const char cli_%s_notes[] =\n\t", c->id);
		literal(f, c->notes, 0);
		fputs(";\n", f);
	}
	if (!c->nopts)
		return;
	fprintf(f, "const struct opt_def cli_%s_opts[%d] = {\n", c->id,
		c->nopts);
	for (int i = 0; i < c->nopts; i++) {
		const struct opt *o = &c->opts[i];

		fprintf(f, "\t{ \"%s\"", o->name);
		if (o->alias)
			fprintf(f, ", .alias = '%c'", o->alias);
		if (*o->arg)
			fprintf(f, ", .arg = \"%s\"", o->arg);
		if (!strcmp(o->value, "version"))
			fputs(", .value = OPT_VERSION", f);
		if (!strcmp(o->value, "number"))
			fprintf(f,
				", .value = OPT_NUMBER, .min = UINT64_C(%s), "
				".max = UINT64_C(%s)",
				o->min, o->max);
		if (!strcmp(o->value, "word"))
			fputs(", .value = OPT_WORD", f);
		if (*o->words)
			fprintf(f, ", .words = \"%s\"", o->words);
		if (*o->complete)
			fprintf(f, ", .complete = \"%s\"", o->complete);
		if (*o->flags)
			fprintf(f, ", .flags = %s", o->flags);
		if (*o->forms)
			fprintf(f, ", .forms = %s", o->forms);
		if (*o->takes)
			fprintf(f, ", .takes = %s", o->takes);
		fputs(",\n\t  .help = ", f);
		literal(f, o->help, 1);
		fputs(" },\n", f);
	}
	fputs("};\n", f);
}

/* OUTDIR/ID.h's text into out. */
static void header(const struct cmd *c, char *out, size_t size)
{
	const struct cmd *o = c->as >= 0 ? &cmds[c->as] : c;
	char id[32];
	int n;

	ident(id, c->name, 1);
	n = snprintf(out, size,
		     "/* generated from docs/cli.txt by tools/cli.c: do not "
		     "edit */\n#ifndef CUENV_CLI_%s_H\n#define CUENV_CLI_%s_H\n",
		     id, id);
	if (o->nopts) {
		n += snprintf(out + n, size - (size_t)n, "\nenum {\n");
		for (int i = 0; i < o->nopts; i++) {
			char e[48];

			ident(e, o->opts[i].name, 1);
			n += snprintf(out + n, size - (size_t)n, "\tO_%s,\n",
				      e);
		}
		n += snprintf(out + n, size - (size_t)n,
			      "};\n\nextern const struct opt_def "
			      "cli_%s_opts[%d];\n",
			      o->id, o->nopts);
	}
	for (int i = 0; i < o->nopts; i++)
		if (*o->opts[i].takes)
			n += snprintf(out + n, size - (size_t)n,
				      "int %s(const char *word);\n",
				      o->opts[i].takes);
	n += snprintf(out + n, size - (size_t)n,
		      "extern const char cli_%s_usage[];\n", c->id);
	if (c->has_notes)
		n += snprintf(out + n, size - (size_t)n,
			      "extern const char cli_%s_notes[];\n", c->id);
	n += snprintf(out + n, size - (size_t)n,
		      "\n#define CLI_FIELDS .cli = { .name = \"%s\", \\\n"
		      "\t.summary = \"%s\", \\\n\t.usage = cli_%s_usage",
		      c->name, c->summary, c->id);
	if (o->nopts)
		n += snprintf(out + n, size - (size_t)n,
			      ", \\\n\t.opts = cli_%s_opts, .nopts = %d", o->id,
			      o->nopts);
	if (c->has_notes)
		n += snprintf(out + n, size - (size_t)n,
			      ", \\\n\t.notes = cli_%s_notes", c->id);
	n += snprintf(out + n, size - (size_t)n, " }\n\n#endif\n");
	if ((size_t)n >= size)
		die("header of '%s' too long", c->name);
}

/* Write path with text, unless it holds that already. */
static void write_if_changed(const char *path, const char *text)
{
	static char old[65536];
	FILE *f = fopen(path, "rb");
	size_t n = 0;

	if (f) {
		n = fread(old, 1, sizeof(old) - 1, f);
		fclose(f);
		old[n] = '\0';
		if (!strcmp(old, text))
			return;
	}
	f = fopen(path, "wb");
	if (!f || fputs(text, f) == EOF || fclose(f)) {
		fprintf(stderr, "cli: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* s as roff text: '-' and '\' escaped, lines joined into one. */
static void roff_text(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == '\n')
			fputc(p[1] ? ' ' : '\n', f);
		else if (*p == '-')
			fputs("\\-", f);
		else if (*p == '\\')
			fputs("\\e", f);
		else if ((*p == '.' || *p == '\'') && (p == s || p[-1] == '\n'))
			fprintf(f, "\\&%c", *p);
		else
			fputc(*p, f);
	}
}

/* Command name's options as a roff list (.RS .TP ... .RE). */
static void man_options(FILE *f, const char *name)
{
	int i = find_cmd(name);
	const struct cmd *c;

	if (i < 0)
		die("@options of an unknown command '%s'", name);
	c = cmds[i].as >= 0 ? &cmds[cmds[i].as] : &cmds[i];
	if (!c->nopts)
		die("@options of '%s', which has none", name);
	fputs(".RS\n", f);
	for (int k = 0; k < c->nopts; k++) {
		const struct opt *o = &c->opts[k];

		fputs(".TP\n", f);
		if (o->alias)
			fprintf(f, "\\fB\\-%c\\fR, ", o->alias);
		fputs("\\fB\\-\\-", f);
		roff_text(f, o->name);
		fputs("\\fR", f);
		if (!strcmp(o->value, "word")) {
			/* its values, as in the synopsis: lua|tcl */
			fputc(' ', f);
			for (const char *w = o->words; *w; w++)
				fputs(*w == ' ' ? "|" : (char[]){ *w, 0 }, f);
		} else if (*o->arg) {
			fprintf(f,
				o->optional ? " [\\fI%s\\fR]" : " \\fI%s\\fR",
				o->arg);
		}
		fputc('\n', f);
		roff_text(f, o->help);
		if (!*o->help || o->help[strlen(o->help) - 1] != '\n')
			fputc('\n', f);
	}
	fputs(".RE\n", f);
}

/* The manual page: in, its @options lines filled, into out. */
static void write_man(const char *in_path, const char *out_path)
{
	const char *mark = ".\\\" @options ";
	char line[1024];
	FILE *in = fopen(in_path, "r"), *out;

	if (!in) {
		perror(in_path);
		exit(1);
	}
	out = fopen(out_path, "w");
	if (!out) {
		perror(out_path);
		exit(1);
	}
	spec = in_path;
	lineno = 0;
	while (fgets(line, sizeof(line), in)) {
		lineno++;
		if (strncmp(line, mark, strlen(mark))) {
			fputs(line, out);
			continue;
		}
		line[strcspn(line, "\n")] = '\0';
		man_options(out, line + strlen(mark));
	}
	if (ferror(in) || fclose(out)) {
		perror(out_path);
		exit(1);
	}
	fclose(in);
}

int main(int argc, char **argv)
{
	static char text[65536];
	FILE *in, *out;

	if (argc != 4 && argc != 6) {
		fprintf(stderr, "usage: cli SPEC OUT.c OUTDIR [MAN.in MAN]\n");
		return 2;
	}
	spec = argv[1];
	in = fopen(spec, "r");
	if (!in) {
		perror(spec);
		return 1;
	}
	parse(in);
	fclose(in);
	out = fopen(argv[2], "w");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	fprintf(out,
		"/* generated from %s by tools/cli.c: do not edit */\n"
		"#include <stdint.h>\n\n#include \"core/base/opts.h\"\n",
		spec);
	for (int i = 0; i < ncmds; i++) {
		char path[4096];

		check(&cmds[i]);
		for (int k = 0; k < cmds[i].nopts; k++)
			if (*cmds[i].opts[k].takes)
				fprintf(out, "int %s(const char *word);\n",
					cmds[i].opts[k].takes);
		write_table(out, &cmds[i]);
		header(&cmds[i], text, sizeof(text));
		snprintf(path, sizeof(path), "%s/%s.h", argv[3], cmds[i].id);
		write_if_changed(path, text);
	}
	if (fclose(out)) {
		perror(argv[2]);
		return 1;
	}
	if (argc == 6)
		write_man(argv[4], argv[5]);
	return 0;
}
