/*
 * The modulefiles' text: Lmod's Lua and Environment Modules' Tcl, the
 * order the folders end up in, what a system toolkit leaves out, and
 * the quoting of odd folder names. The expected files are written by
 * hand from Lmod's and Environment Modules' syntax.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "plat/plat_path.h"
#include "select/modulefile.h"
#include "base/xalloc.h"

static void make(struct store_version *in, enum kit_kind kind,
		 const char *version, unsigned major, const char *prefix)
{
	store_version_init(in, kind);
	in->version = xstrdup(version);
	in->cuda_major = major;
	in->prefix = xstrdup(prefix);
}

static void add_dir(struct strv *v, const char *prefix, const char *sub)
{
	struct buf b = BUF_INIT;

	buf_path(&b, prefix, sub);
	strv_push_take(v, buf_detach(&b));
}

static void test_modulefile_cuda_lua(void **state)
{
	struct store_version in;
	struct buf out = BUF_INIT;

	(void)state;
	make(&in, KIT_CUDA, "12.4.1", 12, "/opt/cuda-12.4");
	add_dir(&in.bin, in.prefix, "bin");
	add_dir(&in.lib, in.prefix, "lib64");
	add_dir(&in.cupti, in.prefix, "extras/CUPTI/lib64");
	add_dir(&in.include, in.prefix, "include");
	modulefile_cuda(0, &in, &out);
	assert_string_equal(
	    out.data,
	    "-- Written by `cuenv modules`; rerun it rather than editing.\n"
	    "whatis(\"CUDA 12.4.1 (cuenv)\")\n"
	    "conflict(\"cuda\")\n"
	    "prepend_path(\"PATH\", \"/opt/cuda-12.4/bin\")\n"
	    "prepend_path(\"LD_LIBRARY_PATH\", "
	    "\"/opt/cuda-12.4/extras/CUPTI/lib64\")\n"
	    "prepend_path(\"LD_LIBRARY_PATH\", \"/opt/cuda-12.4/lib64\")\n"
	    "prepend_path(\"LIBRARY_PATH\", "
	    "\"/opt/cuda-12.4/extras/CUPTI/lib64\")\n"
	    "prepend_path(\"LIBRARY_PATH\", \"/opt/cuda-12.4/lib64\")\n"
	    "prepend_path(\"CPATH\", \"/opt/cuda-12.4/include\")\n"
	    "setenv(\"CUDA_HOME\", \"/opt/cuda-12.4\")\n"
	    "setenv(\"CUDA_PATH\", \"/opt/cuda-12.4\")\n"
	    "pushenv(\"CUENV_ACTIVE\", \"12.4.1\")\n");
	buf_release(&out);
	store_version_release(&in);
}

/* Debian's toolkit in /usr: what the loader and shell search stays off
 * PATH and LD_LIBRARY_PATH, and off LIBRARY_PATH too (the linker reads
 * no ld.so.cache: /usr's folders are its own). */
static void test_modulefile_cuda_system_tcl(void **state)
{
	struct store_version in;
	struct buf out = BUF_INIT;

	(void)state;
	make(&in, KIT_CUDA, "12.0.140", 12, "/usr");
	add_dir(&in.bin, "/usr", "bin");
	add_dir(&in.lib, "/usr", "lib/x86_64-linux-gnu");
	add_dir(&in.lib, "/usr", "lib/nvidia-cuda-toolkit/lib64");
	add_dir(&in.include, "/usr", "include");
	add_dir(&in.searched, "/usr", "bin");
	add_dir(&in.searched, "/usr", "lib/x86_64-linux-gnu");
	add_dir(&in.searched, "/usr", "include");
	modulefile_cuda(1, &in, &out);
	assert_string_equal(
	    out.data,
	    "#%Module1.0\n"
	    "# Written by `cuenv modules`; rerun it rather than editing.\n"
	    "module-whatis \"CUDA 12.0.140 (cuenv)\"\n"
	    "conflict cuda\n"
	    "prepend-path LD_LIBRARY_PATH "
	    "\"/usr/lib/nvidia-cuda-toolkit/lib64\"\n"
	    "prepend-path LIBRARY_PATH \"/usr/lib/nvidia-cuda-toolkit/lib64\"\n"
	    "setenv CUDA_HOME \"/usr\"\n"
	    "setenv CUDA_PATH \"/usr\"\n"
	    "pushenv CUENV_ACTIVE \"12.0.140\"\n");
	buf_release(&out);
	store_version_release(&in);
}

static void cudas_of(struct store_version_list *l, struct store_version *v,
		     size_t n)
{
	l->v = xcalloc(n, sizeof(*l->v));
	for (size_t i = 0; i < n; i++)
		l->v[i] = &v[i];
	l->n = n;
}

/* Needs a CUDA module of its major; Tcl's $ [ " in a folder name are
 * backslashed, so the folder is one word and runs nothing. */
static void test_modulefile_cudnn_tcl_quotes(void **state)
{
	struct store_version in, c[3];
	struct store_version_list cudas = {0};
	struct buf out = BUF_INIT;

	(void)state;
	make(&c[0], KIT_CUDA, "11.8.0", 11, "/opt/a");
	make(&c[1], KIT_CUDA, "12.4.1", 12, "/opt/b");
	make(&c[2], KIT_CUDA, "12.6.0", 12, "/opt/c");
	cudas_of(&cudas, c, 3);
	make(&in, KIT_CUDNN, "9.1.0.70", 12, "/opt/c$dn [x] \"q\"");
	add_dir(&in.lib, in.prefix, "lib");
	add_dir(&in.include, in.prefix, "include");
	modulefile_cudnn(1, &in, &cudas, &out);
	assert_string_equal(
	    out.data,
	    "#%Module1.0\n"
	    "# Written by `cuenv modules`; rerun it rather than editing.\n"
	    "module-whatis \"cuDNN 9.1.0.70 (cuenv)\"\n"
	    "conflict cudnn\n"
	    "prereq \"cuda/12.4.1\" \"cuda/12.6.0\"\n"
	    "prepend-path LD_LIBRARY_PATH \"/opt/c\\$dn \\[x\\] \\\"q\\\"/lib\"\n"
	    "prepend-path LIBRARY_PATH \"/opt/c\\$dn \\[x\\] \\\"q\\\"/lib\"\n"
	    "prepend-path CPATH \"/opt/c\\$dn \\[x\\] \\\"q\\\"/include\"\n"
	    "setenv CUDNN_PATH \"/opt/c\\$dn \\[x\\] \\\"q\\\"\"\n"
	    "set cuenv_cuda {}\n"
	    "if {[info exists ::env(CUENV_ACTIVE)]} {\n"
	    "\tset cuenv_cuda $::env(CUENV_ACTIVE)\n"
	    "}\n"
	    "# Unloading pops the value pushed: name it as is.\n"
	    "if {![module-info mode unload]} {\n"
	    "\tappend cuenv_cuda \"+cudnn9.1.0.70\"\n"
	    "}\n"
	    "pushenv CUENV_ACTIVE $cuenv_cuda\n");
	buf_release(&out);
	store_version_release(&in);
	for (size_t i = 0; i < 3; i++)
		store_version_release(&c[i]);
	free(cudas.v);
}

/* Lua: \ and " backslashed, a control byte as \ddd in decimal; $ and [
 * are plain characters in a Lua string. */
static void test_modulefile_cudnn_lua_quotes(void **state)
{
	struct store_version in, c;
	struct store_version_list cudas = {0};
	struct buf out = BUF_INIT;

	(void)state;
	make(&c, KIT_CUDA, "12.4.1", 12, "/opt/b");
	cudas_of(&cudas, &c, 1);
	make(&in, KIT_CUDNN, "9.1.0.70", 12, "/o\\p$[\"\n");
	modulefile_cudnn(0, &in, &cudas, &out);
	assert_string_equal(
	    out.data,
	    "-- Written by `cuenv modules`; rerun it rather than editing.\n"
	    "whatis(\"cuDNN 9.1.0.70 (cuenv)\")\n"
	    "conflict(\"cudnn\")\n"
	    "prereq_any(\"cuda/12.4.1\")\n"
	    "setenv(\"CUDNN_PATH\", \"/o\\\\p$[\\\"\\010\")\n"
	    "pushenv(\"CUENV_ACTIVE\", (os.getenv(\"CUENV_ACTIVE\") or \"\") .. "
	    "\"+cudnn9.1.0.70\")\n");
	buf_release(&out);
	store_version_release(&in);
	store_version_release(&c);
	free(cudas.v);
}

/* Tcl's control byte is \ooo, octal: a newline is \012, not \010. */
static void test_modulefile_tcl_control_byte_is_octal(void **state)
{
	struct store_version in;
	struct buf out = BUF_INIT;

	(void)state;
	make(&in, KIT_CUDA, "12.4.1", 12, "/a\nb");
	modulefile_cuda(1, &in, &out);
	assert_non_null(strstr(out.data, "setenv CUDA_HOME \"/a\\012b\"\n"));
	buf_release(&out);
	store_version_release(&in);
}

/* The file's name per kind and format; no module for a cuDNN without
 * a CUDA of its major. */
static void test_modulefile_for_names_and_needs_a_cuda(void **state)
{
	struct store_version in, c;
	struct store_version_list cudas = {0};
	struct buf name = BUF_INIT, out = BUF_INIT, want = BUF_INIT;

	(void)state;
	make(&c, KIT_CUDA, "12.4.1", 12, "/opt/c");
	cudas_of(&cudas, &c, 1);
	assert_int_equal(modulefile_for(0, &c, &cudas, &name, &out), CUENV_OK);
	assert_string_equal(name.data, "12.4.1.lua");
	modulefile_cuda(0, &c, &want);
	assert_string_equal(out.data, want.data);
	make(&in, KIT_CUDNN, "9.1.0.70", 11, "/opt/d");
	in.name = xstrdup("9.1.0.70-cuda11");
	buf_reset(&name);
	buf_reset(&out);
	assert_int_equal(modulefile_for(1, &in, &cudas, &name, &out), CUENV_NO);
	assert_int_equal(name.len, 0);
	assert_int_equal(out.len, 0);
	in.cuda_major = 12;
	assert_int_equal(modulefile_for(1, &in, &cudas, &name, &out), CUENV_OK);
	assert_string_equal(name.data, "9.1.0.70-cuda11");
	buf_reset(&want);
	modulefile_cudnn(1, &in, &cudas, &want);
	assert_string_equal(out.data, want.data);
	buf_release(&name);
	buf_release(&out);
	buf_release(&want);
	store_version_release(&in);
	store_version_release(&c);
	free(cudas.v);
}

static void test_modulefile_format_lua_or_tcl(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	int tcl = -1;

	(void)state;
	assert_int_equal(modulefile_format("lua", &tcl, &err), CUENV_OK);
	assert_int_equal(tcl, 0);
	assert_int_equal(modulefile_format("tcl", &tcl, &err), CUENV_OK);
	assert_int_equal(tcl, 1);
	assert_int_equal(modulefile_format("Lua", &tcl, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "modules: unknown format 'Lua'");
	assert_string_equal(err.hint.data,
			    "formats: lua (Lmod), tcl (Environment Modules)");
	err_release(&err);
}

/* CUDA's files first, then cuDNN's; a cuDNN with no CUDA of its major
 * is skipped with its line, and the rest are still written. */
static void test_modulefile_write_all_files_and_skips(void **state)
{
	struct fixture *fx = *state;
	struct store_version *c =
	    fx_install_new(KIT_CUDA, "12.4.1", 12, "/opt/c");
	struct store_version *d11 =
	    fx_install_new(KIT_CUDNN, "8.9.7", 11, "/o/d11");
	struct store_version *d12 =
	    fx_install_new(KIT_CUDNN, "9.1.0", 12, "/o/d12");
	struct store_version_list cudas = {0}, cudnns = {0};
	struct strv written = STRV_INIT, skipped = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf want = BUF_INIT, dir = BUF_INIT, path = BUF_INIT;
	char *text;

	fx_list_push(&cudas, c);
	fx_list_push(&cudnns, d11);
	fx_list_push(&cudnns, d12);
	buf_path(&dir, fx->root, "m");
	assert_int_equal(modulefile_write_all(1, dir.data, &cudas, &cudnns,
					      &written, &skipped, &err),
			 CUENV_OK);
	assert_int_equal(written.n, 2);
	buf_printf(&path, "%s/m/cuda/12.4.1", fx->root);
	assert_string_equal(written.v[0], path.data);
	buf_reset(&path);
	buf_printf(&path, "%s/m/cudnn/9.1.0-cuda12", fx->root);
	assert_string_equal(written.v[1], path.data);
	assert_int_equal(skipped.n, 1);
	assert_string_equal(skipped.v[0], "no module for cudnn 8.9.7-cuda11: "
					  "no CUDA 11 installed for it to "
					  "depend on");
	text = fx_read(fx, "m/cudnn/9.1.0-cuda12");
	modulefile_cudnn(1, d12, &cudas, &want);
	assert_string_equal(text, want.data);
	free(text);
	assert_int_equal(fx_count_entries(fx, "m/cudnn"), 1);
	strv_release(&written);
	strv_release(&skipped);
	store_version_list_release(&cudas);
	store_version_list_release(&cudnns);
	buf_release(&want);
	buf_release(&dir);
	buf_release(&path);
}

/* A folder that cannot be made stops the run: no cuDNN after it. */
static void test_modulefile_write_all_stops_at_a_failure(void **state)
{
	struct fixture *fx = *state;
	struct store_version *c =
	    fx_install_new(KIT_CUDA, "12.4.1", 12, "/opt/c");
	struct store_version *d =
	    fx_install_new(KIT_CUDNN, "9.1.0", 12, "/opt/d");
	struct store_version_list cudas = {0}, cudnns = {0};
	struct strv written = STRV_INIT, skipped = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf dir = BUF_INIT;

	fx_list_push(&cudas, c);
	fx_list_push(&cudnns, d);
	fx_write(fx, "m/cuda", "a file, not a folder\n");
	buf_path(&dir, fx->root, "m");
	assert_int_equal(modulefile_write_all(0, dir.data, &cudas, &cudnns,
					      &written, &skipped, &err),
			 CUENV_E_STORE);
	assert_int_equal(written.n, 0);
	assert_int_equal(fx_count_entries(fx, "m"), 1);
	err_release(&err);
	strv_release(&written);
	strv_release(&skipped);
	store_version_list_release(&cudas);
	store_version_list_release(&cudnns);
	buf_release(&dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_modulefile_cuda_lua),
	    cmocka_unit_test(test_modulefile_cuda_system_tcl),
	    cmocka_unit_test(test_modulefile_cudnn_tcl_quotes),
	    cmocka_unit_test(test_modulefile_cudnn_lua_quotes),
	    cmocka_unit_test(test_modulefile_tcl_control_byte_is_octal),
	    cmocka_unit_test(test_modulefile_for_names_and_needs_a_cuda),
	    cmocka_unit_test(test_modulefile_format_lua_or_tcl),
	    cmocka_unit_test_setup_teardown(
		test_modulefile_write_all_files_and_skips, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_modulefile_write_all_stops_at_a_failure, fx_setup,
		fx_teardown),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
