/*
 * The selection files of `cuenv local` and `cuenv global`: read for a
 * rewrite, rewritten, written or removed, and checked against the store.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/selfile.h"

static void test_selfile_read_missing_bad_and_folder(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	struct dotfile old;
	char *missing = fx_path(fx, "none/.cuenv"), *bad, *dir;

	dotfile_init(&old);
	/* no such file: nothing to keep, not an error */
	assert_int_equal(selfile_read(missing, &text, &old, &err), CUENV_OK);
	assert_int_equal(text.len, 0);
	assert_true(dotfile_is_empty(&old));
	fx_write(fx, "ok/.cuenv", "# mine\ncuda = 12.4\ncudnn = 9.1\n");
	free(missing);
	missing = fx_path(fx, "ok/.cuenv");
	assert_int_equal(selfile_read(missing, &text, &old, &err), CUENV_OK);
	assert_string_equal(text.data, "# mine\ncuda = 12.4\ncudnn = 9.1\n");
	assert_string_equal(old.cuda, "12.4");
	assert_string_equal(old.cudnn, "9.1");
	dotfile_release(&old);
	dotfile_init(&old);
	/* a file it cannot parse is never rewritten */
	fx_write(fx, "bad/.cuenv", "cudaa = 12.4\n");
	bad = fx_path(fx, "bad/.cuenv");
	buf_reset(&text);
	assert_int_equal(selfile_read(bad, &text, &old, &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.hint.data, "fix or remove"));
	err_release(&err);
	/* a folder where the file would be */
	fx_mkdir(fx, "dir/.cuenv");
	dir = fx_path(fx, "dir/.cuenv");
	assert_int_equal(selfile_read(dir, &text, &old, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "is a folder"));
	err_release(&err);
	dotfile_release(&old);
	buf_release(&text);
	free(missing);
	free(bad);
	free(dir);
}

static void test_selfile_rewrite_system_drops_cudnn_and_cupti(void **state)
{
	struct buf text = BUF_INIT, out = BUF_INIT;
	struct dotfile set;

	(void)state;
	dotfile_init(&set);
	buf_adds(&text, "# mine\ncuda = 12.4\ncudnn = 9.1\ncupti = 11.8\n");
	set.cudnn = "9.3";
	selfile_rewrite(&text, &set, 0, &out);
	assert_string_equal(out.data,
			    "# mine\ncuda = 12.4\ncudnn = 9.3\ncupti = 11.8\n");
	buf_reset(&out);
	set.cudnn = NULL;
	set.cuda = DOTFILE_SYSTEM;
	selfile_rewrite(&text, &set, 0, &out);
	assert_string_equal(out.data, "# mine\ncuda = system\n");
	buf_reset(&out);
	set.cuda = NULL;
	selfile_rewrite(&text, &set, 1, &out);
	assert_string_equal(out.data, "# mine\n");
	buf_release(&text);
	buf_release(&out);
}

static void test_selfile_write_or_remove(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *path = fx_path(fx, ".cuenv");

	buf_adds(&text, "cuda = 12.4\n");
	assert_int_equal(selfile_write(path, &text, &err), CUENV_OK);
	assert_int_equal(access(path, F_OK), 0);
	buf_reset(&text);
	assert_int_equal(selfile_write(path, &text, &err), CUENV_OK);
	assert_int_not_equal(access(path, F_OK), 0);
	buf_release(&text);
	free(path);
}

static void test_selfile_check_installed_against_the_store(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile want;

	dotfile_init(&want);
	fx_mkdir(fx, "versions");
	want.cuda = DOTFILE_SYSTEM;
	assert_int_equal(
	    selfile_check_installed(&want, fx->root, NULL, 1, &err), CUENV_OK);
	want.cuda = "12.4";
	assert_int_equal(
	    selfile_check_installed(&want, fx->root, NULL, 1, &err),
	    CUENV_E_NOT_INSTALLED);
	assert_non_null(strstr(err.msg.data, "12.4"));
	err_release(&err);
}

static void test_selfile_show_what_the_file_selects(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT, want = BUF_INIT;
	char *path = fx_path(fx, ".cuenv");

	assert_int_equal(selfile_show(path, &out, &err), CUENV_NO);
	buf_printf(&want, "none (no %s)\n", path);
	assert_string_equal(out.data, want.data);
	buf_reset(&out);
	fx_write(fx, ".cuenv", "# nothing\n");
	assert_int_equal(selfile_show(path, &out, &err), CUENV_NO);
	assert_string_equal(out.data, want.data);
	buf_reset(&out);
	buf_reset(&want);
	fx_write(fx, ".cuenv", "cuda = 12.4\n");
	assert_int_equal(selfile_show(path, &out, &err), CUENV_OK);
	buf_printf(&want, "12.4 (%s)\n", path);
	assert_string_equal(out.data, want.data);
	buf_reset(&out);
	buf_reset(&want);
	fx_write(fx, ".cuenv",
		 "cuda = 12.4\ncudnn = 9.1\ncupti = 12.6\nisolate = true\n");
	assert_int_equal(selfile_show(path, &out, &err), CUENV_OK);
	buf_printf(&want, "12.4 + cudnn 9.1 + cupti from 12.6, isolated (%s)\n",
		   path);
	assert_string_equal(out.data, want.data);
	buf_reset(&out);
	fx_write(fx, ".cuenv", "cuda = ../x\n");
	assert_int_not_equal(selfile_show(path, &out, &err), CUENV_OK);
	assert_int_not_equal(selfile_show(path, &out, &err), CUENV_NO);
	assert_int_equal(out.len, 0);
	buf_release(&out);
	buf_release(&want);
	err_release(&err);
	free(path);
}

static void test_selfile_want_keeps_what_the_file_had(void **state)
{
	struct dotfile set, old, want;

	(void)state;
	dotfile_init(&set);
	dotfile_init(&old);
	set.cuda = "12.6";
	old.cuda = "12.4";
	old.cudnn = "9.1";
	old.cupti = "12.4.1";
	want = selfile_want(&set, &old);
	assert_string_equal(want.cuda, "12.6");
	assert_string_equal(want.cudnn, "9.1");
	assert_string_equal(want.cupti, "12.4.1");
	set.cudnn = "9.3";
	want = selfile_want(&set, &old);
	assert_string_equal(want.cudnn, "9.3");
	assert_string_equal(want.cupti, "12.4.1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(
		test_selfile_read_missing_bad_and_folder, fx_setup,
		fx_teardown),
	    cmocka_unit_test(test_selfile_rewrite_system_drops_cudnn_and_cupti),
	    cmocka_unit_test_setup_teardown(test_selfile_write_or_remove,
					    fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_selfile_check_installed_against_the_store, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_selfile_show_what_the_file_selects, fx_setup, fx_teardown),
	    cmocka_unit_test(test_selfile_want_keeps_what_the_file_had),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
