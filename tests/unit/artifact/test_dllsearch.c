/*
 * The DLL search order, checked against Microsoft's "Dynamic-link library
 * search order" (standard order, SafeDllSearchMode on) and Python 3.8's
 * rule for extension modules, on a file system made of a list of files.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "artifact/dllsearch.h"
#include "plat/plat_path.h"

struct file {
	const char *dir, *name;
};

/* Does the list (ended by a NULL dir) hold name in dir? */
static bool exists(void *ctx, const char *dir, const char *name)
{
	const struct file *f = ctx;

	for (; f->dir; f++)
		if (plat_path_equal(&plat_path_windows, f->dir, dir) &&
		    !strcasecmp(f->name, name))
			return true;
	return false;
}

#define SEL "C:\\Users\\ana\\.cuenv\\versions\\cuda\\11.2.2\\bin"
#define APP "C:\\Python310"
#define OTHER "C:\\Program Files\\Other\\bin"

static const struct dll_process python = {
    .mode = DLL_STANDARD,
    .app_dir = APP,
    .system_root = "C:\\Windows",
    .cwd = "C:\\Users\\ana\\proj",
    .path = SEL ";" OTHER ";C:\\Windows\\system32",
};

static void test_dll_standard_order(void **state)
{
	/* a copy in every place: the order is the order of the hits */
	static const struct file fs[] = {
	    {OTHER, "cudart64_110.dll"},
	    {"c:\\users\\ana\\proj", "CUDART64_110.DLL"},
	    {SEL, "cudart64_110.dll"},
	    {"C:\\Windows", "cudart64_110.dll"},
	    {"C:\\Windows\\System", "cudart64_110.dll"},
	    {"C:\\Windows\\System32", "cudart64_110.dll"},
	    {APP, "cudart64_110.dll"},
	    {NULL, NULL},
	};
	static const enum dll_where want[] = {
	    DLL_APP_DIR, DLL_SYSTEM32, DLL_SYSTEM16, DLL_WINDOWS,
	    DLL_CWD,	 DLL_PATH,     DLL_PATH,
	};
	struct dll_search s;

	(void)state;
	dll_search_init(&s);
	dll_search(&python, "cudart64_110.dll", exists, (void *)fs, &s);
	assert_int_equal(s.n, 7);
	for (size_t i = 0; i < s.n; i++)
		assert_int_equal(s.v[i].where, want[i]);
	assert_string_equal(s.v[0].dir, APP);
	assert_string_equal(s.v[5].dir, SEL);
	assert_string_equal(s.v[6].dir, OTHER);
	/* System32 on PATH again is not searched twice */
	assert_int_equal(s.order.n, 7);
	dll_search_release(&s);
}

static void test_dll_python38_skips_path_and_cwd(void **state)
{
	static const struct file fs[] = {
	    {SEL, "cudart64_110.dll"},
	    {"C:\\Users\\ana\\proj", "cudart64_110.dll"},
	    {NULL, NULL},
	};
	struct strv added = STRV_INIT;
	struct dll_process p = python;
	struct dll_search s;

	(void)state;
	p.mode = DLL_PYTHON38;
	p.module_dir = APP "\\Lib\\site-packages\\tensorflow\\python";
	dll_search_init(&s);
	dll_search(&p, "cudart64_110.dll", exists, (void *)fs, &s);
	assert_int_equal(s.n, 0);
	/* module folder, application folder, System32: nothing else */
	assert_int_equal(s.order.n, 3);
	assert_string_equal(s.order.v[2], "C:\\Windows\\System32");
	dll_search_release(&s);

	strv_push(&added, SEL);
	p.added = &added;
	dll_search_init(&s);
	dll_search(&p, "cudart64_110.dll", exists, (void *)fs, &s);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.v[0].where, DLL_ADDED_DIR);
	dll_search_release(&s);
	strv_release(&added);
}

static void test_dll_check_verdicts(void **state)
{
	static const struct file mine[] = {
	    {SEL, "cudart64_110.dll"},
	    {OTHER, "cudart64_110.dll"},
	    {NULL, NULL},
	};
	static const struct file stray32[] = {
	    {SEL, "cudart64_110.dll"},
	    {"C:\\Windows\\System32", "cudart64_110.dll"},
	    {NULL, NULL},
	};
	static const struct file none[] = {{NULL, NULL}};
	struct dll_process p = python;
	struct dll_finding f;

	(void)state;
	dll_check(&p, "cudart64_110.dll", SEL, exists, (void *)mine, &f);
	assert_int_equal(f.verdict, DLL_OK);
	assert_string_equal(f.loaded, SEL "\\cudart64_110.dll");
	assert_null(f.fix);
	dll_finding_release(&f);

	/* another program's folder first on PATH: cuenv exec reorders */
	p.path = OTHER ";" SEL;
	dll_check(&p, "cudart64_110.dll", SEL, exists, (void *)mine, &f);
	assert_int_equal(f.verdict, DLL_SHADOWED);
	assert_string_equal(f.loaded, OTHER "\\cudart64_110.dll");
	assert_non_null(strstr(f.message, "comes before it on PATH"));
	assert_string_equal(f.fix, "cuenv exec -- PROGRAM");
	dll_finding_release(&f);

	/* a stray copy in System32: searched before any PATH entry */
	p.path = SEL;
	dll_check(&p, "cudart64_110.dll", SEL, exists, (void *)stray32, &f);
	assert_int_equal(f.verdict, DLL_SHADOWED);
	assert_non_null(
	    strstr(f.message, "(System32) is searched before PATH"));
	assert_string_equal(f.fix,
			    "ren \"C:\\Windows\\System32\\cudart64_110.dll\" "
			    "\"cudart64_110.dll.cuenv-moved\"");
	dll_finding_release(&f);

	/* nowhere: error 126 */
	dll_check(&p, "cudart64_110.dll", NULL, exists, (void *)none, &f);
	assert_int_equal(f.verdict, DLL_MISSING);
	assert_null(f.loaded);
	assert_non_null(strstr(f.message, "error 126"));
	dll_finding_release(&f);

	/* the selection's folder not on PATH at all */
	p.path = OTHER;
	dll_check(&p, "cudart64_110.dll", SEL, exists, (void *)mine, &f);
	assert_int_equal(f.verdict, DLL_NOT_SEARCHED);
	assert_non_null(strstr(f.message, "not on PATH"));
	assert_non_null(strstr(f.message, OTHER "\\cudart64_110.dll is loaded "
						"instead"));
	assert_string_equal(f.fix, "cuenv exec -- PROGRAM");
	dll_finding_release(&f);

	/* Python 3.8+: on PATH is not enough for an extension module */
	p.path = SEL;
	p.mode = DLL_PYTHON38;
	dll_check(&p, "cudart64_110.dll", SEL, exists, (void *)mine, &f);
	assert_int_equal(f.verdict, DLL_NOT_SEARCHED);
	assert_non_null(strstr(f.message, "Python 3.8+ does not search PATH"));
	assert_string_equal(f.fix, "os.add_dll_directory(r\"" SEL "\")");
	dll_finding_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dll_standard_order),
	    cmocka_unit_test(test_dll_python38_skips_path_and_cwd),
	    cmocka_unit_test(test_dll_check_verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
