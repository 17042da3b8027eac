#include "fakes/fixture.h"

#include <string.h>

#include "base/buf.h"
#include "base/opts.h"

/* A made-up command whose synopsis shows every kind of option. */
static const struct opt_def syn_opts[] = {
    {"cudnn", .arg = "V", .value = OPT_VERSION, .help = "h"},
    {"components", .arg = "LIST", .forms = OPT_FORM(1) | OPT_FORM(2),
     .help = "h"},
    {"runtime-only", .flags = OPT_ALT, .forms = OPT_FORM(1) | OPT_FORM(3),
     .help = "h"},
    {"python", .arg = "PYTHON", .flags = OPT_OPTIONAL, .help = "h"},
    {"for", .arg = "F==V", .flags = OPT_REPEAT, .help = "h"},
    {"format", .arg = "F", .value = OPT_WORD,
     .words = "sh bash zsh fish json dockerfile github cmd powershell",
     .help = "h"},
    {"unset", .forms = OPT_NAMED, .help = "h"},
};
static const char syn_usage[] =
    "usage: cuenv demo [SPEC | --x [Y Z]] " OPT_SYN " FILE...\n"
    "       cuenv demo --unset " OPT_SYN "\n"
    "       cuenv demo " OPT_SYN "\n"
    "       cuenv demo other [OPTIONS]\n"
    "\n"
    "Text, kept as it is.\n";
static const struct opt_cmd syn = {.name = "demo",
				   .usage = syn_usage,
				   .opts = syn_opts,
				   .nopts =
				       sizeof(syn_opts) / sizeof(*syn_opts)};

static void test_usage_synopsis_from_the_table(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	opts_usage(&syn, &out);
	assert_string_equal(
	    out.data,
	    "usage: cuenv demo [SPEC | --x [Y Z]] [--cudnn V]\n"
	    "                  [--components LIST | --runtime-only] [--python [PYTHON]]\n"
	    "                  [--for F==V]...\n"
	    "                  [--format sh|bash|zsh|fish|json|dockerfile|github|cmd|\n"
	    "                   powershell] FILE...\n"
	    "       cuenv demo --unset [--components LIST]\n"
	    "       cuenv demo [--runtime-only]\n"
	    "       cuenv demo other [OPTIONS]\n"
	    "\n"
	    "Text, kept as it is.\n");
	buf_release(&out);
}

/* A second made-up command: short names, numbers, help over lines. */
static const struct opt_def small_opts[] = {
    {"list", .alias = 'l', .help = "list them"},
    {"jobs", .arg = "N", .value = OPT_NUMBER, .min = 1, .max = 64,
     .help = "at once\n(default: cores)"},
    {"for", .arg = "F==V", .flags = OPT_REPEAT, .help = "a framework"},
    {"cudnn", .arg = "V", .value = OPT_VERSION, .complete = "remote cudnn",
     .help = "cuDNN V"},
    {"format", .arg = "F", .value = OPT_WORD, .words = "lua tcl",
     .help = "the language"},
};
static const struct opt_cmd small = {
    .name = "small",
    .usage = "usage: cuenv small " OPT_SYN "\n\nDoes a thing.\n",
    .opts = small_opts,
    .nopts = sizeof(small_opts) / sizeof(*small_opts),
    .notes = "A note.\n"};

static int parse(int stop, struct opt_values *o, int *help,
		 struct cuenv_err *err, const char *const *words)
{
	char *argv[16];
	int argc = 0;

	for (; words[argc]; argc++)
		argv[argc] = (char *)words[argc];
	argv[argc] = NULL;
	return opts_parse(&small, stop, argc, argv, o, help, err);
}

static void test_help_lays_out_labels_and_notes(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	opts_help(&small, &out);
	/* labels padded to the longest, "-l, --list", and two spaces */
	assert_string_equal(out.data,
			    "usage: cuenv small [--list] [--jobs N] [--for "
			    "F==V]... [--cudnn V]\n"
			    "                   [--format lua|tcl]\n"
			    "\n"
			    "Does a thing.\n"
			    "\n"
			    "  -l, --list  list them\n"
			    "  --jobs N    at once\n"
			    "              (default: cores)\n"
			    "  --for F==V  a framework\n"
			    "  --cudnn V   cuDNN V\n"
			    "  --format F  the language\n"
			    "\n"
			    "A note.\n");
	buf_release(&out);
}

static void test_complete_lines_for_the_scripts(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	opts_complete(&small, &out);
	assert_string_equal(out.data, "--list\t\t\tlist them\n"
				      "--jobs\tN\t\tat once\n"
				      "--for\tF==V\t\ta framework\n"
				      "--cudnn\tV\t@remote cudnn\tcuDNN V\n"
				      "--format\tF\tlua tcl\tthe language\n"
				      "--help\t\t\tshow this command's help\n");
	buf_release(&out);
}

static void test_parse_keeps_values_order_and_repeats(void **state)
{
	struct opt_values o;
	struct cuenv_err err = CUENV_ERR_INIT;
	int help;

	(void)state;
	assert_int_equal(
	    parse(0, &o, &help, &err,
		  (const char *[]){"small", "--for", "torch==2.5", "ARG",
				   "--jobs=8", "-l", "--for=jax==0.4", NULL}),
	    CUENV_OK);
	assert_false(help);
	assert_true(opt_given(&o, 0));
	assert_int_equal(o.num[1], 8);
	assert_string_equal(o.arg[2], "jax==0.4");
	assert_int_equal(o.nall, 2);
	assert_string_equal(o.all[0].arg, "torch==2.5");
	assert_string_equal(o.all[1].arg, "jax==0.4");
	assert_true(o.seq[1] < o.seq[0]);
	assert_false(opt_given(&o, 3));
	/* getopt permutes: the argument is left at optind */
	assert_int_equal(optind, 6);
	err_release(&err);
}

static void test_parse_stops_at_the_first_argument_when_asked(void **state)
{
	struct opt_values o;
	struct cuenv_err err = CUENV_ERR_INIT;
	int help;

	(void)state;
	assert_int_equal(
	    parse(1, &o, &help, &err,
		  (const char *[]){"small", "-l", "ARG", "--jobs", "8", NULL}),
	    CUENV_OK);
	assert_true(opt_given(&o, 0));
	assert_false(opt_given(&o, 1));
	assert_int_equal(optind, 2);
	err_release(&err);
}

/* Each bad command line: its one message and hint. */
static void test_parse_names_the_option_and_the_value(void **state)
{
	static const struct {
		const char *const words[4];
		const char *msg, *hint;
	} cases[] = {
	    {{"small", "--jobs", "0"},
	     "small: --jobs must be a whole number from 1 to 64, not '0'",
	     "see: cuenv small --help"},
	    {{"small", "--jobs", "x9"},
	     "small: --jobs must be a whole number from 1 to 64, not 'x9'",
	     "see: cuenv small --help"},
	    {{"small", "--cudnn", "9.x"},
	     "small: invalid --cudnn version '9.x'",
	     "a version is numbers and dots, such as 12.4 or 9.1.0.70"},
	    {{"small", "--format", "zsh"},
	     "small: unknown format 'zsh'",
	     "--format is one of: lua, tcl"},
	    {{"small", "--nope"},
	     "small: unknown option '--nope'",
	     "see: cuenv small --help"},
	    {{"small", "--list=1"},
	     "small: --list takes no value",
	     "see: cuenv small --help"},
	    {{"small", "--jobs"},
	     "small: --jobs needs a value",
	     "see: cuenv small --help"},
	    {{"small", "--f"},
	     "small: ambiguous option '--f' (--for, --format)",
	     "see: cuenv small --help"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct opt_values o;
		struct cuenv_err err = CUENV_ERR_INIT;
		int help;

		assert_int_equal(parse(0, &o, &help, &err, cases[i].words),
				 CUENV_E_USAGE);
		assert_string_equal(err.msg.data, cases[i].msg);
		assert_string_equal(err.hint.data, cases[i].hint);
		err_release(&err);
	}
}

static void test_help_wins_over_an_error(void **state)
{
	struct opt_values o;
	struct cuenv_err err = CUENV_ERR_INIT;
	int help;

	(void)state;
	assert_int_equal(
	    parse(0, &o, &help, &err,
		  (const char *[]){"small", "--nope", "--help", NULL}),
	    CUENV_OK);
	assert_true(help);
	err_release(&err);
}

static void test_count_takes_whole_numbers_up_to_max(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	uint64_t v = 7;

	(void)state;
	assert_int_equal(opts_count("X", "0", 10, &v, &err), CUENV_OK);
	assert_int_equal(v, 0);
	assert_int_equal(opts_count("X", "10", 10, &v, &err), CUENV_OK);
	assert_int_equal(v, 10);
	assert_int_equal(
	    opts_count("X", "18446744073709551615", UINT64_MAX, &v, &err),
	    CUENV_OK);
	assert_true(v == UINT64_MAX);
	assert_int_equal(opts_count("X", "11", 10, &v, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "X must be a whole number from 0 to 10, not '11'");
	err_release(&err);
	err_init(&err);
	assert_int_equal(opts_count("X", "", 10, &v, &err), CUENV_E_USAGE);
	err_release(&err);
	err_init(&err);
	assert_int_equal(opts_count("X", "-1", 10, &v, &err), CUENV_E_USAGE);
	err_release(&err);
}

static void test_count_rejects_what_is_not_a_count(void **state)
{
	static const char *const bad[] = {
	    "abc", "",	 "-1",	 "+1", "12x",
	    " 1",  "1 ", "0x10", "11", "99999999999999999999"};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct cuenv_err err = CUENV_ERR_INIT;
		struct buf want = BUF_INIT;
		uint64_t v = 7;

		assert_int_equal(
		    opts_count("CUENV_FETCH_RETRIES", bad[i], 10, &v, &err),
		    CUENV_E_USAGE);
		buf_printf(&want,
			   "CUENV_FETCH_RETRIES must be a whole number from 0 "
			   "to 10, not '%s'",
			   bad[i]);
		assert_string_equal(err.msg.data, want.data);
		assert_int_equal(v, 7); /* untouched */
		buf_release(&want);
		err_release(&err);
	}
}

static void test_count_digits_overflow_and_what_names_it(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	uint64_t v = 7;

	(void)state;
	assert_int_equal(opts_count("--jobs", "12", 64, &v, &err), CUENV_OK);
	assert_int_equal(v, 12);
	assert_int_equal(opts_count("--jobs", "0", 64, &v, &err), CUENV_OK);
	assert_int_equal(v, 0);
	assert_int_equal(
	    opts_count("X", "18446744073709551615", UINT64_MAX, &v, &err),
	    CUENV_OK);
	assert_true(v == UINT64_MAX);
	v = 3;
	assert_int_equal(
	    opts_count("X", "18446744073709551616", UINT64_MAX, &v, &err),
	    CUENV_E_USAGE);
	assert_int_equal(v, 3);
	assert_int_equal(opts_count("--jobs", "65", 64, &v, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "--jobs must be a whole number from "
					  "0 to 64, not '65'");
	assert_int_equal(opts_count("N", "", 9, &v, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "N must be a whole number from 0 to 9, not ''");
	assert_int_equal(opts_count("N", "-1", 9, &v, &err), CUENV_E_USAGE);
	assert_int_equal(opts_count("N", "1x", 9, &v, &err), CUENV_E_USAGE);
	assert_int_equal(opts_count("N", " 1", 9, &v, &err), CUENV_E_USAGE);
	assert_int_equal(v, 3);
	err_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_usage_synopsis_from_the_table),
	    cmocka_unit_test(test_help_lays_out_labels_and_notes),
	    cmocka_unit_test(test_complete_lines_for_the_scripts),
	    cmocka_unit_test(test_parse_keeps_values_order_and_repeats),
	    cmocka_unit_test(test_parse_stops_at_the_first_argument_when_asked),
	    cmocka_unit_test(test_parse_names_the_option_and_the_value),
	    cmocka_unit_test(test_help_wins_over_an_error),
	    cmocka_unit_test(test_count_takes_whole_numbers_up_to_max),
	    cmocka_unit_test(test_count_rejects_what_is_not_a_count),
	    cmocka_unit_test(test_count_digits_overflow_and_what_names_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
