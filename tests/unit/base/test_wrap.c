/* Words laid out in lines of a width: doctor's findings, usage synopses. */
#include "fakes/fixture.h"

#include <string.h>

#include "base/wrap.h"

static void test_wrap_lines_at_the_width_under_the_indent(void **state)
{
	struct strv words = STRV_INIT;
	struct buf out = BUF_INIT;

	(void)state;
	wrap_split("  the loader  takes the first folder ", 37, &words, 0);
	assert_int_equal(words.n, 6);
	assert_string_equal(words.v[0], "the");
	assert_string_equal(words.v[5], "folder");
	buf_adds(&out, "* [x] ");
	wrap_words(&out, out.len, 2, &words, 20, 0);
	/* "* [x] the loader" is 16 columns; " takes" would end at 22 */
	assert_string_equal(out.data, "* [x] the loader\n"
				      "  takes the first\n"
				      "  folder\n");
	buf_release(&out);
	strv_release(&words);
}

static void test_wrap_long_word_stays_or_breaks_after_a_bar(void **state)
{
	struct strv words = STRV_INIT;
	struct buf out = BUF_INIT;

	(void)state;
	strv_push(&words, "[--format sh|bash|zsh|fish]");
	strv_push(&words, "[DIR]");
	buf_adds(&out, "usage: ");
	/* without the flag, a word longer than a line stays whole */
	wrap_words(&out, 7, 7, &words, 20, 0);
	assert_string_equal(out.data, "usage: [--format sh|bash|zsh|fish]\n"
				      "       [DIR]\n");
	buf_reset(&out);
	buf_adds(&out, "usage: ");
	/* with it, it breaks after the last '|' that fits, one column in */
	wrap_words(&out, 7, 7, &words, 20, WRAP_BREAK_BARS);
	assert_string_equal(out.data, "usage: [--format sh|\n"
				      "        bash|zsh|\n"
				      "        fish] [DIR]\n");
	buf_release(&out);
	strv_release(&words);
}

static void test_wrap_split_keeps_bracket_groups(void **state)
{
	struct strv words = STRV_INIT;
	const char text[] = "[[cuda] SPEC | --for F] [--cudnn V] FILE... tail";

	(void)state;
	/* len stops before " tail" */
	wrap_split(text, sizeof(text) - 1 - 5, &words, WRAP_KEEP_BRACKETS);
	assert_int_equal(words.n, 3);
	assert_string_equal(words.v[0], "[[cuda] SPEC | --for F]");
	assert_string_equal(words.v[1], "[--cudnn V]");
	assert_string_equal(words.v[2], "FILE...");
	strv_release(&words);
	wrap_split(text, 12, &words, 0); /* "[[cuda] SPEC" */
	assert_int_equal(words.n, 2);
	assert_string_equal(words.v[0], "[[cuda]");
	assert_string_equal(words.v[1], "SPEC");
	strv_release(&words);
}

static void test_wrap_nothing_is_a_newline(void **state)
{
	struct strv words = STRV_INIT;
	struct buf out = BUF_INIT;

	(void)state;
	wrap_split("   ", 3, &words, 0);
	assert_int_equal(words.n, 0);
	buf_adds(&out, "why:");
	wrap_words(&out, 4, 9, &words, 79, 0);
	assert_string_equal(out.data, "why:\n");
	buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_wrap_lines_at_the_width_under_the_indent),
	    cmocka_unit_test(test_wrap_long_word_stays_or_breaks_after_a_bar),
	    cmocka_unit_test(test_wrap_split_keeps_bracket_groups),
	    cmocka_unit_test(test_wrap_nothing_is_a_newline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
