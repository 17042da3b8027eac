#include "fakes/fixture.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/detect.h"
#include "doctor/doctor.h"
#include "doctor/doctor_gather.h"
#include "plat/plat_fs.h"
#include "base/xalloc.h"

#define COMPAT CUENV_SRCDIR "/manifests/compat"

/*
 * A world: a store at root/store, toolkits and cuDNN builds registered in
 * it from folders under root, a project at root/proj whose .cuenv each
 * test writes, and the inputs doctor_run takes. The environment starts
 * with PATH holding only an empty folder, so nothing of the machine's
 * leaks in.
 */
struct world {
	struct fixture *fx;
	char *root;	   /* CUENV_ROOT */
	struct strv pool;  /* paths handed out by at() */
	struct envmap env; /* the process's environment */
	struct activation a;
	struct cuenv_err err;
	int rc;
	const char *driver;
	struct driver_req need;
	int use_need;
	struct ldcache cache;
	int use_cache;
	struct ldconf conf;
	struct strv sites;
	const struct doctor_win *win;
	struct findings f;
};

/* root/rel, owned by the world. */
static const char *at(struct world *w, const char *rel)
{
	strv_push_take(&w->pool, fx_path(w->fx, rel));
	return w->pool.v[w->pool.n - 1];
}

static int world_setup(void **state)
{
	void *fx_state = NULL;
	struct world *w;
	struct buf path = BUF_INIT;

	if (fx_setup(&fx_state))
		return -1;
	w = xcalloc(1, sizeof(*w));
	w->fx = fx_state;
	w->root = fx_path(w->fx, "store");
	fx_mkdir(w->fx, "store");
	fx_mkdir(w->fx, "proj");
	fx_mkdir(w->fx, "nobin");
	buf_printf(&path, "PATH=%s", at(w, "nobin"));
	strv_push(&w->env.vars, path.data);
	strv_push(&w->env.vars, "HOME=/home/u");
	buf_release(&path);
	activation_init(&w->a);
	*state = w;
	return 0;
}

static int world_teardown(void **state)
{
	struct world *w = *state;
	void *fx_state = w->fx;

	activation_release(&w->a);
	err_release(&w->err);
	envmap_release(&w->env);
	driver_req_release(&w->need);
	ldcache_release(&w->cache);
	ldconf_release(&w->conf);
	strv_release(&w->sites);
	strv_release(&w->pool);
	findings_release(&w->f);
	free(w->root);
	free(w);
	return fx_teardown(&fx_state);
}

/* ---- building the world ------------------------------------------------- */

enum { NO_CUPTI = 1, NO_MATH = 2, NO_NVCC = 4 };

static void touch_soname(struct world *w, const char *dir, const char *cuda,
			 const char *stem)
{
	char *name = detect_soname(stem, cuda);
	struct buf rel = BUF_INIT;

	buf_printf(&rel, "%s/%s", dir, name);
	fx_touch(w->fx, rel.data);
	buf_release(&rel);
	free(name);
}

/* A toolkit in the classic layout at root/rel with the sonames of cuda. */
static void toolkit(struct world *w, const char *rel, const char *cuda,
		    unsigned without)
{
	static const char *const math[] = {"libcufft.so.11", "libcurand.so.10",
					   "libcusolver.so.11",
					   "libcusparse.so.12"};
	struct buf lib = BUF_INIT, p = BUF_INIT;

	buf_printf(&lib, "%s/lib64", rel);
	touch_soname(w, lib.data, cuda, "cudart");
	if (!(without & NO_MATH)) {
		touch_soname(w, lib.data, cuda, "cublas");
		touch_soname(w, lib.data, cuda, "cublasLt");
		for (size_t i = 0; i < 4; i++) {
			buf_reset(&p);
			buf_printf(&p, "%s/%s", lib.data, math[i]);
			fx_touch(w->fx, p.data);
		}
	}
	if (!(without & NO_CUPTI)) {
		buf_reset(&p);
		buf_printf(&p, "%s/extras/CUPTI/lib64", rel);
		touch_soname(w, p.data, cuda, "cupti");
	} else {
		buf_reset(&p);
		buf_printf(&p, "%s/extras/CUPTI/lib64", rel);
		fx_mkdir(w->fx, p.data);
	}
	buf_reset(&p);
	buf_printf(&p, "%s/bin/nvcc", rel);
	if (!(without & NO_NVCC))
		fx_touch_exec(w->fx, p.data);
	buf_reset(&p);
	buf_printf(&p, "%s/include/cuda_runtime_api.h", rel);
	fx_touch(w->fx, p.data);
	buf_release(&lib);
	buf_release(&p);
}

/* A cuDNN at root/rel whose library names text (a CUDA soname). */
static void cudnn(struct world *w, const char *rel, const char *version,
		  const char *text)
{
	struct buf p = BUF_INIT, body = BUF_INIT;

	buf_printf(&p, "%s/lib/libcudnn.so.%lu", rel,
		   strtoul(version, NULL, 10));
	buf_printf(&body, "\177ELF fake cudnn, loads %s\n", text);
	fx_write(w->fx, p.data, body.data);
	buf_reset(&p);
	buf_printf(&p, "%s/include/cudnn.h", rel);
	fx_touch(w->fx, p.data);
	buf_release(&p);
	buf_release(&body);
}

static void reg(struct world *w, enum kit_kind kind, const char *version,
		unsigned major, const char *rel)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store st;
	struct store_version *in =
	    fx_install_new(kind, version, major, at(w, rel));

	if (store_open(&st, w->root, true, &err) ||
	    store_register(&st, in, &err))
		fail_msg("registering %s: %s", version, err.msg.data);
	store_release(&st);
	store_version_free(in);
}

static void setenv_w(struct world *w, const char *name, const char *value)
{
	envmap_set(&w->env, name, value);
}

/* Compute the activation in root/proj from w->env, into w->a. */
static void compute(struct world *w)
{
	activation_release(&w->a);
	err_release(&w->err);
	w->rc = activation_compute(w->root, at(w, "proj"), &w->env, 0, &w->a,
				   &w->err);
}

/* Make w->env the environment a shell activated in proj has. */
static void activate_shell(struct world *w)
{
	compute(w);
	assert_true(w->a.ok);
	envmap_release(&w->env);
	envmap_copy(&w->env, &w->a.after);
}

static void need_for(struct world *w, const char *cuda)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	driver_req_release(&w->need);
	if (compat_driver(COMPAT, cuda, &w->need, &err))
		fail_msg("compat_driver: %s", err.msg.data);
	w->use_need = 1;
}

/* Compute, then audit; findings must come problems first. */
static void audit(struct world *w)
{
	struct doctor_in in;

	compute(w);
	findings_release(&w->f);
	in = (struct doctor_in){
	    .env = &w->env,
	    .a = &w->a,
	    .act_rc = w->rc,
	    .act_err = &w->err,
	    .driver = w->driver,
	    .driver_from = "test",
	    .need = w->use_need ? &w->need : NULL,
	    .cache = w->use_cache ? &w->cache : NULL,
	    .cache_path = "/etc/ld.so.cache",
	    .conf = &w->conf,
	    .site_dirs = &w->sites,
	    .python = "python3",
	    .win = w->win,
	};
	doctor_run(&in, &w->f);
	for (size_t i = 1; i < w->f.n; i++)
		assert_true(w->f.v[i - 1].severity <= w->f.v[i].severity);
}

static const struct finding *find(const struct world *w, const char *id)
{
	for (size_t i = 0; i < w->f.n; i++)
		if (!strcmp(w->f.v[i].id, id))
			return &w->f.v[i];
	return NULL;
}

static void dump(const struct world *w)
{
	for (size_t i = 0; i < w->f.n; i++)
		print_message("%s [%s] %s\n  why: %s\n  fix: %s\n",
			      doctor_severity_name(w->f.v[i].severity),
			      w->f.v[i].id, w->f.v[i].what, w->f.v[i].why,
			      w->f.v[i].fix);
}

/* The finding id, which must be there with severity s. */
static const struct finding *expect(const struct world *w, const char *id,
				    enum doctor_severity s)
{
	const struct finding *f = find(w, id);

	if (!f || f->severity != s) {
		dump(w);
		fail_msg("no %s finding '%s'", doctor_severity_name(s), id);
	}
	return f;
}

static void expect_none(const struct world *w, const char *id)
{
	if (find(w, id)) {
		dump(w);
		fail_msg("unexpected finding '%s'", id);
	}
}

static void has(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("'%s' lacks '%s'", text, part);
}

/* CUDA 12.4.1 (complete) and cuDNN 9.1.0.70 for it, selected in proj. */
static void healthy_world(struct world *w)
{
	toolkit(w, "cuda-12.4", "12.4.1", 0);
	cudnn(w, "cudnn-9.1", "9.1.0.70", "libcublasLt.so.12");
	reg(w, KIT_CUDA, "12.4.1", 12, "cuda-12.4");
	reg(w, KIT_CUDNN, "9.1.0.70", 12, "cudnn-9.1");
	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 9.1\n");
}

/* ---- Windows' loader (doctor_in.win) ----------------------------------- */

/* dllsearch's question on this file system: '\' read as '/'. */
static bool win_exists(void *ctx, const char *dir, const char *name)
{
	struct buf p = BUF_INIT;
	struct plat_stat st;
	bool found;

	(void)ctx;
	buf_printf(&p, "%s/%s", dir, name);
	for (size_t i = 0; i < p.len; i++)
		if (p.data[i] == '\\')
			p.data[i] = '/';
	found = !plat_stat(p.data, &st) && st.type == PLAT_F_REG;
	buf_release(&p);
	return found;
}

/*
 * The healthy world with the DLLs of CUDA 12.4 and cuDNN 9 beside its
 * sonames, an empty System32 under root/Windows, a shell activated in
 * proj whose PATH (';'-separated, as on Windows) is first + the
 * selection's folders + nobin. python: root/py/python.exe of that
 * version, or NULL.
 */
static void win_world(struct world *w, const char *first, const char *python,
		      const char *version)
{
	static struct doctor_win win;
	struct buf path = BUF_INIT;

	healthy_world(w);
	fx_touch(w->fx, "cuda-12.4/bin/cudart64_12.dll");
	fx_touch(w->fx, "cudnn-9.1/lib/cudnn64_9.dll");
	fx_touch(w->fx, "cuda-12.4/extras/CUPTI/lib64/cupti64_2024.1.0.dll");
	fx_mkdir(w->fx, "Windows/System32");
	activate_shell(w);
	if (first)
		buf_printf(&path, "%s;", first);
	buf_printf(&path, "%s;%s;%s;%s", at(w, "cuda-12.4/bin"),
		   at(w, "cudnn-9.1/lib"),
		   at(w, "cuda-12.4/extras/CUPTI/lib64"), at(w, "nobin"));
	setenv_w(w, "PATH", path.data);
	buf_release(&path);
	win = (struct doctor_win){
	    .system_root = at(w, "Windows"),
	    .cwd = at(w, "proj"),
	    .python = python,
	    .python_version = version,
	    .exists = win_exists,
	};
	w->win = &win;
}

/* The finding id whose what holds text, or NULL. */
static const struct finding *find_what(const struct world *w, const char *id,
				       const char *text)
{
	for (size_t i = 0; i < w->f.n; i++)
		if (!strcmp(w->f.v[i].id, id) && strstr(w->f.v[i].what, text))
			return &w->f.v[i];
	return NULL;
}

static void test_doctor_win_selection_dlls_loaded(void **state)
{
	struct world *w = *state;

	win_world(w, NULL, NULL, NULL);
	audit(w);
	if (findings_count(&w->f, DOCTOR_PROBLEM)) {
		dump(w);
		fail_msg("problems in a healthy Windows world");
	}
	assert_non_null(find_what(w, "dll-loaded",
				  "cudart64_12.dll is loaded from the "
				  "selection"));
	assert_non_null(find_what(w, "dll-loaded", "cudnn64_9.dll"));
	assert_non_null(find_what(w, "dll-loaded", "cupti64_2024.1.0.dll"));
	/* no nvcuda.dll in System32: no driver, information */
	expect(w, "no-driver-dll", DOCTOR_INFO);
	/* Linux's loader is not Windows': no soname, LD_LIBRARY_PATH or
	 * cache findings */
	expect_none(w, "missing-soname");
	expect_none(w, "missing-libraries");
	/* none without a python */
	expect_none(w, "python-dll-directories");
}

static void test_doctor_win_driver_dll_in_system32(void **state)
{
	struct world *w = *state;

	win_world(w, NULL, NULL, NULL);
	fx_touch(w->fx, "Windows/System32/nvcuda.dll");
	audit(w);
	expect_none(w, "no-driver-dll");
	assert_non_null(find_what(w, "dll-loaded", "nvcuda.dll"));
}

static void test_doctor_win_stray_in_system32_is_shadowing(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	win_world(w, NULL, NULL, NULL);
	fx_touch(w->fx, "Windows/System32/cudart64_12.dll");
	audit(w);
	f = expect(w, "dll-shadowed", DOCTOR_PROBLEM);
	has(f->what, "System32");
	has(f->what, "is loaded instead of the selection's copy");
	/* renamed out of the way, from cmd */
	has(f->fix, "ren \"");
	has(f->fix,
	    "System32\\cudart64_12.dll\" \"cudart64_12.dll.cuenv-moved\"");
}

static void test_doctor_win_earlier_on_path_is_shadowing(void **state)
{
	struct world *w = *state;
	const struct finding *f;
	struct buf want = BUF_INIT;

	fx_touch(w->fx, "other/cudart64_12.dll");
	win_world(w, at(w, "other"), NULL, NULL);
	/* cmd's for /f over cuenv env --format cmd sets no __CUENV_STATE */
	envmap_unset(&w->env, "__CUENV_STATE");
	audit(w);
	expect_none(w, "not-activated");
	f = expect(w, "dll-shadowed", DOCTOR_PROBLEM);
	has(f->what, "comes before it on PATH");
	/* the selection's folders first, the other one kept after them */
	buf_printf(&want, "set \"PATH=%s;%s;%s;%s;%s\"", at(w, "cuda-12.4/bin"),
		   at(w, "cudnn-9.1/lib"),
		   at(w, "cuda-12.4/extras/CUPTI/lib64"), at(w, "other"),
		   at(w, "nobin"));
	has(f->fix, want.data);
	has(f->fix, "; or for one command: cuenv exec -- CMD");
	buf_release(&want);
	/* cudnn64_9.dll is not in that folder: still the selection's */
	assert_non_null(find_what(w, "dll-loaded", "cudnn64_9.dll"));
}

static void test_doctor_win_copy_in_python_folder(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	fx_touch(w->fx, "py/cudart64_12.dll");
	win_world(w, NULL, at(w, "py/python.exe"), "3.11");
	audit(w);
	f = expect(w, "dll-shadowed", DOCTOR_PROBLEM);
	has(f->what, "(the application's folder) is searched before PATH");
	has(f->fix, "ren ");
}

static void test_doctor_win_python38_note(void **state)
{
	struct world *w = *state;
	const struct finding *f;
	struct buf want = BUF_INIT;

	win_world(w, NULL, at(w, "py/python.exe"), "3.10");
	audit(w);
	f = expect(w, "python-dll-directories", DOCTOR_INFO);
	has(f->what, "is Python 3.10");
	has(f->what, "cudart64_12.dll");
	buf_printf(&want, "import os; os.add_dll_directory(r\"%s\");",
		   at(w, "cuda-12.4/bin"));
	has(f->fix, want.data);
	assert_int_equal(findings_count(&w->f, DOCTOR_PROBLEM), 0);
	buf_release(&want);
}

static void test_doctor_win_python37_searches_path(void **state)
{
	struct world *w = *state;

	win_world(w, NULL, at(w, "py/python.exe"), "3.7");
	audit(w);
	expect_none(w, "python-dll-directories");
}

static void test_doctor_win_selection_without_its_dll(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	win_world(w, NULL, NULL, NULL);
	assert_int_equal(remove(at(w, "cudnn-9.1/lib/cudnn64_9.dll")), 0);
	audit(w);
	f = expect(w, "dll-missing", DOCTOR_PROBLEM);
	has(f->what, "has no cudnn64_9.dll");
	has(f->why, "error 126");
	has(f->fix, "cuenv remove cudnn");
}

/* ---- a healthy selection ------------------------------------------------ */

static void
test_doctor_healthy_selection_has_no_problem_or_warning(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	w->driver = "560.35.03";
	need_for(w, "12.4.1");
	audit(w);
	if (findings_count(&w->f, DOCTOR_PROBLEM) ||
	    findings_count(&w->f, DOCTOR_WARNING)) {
		dump(w);
		fail_msg("a healthy selection has findings");
	}
	/* Doctor says which environment it checked. */
	expect(w, "not-activated", DOCTOR_INFO);
}

static void test_doctor_activated_shell_is_not_reported(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	activate_shell(w);
	audit(w);
	expect_none(w, "not-activated");
	assert_int_equal(findings_count(&w->f, DOCTOR_PROBLEM), 0);
}

static void test_doctor_shell_of_another_selection_is_a_warning(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	activate_shell(w);
	setenv_w(w, "CUENV_ACTIVE", "11.8.0");
	audit(w);
	has(expect(w, "not-activated", DOCTOR_WARNING)->what, "cuda 11.8.0");
}

static void
test_doctor_shell_that_lost_ld_library_path_is_a_warning(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	activate_shell(w);
	setenv_w(w, "LD_LIBRARY_PATH", "/somewhere/else");
	audit(w);
	has(expect(w, "not-activated", DOCTOR_WARNING)->what,
	    "no longer holds");
}

/* ---- the selection ------------------------------------------------------ */

static void test_doctor_nothing_selected_is_information(void **state)
{
	struct world *w = *state;

	audit(w);
	expect(w, "nothing-selected", DOCTOR_INFO);
	assert_int_equal(findings_count(&w->f, DOCTOR_PROBLEM), 0);
	expect_none(w, "no-driver");
}

static void test_doctor_reports_a_version_not_installed(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	healthy_world(w);
	fx_write(w->fx, "proj/.cuenv", "cuda = 12.9\n");
	audit(w);
	assert_int_equal(w->rc, CUENV_E_NOT_INSTALLED);
	f = expect(w, "selection-not-installed", DOCTOR_PROBLEM);
	has(f->what, "cuda 12.9 is not installed");
	has(f->why, "libcudart.so.12");
	has(f->fix, "cuenv install 12.9");
	assert_string_equal(f->paths.v[0], at(w, "proj/.cuenv"));
}

static void test_doctor_reports_a_cudnn_not_installed(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 8\n");
	audit(w);
	has(expect(w, "selection-not-installed", DOCTOR_PROBLEM)->fix,
	    "cuenv install 12.4.1 --cudnn 8");
	expect_none(w, "cudnn-cuda-mismatch");
}

static void test_doctor_reports_a_bad_cuenv(void **state)
{
	struct world *w = *state;

	fx_write(w->fx, "proj/.cuenv", "cuda = ../../bin\n");
	audit(w);
	assert_int_equal(w->rc, CUENV_E_MANIFEST);
	has(expect(w, "selection-invalid", DOCTOR_PROBLEM)->what, ".cuenv");
}

/* ---- sonames ------------------------------------------------------------ */

static void test_doctor_reports_the_missing_cupti_soname(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	toolkit(w, "cuda-11.2", "11.2.2", NO_CUPTI);
	reg(w, KIT_CUDA, "11.2.2", 11, "cuda-11.2");
	fx_write(w->fx, "proj/.cuenv", "cuda = 11.2\n");
	audit(w);
	f = expect(w, "missing-soname", DOCTOR_PROBLEM);
	has(f->what, "libcupti.so.11.2");
	has(f->why, "Could not load dynamic library 'libcupti.so.11.2'");
	has(f->fix, "cuenv install 11.2.2 --cupti 11.2");
	has(f->fix, "cuenv local 11.2 --cupti 11.2");
	assert_ptr_equal(&w->f.v[0], f);
}

static void test_doctor_reports_the_missing_cudart_soname(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	toolkit(w, "cuda-11.8", "11.8.0", 0);
	fx_remove_tree(at(w, "cuda-11.8/lib64/libcudart.so.11.0"));
	fx_touch(w->fx, "cuda-11.8/lib64/libcudart.so.11");
	reg(w, KIT_CUDA, "11.8.0", 11, "cuda-11.8");
	fx_write(w->fx, "proj/.cuenv", "cuda = 11.8\n");
	audit(w);
	f = expect(w, "missing-soname", DOCTOR_PROBLEM);
	has(f->what, "libcudart.so.11.0");
	has(f->fix, "cuenv remove cuda 11.8.0");
}

static void test_doctor_reports_the_missing_cudnn_soname(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	fx_remove_tree(at(w, "cudnn-9.1/lib/libcudnn.so.9"));
	fx_touch(w->fx, "cudnn-9.1/lib/libcudnn_ops.so.9");
	audit(w);
	has(expect(w, "missing-soname", DOCTOR_PROBLEM)->why,
	    "libcudnn.so.9: cannot open shared object file");
}

static void test_doctor_missing_math_libraries_are_a_warning(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	toolkit(w, "cuda-12.4", "12.4.1", NO_MATH);
	reg(w, KIT_CUDA, "12.4.1", 12, "cuda-12.4");
	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	audit(w);
	f = expect(w, "missing-libraries", DOCTOR_WARNING);
	has(f->what, "libcublas.so.12");
	has(f->what, "libcufft.so.*");
	expect_none(w, "missing-soname");
	assert_int_equal(findings_count(&w->f, DOCTOR_PROBLEM), 0);
}

static void test_doctor_cupti_of_another_release_counts(void **state)
{
	struct world *w = *state;

	toolkit(w, "cuda-11.8", "11.8.0", NO_CUPTI);
	toolkit(w, "cuda-11.2", "11.2.2", 0);
	reg(w, KIT_CUDA, "11.8.0", 11, "cuda-11.8");
	reg(w, KIT_CUDA, "11.2.2", 11, "cuda-11.2");
	fx_write(w->fx, "proj/.cuenv", "cuda = 11.8\ncupti = 11.2\n");
	audit(w);
	expect_none(w, "missing-soname");
}

/* ---- cuDNN for another CUDA --------------------------------------------- */

static void test_doctor_reports_cudnn_built_for_another_cuda(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	toolkit(w, "cuda-12.4", "12.4.1", 0);
	toolkit(w, "cuda-11.8", "11.8.0", 0);
	cudnn(w, "cudnn-8.9", "8.9.7.29", "libcublasLt.so.11");
	reg(w, KIT_CUDA, "12.4.1", 12, "cuda-12.4");
	reg(w, KIT_CUDA, "11.8.0", 11, "cuda-11.8");
	reg(w, KIT_CUDNN, "8.9.7.29", 11, "cudnn-8.9");
	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 8.9\n");
	audit(w);
	f = expect(w, "cudnn-cuda-mismatch", DOCTOR_PROBLEM);
	has(f->what, "only for CUDA 11");
	has(f->why, "libcublasLt.so.11");
	has(f->fix, "cuenv install 12.4.1 --cudnn 8.9");
	has(f->fix, "cuenv local 11.8.0 --cudnn 8.9");
	expect_none(w, "selection-not-installed");
}

static void
test_doctor_reports_cudnn_whose_files_name_another_cuda(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	toolkit(w, "cuda-12.4", "12.4.1", 0);
	cudnn(w, "cudnn-8.9", "8.9.7.29", "libcublasLt.so.11");
	reg(w, KIT_CUDA, "12.4.1", 12, "cuda-12.4");
	/* Registered as a CUDA 12 build by mistake (add cudnn --cuda 12). */
	reg(w, KIT_CUDNN, "8.9.7.29", 12, "cudnn-8.9");
	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 8.9\n");
	audit(w);
	f = expect(w, "cudnn-cuda-mismatch", DOCTOR_PROBLEM);
	has(f->what, "load CUDA 11 libraries");
	has(f->fix, "--cuda 11");
	has(f->fix, "cuenv install 12.4.1 --cudnn 8.9");
}

/* ---- LD_LIBRARY_PATH ---------------------------------------------------- */

static void test_doctor_reports_a_folder_shadowing_the_selection(void **state)
{
	struct world *w = *state;
	const struct finding *f;
	const char *foreign = at(w, "foreign/lib");
	struct buf ld = BUF_INIT;

	toolkit(w, "cuda-11.2", "11.2.2", 0);
	reg(w, KIT_CUDA, "11.2.2", 11, "cuda-11.2");
	fx_write(w->fx, "proj/.cuenv", "cuda = 11.2\n");
	fx_touch(w->fx, "foreign/lib/libcupti.so.11.2");
	activate_shell(w);
	/* The user puts an old folder first after cuenv activated. */
	buf_printf(&ld, "%s:%s", foreign,
		   envmap_get(&w->env, "LD_LIBRARY_PATH"));
	setenv_w(w, "LD_LIBRARY_PATH", ld.data);
	audit(w);
	f = expect(w, "ld-library-path-shadow", DOCTOR_PROBLEM);
	has(f->what, foreign);
	has(f->what, "libcupti.so.11.2");
	has(f->why, "incompatible libcupti version");
	has(f->fix, "isolate = true");
	has(f->fix, "export LD_LIBRARY_PATH='");
	assert_null(
	    strstr(f->fix + (strstr(f->fix, "export") - f->fix), foreign));
	buf_release(&ld);
}

static void
test_doctor_foreign_folder_after_selection_is_a_warning(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	healthy_world(w);
	fx_touch(w->fx, "foreign/lib/libcupti.so.11.2");
	setenv_w(w, "LD_LIBRARY_PATH", at(w, "foreign/lib"));
	audit(w);
	f = expect(w, "foreign-ld-library-path", DOCTOR_WARNING);
	has(f->why, "libcupti.so.11.2");
	has(f->fix, "unset LD_LIBRARY_PATH");
	expect_none(w, "ld-library-path-shadow");
	assert_int_equal(findings_count(&w->f, DOCTOR_PROBLEM), 0);
}

static void test_doctor_foreign_folder_filling_a_gap_is_a_problem(void **state)
{
	struct world *w = *state;

	toolkit(w, "cuda-11.2", "11.2.2", NO_CUPTI);
	reg(w, KIT_CUDA, "11.2.2", 11, "cuda-11.2");
	fx_write(w->fx, "proj/.cuenv", "cuda = 11.2\n");
	fx_touch(w->fx, "foreign/lib/libcupti.so.11.2");
	setenv_w(w, "LD_LIBRARY_PATH", at(w, "foreign/lib"));
	audit(w);
	has(expect(w, "foreign-ld-library-path", DOCTOR_PROBLEM)->what,
	    "which the selection (cuda 11.2.2) lacks");
}

static void test_doctor_isolated_selection_has_no_foreign_folder(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	fx_write(w->fx, "proj/.cuenv",
		 "cuda = 12.4\ncudnn = 9\nisolate = yes\n");
	fx_touch(w->fx, "foreign/lib/libcupti.so.11.2");
	setenv_w(w, "LD_LIBRARY_PATH", at(w, "foreign/lib"));
	audit(w);
	expect_none(w, "foreign-ld-library-path");
	expect_none(w, "ld-library-path-shadow");
}

static void test_doctor_folder_without_cuda_libraries_is_fine(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	fx_touch(w->fx, "mine/lib/libfoo.so.1");
	setenv_w(w, "LD_LIBRARY_PATH", at(w, "mine/lib"));
	audit(w);
	expect_none(w, "foreign-ld-library-path");
}

/* ---- the loader cache --------------------------------------------------- */

static void cache_add(struct world *w, const char *soname, const char *dir)
{
	struct buf p = BUF_INIT;

	buf_printf(&p, "%s/%s", at(w, dir), soname);
	fx_touch(w->fx, p.data + strlen(w->fx->root) + 1);
	w->cache.v =
	    xrealloc(w->cache.v, (w->cache.n + 1) * sizeof(*w->cache.v));
	w->cache.v[w->cache.n].soname = xstrdup(soname);
	w->cache.v[w->cache.n].path = buf_detach(&p);
	w->cache.v[w->cache.n].flags = 0x0303;
	w->cache.n++;
	w->use_cache = 1;
}

static void conf_naming(struct world *w, const char *dir)
{
	struct buf text = BUF_INIT;

	buf_printf(&text, "%s\n", at(w, dir));
	fx_write(w->fx, "etc/ld.so.conf.d/zz-cuda-13-0.conf", text.data);
	fx_write(w->fx, "etc/ld.so.conf", "include ld.so.conf.d/*.conf\n");
	ldconf_read(at(w, "etc/ld.so.conf"), &w->conf);
	buf_release(&text);
}

static void test_doctor_loader_cache_of_another_cuda_is_a_warning(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	toolkit(w, "cuda-12.4", "12.4.1", 0);
	reg(w, KIT_CUDA, "12.4.1", 12, "cuda-12.4");
	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	cache_add(w, "libcudart.so.13", "cuda-13.0/lib");
	cache_add(w, "libcudnn.so.9", "cuda-13.0/lib");
	cache_add(w, "libcudnn.so", "cuda-13.0/lib");
	conf_naming(w, "cuda-13.0/lib");
	audit(w);
	f = expect(w, "loader-cache", DOCTOR_WARNING);
	has(f->what, "CUDA 13 libraries");
	has(f->what, at(w, "cuda-13.0/lib"));
	has(f->why, "after LD_LIBRARY_PATH");
	has(f->why, "libcudnn.so.9");
	has(f->fix, at(w, "etc/ld.so.conf.d/zz-cuda-13-0.conf"));
	has(f->fix, "sudo ldconfig");
	has(f->fix, "cuenv local 12.4 --cudnn VERSION");
	assert_null(strstr(f->what, "libcudnn.so,"));
}

static void test_doctor_loader_cache_filling_a_gap_is_a_problem(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	toolkit(w, "cuda-12.4", "12.4.1", NO_CUPTI);
	reg(w, KIT_CUDA, "12.4.1", 12, "cuda-12.4");
	fx_write(w->fx, "proj/.cuenv", "cuda = 12.4\n");
	cache_add(w, "libcupti.so.12", "cuda-12.8/lib");
	conf_naming(w, "cuda-12.8/lib");
	audit(w);
	f = expect(w, "loader-cache", DOCTOR_PROBLEM);
	has(f->why, "lacks libcupti.so.12");
	has(f->why, "loaded silently");
}

static void test_doctor_loader_cache_of_the_selection_is_fine(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	cache_add(w, "libcudart.so.12", "cuda-12.4/lib64");
	audit(w);
	expect_none(w, "loader-cache");
}

static void test_doctor_loader_cache_in_a_shared_folder(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	healthy_world(w);
	cache_add(w, "libnccl.so.2", "usr/lib");
	audit(w);
	f = expect(w, "loader-cache", DOCTOR_WARNING);
	has(f->fix, "shared with other software");
	has(f->fix, "dpkg -S");
}

/*
 * issue 21 item 5: a CUDA 12 program never asks for libcublas.so.13, so
 * the cache's copy is no warning; a soname CUDA 12 and 13 share that the
 * selection lacks (libnccl.so.2) is, and is named.
 */
static void
test_doctor_loader_cache_only_sonames_the_major_asks_for(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	healthy_world(w);
	cache_add(w, "libcublas.so.13", "cuda-13.0/lib");
	cache_add(w, "libcublasLt.so.13", "cuda-13.0/lib");
	conf_naming(w, "cuda-13.0/lib");
	audit(w);
	f = expect(w, "loader-cache", DOCTOR_INFO);
	assert_null(strstr(f->why, "loaded silently"));
	cache_add(w, "libcusparse.so.12", "cuda-13.0/lib");
	cache_add(w, "libnccl.so.2", "cuda-13.0/lib");
	audit(w);
	f = expect(w, "loader-cache", DOCTOR_WARNING);
	/* the selection has its own libcusparse.so.12, not NCCL's */
	has(f->why, "a CUDA 12 program asks for (here libnccl.so.2)");
}

/* ---- the driver --------------------------------------------------------- */

static void test_doctor_reports_a_driver_too_old(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	healthy_world(w);
	w->driver = "470.57.02";
	need_for(w, "12.4.1");
	audit(w);
	f = expect(w, "driver-too-old", DOCTOR_PROBLEM);
	has(f->what, "driver 470.57.02 is older than cuda 12.4.1 needs: "
		     "550.54.15");
	has(f->what, "525");
	has(f->why, "CUDA driver version is insufficient");
	has(f->fix, "550.54.15");
	has(f->fix, "cuda-compat-12-4");
	has(f->fix, "/usr/local/cuda-12.4/compat");
}

static void test_doctor_minor_version_compatibility_is_a_warning(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	w->driver = "535.104.05";
	need_for(w, "12.4.1");
	audit(w);
	has(expect(w, "driver-minor-compat", DOCTOR_WARNING)->what,
	    "minor-version compatibility");
	expect_none(w, "driver-too-old");
}

static void test_doctor_driver_at_the_compat_minimum_is_a_warning(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	w->driver = "525"; /* exactly CUDA 12.x's minimum, not above it */
	need_for(w, "12.4.1");
	assert_string_equal(w->need.compat, "525");
	audit(w);
	has(expect(w, "driver-minor-compat", DOCTOR_WARNING)->what,
	    "CUDA 12.x's minimum 525");
	expect_none(w, "driver-too-old");
}

static void test_doctor_driver_short_of_the_release_by_a_part(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	w->driver = "550.54"; /* 550.54 < 550.54.15, which 12.4.1 needs */
	need_for(w, "12.4.1");
	audit(w);
	has(expect(w, "driver-minor-compat", DOCTOR_WARNING)->what,
	    "driver 550.54 is older than the 550.54.15");
	expect_none(w, "driver-too-old");
}

static void test_doctor_new_driver_and_no_driver(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	need_for(w, "12.4.1");
	w->driver = "550.54.15";
	audit(w);
	expect_none(w, "driver-too-old");
	expect_none(w, "driver-minor-compat");
	expect_none(w, "no-driver");
	w->driver = NULL;
	audit(w);
	has(expect(w, "no-driver", DOCTOR_INFO)->why, "550.54.15");
	w->use_need = 0;
	w->driver = "550.54.15";
	audit(w);
	expect(w, "driver-requirement-unknown", DOCTOR_INFO);
}

static void test_doctor_parses_driver_versions(void **state)
{
	struct buf v = BUF_INIT;

	(void)state;
	assert_int_equal(doctor_parse_driver("550.54.15\n", &v), 0);
	assert_string_equal(v.data, "550.54.15");
	assert_int_equal(
	    doctor_parse_driver("NVRM version: NVIDIA UNIX x86_64 Kernel "
				"Module  535.104.05  Sat Aug 19 01:15:15 "
				"UTC 2023\nGCC version:  gcc 12.2.0\n",
				&v),
	    0);
	assert_string_equal(v.data, "535.104.05");
	assert_int_equal(
	    doctor_parse_driver("NVRM version: NVIDIA UNIX Open Kernel "
				"Module for x86_64  570.86.15  Release "
				"Build  (dvs-builder@U16)  Thu Jan 23\n",
				&v),
	    0);
	assert_string_equal(v.data, "570.86.15");
	assert_int_equal(doctor_parse_driver("no driver here 12\n", &v), -1);
	assert_int_equal(doctor_parse_driver("", &v), -1);
	buf_release(&v);
}

static void test_doctor_reads_the_first_driver_file(void **state)
{
	struct world *w = *state;
	struct buf v = BUF_INIT, from = BUF_INIT;
	const char *paths[] = {at(w, "sys/version"), at(w, "proc/version"),
			       NULL};

	assert_int_equal(doctor_read_driver(paths, &v, &from), 0);
	fx_write(w->fx, "proc/version",
		 "NVRM version: NVIDIA UNIX x86_64 Kernel Module  460.32.03  "
		 "Sun Dec 27\n");
	assert_int_equal(doctor_read_driver(paths, &v, &from), 1);
	assert_string_equal(v.data, "460.32.03");
	assert_string_equal(from.data, paths[1]);
	buf_release(&v);
	buf_release(&from);
}

/* ---- gathering (doctor_gather) ----------------------------------------- */

static void test_doctor_settings_default_and_refused(void **state)
{
	char *none[] = {NULL};
	char *set[] = {"CUENV_DRIVER_VERSION=none", "CUENV_LD_SO_CACHE=/c",
		       "CUENV_LD_SO_CONF=", NULL};
	char *bad[] = {"CUENV_DRIVER_VERSION=5x0", NULL};
	struct doctor_settings s;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(doctor_settings_read(none, &s, &err), CUENV_OK);
	assert_null(s.driver);
	assert_string_equal(s.cache_path, "/etc/ld.so.cache");
	assert_string_equal(s.conf_path, "/etc/ld.so.conf");
	assert_int_equal(doctor_settings_read(set, &s, &err), CUENV_OK);
	assert_string_equal(s.driver, "none");
	assert_string_equal(s.cache_path, "/c");
	assert_string_equal(s.conf_path, "/etc/ld.so.conf");
	assert_int_equal(doctor_settings_read(bad, &s, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "CUENV_DRIVER_VERSION: '5x0' is not "
					  "a driver version");
	has(err.hint.data, "550.54.15");
	err_release(&err);
}

/* doctor_gather in root/proj with w->env and these driver files. */
static int gather(struct world *w, const char *const *driver_files,
		  struct doctor_gathered *g)
{
	struct doctor_settings s;
	struct doctor_where where = {
	    .root = w->root,
	    .cwd = at(w, "proj"),
	    .envp = w->env.vars.v,
	    .compat = COMPAT,
	    .driver_files = driver_files,
	};
	int rc = doctor_settings_read(where.envp, &s, &w->err);

	doctor_gathered_release(g);
	doctor_gathered_init(g);
	return rc ? rc : doctor_gather(&where, &s, g, &w->err);
}

static void test_doctor_gather_the_driver(void **state)
{
	struct world *w = *state;
	struct doctor_gathered g;
	const char *files[] = {at(w, "sys/version"), at(w, "proc/version"),
			       at(w, "other"), NULL};
	struct buf looked = BUF_INIT;

	doctor_gathered_init(&g);
	assert_int_equal(gather(w, files, &g), CUENV_OK);
	assert_null(g.in.driver);
	buf_printf(&looked, "looked at %s, %s and %s", files[0], files[1],
		   files[2]);
	assert_string_equal(g.in.driver_from, looked.data);
	fx_write(w->fx, "proc/version", "535.104.05\n");
	assert_int_equal(gather(w, files, &g), CUENV_OK);
	assert_string_equal(g.in.driver, "535.104.05");
	assert_string_equal(g.in.driver_from, files[1]);
	setenv_w(w, "CUENV_DRIVER_VERSION", "550.54.15");
	assert_int_equal(gather(w, files, &g), CUENV_OK);
	assert_string_equal(g.in.driver, "550.54.15");
	assert_string_equal(g.in.driver_from, "CUENV_DRIVER_VERSION");
	setenv_w(w, "CUENV_DRIVER_VERSION", "none");
	assert_int_equal(gather(w, files, &g), CUENV_OK);
	assert_null(g.in.driver);
	assert_string_equal(g.in.driver_from, "CUENV_DRIVER_VERSION");
	setenv_w(w, "CUENV_DRIVER_VERSION", "new");
	assert_int_equal(gather(w, files, &g), CUENV_E_USAGE);
	doctor_gathered_release(&g);
	buf_release(&looked);
}

/* The catalogue and the tables as CUENV_MANIFESTS says, or none. */
static void test_doctor_gather_tables(void **state)
{
	struct world *w = *state;
	struct doctor_gathered g;
	struct doctor_where where = {.root = w->root, .envp = w->env.vars.v};

	setenv_w(w, "CUENV_MANIFESTS", CUENV_SRCDIR "/manifests");
	where.envp = w->env.vars.v;
	doctor_gathered_init(&g);
	doctor_gather_tables(&where, "/nowhere/cuenv", &g);
	assert_ptr_equal(where.cat, &g.cat);
	assert_true(g.cat.n > 0);
	assert_string_equal(where.compat, COMPAT);
	doctor_gathered_release(&g);

	setenv_w(w, "CUENV_MANIFESTS", at(w, "no-such-folder"));
	where = (struct doctor_where){.root = w->root, .envp = w->env.vars.v};
	doctor_gathered_init(&g);
	doctor_gather_tables(&where, "/nowhere/cuenv", &g);
	assert_null(where.cat);
	assert_null(where.compat);
	doctor_gathered_release(&g);
}

static void test_doctor_gather_the_selection_and_its_need(void **state)
{
	struct world *w = *state;
	struct doctor_gathered g;
	const char *files[] = {NULL};

	doctor_gathered_init(&g);
	assert_int_equal(gather(w, files, &g), CUENV_OK);
	assert_false(g.a.ok);
	assert_null(g.in.need);
	healthy_world(w);
	assert_int_equal(gather(w, files, &g), CUENV_OK);
	assert_int_equal(g.in.act_rc, CUENV_OK);
	assert_true(g.in.a == &g.a && g.a.ok);
	assert_string_equal(g.a.act.cuda->version, "12.4.1");
	assert_non_null(g.in.need);
	assert_string_equal(g.in.need->release, "550.54.15");
	assert_true(g.in.env == &g.env);
	assert_null(g.in.win); /* this is not Windows */
	assert_null(g.in.cat);
	/* a version not installed is a finding, not an error */
	fx_write(w->fx, "proj/.cuenv", "cuda = 11.8\n");
	assert_int_equal(gather(w, files, &g), CUENV_OK);
	assert_int_equal(g.in.act_rc, CUENV_E_NOT_INSTALLED);
	assert_true(g.in.act_err == &g.act_err && g.act_err.msg.len);
	assert_non_null(g.in.need); /* the version named still needs one */
	assert_string_equal(g.in.need->row, "11.8.0");
	/* a root that cannot be is an error */
	free(w->root);
	w->root = strdup("relative/root");
	assert_int_not_equal(gather(w, files, &g), CUENV_OK);
	assert_true(w->err.msg.len > 0);
	doctor_gathered_release(&g);
}

static void test_doctor_gather_the_loader_cache_and_site_dirs(void **state)
{
	struct world *w = *state;
	struct doctor_gathered g;
	const char *files[] = {NULL};

	doctor_gathered_init(&g);
	setenv_w(w, "CUENV_LD_SO_CACHE", at(w, "no-cache"));
	setenv_w(w, "CUENV_LD_SO_CONF", at(w, "ld.so.conf"));
	fx_write(w->fx, "ld.so.conf", "/opt/cuda/lib64\n");
	fx_mkdir(w->fx, "venv/lib/python3.11/site-packages");
	setenv_w(w, "VIRTUAL_ENV", at(w, "venv"));
	assert_int_equal(gather(w, files, &g), CUENV_OK);
	assert_null(g.in.cache);
	assert_null(g.in.cache_error);
	assert_string_equal(g.in.cache_path, at(w, "no-cache"));
	assert_int_equal(g.conf.n, 1);
	assert_null(g.in.python); /* PATH holds no python3 */
	assert_int_equal(g.sites.n, 1);
	assert_string_equal(g.sites.v[0],
			    at(w, "venv/lib/python3.11/site-packages"));
	fx_write(w->fx, "no-cache", "not a loader cache");
	assert_int_equal(gather(w, files, &g), CUENV_OK);
	assert_null(g.in.cache);
	assert_non_null(g.in.cache_error);
	has(g.in.cache_error, "no-cache");
	doctor_gathered_release(&g);
}

/* ---- CUDA_HOME ---------------------------------------------------------- */

static void test_doctor_reports_cuda_home_apart_from_nvcc(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	healthy_world(w);
	toolkit(w, "cuda-11.8", "11.8.0", 0);
	activate_shell(w);
	setenv_w(w, "CUDA_HOME", at(w, "cuda-11.8"));
	audit(w);
	f = expect(w, "cuda-home-mismatch", DOCTOR_WARNING);
	has(f->what, at(w, "cuda-11.8"));
	has(f->what, at(w, "cuda-12.4/bin/nvcc"));
	has(f->fix, "export CUDA_HOME=");
	has(f->fix, at(w, "cuda-12.4"));
}

static void test_doctor_cuda_home_without_selection(void **state)
{
	struct world *w = *state;
	struct buf path = BUF_INIT;

	toolkit(w, "tk", "12.4.1", 0);
	fx_mkdir(w->fx, "other");
	buf_printf(&path, "%s:/usr/bin", at(w, "tk/bin"));
	setenv_w(w, "PATH", path.data);
	setenv_w(w, "CUDA_HOME", at(w, "tk"));
	audit(w);
	expect_none(w, "cuda-home-mismatch");
	setenv_w(w, "CUDA_PATH", at(w, "other"));
	audit(w);
	has(expect(w, "cuda-home-mismatch", DOCTOR_WARNING)->what, "CUDA_PATH");
	setenv_w(w, "CUDA_PATH", at(w, "gone"));
	audit(w);
	has(expect(w, "cuda-home-mismatch", DOCTOR_WARNING)->what,
	    "not a folder");
	buf_release(&path);
}

/* ---- pip wheels and conda ----------------------------------------------- */

static void wheel(struct world *w, const char *site, const char *dist,
		  const char *sub, const char *lib)
{
	struct buf p = BUF_INIT, rec = BUF_INIT;

	buf_printf(&p, "%s/nvidia/%s/lib/%s", site, sub, lib);
	fx_touch(w->fx, p.data);
	buf_reset(&p);
	buf_printf(&p, "%s/%s/RECORD", site, dist);
	buf_printf(&rec,
		   "nvidia/%s/__init__.py,,\nnvidia/%s/lib/%s,sha256=x,1\n",
		   sub, sub, lib);
	fx_write(w->fx, p.data, rec.data);
	buf_release(&p);
	buf_release(&rec);
}

static void cu11_wheels(struct world *w)
{
	wheel(w, "venv/site", "nvidia_cudnn_cu11-8.9.2.26.dist-info", "cudnn",
	      "libcudnn.so.8");
	wheel(w, "venv/site", "nvidia_cuda_runtime_cu11-11.8.89.dist-info",
	      "cuda_runtime", "libcudart.so.11.0");
	strv_push(&w->sites, at(w, "venv/site"));
	strv_push(&w->sites, at(w, "venv/site")); /* counted once */
}

static void test_doctor_reports_wheels_of_another_cuda(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	healthy_world(w);
	cu11_wheels(w);
	audit(w);
	f = expect(w, "pip-wheels", DOCTOR_PROBLEM);
	has(f->what, "CUDA 11 wheels");
	has(f->what, "nvidia-cudnn-cu11 8.9.2.26");
	has(f->why, "RPATH");
	has(f->why, "not on the selection's CUDA 12");
	/* no fix uninstalls a framework's wheels (issue 21 item 3) */
	if (strstr(f->fix, "pip uninstall"))
		fail_msg("a fix uninstalls the wheels: %s", f->fix);
	has(f->fix, "cuenv local 11.8 --cudnn 8.9");
	assert_int_equal(f->paths.n, 2);
}

static void test_doctor_wheels_of_the_same_cuda_are_information(void **state)
{
	struct world *w = *state;

	toolkit(w, "cuda-11.8", "11.8.0", 0);
	reg(w, KIT_CUDA, "11.8.0", 11, "cuda-11.8");
	fx_write(w->fx, "proj/.cuenv", "cuda = 11.8\n");
	cu11_wheels(w);
	audit(w);
	expect(w, "pip-wheels", DOCTOR_INFO);
}

static void test_doctor_site_without_wheels_is_fine(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	fx_touch(w->fx, "site/numpy/__init__.py");
	strv_push(&w->sites, at(w, "site"));
	strv_push(&w->sites, at(w, "does-not-exist"));
	audit(w);
	expect_none(w, "pip-wheels");
}

static void test_doctor_reports_a_conda_prefix_of_another_cuda(void **state)
{
	struct world *w = *state;
	const struct finding *f;

	healthy_world(w);
	fx_touch(w->fx, "conda/lib/libcudart.so.11.0");
	fx_touch(w->fx, "conda/lib/libpython3.so");
	fx_write(w->fx, "conda/conda-meta/cudatoolkit-11.3.1-h2bc3f7f_2.json",
		 "{\"name\": \"cudatoolkit\", \"version\": \"11.3.1\", "
		 "\"files\": [\"lib/libcudart.so.11.0\"]}");
	fx_write(w->fx, "conda/conda-meta/python-3.9.json",
		 "{\"name\": \"python\", \"version\": \"3.9\", "
		 "\"files\": [\"lib/libpython3.so\"]}");
	fx_write(w->fx, "conda/conda-meta/broken.json", "{not json");
	setenv_w(w, "CONDA_PREFIX", at(w, "conda"));
	audit(w);
	f = expect(w, "conda-prefix", DOCTOR_PROBLEM);
	has(f->what, "cudatoolkit 11.3.1");
	has(f->fix, "conda remove cudatoolkit");
	assert_null(strstr(f->fix, "python"));
	has(f->fix, "cuenv local 11.3");
}

static void test_doctor_conda_prefix_without_cuda_is_fine(void **state)
{
	struct world *w = *state;

	healthy_world(w);
	fx_touch(w->fx, "conda/lib/libpython3.so");
	setenv_w(w, "CONDA_PREFIX", at(w, "conda"));
	audit(w);
	expect_none(w, "conda-prefix");
}

/* The report doctor --json prints, from the findings as they are. */
static void test_doctor_report_json_fields(void **state)
{
	struct world *w = *state;
	struct finding x = {.id = "foreign-ld-library-path",
			    .severity = DOCTOR_WARNING,
			    .what = xstrdup("what"),
			    .why = xstrdup("why"),
			    .fix = xstrdup("unset LD_LIBRARY_PATH"),
			    .paths = STRV_INIT};
	struct findings f = {.v = &x, .n = 1};
	struct buf desc = BUF_INIT;
	json_t *j;
	char *text;

	strv_push(&x.paths, "/opt/cuda/lib64");
	doctor_describe_selection(&w->a, &desc);
	assert_string_equal(desc.data, "nothing selected");
	j = doctor_report_json(&w->a, &f);
	text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_string_equal(
	    text, "{\"selection\":{\"description\":\"nothing selected\","
		  "\"resolved\":false,\"active\":false},"
		  "\"findings\":[{\"id\":\"foreign-ld-library-path\","
		  "\"severity\":\"warning\",\"what\":\"what\",\"why\":\"why\","
		  "\"fix\":\"unset LD_LIBRARY_PATH\","
		  "\"paths\":[\"/opt/cuda/lib64\"]}],"
		  "\"problems\":0,\"warnings\":1,\"info\":0}");
	free(text);
	json_decref(j);
	buf_release(&desc);
	free(x.what);
	free(x.why);
	free(x.fix);
	strv_release(&x.paths);
}

#define T(name)                                                                \
	cmocka_unit_test_setup_teardown(name, world_setup, world_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_doctor_healthy_selection_has_no_problem_or_warning),
	    T(test_doctor_report_json_fields),
	    T(test_doctor_activated_shell_is_not_reported),
	    T(test_doctor_shell_of_another_selection_is_a_warning),
	    T(test_doctor_shell_that_lost_ld_library_path_is_a_warning),
	    T(test_doctor_nothing_selected_is_information),
	    T(test_doctor_reports_a_version_not_installed),
	    T(test_doctor_reports_a_cudnn_not_installed),
	    T(test_doctor_reports_a_bad_cuenv),
	    T(test_doctor_reports_the_missing_cupti_soname),
	    T(test_doctor_reports_the_missing_cudart_soname),
	    T(test_doctor_reports_the_missing_cudnn_soname),
	    T(test_doctor_missing_math_libraries_are_a_warning),
	    T(test_doctor_cupti_of_another_release_counts),
	    T(test_doctor_reports_cudnn_built_for_another_cuda),
	    T(test_doctor_reports_cudnn_whose_files_name_another_cuda),
	    T(test_doctor_reports_a_folder_shadowing_the_selection),
	    T(test_doctor_foreign_folder_after_selection_is_a_warning),
	    T(test_doctor_foreign_folder_filling_a_gap_is_a_problem),
	    T(test_doctor_isolated_selection_has_no_foreign_folder),
	    T(test_doctor_folder_without_cuda_libraries_is_fine),
	    T(test_doctor_loader_cache_of_another_cuda_is_a_warning),
	    T(test_doctor_loader_cache_filling_a_gap_is_a_problem),
	    T(test_doctor_loader_cache_of_the_selection_is_fine),
	    T(test_doctor_loader_cache_in_a_shared_folder),
	    T(test_doctor_reports_a_driver_too_old),
	    T(test_doctor_minor_version_compatibility_is_a_warning),
	    T(test_doctor_driver_at_the_compat_minimum_is_a_warning),
	    T(test_doctor_driver_short_of_the_release_by_a_part),
	    T(test_doctor_new_driver_and_no_driver),
	    cmocka_unit_test(test_doctor_parses_driver_versions),
	    T(test_doctor_win_selection_dlls_loaded),
	    T(test_doctor_win_driver_dll_in_system32),
	    T(test_doctor_win_stray_in_system32_is_shadowing),
	    T(test_doctor_win_earlier_on_path_is_shadowing),
	    T(test_doctor_win_copy_in_python_folder),
	    T(test_doctor_win_python38_note),
	    T(test_doctor_win_python37_searches_path),
	    T(test_doctor_win_selection_without_its_dll),
	    T(test_doctor_reads_the_first_driver_file),
	    cmocka_unit_test(test_doctor_settings_default_and_refused),
	    T(test_doctor_gather_tables),
	    T(test_doctor_gather_the_driver),
	    T(test_doctor_gather_the_selection_and_its_need),
	    T(test_doctor_gather_the_loader_cache_and_site_dirs),
	    T(test_doctor_reports_cuda_home_apart_from_nvcc),
	    T(test_doctor_cuda_home_without_selection),
	    T(test_doctor_loader_cache_only_sonames_the_major_asks_for),
	    T(test_doctor_reports_wheels_of_another_cuda),
	    T(test_doctor_wheels_of_the_same_cuda_are_information),
	    T(test_doctor_site_without_wheels_is_fine),
	    T(test_doctor_reports_a_conda_prefix_of_another_cuda),
	    T(test_doctor_conda_prefix_without_cuda_is_fine),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
