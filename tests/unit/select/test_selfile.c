/*
 * The selection files of `cuenv local` and `cuenv global`: read for a
 * rewrite, rewritten, written or removed, and checked against the store.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "select/selfile.h"

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

static void test_selfile_rewrite_system_keeps_the_other_lines(void **state)
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
	assert_string_equal(
	    out.data, "# mine\ncuda = system\ncudnn = 9.1\ncupti = 11.8\n");
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

/* ---- selfile_update: what `cuenv local` and `cuenv global` do ---------- */

/* A request for fx's ./.cuenv, checked against fx's (empty) store. */
static struct selfile_request request(const struct fixture *fx,
				      const struct dotfile *set, char *path)
{
	struct selfile_request r = {
	    .command = "local",
	    .path = path,
	    .set = set,
	    .root = fx->root,
	};

	fx_mkdir(fx, "versions");
	return r;
}

static void test_selfile_update_shows_without_spec_or_option(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT, note = BUF_INIT, want = BUF_INIT;
	char *path = fx_path(fx, ".cuenv");
	struct dotfile set;
	struct selfile_request r;

	dotfile_init(&set);
	r = request(fx, &set, path);
	assert_int_equal(selfile_update(&r, &out, &note, &err), CUENV_NO);
	buf_printf(&want, "none (no %s)\n", path);
	assert_string_equal(out.data, want.data);
	assert_int_equal(note.len, 0);
	assert_false(fx_exists(fx, ".cuenv"));
	buf_reset(&out);
	buf_reset(&want);
	fx_write(fx, ".cuenv", "cuda = 12.4\n");
	assert_int_equal(selfile_update(&r, &out, &note, &err), CUENV_OK);
	buf_printf(&want, "12.4 (%s)\n", path);
	assert_string_equal(out.data, want.data);
	buf_release(&out);
	buf_release(&note);
	buf_release(&want);
	free(path);
}

static void test_selfile_update_writes_only_what_is_installed(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT, note = BUF_INIT, want = BUF_INIT;
	char *path = fx_path(fx, ".cuenv"), *text;
	struct dotfile set;
	struct selfile_request r;

	dotfile_init(&set);
	r = request(fx, &set, path);
	r.nargs = 1;
	r.spec = "12.4";
	assert_int_equal(selfile_update(&r, &out, &note, &err),
			 CUENV_E_NOT_INSTALLED);
	assert_non_null(strstr(err.msg.data, "12.4"));
	assert_non_null(strstr(err.hint.data, "; or write it anyway: --force"));
	assert_false(fx_exists(fx, ".cuenv"));
	assert_int_equal(note.len, 0);
	err_release(&err);
	/* --force writes it anyway, keeping the file's other lines */
	fx_write(fx, ".cuenv", "# mine\ncuda = 11.8\ncudnn = 9.1\n");
	r.force = 1;
	r.any = 1;
	assert_int_equal(selfile_update(&r, &out, &note, &err), CUENV_OK);
	text = fx_read(fx, ".cuenv");
	assert_non_null(strstr(text, "# mine\n"));
	assert_non_null(strstr(text, "cuda = 12.4\n"));
	assert_non_null(strstr(text, "cudnn = 9.1\n"));
	buf_printf(&want, "wrote %s", path);
	assert_string_equal(note.data, want.data);
	assert_int_equal(out.len, 0);
	free(text);
	/* `system` is always there */
	r.force = 0;
	r.spec = "system";
	buf_reset(&note);
	assert_int_equal(selfile_update(&r, &out, &note, &err), CUENV_OK);
	text = fx_read(fx, ".cuenv");
	assert_string_equal(text, "# mine\ncuda = system\ncudnn = 9.1\n");
	assert_string_equal(note.data, want.data);
	free(text);
	buf_release(&out);
	buf_release(&note);
	buf_release(&want);
	free(path);
}

static void test_selfile_update_unset_takes_keys_then_the_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT, note = BUF_INIT, want = BUF_INIT;
	char *path = fx_path(fx, ".cuenv"), *text;
	struct dotfile set;
	struct selfile_request r;

	dotfile_init(&set);
	r = request(fx, &set, path);
	r.any = r.unset = 1;
	fx_write(fx, ".cuenv", "# mine\ncuda = 12.4\ncudnn = 9.1\n");
	assert_int_equal(selfile_update(&r, &out, &note, &err), CUENV_OK);
	text = fx_read(fx, ".cuenv");
	assert_string_equal(text, "# mine\n");
	buf_printf(&want, "removed cuenv's keys from %s", path);
	assert_string_equal(note.data, want.data);
	free(text);
	fx_write(fx, ".cuenv", "cuda = 12.4\n");
	buf_reset(&note);
	buf_reset(&want);
	assert_int_equal(selfile_update(&r, &out, &note, &err), CUENV_OK);
	assert_false(fx_exists(fx, ".cuenv"));
	buf_printf(&want, "removed %s", path);
	assert_string_equal(note.data, want.data);
	buf_release(&out);
	buf_release(&note);
	buf_release(&want);
	free(path);
}

static void test_selfile_update_usage_errors(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT, note = BUF_INIT;
	char *path = fx_path(fx, ".cuenv");
	struct dotfile set;
	struct selfile_request r;

	dotfile_init(&set);
	fx_write(fx, ".cuenv", "cuda = 12.4\n");
	r = request(fx, &set, path);
	r.command = "global";
	/* --unset takes no SPEC, and no --cudnn */
	r.any = r.unset = 1;
	r.nargs = 1;
	r.spec = "12.4";
	assert_int_equal(selfile_update(&r, &out, &note, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "global: too many arguments");
	assert_string_equal(err.hint.data, "see: cuenv global --help");
	err_release(&err);
	r.nargs = 0;
	r.spec = NULL;
	set.cudnn = "9.1";
	assert_int_equal(selfile_update(&r, &out, &note, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "global: too many arguments");
	err_release(&err);
	/* an option needs a SPEC to go with */
	r.unset = 0;
	assert_int_equal(selfile_update(&r, &out, &note, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "global: these options go with a "
					  "SPEC, the version to select");
	assert_string_equal(err.hint.data,
			    "for example: cuenv global 12.4 --cudnn 9");
	err_release(&err);
	/* a SPEC that is no version */
	set.cudnn = NULL;
	r.nargs = 1;
	r.spec = "../12.4";
	r.force = 1;
	assert_int_equal(selfile_update(&r, &out, &note, &err), CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "../12.4"));
	err_release(&err);
	/* nothing was written or said */
	assert_int_equal(out.len, 0);
	assert_int_equal(note.len, 0);
	assert_true(fx_exists(fx, ".cuenv"));
	buf_release(&out);
	buf_release(&note);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(
		test_selfile_read_missing_bad_and_folder, fx_setup,
		fx_teardown),
	    cmocka_unit_test(test_selfile_rewrite_system_keeps_the_other_lines),
	    cmocka_unit_test_setup_teardown(test_selfile_write_or_remove,
					    fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_selfile_check_installed_against_the_store, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_selfile_show_what_the_file_selects, fx_setup, fx_teardown),
	    cmocka_unit_test(test_selfile_want_keeps_what_the_file_had),
	    cmocka_unit_test_setup_teardown(
		test_selfile_update_shows_without_spec_or_option, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_selfile_update_writes_only_what_is_installed, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_selfile_update_unset_takes_keys_then_the_file, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(test_selfile_update_usage_errors,
					    fx_setup, fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
