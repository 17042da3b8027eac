/*
 * install --for from the package index: what is asked of the index, and
 * what falls back to the shipped table. The index is a folder on disk
 * (file://) with no project in it, so every question gets no answer.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "install/plan_index.h"

static int ask(const struct fixture *fx, const char *spec, struct buf *why,
	       struct buf *said)
{
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct catalog cat = {0};
	struct framework_builds out = {0};
	char *dir = fx_path(fx, "simple");
	struct buf index = BUF_INIT;
	int rc;

	fx_mkdir(fx, "simple");
	buf_printf(&index, "file://%s", dir);
	/* file:// is allowed because the index is one, not by fo */
	rc = plan_index_framework(spec, index.data, &fo, &cat, &out, why, said);
	framework_builds_release(&out);
	buf_release(&index);
	free(dir);
	return rc;
}

static void test_plan_index_without_a_version_asks_nothing(void **state)
{
	struct fixture *fx = *state;
	struct buf why = BUF_INIT, said = BUF_INIT;

	assert_int_equal(ask(fx, "torch", &why, &said), CUENV_NO);
	assert_int_equal(why.len, 0); /* the table's check words it */
	assert_int_equal(ask(fx, "torch==2.x", &why, &said), CUENV_NO);
	assert_int_equal(why.len, 0);
	assert_int_equal(said.len, 0);
	buf_release(&why);
	buf_release(&said);
}

static void test_plan_index_no_answer_says_why(void **state)
{
	struct fixture *fx = *state;
	struct buf why = BUF_INIT, said = BUF_INIT;

	assert_int_equal(ask(fx, "tensorflow==2.6.5", &why, &said), CUENV_NO);
	assert_non_null(strstr(why.data, "tensorflow"));
	assert_int_equal(said.len, 0);
	buf_release(&why);
	buf_release(&said);
}

static void test_plan_index_asks_for_torch_by_its_index_name(void **state)
{
	struct fixture *fx = *state;
	struct buf why = BUF_INIT, said = BUF_INIT;

	assert_int_equal(ask(fx, "pytorch==2.1.2", &why, &said), CUENV_NO);
	assert_non_null(strstr(why.data, "torch"));
	assert_null(strstr(why.data, "pytorch"));
	buf_release(&why);
	buf_release(&said);
}

/* install --for's note: the index's answer, or why the table answers. */
static void test_plan_index_for_says_why_the_table_answers(void **state)
{
	struct fixture *fx = *state;
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct catalog cat = {0};
	struct framework_builds out = {0};
	char *dir = fx_path(fx, "simple");
	struct buf index = BUF_INIT, said = BUF_INIT, why = BUF_INIT,
		   want = BUF_INIT;

	fx_mkdir(fx, "simple");
	buf_printf(&index, "file://%s", dir);
	assert_int_equal(
	    plan_index_for("torch", index.data, &fo, &cat, &out, &said),
	    CUENV_NO);
	assert_int_equal(said.len, 0); /* no version: nothing asked */
	assert_int_equal(plan_index_for("tensorflow==2.6.5", index.data, &fo,
					&cat, &out, &said),
			 CUENV_NO);
	assert_int_equal(ask(fx, "tensorflow==2.6.5", &why, &want), CUENV_NO);
	buf_adds(&why, "; the shipped framework table answers");
	assert_string_equal(said.data, why.data);
	assert_non_null(strstr(said.data, "tensorflow"));
	framework_builds_release(&out);
	buf_release(&index);
	buf_release(&said);
	buf_release(&why);
	buf_release(&want);
	free(dir);
}

#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_plan_index_without_a_version_asks_nothing),
	    T(test_plan_index_no_answer_says_why),
	    T(test_plan_index_asks_for_torch_by_its_index_name),
	    T(test_plan_index_for_says_why_the_table_answers),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
