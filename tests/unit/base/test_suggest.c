/*
 * "did you mean": other tools' words, and the nearest command name.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "base/suggest.h"

static const char *const names[] = {"add",	 "help",       "install",
				    "uninstall", "use",	       "version",
				    "versions",	 "list-remote"};
#define NNAMES (sizeof(names) / sizeof(*names))

static void test_suggest_knows_other_tools_words(void **state)
{
	(void)state;
	assert_string_equal(suggest_command("shell", names, NNAMES), "use");
	assert_string_equal(suggest_command("deactivate", names, NNAMES),
			    "use --unset");
	assert_string_equal(suggest_command("rm", names, NNAMES), "uninstall");
	assert_string_equal(suggest_command("list-all", names, NNAMES),
			    "list-remote");
	assert_string_equal(suggest_command("smoke", names, NNAMES), "check");
	/* known words win even with no names at all */
	assert_string_equal(suggest_command("ls", NULL, 0), "versions");
}

static void test_suggest_finds_a_name_two_mistakes_away(void **state)
{
	(void)state;
	assert_string_equal(suggest_command("instal", names, NNAMES),
			    "install");
	/* a swap of neighbours is one mistake */
	assert_string_equal(suggest_command("verison", names, NNAMES),
			    "version");
	assert_string_equal(suggest_command("hlpe", names, NNAMES), "help");
	assert_string_equal(suggest_command("versionz", names, NNAMES),
			    "version");
	/* three away is too far */
	assert_null(suggest_command("instxyz", names, NNAMES));
	assert_null(suggest_command("zzzzzzzz", names, NNAMES));
}

static void test_suggest_keeps_something_of_the_word(void **state)
{
	(void)state;
	/* "u" is two edits from "use": no fewer than its letters */
	assert_null(suggest_command("u", names, NNAMES));
	assert_null(suggest_command("x", names, NNAMES));
	assert_string_equal(suggest_command("us", names, NNAMES), "use");
}

static void test_suggest_takes_the_nearest_then_the_first(void **state)
{
	static const char *const two[] = {"ax", "ay", "abc"};

	(void)state;
	assert_string_equal(suggest_command("versio", names, NNAMES),
			    "version");
	assert_string_equal(suggest_command("az", two, 3), "ax");
	assert_string_equal(suggest_command("abd", two, 3), "abc");
}

static void test_suggest_distance_counts_edits_and_swaps(void **state)
{
	(void)state;
	assert_int_equal(suggest_distance("", ""), 0);
	assert_int_equal(suggest_distance("", "abc"), 3);
	assert_int_equal(suggest_distance("ab", "ba"), 1);
	assert_int_equal(suggest_distance("kitten", "sitting"), 3);
	assert_int_equal(suggest_distance("ca", "abc"), 3);
	assert_int_equal(suggest_distance("abcdefghijklmnopqrstuv",
					  "abcdefghijklmnopqrstuw"),
			 1);
	/* longer than 22 characters: never near */
	assert_int_equal(suggest_distance("abcdefghijklmnopqrstuvw",
					  "abcdefghijklmnopqrstuvw"),
			 99);
}

static void test_suggest_unknown_says_what_was_meant(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(suggest_unknown("shell", "use", &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "'shell' is not a cuenv command");
	assert_string_equal(
	    err.hint.data,
	    "did you mean: cuenv use? (all commands: cuenv help)");
	assert_int_equal(suggest_unknown("zzz", NULL, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "'zzz' is not a cuenv command");
	assert_string_equal(err.hint.data, "see: cuenv help");
	/* an option is never near a command */
	assert_int_equal(suggest_unknown("--verison", "version", &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "unknown option '--verison'");
	assert_string_equal(err.hint.data, "see: cuenv help");
	/* shown as it can be printed, and shortened */
	assert_int_equal(suggest_unknown("a\nb", NULL, &err), CUENV_E_USAGE);
	assert_null(strchr(err.msg.data, '\n'));
	err_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_suggest_knows_other_tools_words),
	    cmocka_unit_test(test_suggest_finds_a_name_two_mistakes_away),
	    cmocka_unit_test(test_suggest_keeps_something_of_the_word),
	    cmocka_unit_test(test_suggest_takes_the_nearest_then_the_first),
	    cmocka_unit_test(test_suggest_distance_counts_edits_and_swaps),
	    cmocka_unit_test(test_suggest_unknown_says_what_was_meant),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
