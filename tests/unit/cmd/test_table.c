#include "fakes/fixture.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "../../../cmd/cmd.h"
#include "net/fetch.h"

/* The source tree, so that the table can be checked against cmd/. */
#ifndef CUENV_SRCDIR
#error "build with -DCUENV_SRCDIR='\"/path/to/cuenv\"'"
#endif

/* cmd/ files that are not subcommands (probe_main.c: cuenv-probe, which
 * cuenv check runs). */
static const char *const not_commands[] = {"main.c", "table.c", "common.c",
					   "probe_main.c"};

/* The subcommand names that the files cmd/<name>.c imply. */
static void command_files(struct strv *names)
{
	DIR *d = opendir(CUENV_SRCDIR "/cmd");
	struct dirent *de;

	if (!d)
		fail_msg("cannot read %s/cmd", CUENV_SRCDIR);
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		bool skip_it = false;

		if (n < 3 || strcmp(de->d_name + n - 2, ".c"))
			continue;
		for (size_t i = 0;
		     i < sizeof(not_commands) / sizeof(*not_commands); i++)
			skip_it |= !strcmp(de->d_name, not_commands[i]);
		if (skip_it)
			continue;
		/* cmd/list_remote.c is the command list-remote */
		char *name = strndup(de->d_name, n - 2);
		for (char *p = name; *p; p++)
			if (*p == '_')
				*p = '-';
		strv_push_take(names, name);
	}
	closedir(d);
}

static void test_table_is_sorted_by_name(void **state)
{
	(void)state;
	assert_true(cuenv_ncmds > 0);
	for (size_t i = 1; i < cuenv_ncmds; i++)
		if (strcmp(cuenv_cmds[i - 1]->cli.name,
			   cuenv_cmds[i]->cli.name) >= 0)
			fail_msg("'%s' comes before '%s'",
				 cuenv_cmds[i - 1]->cli.name,
				 cuenv_cmds[i]->cli.name);
}

static void test_table_names_are_unique(void **state)
{
	(void)state;
	for (size_t i = 0; i < cuenv_ncmds; i++)
		for (size_t j = i + 1; j < cuenv_ncmds; j++)
			if (!strcmp(cuenv_cmds[i]->cli.name,
				    cuenv_cmds[j]->cli.name))
				fail_msg("'%s' is listed twice",
					 cuenv_cmds[i]->cli.name);
}

static void test_table_lists_every_command_file(void **state)
{
	struct strv names = STRV_INIT;

	(void)state;
	command_files(&names);
	assert_true(names.n > 0);
	for (size_t i = 0; i < names.n; i++) {
		const struct cuenv_cmd *c = cmd_find(names.v[i]);

		if (!c)
			fail_msg("cmd/%s.c has no entry in cmd/table.c",
				 names.v[i]);
		assert_string_equal(c->cli.name, names.v[i]);
	}
	strv_release(&names);
}

static void test_table_has_no_entry_without_a_file(void **state)
{
	struct strv names = STRV_INIT;

	(void)state;
	command_files(&names);
	for (size_t i = 0; i < cuenv_ncmds; i++)
		if (strv_find(&names, cuenv_cmds[i]->cli.name) < 0)
			fail_msg("'%s' is listed but there is no cmd/%s.c",
				 cuenv_cmds[i]->cli.name,
				 cuenv_cmds[i]->cli.name);
	assert_int_equal(cuenv_ncmds, names.n);
	strv_release(&names);
}

static void test_table_entries_are_complete(void **state)
{
	(void)state;
	for (size_t i = 0; i < cuenv_ncmds; i++) {
		const struct cuenv_cmd *c = cuenv_cmds[i];

		/* cuenv-net runs the external ones; their help is here too */
		if (!c->cli.summary || !*c->cli.summary || !c->cli.usage ||
		    !*c->cli.usage || (!(c->flags & CMD_EXTERNAL) && !c->run))
			fail_msg("'%s' lacks summary, usage or run",
				 c->cli.name);
		if (strchr(c->cli.summary, '\n'))
			fail_msg("'%s': the summary is not one line",
				 c->cli.name);
		if (c->max_args >= 0 && c->max_args < c->min_args)
			fail_msg("'%s': max_args < min_args", c->cli.name);
		assert_true(c->min_args >= 0);
	}
}

static void test_cmd_find_matches_exact_names_only(void **state)
{
	(void)state;
	assert_ptr_equal(cmd_find(cuenv_cmds[0]->cli.name), cuenv_cmds[0]);
	assert_null(cmd_find(""));
	assert_null(cmd_find("vers")); /* no prefix guessing */
	assert_null(cmd_find("VERSION"));
	assert_null(cmd_find("nonexistent"));
}

static void test_table_options_are_well_formed(void **state)
{
	(void)state;
	for (size_t i = 0; i < cuenv_ncmds; i++) {
		const struct cuenv_cmd *c = cuenv_cmds[i];

		if (c->cli.nopts > OPTS_MAX)
			fail_msg("'%s' has more than OPTS_MAX options",
				 c->cli.name);
		for (size_t k = 0; k < c->cli.nopts; k++) {
			const struct opt_def *o = &c->cli.opts[k];

			if (!o->name || !*o->name || !o->help || !*o->help)
				fail_msg(
				    "'%s': option %zu lacks a name or help",
				    c->cli.name, k);
			if (!strcmp(o->name, "help") || o->alias == 'h')
				fail_msg("'%s': --help is the dispatcher's",
					 c->cli.name);
			for (size_t j = k + 1; j < c->cli.nopts; j++)
				if (!strcmp(o->name, c->cli.opts[j].name) ||
				    (o->alias &&
				     o->alias == c->cli.opts[j].alias))
					fail_msg("'%s': --%s twice",
						 c->cli.name, o->name);
			if ((o->value != OPT_TEXT || o->takes ||
			     (o->flags & OPT_OPTIONAL)) &&
			    !o->arg)
				fail_msg(
				    "'%s': --%s checks a value it does not "
				    "take",
				    c->cli.name, o->name);
			if (o->value == OPT_WORD && (!o->words || !*o->words))
				fail_msg("'%s': --%s has no words", c->cli.name,
					 o->name);
			if (o->value == OPT_NUMBER &&
			    (o->min > o->max || !o->max))
				fail_msg("'%s': --%s has no range", c->cli.name,
					 o->name);
			/* the synopsis names every option */
			struct buf want = BUF_INIT, usage = BUF_INIT;
			buf_printf(&want, "--%s", o->name);
			opts_usage(&c->cli, &usage);
			if (!strstr(usage.data, want.data))
				fail_msg("'%s': the usage does not name %s",
					 c->cli.name, want.data);
			if ((o->forms & OPT_NAMED) &&
			    !strstr(c->cli.usage, want.data))
				fail_msg("'%s': %s is OPT_NAMED, but the "
					 "usage's text does not name it",
					 c->cli.name, want.data);
			buf_release(&want);
			buf_release(&usage);
		}
	}
}

/* Parse words (NULL-terminated) as cmd's command line. */
static int parse(const char *cmd, struct opt_values *o, int *help,
		 struct cuenv_err *err, const char **words)
{
	const struct cuenv_cmd *c = cmd_find(cmd);
	char *argv[16];
	int argc = 0;

	for (; words[argc]; argc++)
		argv[argc] = (char *)words[argc];
	argv[argc] = NULL;

	return opts_parse(&c->cli, c->flags & CMD_STOP_AT_ARG, argc, argv, o,
			  help, err);
}

static void test_options_parse_values_and_order(void **state)
{
	struct opt_values o;
	struct cuenv_err err = CUENV_ERR_INIT;
	int help;

	(void)state;
	assert_int_equal(
	    parse("check", &o, &help, &err,
		  (const char *[]){"check", "--device", "3", "--json", NULL}),
	    CUENV_OK);
	assert_false(help);
	assert_int_equal(optind, 4);
	/* check's table: json, compile, device, timeout */
	assert_true(opt_given(&o, 0));
	assert_int_equal(o.num[2], 3);
	assert_false(opt_given(&o, 3));
	assert_true(o.seq[2] < o.seq[0]);
	err_release(&err);
}

static void test_options_parse_names_the_bad_value(void **state)
{
	struct opt_values o;
	struct cuenv_err err = CUENV_ERR_INIT;
	int help;

	(void)state;
	assert_int_equal(
	    parse("check", &o, &help, &err,
		  (const char *[]){"check", "--timeout", "0", NULL}),
	    CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "check: --timeout must be a whole "
					  "number from 1 to 86400, not '0'");
	assert_string_equal(err.hint.data, "see: cuenv check --help");
	err_release(&err);
	err_init(&err);
	assert_int_equal(parse("version", &o, &help, &err,
			       (const char *[]){"version", "--json", NULL}),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "version: unknown option '--json'");
	err_release(&err);
}

/* ---- numbers from the environment ---------------------------------------- */

/* Read from ctx->envp, not the process's environment. */
static void test_fetch_env_reads_the_context(void **state)
{
	char *good[] = {"CUENV_FETCH_RETRIES=3", NULL};
	char *bad[] = {"CUENV_FETCH_RETRIES=abc", NULL};
	struct cuenv_ctx ctx = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct fetch_opts fo = FETCH_OPTS_INIT;
	unsigned backoff = fo.backoff_ms;

	(void)state;
	setenv("CUENV_FETCH_BACKOFF_MS", "99", 1);
	ctx.envp = good;
	assert_int_equal(cmd_fetch_env(&ctx, &fo, &err), CUENV_OK);
	assert_int_equal(fo.retries, 3);
	assert_int_equal(fo.backoff_ms, backoff); /* not in ctx: kept */
	unsetenv("CUENV_FETCH_BACKOFF_MS");
	ctx.envp = bad;
	assert_int_equal(cmd_fetch_env(&ctx, &fo, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "CUENV_FETCH_RETRIES must be a whole number from 0 "
			    "to 1000, not 'abc'");
	err_release(&err);
}

/* An OPT_REPEAT option keeps every value, in order (mirror --for). */
static void test_options_repeat_keeps_every_value(void **state)
{
	const struct cuenv_cmd *mirror = cmd_find("mirror");
	struct opt_values o;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t f = 0;
	int help;

	(void)state;
	while (f < mirror->cli.nopts && strcmp(mirror->cli.opts[f].name, "for"))
		f++;
	assert_true(f < mirror->cli.nopts);
	assert_true(mirror->cli.opts[f].flags & OPT_REPEAT);
	assert_int_equal(
	    parse("mirror", &o, &help, &err,
		  (const char *[]){"mirror", "--for", "torch==2.5", "DIR",
				   "--for=jax==0.4", "--quiet", "12.4", NULL}),
	    CUENV_OK);
	assert_int_equal(o.nall, 2);
	assert_int_equal(o.all[0].opt, f);
	assert_string_equal(o.all[0].arg, "torch==2.5");
	assert_int_equal(o.all[1].opt, f);
	assert_string_equal(o.all[1].arg, "jax==0.4");
	assert_string_equal(o.arg[f], "jax==0.4"); /* the last, as ever */
	assert_int_equal(optind, 5); /* DIR and 12.4 follow the options */
	err_release(&err);
}

static void test_options_help_wins_over_errors(void **state)
{
	struct opt_values o;
	struct cuenv_err err = CUENV_ERR_INIT;
	int help;

	(void)state;
	assert_int_equal(parse("use", &o, &help, &err,
			       (const char *[]){"use", "--bogus", "-h", NULL}),
			 CUENV_OK);
	assert_true(help);
	assert_int_equal(err.rc, CUENV_OK);
	err_release(&err);
}

static void test_cmd_suggest_finds_near_and_known_words(void **state)
{
	(void)state;
	assert_string_equal(cmd_suggest("shell"), "use");
	assert_string_equal(cmd_suggest("instal"), "install");
	assert_string_equal(cmd_suggest("verison"), "version");
	assert_null(cmd_suggest("zzzzzzzz"));
	assert_null(cmd_suggest("x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_is_sorted_by_name),
	    cmocka_unit_test(test_table_names_are_unique),
	    cmocka_unit_test(test_table_lists_every_command_file),
	    cmocka_unit_test(test_table_has_no_entry_without_a_file),
	    cmocka_unit_test(test_table_entries_are_complete),
	    cmocka_unit_test(test_cmd_find_matches_exact_names_only),
	    cmocka_unit_test(test_table_options_are_well_formed),
	    cmocka_unit_test(test_options_parse_values_and_order),
	    cmocka_unit_test(test_options_parse_names_the_bad_value),
	    cmocka_unit_test(test_options_repeat_keeps_every_value),
	    cmocka_unit_test(test_options_help_wins_over_errors),
	    cmocka_unit_test(test_fetch_env_reads_the_context),
	    cmocka_unit_test(test_cmd_suggest_finds_near_and_known_words),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
