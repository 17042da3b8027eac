#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "doctor/doctor_render.h"

/* A finding as the audit writes one. */
static struct finding finding(const char *id, enum doctor_severity s,
			      const char *what, const char *why,
			      const char *fix)
{
	struct finding x = {.id = id, .severity = s};

	x.what = (char *)what;
	x.why = (char *)why;
	x.fix = (char *)fix;
	return x;
}

static void render(const struct finding *v, size_t n, struct buf *out)
{
	struct activation a;
	struct findings f = {.v = (struct finding *)v, .n = n};

	activation_init(&a);
	buf_reset(out);
	doctor_render_text(out, &a, &f);
	activation_release(&a);
}

static void test_doctor_render_nothing_found(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	render(NULL, 0, &out);
	assert_string_equal(
	    out.data, "selection: nothing selected\n"
		      "\n"
		      "0 problems, 0 warnings, 0 info: no problem found\n");
	buf_release(&out);
}

static void test_doctor_render_groups_by_severity(void **state)
{
	struct finding v[3];
	struct buf out = BUF_INIT;

	(void)state;
	v[0] = finding("path-order", DOCTOR_INFO, "an info", "", "");
	v[1] = finding("driver-old", DOCTOR_PROBLEM, "the driver is old",
		       "CUDA 12.4 needs 550", "update the driver");
	v[2] = finding("shadow", DOCTOR_WARNING, "a warning", "", "");
	render(v, 3, &out);
	assert_string_equal(out.data,
			    "selection: nothing selected\n"
			    "\n"
			    "problems:\n"
			    "  * [driver-old] the driver is old\n"
			    "    why: CUDA 12.4 needs 550\n"
			    "    fix: update the driver\n"
			    "\n"
			    "warnings:\n"
			    "  * [shadow] a warning\n"
			    "\n"
			    "info:\n"
			    "  * [path-order] an info\n"
			    "\n"
			    "1 problem, 1 warning, 1 info: this selection will "
			    "fail as described above\n");
	v[1].severity = DOCTOR_WARNING;
	render(v, 3, &out);
	assert_non_null(strstr(out.data, "\n0 problems, 2 warnings, 1 info: "
					 "no problem found; the warnings can "
					 "still bite\n"));
	buf_release(&out);
}

static void test_doctor_render_wraps_at_79_columns(void **state)
{
	struct finding v[1];
	struct buf out = BUF_INIT;
	struct strv lines = STRV_INIT;

	(void)state;
	v[0] = finding("long", DOCTOR_PROBLEM,
		       "one two three four five six seven eight nine ten "
		       "eleven twelve thirteen fourteen fifteen sixteen",
		       "alpha beta gamma delta epsilon zeta eta theta iota "
		       "kappa lambda mu nu xi omicron pi rho sigma",
		       "");
	render(v, 1, &out);
	strv_split(&lines, out.data, '\n');
	for (size_t i = 0; i < lines.n; i++)
		assert_true(strlen(lines.v[i]) <= 79);
	assert_string_equal(lines.v[3], "  * [long] one two three four five "
					"six seven eight nine ten eleven "
					"twelve");
	assert_string_equal(lines.v[4], "    thirteen fourteen fifteen "
					"sixteen");
	assert_true(!strncmp(lines.v[5], "    why: alpha ", 15));
	assert_true(!strncmp(lines.v[6], "         ", 9)); /* indent 9 */
	strv_release(&lines);
	buf_release(&out);
}

static void test_doctor_render_fix_one_alternative_a_line(void **state)
{
	struct finding v[1];
	struct buf out = BUF_INIT;

	(void)state;
	v[0] = finding("cupti", DOCTOR_PROBLEM, "x", "",
		       "cuenv local 12.4 --cupti 12.4; or unset "
		       "LD_LIBRARY_PATH; and open a new shell");
	render(v, 1, &out);
	assert_non_null(strstr(out.data,
			       "  * [cupti] x\n"
			       "    fix: cuenv local 12.4 --cupti 12.4\n"
			       "     or: unset LD_LIBRARY_PATH\n"
			       "    and: open a new shell\n"));
	buf_release(&out);
}

static void test_doctor_render_json_or_text(void **state)
{
	struct finding v[1];
	struct findings f = {.v = v, .n = 1};
	struct activation a;
	struct buf out = BUF_INIT, text = BUF_INIT;

	(void)state;
	v[0] = finding("driver-old", DOCTOR_PROBLEM, "old", "why", "fix");
	activation_init(&a);
	doctor_render(&out, &a, &f, 0);
	doctor_render_text(&text, &a, &f);
	assert_string_equal(out.data, text.data);
	buf_reset(&out);
	doctor_render(&out, &a, &f, 1);
	assert_int_equal(out.data[0], '{');
	assert_non_null(strstr(out.data, "\n  \"findings\": [\n"));
	assert_non_null(strstr(out.data, "\"id\": \"driver-old\""));
	assert_non_null(strstr(out.data, "\n  \"problems\": 1,\n"));
	assert_string_equal(out.data + out.len - 2, "}\n");
	activation_release(&a);
	buf_release(&out);
	buf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_doctor_render_nothing_found),
	    cmocka_unit_test(test_doctor_render_json_or_text),
	    cmocka_unit_test(test_doctor_render_groups_by_severity),
	    cmocka_unit_test(test_doctor_render_wraps_at_79_columns),
	    cmocka_unit_test(test_doctor_render_fix_one_alternative_a_line),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
