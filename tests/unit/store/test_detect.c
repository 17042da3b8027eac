#include "fakes/fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/detect.h"

struct found {
	struct store_version cuda;
	struct store_version cudnn;
	bool has_cudnn;
	struct cuenv_err err;
	char *path; /* the path examined */
};

static int detect_cuda_at(const struct fixture *fx, const char *rel,
			  const char *version, struct found *f)
{
	f->path = fx_path(fx, rel);
	f->has_cudnn = false;
	err_init(&f->err);
	return detect_cuda(f->path, version, &f->cuda, &f->cudnn, &f->has_cudnn,
			   &f->err);
}

static int detect_cudnn_at(const struct fixture *fx, const char *rel,
			   const char *version, unsigned major, struct found *f)
{
	f->path = fx_path(fx, rel);
	err_init(&f->err);
	store_version_init(&f->cuda, KIT_CUDA);
	return detect_cudnn(f->path, version, major, &f->cudnn, &f->err);
}

static void found_release(struct found *f)
{
	store_version_release(&f->cuda);
	store_version_release(&f->cudnn);
	err_release(&f->err);
	free(f->path);
}

static void expect_ok(int rc, const struct found *f)
{
	if (rc)
		fail_msg("detect failed (%d): %s", rc, f->err.msg.data);
}

/* Is root/rel in the list? */
static bool has_dir(const struct fixture *fx, const struct strv *dirs,
		    const char *rel)
{
	char *p = fx_path(fx, rel);
	bool ok = strv_find(dirs, p) >= 0;

	free(p);
	return ok;
}

/* ---- CUDA versions ------------------------------------------------------- */

static void test_detect_cuda_reads_version_json(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda-12.4", 12);
	fx_write(fx, "cuda-12.4/version.json",
		 "{\"cuda\": {\"name\": \"CUDA SDK\", \"version\": "
		 "\"12.4.1\"},\n \"cuda_cudart\": {\"version\": "
		 "\"12.4.127\"}}\n");
	expect_ok(detect_cuda_at(fx, "cuda-12.4", NULL, &f), &f);
	assert_string_equal(f.cuda.version, "12.4.1");
	assert_int_equal(f.cuda.cuda_major, 12);
	assert_int_equal(f.cuda.kind, KIT_CUDA);
	assert_true(f.cuda.registered);
	assert_string_equal(f.cuda.prefix, f.path);
	assert_false(f.has_cudnn);
	found_release(&f);
}

static void test_detect_cuda_reads_version_txt(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda-10.2", 10);
	fx_write(fx, "cuda-10.2/version.txt", "CUDA Version 10.2.89\n");
	expect_ok(detect_cuda_at(fx, "cuda-10.2", NULL, &f), &f);
	assert_string_equal(f.cuda.version, "10.2.89");
	assert_int_equal(f.cuda.cuda_major, 10);
	found_release(&f);
}

static void test_detect_cuda_prefers_version_json_to_txt(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda", 11);
	fx_write(fx, "cuda/version.txt", "CUDA Version 11.0.1\n");
	fx_write(fx, "cuda/version.json",
		 "{\"cuda\": {\"version\": \"11.1.1\"}}");
	expect_ok(detect_cuda_at(fx, "cuda", NULL, &f), &f);
	assert_string_equal(f.cuda.version, "11.1.1");
	found_release(&f);
}

/* A FIFO named version.json answers at once, naming it: never a hang. */
static void test_detect_cuda_version_json_fifo_fails_at_once(void **state)
{
	struct fixture *fx = *state;
	struct found f;
	char *fifo = fx_path(fx, "cuda/version.json");

	fake_cuda_classic(fx, "cuda", 12);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	alarm(5); /* a hang fails the test instead of stalling the run */
	assert_int_equal(detect_cuda_at(fx, "cuda", NULL, &f), CUENV_E_STORE);
	alarm(0);
	assert_non_null(strstr(f.err.msg.data, fifo));
	assert_non_null(
	    strstr(f.err.msg.data, "is a FIFO, device or socket, not a file"));
	assert_non_null(strstr(f.err.hint.data, "--as VERSION"));
	found_release(&f);
	free(fifo);
}

/* One past 1 MiB is refused after reading that much, not read whole. */
static void test_detect_cuda_version_json_too_large_fails(void **state)
{
	struct fixture *fx = *state;
	struct found f;
	char *big = fx_path(fx, "cuda/version.json");

	fake_cuda_classic(fx, "cuda", 12);
	fx_write(fx, "cuda/version.json", "{}");
	assert_int_equal(truncate(big, (1 << 20) + 1), 0);
	assert_int_equal(detect_cuda_at(fx, "cuda", NULL, &f), CUENV_E_STORE);
	assert_non_null(strstr(f.err.msg.data, big));
	assert_non_null(strstr(f.err.msg.data, "is larger than 1048576 bytes"));
	found_release(&f);
	free(big);
}

/* --as names the version: the unreadable file is a warning instead. */
static void test_detect_cuda_version_json_unread_with_as_warns(void **state)
{
	struct fixture *fx = *state;
	struct found f;
	char *fifo = fx_path(fx, "cuda/version.json");

	fake_cuda_classic(fx, "cuda", 12);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	expect_ok(detect_cuda_at(fx, "cuda", "12.4.1", &f), &f);
	assert_string_equal(f.cuda.version, "12.4.1");
	assert_int_equal(f.cuda.warnings.n, 1);
	assert_non_null(strstr(f.cuda.warnings.v[0], fifo));
	assert_non_null(strstr(f.cuda.warnings.v[0], ": not read"));
	found_release(&f);
	free(fifo);
}

static void test_detect_cuda_reads_version_from_runtime_header(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda", 11);
	fx_write(fx, "cuda/include/cuda_runtime_api.h",
		 "#ifndef __CUDA_RUNTIME_API_H__\n"
		 "#define __CUDA_RUNTIME_API_H__\n"
		 "#define CUDART_VERSION  11020\n#endif\n");
	expect_ok(detect_cuda_at(fx, "cuda", NULL, &f), &f);
	assert_string_equal(f.cuda.version, "11.2");
	assert_int_equal(f.cuda.cuda_major, 11);
	found_release(&f);
}

static void test_detect_cuda_reads_version_from_cuda_h(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda", 12);
	fx_write(fx, "cuda/include/cuda.h",
		 "#define CUDA_VERSION_STRING \"no\"\n"
		 "#define CUDA_VERSION 12040\n");
	expect_ok(detect_cuda_at(fx, "cuda", NULL, &f), &f);
	assert_string_equal(f.cuda.version, "12.4");
	found_release(&f);
}

static void test_detect_cuda_falls_back_to_library_file_name(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda", 11);
	fx_touch(fx, "cuda/lib64/libcudart.so.11.8.89");
	expect_ok(detect_cuda_at(fx, "cuda", NULL, &f), &f);
	assert_string_equal(f.cuda.version, "11.8");
	found_release(&f);
}

static void test_detect_cuda_without_any_version_asks_for_as(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	/* libcudart.so.11.0 is the soname of every 11.x: it says nothing */
	fx_touch(fx, "cuda/lib64/libcudart.so.11.0");
	assert_int_equal(detect_cuda_at(fx, "cuda", NULL, &f),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(f.err.msg.data, "cannot tell the cuda version"));
	assert_non_null(strstr(f.err.hint.data, "--as"));
	found_release(&f);
}

static void test_detect_cuda_as_overrides_detected_version(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda", 12);
	fx_write(fx, "cuda/version.json",
		 "{\"cuda\": {\"version\": \"12.4.1\"}}");
	expect_ok(detect_cuda_at(fx, "cuda", "11.8.0", &f), &f);
	assert_string_equal(f.cuda.version, "11.8.0");
	assert_int_equal(f.cuda.cuda_major, 11);
	found_release(&f);
}

static void test_detect_cuda_as_names_an_undetectable_version(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fx_touch(fx, "cuda/lib64/libcudart.so.11.0");
	expect_ok(detect_cuda_at(fx, "cuda", "11.2", &f), &f);
	assert_string_equal(f.cuda.version, "11.2");
	found_release(&f);
}

static void test_detect_cuda_rejects_invalid_as(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda", 12);
	assert_int_equal(detect_cuda_at(fx, "cuda", "../12", &f),
			 CUENV_E_USAGE);
	found_release(&f);
}

/* ---- CUDA layouts -------------------------------------------------------- */

static void test_detect_cuda_lists_classic_prefix_dirs(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda", 12);
	expect_ok(detect_cuda_at(fx, "cuda", "12.4.1", &f), &f);
	assert_int_equal(f.cuda.bin.n, 1);
	assert_true(has_dir(fx, &f.cuda.bin, "cuda/bin"));
	assert_true(has_dir(fx, &f.cuda.lib, "cuda/lib64"));
	assert_int_equal(f.cuda.include.n, 1);
	assert_true(has_dir(fx, &f.cuda.include, "cuda/include"));
	found_release(&f);
}

static void test_detect_cuda_finds_cupti_under_extras(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda", 11);
	fx_touch(fx, "cuda/extras/CUPTI/lib64/libcupti.so.11.2");
	expect_ok(detect_cuda_at(fx, "cuda", "11.2.2", &f), &f);
	assert_int_equal(f.cuda.cupti.n, 1);
	assert_true(has_dir(fx, &f.cuda.cupti, "cuda/extras/CUPTI/lib64"));
	assert_true(has_dir(fx, &f.cuda.lib, "cuda/extras/CUPTI/lib64"));
	assert_true(has_dir(fx, &f.cuda.lib, "cuda/lib64"));
	assert_string_equal(f.cuda.cupti_version, "11.2");
	found_release(&f);
}

/* CUDA 12.6's runfile: libcupti.so.2024.3.2 (soname .12) in extras/CUPTI,
 * and cupti_version.h saying CUPTI_API_VERSION 24 ("CUDA Toolkit 12.6"). */
static void test_detect_cupti_year_file_defers_to_header(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda", 12);
	fx_touch(fx, "cuda/extras/CUPTI/lib64/libcupti.so.2024.3.2");
	fx_write(fx, "cuda/extras/CUPTI/include/cupti_version.h",
		 "#define CUPTI_API_VERSION 24\n");
	expect_ok(detect_cuda_at(fx, "cuda", "12.6.3", &f), &f);
	assert_string_equal(f.cuda.cupti_version, "12.6");
	assert_int_equal(f.cuda.warnings.n, 0);
	found_release(&f);
}

/* version.json's cuda_cupti wins over a year-named file. */
static void test_detect_cupti_from_version_json(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda", 12);
	fx_touch(fx, "cuda/extras/CUPTI/lib64/libcupti.so.2024.3.2");
	fx_write(fx, "cuda/version.json",
		 "{\"cuda\":{\"version\":\"12.6.3\"},"
		 "\"cuda_cupti\":{\"version\":\"12.6.80\"}}\n");
	expect_ok(detect_cuda_at(fx, "cuda", NULL, &f), &f);
	assert_string_equal(f.cuda.cupti_version, "12.6.80");
	found_release(&f);
}

/* Beside a year-named file only the soname's major is known. */
static void test_detect_cupti_year_file_gives_way_to_soname(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda", 12);
	fx_touch(fx, "cuda/extras/CUPTI/lib64/libcupti.so.2024.3.2");
	expect_ok(detect_cuda_at(fx, "cuda", "12.6.3", &f), &f);
	assert_int_equal(f.cuda.cupti.n, 1);
	assert_string_equal(f.cuda.cupti_version, "12");
	found_release(&f);
}

/* Sources that disagree: the first wins, a warning names both. */
static void test_detect_cupti_mixed_sources_warn(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda", 12);
	fx_touch(fx, "cuda/extras/CUPTI/lib64/libcupti.so.12");
	fx_write(fx, "cuda/extras/CUPTI/include/cupti_version.h",
		 "#define CUPTI_API_VERSION 18\n");
	fx_write(fx, "cuda/version.json",
		 "{\"cuda\":{\"version\":\"12.4.1\"},"
		 "\"cuda_cupti\":{\"version\":\"12.4.127\"}}\n");
	expect_ok(detect_cuda_at(fx, "cuda", NULL, &f), &f);
	assert_string_equal(f.cuda.cupti_version, "12.4.127");
	assert_int_equal(f.cuda.warnings.n, 1);
	assert_non_null(
	    strstr(f.cuda.warnings.v[0],
		   "version.json (cuda_cupti) says 12.4.127, "
		   "cupti_version.h (CUPTI_API_VERSION) says 11.8"));
	found_release(&f);
}

/* Lines of the real RECORDs of nvidia-cuda-cupti-cu11 11.8.87 and -cu12
 * 12.4.127 (tests/fixtures/wheels), cut to what the test needs. */
static void test_detect_wheel_mix_names_overwritten_files(void **state)
{
	struct fixture *fx = *state;
	struct wheel_mix m = {0};
	char *site = fx_path(fx, "site"), *lib;

	fx_write(fx, "site/nvidia_cuda_cupti_cu11-11.8.87.dist-info/RECORD",
		 "nvidia/__init__.py,sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMp"
		 "JWZG3hSuFU,0\n"
		 "nvidia/cuda_cupti/lib/libcupti.so.11.8,sha256=rnmnLgdKAeFS7Q"
		 "fzRD0kFdun521SOB5SdjLqhO2hWn4,7199856\n"
		 "nvidia/cuda_cupti/lib/libnvperf_host.so,sha256=ppKtpIRCLO4GT"
		 "l04XTNfuwBUbLNDwirOwQYWgDjedbY,26295768\n");
	fx_write(fx, "site/nvidia_cuda_cupti_cu12-12.4.127.dist-info/RECORD",
		 "nvidia/__init__.py,sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMp"
		 "JWZG3hSuFU,0\n"
		 "nvidia/cuda_cupti/lib/libcupti.so.12,sha256=-yp8WxXITflQXdR-"
		 "VT_kbzEhpX0wOR_KJBedIC9z8_c,7748112\n"
		 "nvidia/cuda_cupti/lib/libnvperf_host.so,sha256=tZsmsdNdAik8j"
		 "diVaro3V8FGa3FzLGaHq6QSxQ2VC2k,28132984\n");
	fx_write(fx, "site/nvidia/cuda_cupti/lib/libnvperf_host.so", "");
	lib = fx_path(fx, "site/nvidia/cuda_cupti/lib/libnvperf_host.so");
	assert_int_equal(truncate(lib, 28132984), 0);
	free(lib);
	assert_true(detect_wheel_mix(site, &m));
	assert_int_equal(m.majors, (1UL << 11) | (1UL << 12));
	assert_int_equal(m.wheels.n, 2);
	assert_int_equal(m.shared.n, 1);
	assert_string_equal(m.shared.v[0],
			    "nvidia/cuda_cupti/lib/libnvperf_host.so");
	/* 28132984 bytes: the cu12 copy is the one there */
	assert_string_equal(m.owners.v[0],
			    "nvidia_cuda_cupti_cu12-12.4.127.dist-info and "
			    "nvidia_cuda_cupti_cu11-11.8.87.dist-info");
	wheel_mix_release(&m);
	free(site);
}

/* Debian's nvidia-cuda-toolkit: /usr/lib/cuda is a skeleton, the toolkit
 * /usr (bookworm's package lists). */
static void test_detect_debian_lib_cuda_is_usr(void **state)
{
	struct fixture *fx = *state;
	struct found f;
	struct strv loader = STRV_INIT;
	char *multi, *bin, *inc, *usr;

	fx_touch(fx, "usr/lib/x86_64-linux-gnu/libcudart.so.11.8.89");
	fx_symlink(fx, "libcudart.so.11.8.89",
		   "usr/lib/x86_64-linux-gnu/libcudart.so.11.0");
	fx_write(fx, "usr/include/cuda_runtime_api.h",
		 "#define CUDART_VERSION 11080\n");
	fx_touch_exec(fx, "usr/bin/nvcc");
	fx_mkdir(fx, "usr/lib/cuda/lib64");
	fx_mkdir(fx, "usr/lib/cuda/bin");
	expect_ok(detect_cuda_at(fx, "usr/lib/cuda", NULL, &f), &f);
	usr = fx_path(fx, "usr");
	multi = fx_path(fx, "usr/lib/x86_64-linux-gnu");
	bin = fx_path(fx, "usr/bin");
	inc = fx_path(fx, "usr/include");
	assert_string_equal(f.cuda.prefix, usr);
	assert_string_equal(f.cuda.version, "11.8");
	assert_true(strv_find(&f.cuda.lib, multi) >= 0);
	/* the loader searches the multiarch folder: activation adds none */
	strv_push_take(&loader, realpath(multi, NULL));
	detect_activation(&f.cuda, &loader);
	assert_true(strv_find(&f.cuda.searched, multi) >= 0);
	assert_true(strv_find(&f.cuda.searched, bin) >= 0);
	assert_true(strv_find(&f.cuda.searched, inc) >= 0);
	assert_int_equal(f.cuda.linked.n, 0);
	strv_release(&loader);
	free(usr);
	free(multi);
	free(bin);
	free(inc);
	found_release(&f);
}

/* A conda prefix: lib/ holds libstdc++ beside CUDA; only CUDA is linked. */
static void test_detect_conda_lib_is_linked(void **state)
{
	struct fixture *fx = *state;
	struct found f;
	struct strv loader = STRV_INIT;
	char *lib, *rt, *cxx;

	fx_mkdir(fx, "env/conda-meta");
	fx_touch(fx, "env/lib/libcudart.so.12");
	fx_touch(fx, "env/lib/libstdc++.so.6");
	fx_touch(fx, "env/lib/libssl.so.3");
	expect_ok(detect_cuda_at(fx, "env", "12.4.1", &f), &f);
	detect_activation(&f.cuda, &loader);
	lib = fx_path(fx, "env/lib");
	rt = fx_path(fx, "env/lib/libcudart.so.12");
	cxx = fx_path(fx, "env/lib/libstdc++.so.6");
	assert_int_equal(f.cuda.searched.n, 0);
	assert_int_equal(f.cuda.linked.n, 1);
	assert_string_equal(f.cuda.linked.v[0], lib);
	assert_true(strv_find(&f.cuda.links, rt) >= 0);
	assert_true(strv_find(&f.cuda.links, cxx) < 0);
	assert_int_equal(f.cuda.links.n, 1);
	free(lib);
	free(rt);
	free(cxx);
	found_release(&f);
}

/* A wheel's dist-info and cudnn_version.h that disagree: the header
 * wins, a warning names both. */
static void test_detect_cudnn_mixed_sources_warn(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fx_touch(fx, "w/lib/libcudnn.so.9");
	fx_write(fx, "w/include/cudnn_version.h",
		 "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n"
		 "#define CUDNN_PATCHLEVEL 0\n");
	fx_mkdir(fx, "w/dist-info/nvidia_cudnn_cu13-9.26.0.51.dist-info");
	expect_ok(detect_cudnn_at(fx, "w", NULL, 13, &f), &f);
	assert_string_equal(f.cudnn.version, "9.19.0");
	assert_int_equal(f.cudnn.warnings.n, 1);
	assert_non_null(strstr(f.cudnn.warnings.v[0],
			       "dist-info says 9.26.0.51, cudnn_version.h "
			       "says 9.19.0"));
	found_release(&f);
}

static void test_detect_cuda_without_cupti_lists_none(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fx_touch_exec(fx, "cuda/bin/nvcc");
	fx_touch(fx, "cuda/lib64/libcudart.so.12");
	expect_ok(detect_cuda_at(fx, "cuda", "12.4", &f), &f);
	assert_int_equal(f.cuda.cupti.n, 0);
	assert_null(f.cuda.cupti_version);
	found_release(&f);
}

static void test_detect_cuda_finds_targets_layout(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fx_touch_exec(fx, "cuda/bin/nvcc");
	fx_touch(fx, "cuda/targets/x86_64-linux/lib/libcudart.so.12");
	fx_write(fx, "cuda/targets/x86_64-linux/include/cuda_runtime_api.h",
		 "#define CUDART_VERSION 12060\n");
	expect_ok(detect_cuda_at(fx, "cuda", NULL, &f), &f);
	assert_string_equal(f.cuda.version, "12.6");
	assert_true(has_dir(fx, &f.cuda.lib, "cuda/targets/x86_64-linux/lib"));
	assert_true(
	    has_dir(fx, &f.cuda.include, "cuda/targets/x86_64-linux/include"));
	found_release(&f);
}

static void test_detect_cuda_lists_symlinked_lib_dir_once(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	/* /usr/local/cuda/lib64 -> targets/x86_64-linux/lib */
	fx_touch_exec(fx, "cuda/bin/nvcc");
	fx_touch(fx, "cuda/targets/x86_64-linux/lib/libcudart.so.12");
	fx_symlink(fx, "targets/x86_64-linux/lib", "cuda/lib64");
	fx_write(fx, "cuda/targets/x86_64-linux/include/cuda_runtime_api.h",
		 "#define CUDART_VERSION 12060\n");
	fx_symlink(fx, "targets/x86_64-linux/include", "cuda/include");
	expect_ok(detect_cuda_at(fx, "cuda", NULL, &f), &f);
	assert_int_equal(f.cuda.lib.n, 1);
	assert_int_equal(f.cuda.include.n, 1);
	found_release(&f);
}

static void test_detect_cuda_prefix_is_the_real_path(void **state)
{
	struct fixture *fx = *state;
	char *real = fx_path(fx, "cuda-12.4");
	struct found f;

	fake_cuda_classic(fx, "cuda-12.4", 12);
	fx_symlink(fx, "cuda-12.4", "cuda");
	expect_ok(detect_cuda_at(fx, "cuda", "12.4", &f), &f);
	assert_string_equal(f.cuda.prefix, real);
	found_release(&f);
	free(real);
}

/* site-packages/nvidia style merged wheel: lib/ include/ dist-info/ */
static void fake_wheel_13(const struct fixture *fx)
{
	fx_touch(fx, "wheel/lib/libcudart.so.13");
	fx_touch(fx, "wheel/lib/libcupti.so.13");
	fx_touch(fx, "wheel/lib/libcudnn.so.9");
	fx_touch(fx, "wheel/lib/libcudnn_ops.so.9");
	fx_write(fx, "wheel/include/cuda_runtime_api.h", "/* wheel */\n");
	fx_write(fx, "wheel/include/cudnn_version.h",
		 "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n"
		 "#define CUDNN_PATCHLEVEL 0\n");
	fx_mkdir(fx, "wheel/dist-info/nvidia_cuda_runtime-13.0.96.dist-info");
	fx_mkdir(fx, "wheel/dist-info/nvidia_cuda_cupti-13.0.85.dist-info");
	fx_mkdir(fx, "wheel/dist-info/nvidia_cudnn_cu13-9.19.0.56.dist-info");
}

static void test_detect_cuda_finds_cudnn_bundled_in_wheel(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_wheel_13(fx);
	expect_ok(detect_cuda_at(fx, "wheel", NULL, &f), &f);
	assert_int_equal(f.cuda.cuda_major, 13);
	assert_true(f.has_cudnn);
	assert_int_equal(f.cudnn.kind, KIT_CUDNN);
	assert_string_equal(f.cudnn.version, "9.19.0.56");
	assert_int_equal(f.cudnn.cuda_major, 13);
	assert_string_equal(f.cudnn.prefix, f.path);
	assert_true(f.cudnn.registered);
	assert_true(has_dir(fx, &f.cudnn.lib, "wheel/lib"));
	found_release(&f);
}

static void test_detect_cuda_notes_wheel_components(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_wheel_13(fx);
	expect_ok(detect_cuda_at(fx, "wheel", NULL, &f), &f);
	assert_true(strv_find(&f.cuda.notes, "cuda_runtime 13.0.96") >= 0);
	assert_true(strv_find(&f.cuda.notes, "cuda_cupti 13.0.85") >= 0);
	assert_string_equal(f.cuda.cupti_version, "13.0.85");
	found_release(&f);
}

static void test_detect_cuda_takes_version_from_wheel_dist_info(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	char version[64];

	/*
	 * The cuda-runtime wheel carries cudart's version (13.0.96), not the
	 * release's: only its major.minor names the CUDA release.
	 */
	fake_wheel_13(fx);
	expect_ok(detect_cuda_at(fx, "wheel", NULL, &f), &f);
	snprintf(version, sizeof(version), "%s", f.cuda.version);
	found_release(&f); /* first, so that a failure leaks nothing */
	assert_string_equal(version, "13.0");
}

/* pip's site-packages: nvidia/<component>/lib, dist-info one level up */
static void fake_site_packages_12(const struct fixture *fx)
{
	fx_touch(fx, "sp/nvidia/cuda_runtime/lib/libcudart.so.12");
	fx_write(fx, "sp/nvidia/cuda_runtime/include/cuda_runtime_api.h",
		 "#define CUDART_VERSION 12040\n");
	fx_touch(fx, "sp/nvidia/cuda_cupti/lib/libcupti.so.12");
	fx_touch(fx, "sp/nvidia/cublas/lib/libcublasLt.so.12");
	fx_touch(fx, "sp/nvidia/cudnn/lib/libcudnn.so.9");
	fx_write(fx, "sp/nvidia/cudnn/include/cudnn_version.h", "\n");
	fx_mkdir(fx, "sp/nvidia_cuda_runtime_cu12-12.4.127.dist-info");
	fx_mkdir(fx, "sp/nvidia_cuda_cupti_cu12-12.4.127.dist-info");
	fx_mkdir(fx, "sp/nvidia_cudnn_cu12-9.1.0.70.dist-info");
}

static void test_detect_cuda_reads_site_packages_nvidia_layout(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_site_packages_12(fx);
	expect_ok(detect_cuda_at(fx, "sp/nvidia", NULL, &f), &f);
	assert_int_equal(f.cuda.cuda_major, 12);
	assert_true(has_dir(fx, &f.cuda.lib, "sp/nvidia/cuda_runtime/lib"));
	assert_true(has_dir(fx, &f.cuda.lib, "sp/nvidia/cublas/lib"));
	assert_true(has_dir(fx, &f.cuda.cupti, "sp/nvidia/cuda_cupti/lib"));
	assert_string_equal(f.cuda.cupti_version, "12.4.127");
	assert_true(f.has_cudnn);
	assert_string_equal(f.cudnn.version, "9.1.0.70");
	assert_int_equal(f.cudnn.cuda_major, 12);
	assert_true(has_dir(fx, &f.cudnn.lib, "sp/nvidia/cudnn/lib"));
	found_release(&f);
}

static void test_detect_wheel_cudnn_prefix_is_its_wheel_folder(void **state)
{
	struct fixture *fx = *state;
	struct found f;
	char *want = fx_path(fx, "sp/nvidia/cudnn");
	char *real;
	bool same;

	/* CUDNN_PATH is the prefix: nvidia/cudnn has its lib/ and include/ */
	fake_site_packages_12(fx);
	real = realpath(want, NULL);
	expect_ok(detect_cuda_at(fx, "sp/nvidia", NULL, &f), &f);
	assert_true(f.has_cudnn);
	same = real && !strcmp(f.cudnn.prefix, real);
	if (!same)
		print_message("cudnn prefix: %s\n", f.cudnn.prefix);
	found_release(&f);
	free(want);
	free(real);
	assert_true(same);
}

static void
test_detect_cuda_bundled_cudnn_lists_only_cudnn_lib_dirs(void **state)
{
	struct fixture *fx = *state;
	struct found f;
	bool only_cudnn;

	/*
	 * Activation puts cuDNN's lib dirs before the CUDA ones: any CUDA
	 * runtime among them would shadow the toolkit selected with it.
	 */
	fake_site_packages_12(fx);
	expect_ok(detect_cuda_at(fx, "sp/nvidia", NULL, &f), &f);
	assert_true(f.has_cudnn);
	only_cudnn = f.cudnn.lib.n == 1 &&
		     has_dir(fx, &f.cudnn.lib, "sp/nvidia/cudnn/lib");
	if (!only_cudnn)
		for (size_t i = 0; i < f.cudnn.lib.n; i++)
			print_message("cudnn lib: %s\n", f.cudnn.lib.v[i]);
	found_release(&f);
	assert_true(only_cudnn);
}

static void test_detect_cuda_without_libcudart_fails(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fx_touch_exec(fx, "notcuda/bin/tool");
	fx_touch(fx, "notcuda/lib/libfoo.so.1");
	fx_write(fx, "notcuda/version.json",
		 "{\"cuda\": {\"version\": \"12.4.1\"}}");
	assert_int_equal(detect_cuda_at(fx, "notcuda", NULL, &f),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(f.err.msg.data, "libcudart"));
	assert_non_null(strstr(f.err.hint.data, "top folder"));
	found_release(&f);
}

static void test_detect_cuda_of_missing_path_fails(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	assert_int_equal(detect_cuda_at(fx, "missing", NULL, &f),
			 CUENV_E_STORE);
	assert_non_null(strstr(f.err.msg.data, f.path));
	found_release(&f);
}

static void test_detect_cuda_of_a_file_fails(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fx_write(fx, "file", "x\n");
	assert_int_equal(detect_cuda_at(fx, "file", NULL, &f), CUENV_E_STORE);
	assert_non_null(strstr(f.err.msg.data, "not a folder"));
	found_release(&f);
}

/* --discover's folders: CUDA_PATH_V* in version order, then the rest. */
static void test_detect_env_candidates_order_and_once(void **state)
{
	char *envp[] = {
	    "PATH=/bin",
	    "CUDA_PATH_V12_4=C:\\CUDA\\v12.4",
	    "CUDA_PATH=C:\\CUDA\\v12.4",
	    "CUDA_PATH_V11_2=C:\\CUDA\\v11.2",
	    "CUDA_PATH_V11_10=C:\\CUDA\\v11.10",
	    "CUDA_PATH_VX_1=C:\\nope",
	    "CUDA_PATH_V9=C:\\nope",
	    "CUDA_HOME=",
	    "CUDA_HOMEX=/nope",
	    NULL,
	};
	struct strv dirs = STRV_INIT, names = STRV_INIT;

	(void)state;
	detect_env_candidates(envp, &dirs, &names);
	assert_int_equal(dirs.n, 3);
	assert_string_equal(dirs.v[0], "C:\\CUDA\\v11.2");
	assert_string_equal(names.v[0], "CUDA_PATH_V11_2");
	assert_string_equal(dirs.v[1], "C:\\CUDA\\v11.10");
	assert_string_equal(dirs.v[2], "C:\\CUDA\\v12.4");
	assert_string_equal(names.v[2], "CUDA_PATH_V12_4");
	strv_release(&dirs);
	strv_release(&names);
}

/* ---- Windows layouts ----------------------------------------------------- */

/*
 * NVIDIA's Windows installer: C:\Program Files\NVIDIA GPU Computing
 * Toolkit\CUDA\v11.2, the DLLs in bin\ (cudart64_110.dll is every 11.x's
 * runtime), CUPTI's year-named DLL in extras\CUPTI\lib64, import
 * libraries in lib\x64, headers in include\. Read as data: nothing is
 * loaded, so it is detected on any system.
 */
#define WIN_CUDA "NVIDIA GPU Computing Toolkit/CUDA/v11.2"

static void fake_windows_cuda(const struct fixture *fx)
{
	fx_touch(fx, WIN_CUDA "/bin/cudart64_110.dll");
	fx_touch(fx, WIN_CUDA "/bin/cublas64_11.dll");
	fx_touch(fx, WIN_CUDA "/bin/nvcc.exe");
	fx_touch(fx, WIN_CUDA "/lib/x64/cudart.lib");
	fx_write(fx, WIN_CUDA "/include/cuda_runtime_api.h",
		 "#define CUDART_VERSION 11020\n");
	fx_touch(fx, WIN_CUDA "/extras/CUPTI/lib64/cupti64_2020.3.1.dll");
}

static void test_detect_cuda_windows_installer_layout(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_windows_cuda(fx);
	expect_ok(detect_cuda_at(fx, WIN_CUDA, NULL, &f), &f);
	assert_string_equal(f.cuda.version, "11.2");
	assert_int_equal(f.cuda.cuda_major, 11);
	/* bin\ is where the loader finds the DLLs: PATH's folder */
	assert_true(has_dir(fx, &f.cuda.bin, WIN_CUDA "/bin"));
	assert_true(has_dir(fx, &f.cuda.lib, WIN_CUDA "/bin"));
	assert_true(has_dir(fx, &f.cuda.lib, WIN_CUDA "/extras/CUPTI/lib64"));
	assert_true(has_dir(fx, &f.cuda.cupti, WIN_CUDA "/extras/CUPTI/lib64"));
	assert_int_equal(f.cuda.cupti.n, 1);
	/* a year names no release, and no header says which */
	assert_null(f.cuda.cupti_version);
	assert_false(f.has_cudnn);
	found_release(&f);
}

/* cuDNN copied into the toolkit, as NVIDIA's Windows guide for 8.x says. */
static void test_detect_cuda_windows_with_cudnn_copied_in(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_windows_cuda(fx);
	fx_touch(fx, WIN_CUDA "/bin/cudnn64_8.dll");
	fx_touch(fx, WIN_CUDA "/bin/cudnn_ops_infer64_8.dll");
	fx_write(fx, WIN_CUDA "/include/cudnn_version.h",
		 "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 1\n"
		 "#define CUDNN_PATCHLEVEL 1\n");
	expect_ok(detect_cuda_at(fx, WIN_CUDA, NULL, &f), &f);
	assert_string_equal(f.cuda.version, "11.2");
	assert_true(f.has_cudnn);
	assert_string_equal(f.cudnn.version, "8.1.1");
	assert_int_equal(f.cudnn.cuda_major, 11);
	assert_true(has_dir(fx, &f.cudnn.lib, WIN_CUDA "/bin"));
	found_release(&f);
}

/* cuDNN's Windows archive: cudnn-windows-x86_64-<v>_cuda<major>-archive. */
static void test_detect_cudnn_windows_archive(void **state)
{
	static const char dir[] =
	    "cudnn-windows-x86_64-8.9.7.29_cuda12-archive";
	struct fixture *fx = *state;
	struct found f;
	struct buf p = BUF_INIT;

	buf_printf(&p, "%s/bin/cudnn64_8.dll", dir);
	fx_touch(fx, p.data);
	buf_reset(&p);
	buf_printf(&p, "%s/include/cudnn_version.h", dir);
	fx_write(fx, p.data,
		 "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n"
		 "#define CUDNN_PATCHLEVEL 7\n");
	buf_reset(&p);
	buf_printf(&p, "%s/lib/x64/cudnn.lib", dir);
	fx_touch(fx, p.data);
	buf_release(&p);
	expect_ok(detect_cudnn_at(fx, dir, NULL, 0, &f), &f);
	assert_string_equal(f.cudnn.version, "8.9.7");
	assert_int_equal(f.cudnn.cuda_major, 12);
	assert_int_equal(f.cudnn.lib.n, 1);
	found_release(&f);
}

/* ---- cuDNN --------------------------------------------------------------- */

#define TARBALL "cudnn-linux-x86_64-9.1.0.70_cuda12-archive"

static void
test_detect_cudnn_reads_tarball_headers_and_folder_name(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cudnn_tarball(fx, TARBALL, "9.1.0");
	expect_ok(detect_cudnn_at(fx, TARBALL, NULL, 0, &f), &f);
	assert_int_equal(f.cudnn.kind, KIT_CUDNN);
	assert_string_equal(f.cudnn.version, "9.1.0");
	assert_int_equal(f.cudnn.cuda_major, 12);
	assert_true(f.cudnn.registered);
	assert_string_equal(f.cudnn.prefix, f.path);
	assert_true(has_dir(fx, &f.cudnn.lib, TARBALL "/lib"));
	assert_true(has_dir(fx, &f.cudnn.include, TARBALL "/include"));
	assert_int_equal(f.cudnn.cupti.n, 0);
	found_release(&f);
}

static void test_detect_cudnn_reads_old_cudnn_h(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fx_write(fx, "cudnn-11.0-linux-x64-v8.0.5.39/cuda/include/cudnn.h",
		 "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 0\n"
		 "#define CUDNN_PATCHLEVEL 5\n");
	fx_touch(fx, "cudnn-11.0-linux-x64-v8.0.5.39/cuda/lib64/libcudnn.so.8");
	expect_ok(detect_cudnn_at(fx, "cudnn-11.0-linux-x64-v8.0.5.39/cuda",
				  NULL, 11, &f),
		  &f);
	assert_string_equal(f.cudnn.version, "8.0.5");
	assert_int_equal(f.cudnn.cuda_major, 11);
	found_release(&f);
}

static void test_detect_cudnn_reads_cuda_major_from_its_libraries(void **state)
{
	static const char elf[] = "\x7f"
				  "ELF....libcudnn_graph.so.9\0"
				  "libcublasLt.so.12\0libc.so.6\0";
	struct fixture *fx = *state;
	struct found f;

	fake_cudnn_tarball(fx, "cudnn", "9.1.0");
	fx_write_bytes(fx, "cudnn/lib/libcudnn_ops.so.9", elf, sizeof(elf));
	expect_ok(detect_cudnn_at(fx, "cudnn", NULL, 0, &f), &f);
	assert_int_equal(f.cudnn.cuda_major, 12);
	found_release(&f);
}

static void test_detect_cudnn_cuda_major_argument_wins(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cudnn_tarball(fx, TARBALL, "9.1.0");
	expect_ok(detect_cudnn_at(fx, TARBALL, NULL, 11, &f), &f);
	assert_int_equal(f.cudnn.cuda_major, 11);
	found_release(&f);
}

static void test_detect_cudnn_without_cuda_major_fails_with_hint(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cudnn_tarball(fx, "cudnn", "9.1.0");
	assert_int_equal(detect_cudnn_at(fx, "cudnn", NULL, 0, &f),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(f.err.msg.data, "which CUDA major"));
	assert_non_null(strstr(f.err.hint.data, "--cuda"));
	found_release(&f);

	/* a path with a space is one word of the hint, pasted as printed */
	fake_cudnn_tarball(fx, "my cudnn", "9.1.0");
	assert_int_equal(detect_cudnn_at(fx, "my cudnn", NULL, 0, &f),
			 CUENV_E_MANIFEST);
	{
		struct buf want = BUF_INIT;

		buf_printf(&want, "name it: cuenv add cudnn '%s' --cuda MAJOR",
			   f.path);
		assert_string_equal(f.err.hint.data, want.data);
		buf_release(&want);
	}
	found_release(&f);
}

static void test_detect_cudnn_as_overrides_version(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cudnn_tarball(fx, TARBALL, "9.1.0");
	expect_ok(detect_cudnn_at(fx, TARBALL, "9.1.0.70", 0, &f), &f);
	assert_string_equal(f.cudnn.version, "9.1.0.70");
	assert_int_equal(f.cudnn.cuda_major, 12);
	found_release(&f);
}

static void test_detect_cudnn_without_libcudnn_fails(void **state)
{
	struct fixture *fx = *state;
	struct found f;

	fake_cuda_classic(fx, "cuda", 12);
	assert_int_equal(detect_cudnn_at(fx, "cuda", NULL, 12, &f),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(f.err.msg.data, "libcudnn"));
	found_release(&f);
}

/* ---- sonames inside files ------------------------------------------------ */

static int major_in(const struct fixture *fx, const void *data, size_t len)
{
	char *p = fx_path(fx, "lib.so");
	int m;

	fx_write_bytes(fx, "lib.so", data, len);
	m = (int)detect_cuda_major_in_file(p);
	free(p);
	return m;
}

static void test_detect_major_in_file_reads_cublaslt_soname(void **state)
{
	static const char data[] = "\x7f"
				   "ELF\0\0\0\0libcublasLt.so.12\0libm.so.6";

	assert_int_equal(major_in(*state, data, sizeof(data) - 1), 12);
}

static void test_detect_major_in_file_reads_cudart_soname(void **state)
{
	static const char data[] = "................libcudart.so.11.0\0";

	assert_int_equal(major_in(*state, data, sizeof(data) - 1), 11);
}

static void test_detect_major_in_file_reads_nvrtc_soname(void **state)
{
	static const char data[] = "................libnvrtc.so.13";

	assert_int_equal(major_in(*state, data, sizeof(data) - 1), 13);
}

static void test_detect_major_in_file_without_soname_is_zero(void **state)
{
	static const char data[] =
	    "\x7f"
	    "ELF libcudnn.so.9 libcublasLt.so. libc.so.6";

	assert_int_equal(major_in(*state, data, sizeof(data) - 1), 0);
}

static void test_detect_major_in_missing_or_tiny_file_is_zero(void **state)
{
	struct fixture *fx = *state;
	char *p = fx_path(fx, "missing.so");

	assert_int_equal(detect_cuda_major_in_file(p), 0);
	assert_int_equal(major_in(fx, "libnvrtc.so.12", 14), 0);
	assert_int_equal(major_in(fx, "", 0), 0);
	free(p);
}

#define FS_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

static void test_detect_soname_per_release(void **state)
{
	static const char *const cases[][3] = {
	    {"cudart", "12.4.1", "libcudart.so.12"},
	    {"cudart", "11.8", "libcudart.so.11.0"},
	    {"cudart", "10.2", "libcudart.so.10.2"},
	    {"cupti", "11.2.2", "libcupti.so.11.2"},
	    {"cupti", "13.0", "libcupti.so.13"},
	    {"cublasLt", "11.8", "libcublasLt.so.11"},
	    {"cublas", "10.2", "libcublas.so.10"},
	    {"cublas", "10.0", "libcublas.so.10.0"},
	    {"cudnn", "8.9.7.29", "libcudnn.so.8"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *s = detect_soname(cases[i][0], cases[i][1]);

		assert_string_equal(s, cases[i][2]);
		free(s);
	}
	assert_null(detect_soname("cudart", "x"));
	assert_null(detect_soname("cudart", "../12"));
	/* the driver (libcuda.so.1) is not in the table */
	assert_null(detect_soname("cuda", "12"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_detect_soname_per_release),
	    FS_TEST(test_detect_cuda_reads_version_json),
	    FS_TEST(test_detect_cuda_reads_version_txt),
	    FS_TEST(test_detect_cuda_prefers_version_json_to_txt),
	    FS_TEST(test_detect_cuda_version_json_fifo_fails_at_once),
	    FS_TEST(test_detect_cuda_version_json_too_large_fails),
	    FS_TEST(test_detect_cuda_version_json_unread_with_as_warns),
	    FS_TEST(test_detect_cuda_reads_version_from_runtime_header),
	    FS_TEST(test_detect_cuda_reads_version_from_cuda_h),
	    FS_TEST(test_detect_cuda_falls_back_to_library_file_name),
	    FS_TEST(test_detect_cuda_without_any_version_asks_for_as),
	    FS_TEST(test_detect_cuda_as_overrides_detected_version),
	    FS_TEST(test_detect_cuda_as_names_an_undetectable_version),
	    FS_TEST(test_detect_cuda_rejects_invalid_as),
	    FS_TEST(test_detect_cuda_lists_classic_prefix_dirs),
	    FS_TEST(test_detect_cuda_finds_cupti_under_extras),
	    FS_TEST(test_detect_cupti_year_file_defers_to_header),
	    FS_TEST(test_detect_cupti_from_version_json),
	    FS_TEST(test_detect_cupti_year_file_gives_way_to_soname),
	    FS_TEST(test_detect_cupti_mixed_sources_warn),
	    FS_TEST(test_detect_wheel_mix_names_overwritten_files),
	    FS_TEST(test_detect_debian_lib_cuda_is_usr),
	    FS_TEST(test_detect_conda_lib_is_linked),
	    FS_TEST(test_detect_cudnn_mixed_sources_warn),
	    FS_TEST(test_detect_cuda_without_cupti_lists_none),
	    FS_TEST(test_detect_cuda_finds_targets_layout),
	    FS_TEST(test_detect_cuda_lists_symlinked_lib_dir_once),
	    FS_TEST(test_detect_cuda_prefix_is_the_real_path),
	    FS_TEST(test_detect_cuda_finds_cudnn_bundled_in_wheel),
	    FS_TEST(test_detect_cuda_notes_wheel_components),
	    FS_TEST(test_detect_cuda_takes_version_from_wheel_dist_info),
	    FS_TEST(test_detect_cuda_reads_site_packages_nvidia_layout),
	    FS_TEST(test_detect_wheel_cudnn_prefix_is_its_wheel_folder),
	    FS_TEST(test_detect_cuda_bundled_cudnn_lists_only_cudnn_lib_dirs),
	    FS_TEST(test_detect_cuda_without_libcudart_fails),
	    FS_TEST(test_detect_cuda_of_missing_path_fails),
	    FS_TEST(test_detect_cuda_of_a_file_fails),
	    cmocka_unit_test(test_detect_env_candidates_order_and_once),
	    FS_TEST(test_detect_cuda_windows_installer_layout),
	    FS_TEST(test_detect_cuda_windows_with_cudnn_copied_in),
	    FS_TEST(test_detect_cudnn_windows_archive),
	    FS_TEST(test_detect_cudnn_reads_tarball_headers_and_folder_name),
	    FS_TEST(test_detect_cudnn_reads_old_cudnn_h),
	    FS_TEST(test_detect_cudnn_reads_cuda_major_from_its_libraries),
	    FS_TEST(test_detect_cudnn_cuda_major_argument_wins),
	    FS_TEST(test_detect_cudnn_without_cuda_major_fails_with_hint),
	    FS_TEST(test_detect_cudnn_as_overrides_version),
	    FS_TEST(test_detect_cudnn_without_libcudnn_fails),
	    FS_TEST(test_detect_major_in_file_reads_cublaslt_soname),
	    FS_TEST(test_detect_major_in_file_reads_cudart_soname),
	    FS_TEST(test_detect_major_in_file_reads_nvrtc_soname),
	    FS_TEST(test_detect_major_in_file_without_soname_is_zero),
	    FS_TEST(test_detect_major_in_missing_or_tiny_file_is_zero),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
