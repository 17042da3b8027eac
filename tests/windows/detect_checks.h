/*
 * detect_checks.h: what cuenv reads of a Windows machine, under wine:
 * detect (a toolkit and a cuDNN laid out as NVIDIA's Windows installer and
 * zip lay them out, in a folder whose path has spaces), pe (the import
 * table of a real DLL built by mingw), explain (TensorFlow's Windows
 * message), check_cuda's loader path (no nvcuda.dll: error 126, named)
 * and ldcache's include globbing (plat_glob). Included by test_core.c
 * after fs_checks.h (uses check, check_str, check_int, put_text).
 *
 * The DLLs come from tools/windows-core.sh, built beside test_core.exe:
 * cublas64_11.dll (exports cublasCreate_v2) and cudnn_ops_infer64_8.dll,
 * linked against it, so that its import table names cublas64_11.dll, as
 * cuDNN 8's sub-libraries name the toolkit's cuBLAS. Expected values are
 * written by hand (tests/e2e/t0290 registers the same layouts on Linux).
 */
#include "../../core/store/detect.h"
#include "../../core/explain/explain.h"
#include "../../core/artifact/ldcache.h"
#include "../../core/artifact/pe.h"
#include "../../core/plat/file.h"
#include "../../core/check/check.h"

/* The folder test_core.exe is in (UTF-8, no final separator). */
static int exe_dir(struct buf *out)
{
	wchar_t w[MAX_PATH + 1];
	char s[4 * MAX_PATH];
	char *slash;
	DWORD n = GetModuleFileNameW(NULL, w, MAX_PATH + 1);

	if (!n || n > MAX_PATH ||
	    !WideCharToMultiByte(CP_UTF8, 0, w, -1, s, sizeof s, NULL, NULL))
		return -1;
	slash = strrchr(s, '\\');
	if (!slash)
		return -1;
	*slash = '\0';
	buf_sets(out, s);
	return 0;
}

/* Does a folder of dirs end with tail (after a separator)? */
static int dirs_end_with(const struct strv *dirs, const char *tail)
{
	size_t t = strlen(tail);

	for (size_t i = 0; i < dirs->n; i++) {
		size_t n = strlen(dirs->v[i]);

		if (n > t && strchr("\\/", dirs->v[i][n - t - 1]) &&
		    !strcmp(dirs->v[i] + n - t, tail))
			return 1;
	}
	return 0;
}

/* mkdir -p of the parts of rel ('/'-separated) under root, into out. */
static void make_dirs(const char *root, const char *rel, struct buf *out)
{
	struct strv parts = STRV_INIT;

	buf_sets(out, root);
	strv_split(&parts, rel, '/');
	for (size_t i = 0; i < parts.n; i++) {
		buf_adds(out, "\\");
		buf_adds(out, parts.v[i]);
		plat_mkdir(out->data, 0755);
	}
	strv_release(&parts);
}

/* Copy file from to to (the fixture DLLs, a few kilobytes). */
static int copy_file(const char *from, const char *to)
{
	struct buf text = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	int rc = file_read(from, 16 << 20, 0, &text, &err) ||
		 file_write(to, text.data, text.len, 0644, &err);

	if (rc)
		printf("copy %s: %s\n", from, err.msg.data);
	buf_release(&text);
	err_release(&err);
	return rc;
}

/* pe: the import table of a DLL mingw built, read from the disk. */
static void pe_checks(const char *dll)
{
	struct pe_info pe;
	struct file_map m;
	struct cuenv_err err = CUENV_ERR_INIT;
	int rc;

	pe_info_init(&pe);
	rc = file_map(dll, 2, &m, &err);
	if (!rc) {
		rc = pe_parse(m.data, m.len, dll, &pe, &err);
		file_unmap(&m);
	}
	check(rc == CUENV_OK, "pe_parse of a mingw DLL", err.msg.data, "OK");
	check_int("its bits", pe.bits, 64);
	check_int("its machine (x86-64)", pe.machine, 0x8664);
	check(strv_find(&pe.imports, "cublas64_11.dll") >= 0,
	      "its import table names cublas64_11.dll",
	      pe.imports.n ? pe.imports.v[0] : "(none)", "cublas64_11.dll");
	check(strv_find(&pe.imports, "KERNEL32.dll") >= 0 ||
		      strv_find(&pe.imports, "kernel32.dll") >= 0,
	      "its import table names kernel32.dll", "no", "yes");
	check_str("its export name", pe.name, "cudnn_ops_infer64_8.dll");
	pe_info_release(&pe);
	err_release(&err);
}

/*
 * detect: "<temp>\cuenv detect XXXXXX\NVIDIA GPU Computing
 * Toolkit\CUDA\v11.2" (bin\cudart64_110.dll, an empty placeholder as in
 * t0290; include\cuda_runtime_api.h saying 11020) is CUDA 11.2 with its
 * libraries in bin\; cuDNN 8.1.1's zip layout (cuda\bin\cudnn64_8.dll)
 * with the real cudnn_ops_infer64_8.dll is cuDNN 8.1.1 for CUDA 11, read
 * from that DLL's imports.
 */
static void detect_layout_checks(const char *root, const char *fixtures)
{
	struct buf kit = BUF_INIT, dnn = BUF_INIT, p = BUF_INIT,
		   from = BUF_INIT;
	struct store_version cuda, cudnn, dn;
	struct cuenv_err err = CUENV_ERR_INIT;
	bool has = false;
	char *real;
	int rc;

	make_dirs(root, "NVIDIA GPU Computing Toolkit/CUDA/v11.2", &kit);
	make_dirs(kit.data, "bin", &p);
	make_dirs(kit.data, "include", &p);
	make_dirs(kit.data, "lib/x64", &p);
	make_dirs(kit.data, "extras/CUPTI/lib64", &p);
	buf_sets(&p, kit.data);
	buf_adds(&p, "\\bin\\cudart64_110.dll");
	check(!put_text(p.data, ""), "placeholder cudart64_110.dll", p.data,
	      "written");
	buf_sets(&p, kit.data);
	buf_adds(&p, "\\bin\\nvcc.exe");
	put_text(p.data, "");
	buf_sets(&p, kit.data);
	buf_adds(&p, "\\extras\\CUPTI\\lib64\\cupti64_2020.3.1.dll");
	put_text(p.data, "");
	buf_sets(&p, kit.data);
	buf_adds(&p, "\\include\\cuda_runtime_api.h");
	put_text(p.data, "#define CUDART_VERSION 11020\r\n");

	rc = detect_cuda(kit.data, NULL, &cuda, &cudnn, &has, &err);
	check(rc == CUENV_OK, "detect_cuda of the Windows toolkit",
	      err.msg.data, "OK");
	check_str("its version", cuda.version, "11.2");
	check_int("its CUDA major", cuda.cuda_major, 11);
	real = plat_realpath(kit.data);
	check(real && cuda.prefix &&
		      plat_path_equal(plat_path_native(), cuda.prefix, real),
	      "its prefix is the folder's real path", cuda.prefix, real);
	free(real);
	check(cuda.bin.n == 1 && dirs_end_with(&cuda.bin, "bin"),
	      "bin\\ is its bin folder", cuda.bin.n ? cuda.bin.v[0] : "(none)",
	      "...\\v11.2\\bin");
	check(dirs_end_with(&cuda.lib, "bin"),
	      "bin\\ (the DLLs) is a library folder",
	      cuda.lib.n ? cuda.lib.v[0] : "(none)", "...\\v11.2\\bin");
	check(dirs_end_with(&cuda.cupti, "lib64"),
	      "CUPTI's year-named DLL is found",
	      cuda.cupti.n ? cuda.cupti.v[0] : "(none)",
	      "...\\extras\\CUPTI\\lib64");
	check(!has, "no cuDNN inside the toolkit", "one", "none");
	store_version_release(&cuda);
	store_version_release(&cudnn);
	err_release(&err);

	make_dirs(root, "cudnn-11.2-windows-x64-v8.1.1.33/cuda", &dnn);
	make_dirs(dnn.data, "bin", &p);
	make_dirs(dnn.data, "include", &p);
	buf_sets(&p, dnn.data);
	buf_adds(&p, "\\bin\\cudnn64_8.dll");
	put_text(p.data, "");
	buf_sets(&p, dnn.data);
	buf_adds(&p, "\\include\\cudnn_version.h");
	put_text(p.data, "#define CUDNN_MAJOR 8\r\n#define CUDNN_MINOR 1\r\n"
			 "#define CUDNN_PATCHLEVEL 1\r\n");
	/* without a DLL that names the toolkit's: the CUDA major is asked */
	rc = detect_cudnn(dnn.data, NULL, 0, &dn, &err);
	check(rc == CUENV_E_MANIFEST, "cuDNN alone: its CUDA is not known",
	      err.msg.data, "CUENV_E_MANIFEST");
	store_version_release(&dn);
	err_release(&err);

	buf_sets(&from, fixtures);
	buf_adds(&from, "\\cudnn_ops_infer64_8.dll");
	buf_sets(&p, dnn.data);
	buf_adds(&p, "\\bin\\cudnn_ops_infer64_8.dll");
	check(!copy_file(from.data, p.data), "copy cudnn_ops_infer64_8.dll",
	      from.data, "copied");
	check_int("detect_cuda_major_in_file of the mingw DLL",
		  detect_cuda_major_in_file(p.data), 11);
	rc = detect_cudnn(dnn.data, NULL, 0, &dn, &err);
	check(rc == CUENV_OK, "detect_cudnn of cuDNN's Windows zip",
	      err.msg.data, "OK");
	check_str("cuDNN's version", dn.version, "8.1.1");
	check_int("the CUDA major its DLL imports", dn.cuda_major, 11);
	store_version_release(&dn);
	err_release(&err);
	buf_release(&kit);
	buf_release(&dnn);
	buf_release(&p);
	buf_release(&from);
}

/* explain: TensorFlow 2.x's message on Windows names CUDA 11.x. */
static void explain_checks(void)
{
	static const char tf[] =
		"2021-05-04 10:11:12.123456: W tensorflow/stream_executor/"
		"platform/default/dso_loader.cc:64] Could not load dynamic "
		"library 'cudart64_110.dll'; dlerror: cudart64_110.dll not "
		"found\r\n";
	struct explain ex;

	explain_init(&ex);
	check_int("findings in TensorFlow's message",
		  (long long)explain_parse(&ex, tf, strlen(tf)), 1);
	if (ex.n == 1) {
		check(ex.v[0].kind == EXPLAIN_LIBRARY && ex.v[0].dll,
		      "a DLL of a CUDA library", "other", "library, DLL");
		check_str("its name", ex.v[0].name, "cudart64_110.dll");
		check_str("its Linux soname", ex.v[0].soname,
			  "libcudart.so.11.0");
		check_str("its releases", ex.v[0].releases, "CUDA 11.x");
		check(ex.v[0].missing, "it could not be loaded", "no", "yes");
	}
	explain_release(&ex);
}

/*
 * check_cuda on a machine without NVIDIA's driver: nvcuda.dll cannot be
 * loaded, error 126 named, and the runtime's DLL is named as well.
 */
static void check_cuda_checks(const char *root)
{
	struct check_probe p = { 0 };
	struct check_report r;
	const struct check_layer *drv = &r.layer[CHECK_DRIVER],
				 *rt = &r.layer[CHECK_RUNTIME];

	p.cuda = "11.2";
	p.driver_need = "452.39";
	p.module_root = root; /* nothing there: no module version */
	p.driver_lib = "nvcuda.dll";
	p.runtime_lib = "cudart64_110.dll";
	p.cupti_lib = "cupti64_2020.3.1.dll";
	p.unload = true;
	check_report_init(&r);
	check_probe_run(&p, &r);
	check(drv->status == CHECK_FAIL, "driver layer fails",
	      check_status_name(drv->status), "fail");
	check_str("driver layer's message", drv->message,
		  "no NVIDIA driver: nvcuda.dll cannot be loaded (nvcuda.dll: "
		  "the specified module could not be found (error 126))");
	check_str("driver layer's soname", drv->soname, "nvcuda.dll");
	check(drv->fix && strstr(drv->fix, ">= 452.39"),
	      "driver layer's fix names the minimum driver", drv->fix,
	      "install an NVIDIA driver >= 452.39 ...");
	check(rt->status != CHECK_PASS && rt->message &&
		      strstr(rt->message, "cudart64_110.dll") &&
		      strstr(rt->message, "error 126"),
	      "runtime layer names cudart64_110.dll, error 126", rt->message,
	      "... cudart64_110.dll ... (error 126) ...");
	check(check_report_rc(&r, NULL) == check_layer_rc(CHECK_DRIVER),
	      "the driver's exit code", "other", "the driver layer's");
	check_report_release(&r);
}

/*
 * ldcache: an include line with a wildcard (every .conf in conf.d), globbed by
 * plat_glob (FindFirstFileExW): a.conf then b.conf, not x.txt, not the
 * hidden .h.conf.
 */
static void ldconf_checks(const char *root)
{
	struct buf conf = BUF_INIT, d = BUF_INIT, p = BUF_INIT;
	struct ldconf c = { 0 };
	struct strv g = STRV_INIT;

	buf_path(&conf, root, "ld.so.conf");
	put_text(conf.data, "# cuenv\r\ninclude conf.d/*.conf\r\n/opt/top\r\n");
	make_dirs(root, "conf.d", &d);
	buf_path(&p, d.data, "b.conf");
	put_text(p.data, "/opt/b\n");
	buf_reset(&p);
	buf_path(&p, d.data, "a.conf");
	put_text(p.data, "/opt/a\n");
	buf_reset(&p);
	buf_path(&p, d.data, "x.txt");
	put_text(p.data, "/opt/x\n");
	buf_reset(&p);
	buf_path(&p, d.data, ".h.conf");
	put_text(p.data, "/opt/h\n");
	ldconf_read(conf.data, &c);
	check_int("ld.so.conf's folders", (long long)c.n, 3);
	if (c.n == 3) {
		check_str("first, a.conf's", c.v[0].dir, "/opt/a");
		check_str("then b.conf's", c.v[1].dir, "/opt/b");
		check_str("then its own", c.v[2].dir, "/opt/top");
		check(strstr(c.v[0].file, "a.conf") != NULL,
		      "the file that names it", c.v[0].file, "...a.conf");
	}
	buf_reset(&p);
	buf_path(&p, d.data, "*.conf");
	plat_glob(p.data, &g);
	check_int("plat_glob: a.conf, b.conf", (long long)g.n, 2);
	if (g.n == 2) {
		buf_reset(&p);
		buf_path(&p, d.data, "a.conf");
		check_str("plat_glob's first, sorted", g.v[0], p.data);
	}
	strv_release(&g);
	buf_reset(&p);
	buf_path(&p, d.data, "*.none");
	plat_glob(p.data, &g);
	check_int("a pattern that matches nothing", (long long)g.n, 0);
	ldconf_release(&c);
	strv_release(&g);
	buf_release(&conf);
	buf_release(&d);
	buf_release(&p);
}

static void detect_checks(void)
{
	wchar_t wtmp[MAX_PATH + 1];
	char tmp[4 * MAX_PATH];
	struct buf root = BUF_INIT, fixtures = BUF_INIT, dll = BUF_INIT;

	if (exe_dir(&fixtures)) {
		check(0, "test_core.exe's folder", "unknown", "a folder");
		return;
	}
	buf_sets(&dll, fixtures.data);
	buf_adds(&dll, "\\cudnn_ops_infer64_8.dll");
	pe_checks(dll.data);
	explain_checks();
	if (!GetTempPathW(MAX_PATH + 1, wtmp) ||
	    !WideCharToMultiByte(CP_UTF8, 0, wtmp, -1, tmp, sizeof tmp, NULL,
				 NULL)) {
		check(0, "GetTempPathW", "failed", "a folder");
		goto out;
	}
	buf_sets(&root, tmp);
	buf_adds(&root, "cuenv detect XXXXXX");
	if (!plat_mkdtemp(root.data)) {
		check(0, "mkdtemp", root.data, "a folder");
		goto out;
	}
	detect_layout_checks(root.data, fixtures.data);
	check_cuda_checks(root.data);
	ldconf_checks(root.data);
	check(!store_remove_tree(root.data), "remove the detect folder",
	      root.data, "removed");
out:
	buf_release(&root);
	buf_release(&fixtures);
	buf_release(&dll);
}
