/*
 * The modulefiles' text: Lmod's Lua and Environment Modules' Tcl, the
 * order the folders end up in, what a system toolkit leaves out, and
 * the quoting of odd folder names. The expected files are written by
 * hand from Lmod's and Environment Modules' syntax.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "../../core/modulefile.h"
#include "../../core/xalloc.h"

static void make(struct install *in, enum kit_kind kind, const char *version,
		 unsigned major, const char *prefix)
{
	install_init(in, kind);
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
	struct install in;
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
	install_release(&in);
}

/* Debian's toolkit in /usr: what the loader and shell search stays off
 * PATH and LD_LIBRARY_PATH, and off LIBRARY_PATH too (the linker reads
 * no ld.so.cache: /usr's folders are its own). */
static void test_modulefile_cuda_system_tcl(void **state)
{
	struct install in;
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
	install_release(&in);
}

static void cudas_of(struct install_list *l, struct install *v, size_t n)
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
	struct install in, c[3];
	struct install_list cudas = {0};
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
	install_release(&in);
	for (size_t i = 0; i < 3; i++)
		install_release(&c[i]);
	free(cudas.v);
}

/* Lua: \ and " backslashed, a control byte as \ddd in decimal; $ and [
 * are plain characters in a Lua string. */
static void test_modulefile_cudnn_lua_quotes(void **state)
{
	struct install in, c;
	struct install_list cudas = {0};
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
	install_release(&in);
	install_release(&c);
	free(cudas.v);
}

/* Tcl's control byte is \ooo, octal: a newline is \012, not \010. */
static void test_modulefile_tcl_control_byte_is_octal(void **state)
{
	struct install in;
	struct buf out = BUF_INIT;

	(void)state;
	make(&in, KIT_CUDA, "12.4.1", 12, "/a\nb");
	modulefile_cuda(1, &in, &out);
	assert_non_null(strstr(out.data, "setenv CUDA_HOME \"/a\\012b\"\n"));
	buf_release(&out);
	install_release(&in);
}

/* The file's name per kind and format; no module for a cuDNN without
 * a CUDA of its major. */
static void test_modulefile_for_names_and_needs_a_cuda(void **state)
{
	struct install in, c;
	struct install_list cudas = {0};
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
	install_release(&in);
	install_release(&c);
	free(cudas.v);
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
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
