/*
 * cuenv mirror's core: the layout (NVIDIA's paths below DIR), the plan
 * (what an install fetches, once each) and the run against a file://
 * upstream: fetched once, kept when verified, replaced when damaged,
 * resumed from a partial download, never left half made.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "net/digest.h"
#include "plat/file.h"
#include "install/mirror.h"
#include "fakes/fixture.h"

#define NV "https://developer.download.nvidia.com/"
#define RD "compute/cuda/redist/"
#define CUDART RD "cuda_cudart/linux-x86_64/cuda_cudart-12.4.127.tar.xz"
#define NVCC RD "cuda_nvcc/linux-x86_64/cuda_nvcc-12.4.131.tar.xz"
#define CUBLAS RD "libcublas/linux-x86_64/libcublas-12.4.5.8.tar.xz"

/* ---- mirror_path ---------------------------------------------------------- */

static void expect_path(const char *url, const char *want)
{
	char *p = mirror_path(url);

	if (!want) {
		assert_null(p);
		return;
	}
	assert_non_null(p);
	assert_string_equal(p, want);
	free(p);
}

static void test_mirror_path_keeps_nvidias_paths(void **state)
{
	(void)state;
	expect_path(NV CUDART, CUDART);
	expect_path("https://developer.nvidia.com/downloads/x/cudnn.tar.xz",
		    "downloads/x/cudnn.tar.xz");
}

static void test_mirror_path_refuses_other_hosts_and_odd_paths(void **state)
{
	(void)state;
	expect_path("https://example.com/" CUDART, NULL);
	expect_path("http://developer.download.nvidia.com/" CUDART, NULL);
	expect_path("https://developer.download.nvidia.com.evil/x", NULL);
	expect_path(NV "compute/../../etc/passwd", NULL);
	expect_path(NV "compute/./x", NULL);
	expect_path(NV "compute//x", NULL);
	expect_path(NV "compute/x/", NULL);
	expect_path(NV, NULL);
	expect_path(NV "compute/a b", NULL);
	expect_path(NV "compute/a%2e%2e", NULL);
	expect_path(NV "compute/a\\b", NULL);
}

/* ---- a world: upstream files and their catalogue -------------------------- */

struct world {
	struct fixture *fx;
	struct catalog cat;
	char *up;  /* file:// URL of the upstream */
	char *dir; /* the mirror */
	char sha[3][DIGEST_HEX_LEN + 1];
	size_t size[3];
};

static const char *const paths[3] = {CUDART, NVCC, CUBLAS};
static const char *const comps[3] = {"cuda_cudart", "cuda_nvcc", "libcublas"};

/* Upstream bytes for the three archives; the catalogue says sha (a wrong
 * one for index bad, when >= 0). */
static void make_world(struct fixture *fx, struct world *w, int bad)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf json = BUF_INIT, rel = BUF_INIT, url = BUF_INIT;
	char *man;

	memset(w, 0, sizeof(*w));
	w->fx = fx;
	buf_adds(&json, "{\"release_label\": \"12.4.1\", "
			"\"release_product\": \"cuda\"");
	for (int i = 0; i < 3; i++) {
		struct buf body = BUF_INIT;
		char *p;

		for (int k = 0; k < 1000 * (i + 1); k++)
			buf_printf(&body, "%s %d\n", comps[i], k);
		buf_reset(&rel);
		buf_printf(&rel, "up/%s", paths[i]);
		fx_write(fx, rel.data, body.data);
		p = fx_path(fx, rel.data);
		assert_int_equal(digest_file(p, w->sha[i], &err), CUENV_OK);
		w->size[i] = body.len;
		free(p);
		buf_printf(&json,
			   ", \"%s\": {\"version\": \"1\", \"linux-x86_64\": "
			   "{\"relative_path\": \"%s\", \"sha256\": \"%s\", "
			   "\"size\": \"%zu\"}}",
			   comps[i], paths[i] + strlen(RD),
			   i == bad ? "00000000000000000000000000000000"
				      "00000000000000000000000000000000"
				    : w->sha[i],
			   body.len);
		buf_release(&body);
	}
	buf_adds(&json, "}\n");
	fx_write(fx, "cat/cuda/redistrib_12.4.1.json", json.data);
	man = fx_path(fx, "cat");
	assert_int_equal(catalog_load(&w->cat, man, "linux-x86_64", &err),
			 CUENV_OK);
	assert_int_equal(w->cat.n, 1);
	buf_printf(&url, "file://%s/up", fx->root);
	w->up = buf_detach(&url);
	w->dir = fx_path(fx, "m");
	free(man);
	buf_release(&json);
	buf_release(&rel);
}

static void end_world(struct world *w)
{
	catalog_release(&w->cat);
	free(w->up);
	free(w->dir);
}

static struct mirror_opts run_opts(const struct world *w)
{
	struct mirror_opts o = {.fetch = FETCH_OPTS_INIT};

	o.dir = w->dir;
	o.upstream = w->up;
	o.fetch.allow_file = 1;
	o.fetch.backoff_ms = 1;
	o.fetch.retries = 0;
	return o;
}

static const struct mirror_file *planned(const struct mirror_plan *p,
					 const char *path)
{
	for (size_t i = 0; i < p->nfiles; i++)
		if (!strcmp(p->files[i].path, path))
			return &p->files[i];
	return NULL;
}

/* ---- the plan -------------------------------------------------------------- */

static void test_mirror_plan_default_components_and_manifest(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct plan_opts io = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct mirror_file *m;

	make_world(*state, &w, -1);
	mirror_plan_init(&p);
	assert_int_equal(mirror_plan_add(&p, w.cat.v[0], KIT_CUDA, &io,
					 "linux-x86_64", &err),
			 CUENV_OK);
	assert_int_equal(p.nfiles, 4);
	assert_non_null(planned(&p, CUDART));
	assert_non_null(planned(&p, NVCC));
	assert_non_null(planned(&p, CUBLAS));
	assert_string_equal(planned(&p, CUBLAS)->url, NV CUBLAS);
	m = planned(&p, RD "redistrib_12.4.1.json");
	assert_non_null(m);
	assert_non_null(m->origin);
	assert_int_equal(p.nentries, 1);
	assert_string_equal(p.entries[0].components,
			    "cuda_cudart, cuda_nvcc, libcublas");
	mirror_plan_release(&p);
	end_world(&w);
}

static void test_mirror_plan_request_resolves_then_adds(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct plan_opts io = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	mirror_plan_init(&p);
	/* a prefix, resolved as install resolves it */
	assert_int_equal(mirror_plan_request(&p, &w.cat, "12.4", NULL, NULL, -1,
					     "linux-x86_64", &io, &err),
			 CUENV_OK);
	assert_int_equal(p.nfiles, 4);
	assert_non_null(planned(&p, CUDART));
	assert_non_null(planned(&p, RD "redistrib_12.4.1.json"));
	/* none of that release: another machine's platform is named */
	assert_int_not_equal(mirror_plan_request(&p, &w.cat, "11.8", NULL, NULL,
						 -1, "linux-ppc64le", &io,
						 &err),
			     CUENV_OK);
	assert_non_null(strstr(err.msg.data, "11.8"));
	assert_non_null(strstr(err.msg.data, " for linux-ppc64le"));
	assert_int_equal(p.nfiles, 4);
	err_release(&err);
	mirror_plan_release(&p);
	end_world(&w);
}

static void test_mirror_plan_runtime_only_leaves_nvcc_out(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct plan_opts io = {.runtime_only = 1};
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	mirror_plan_init(&p);
	assert_int_equal(mirror_plan_add(&p, w.cat.v[0], KIT_CUDA, &io,
					 "linux-x86_64", &err),
			 CUENV_OK);
	assert_non_null(planned(&p, CUDART));
	assert_null(planned(&p, NVCC));
	assert_int_equal(p.nfiles, 3);
	mirror_plan_release(&p);
	end_world(&w);
}

static void test_mirror_plan_cupti_alone_takes_nothing_else(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct plan_opts io = {.runtime_only = 1};
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	mirror_plan_init(&p);
	/* the release has no cuda_cupti: only its manifest */
	assert_int_equal(mirror_plan_add(&p, w.cat.v[0], KIT_CUPTI, &io,
					 "linux-x86_64", &err),
			 CUENV_OK);
	assert_int_equal(p.nfiles, 1);
	assert_int_equal(p.entries[0].kind, KIT_CUPTI);
	mirror_plan_release(&p);
	end_world(&w);
}

static void test_mirror_plan_lists_a_shared_file_once(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct plan_opts io = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	mirror_plan_init(&p);
	assert_int_equal(mirror_plan_add(&p, w.cat.v[0], KIT_CUDA, &io,
					 "linux-x86_64", &err),
			 CUENV_OK);
	io.runtime_only = 1;
	assert_int_equal(mirror_plan_add(&p, w.cat.v[0], KIT_CUDA, &io,
					 "linux-x86_64", &err),
			 CUENV_OK);
	assert_int_equal(p.nfiles, 4);
	assert_int_equal(p.nentries, 2); /* two component sets */
	mirror_plan_release(&p);
	end_world(&w);
}

static void test_mirror_plan_refuses_two_sha256_for_one_path(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct plan_opts io = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	mirror_plan_init(&p);
	assert_int_equal(mirror_plan_add(&p, w.cat.v[0], KIT_CUDA, &io,
					 "linux-x86_64", &err),
			 CUENV_OK);
	w.cat.v[0]->parts[0].sha256[0] =
	    w.cat.v[0]->parts[0].sha256[0] == 'a' ? 'b' : 'a';
	assert_int_equal(mirror_plan_add(&p, w.cat.v[0], KIT_CUDA, &io,
					 "linux-x86_64", &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "two sha256"));
	err_release(&err);
	mirror_plan_release(&p);
	end_world(&w);
}

static void test_mirror_plan_refuses_an_archive_off_nvidias_host(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct plan_opts io = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	mirror_plan_init(&p);
	free(w.cat.v[0]->parts[0].url);
	w.cat.v[0]->parts[0].url = strdup("https://example.com/x.tar.xz");
	assert_int_equal(mirror_plan_add(&p, w.cat.v[0], KIT_CUDA, &io,
					 "linux-x86_64", &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "'https://example.com/x.tar.xz'"));
	err_release(&err);
	mirror_plan_release(&p);
	end_world(&w);
}

/* ---- the run ----------------------------------------------------------------- */

static void plan_all(struct world *w, struct mirror_plan *p)
{
	struct plan_opts io = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	mirror_plan_init(p);
	assert_int_equal(mirror_plan_add(p, w->cat.v[0], KIT_CUDA, &io,
					 "linux-x86_64", &err),
			 CUENV_OK);
}

static int file_exists(const struct fixture *fx, const char *rel)
{
	char *p = fx_path(fx, rel);
	int ok = !access(p, F_OK);

	free(p);
	return ok;
}

static void test_mirror_run_fetches_once_then_keeps(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct mirror_opts o;
	struct mirror_report r;
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	plan_all(&w, &p);
	o = run_opts(&w);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_OK);
	assert_int_equal(r.fetched, 3);
	assert_int_equal(r.copied, 1);
	assert_int_equal(r.fetched_bytes, w.size[0] + w.size[1] + w.size[2]);
	assert_true(file_exists(w.fx, "m/" CUBLAS));
	assert_true(file_exists(w.fx, "m/" RD "redistrib_12.4.1.json"));
	assert_true(file_exists(w.fx, "m/cuenv-mirror.json"));
	assert_true(file_exists(w.fx, "m/README.txt"));
	assert_true(file_exists(w.fx, "m/cuenv-catalogue/cuda/"
				      "redistrib_12.4.1.json"));
	/* Again, with the upstream gone: nothing to fetch. */
	free(w.up);
	w.up = strdup("file:///nonexistent-cuenv-upstream");
	o = run_opts(&w);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_OK);
	assert_int_equal(r.fetched, 0);
	assert_int_equal(r.had, 4);
	mirror_plan_release(&p);
	end_world(&w);
}

static void test_mirror_run_replaces_a_damaged_file(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct mirror_opts o;
	struct mirror_report r;
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	plan_all(&w, &p);
	o = run_opts(&w);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_OK);
	/* Same size, other bytes (and so another mtime). */
	{
		char *path = fx_path(w.fx, "m/" NVCC);
		FILE *f = fopen(path, "r+");

		assert_non_null(f);
		assert_int_equal(fputc('#', f), '#');
		assert_int_equal(fclose(f), 0);
		free(path);
	}
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_OK);
	assert_int_equal(r.fetched, 1);
	assert_int_equal(r.repaired, 1);
	assert_int_equal(r.had, 3);
	mirror_plan_release(&p);
	end_world(&w);
}

/* Make path 100 s older, keeping its atime; its times into t (a stamp
 * taken just after a write is not trusted: an old file's is). */
static void age(const char *path, struct timespec t[2])
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	t[0] = st.st_atim;
	t[1] = st.st_mtim;
	t[1].tv_sec -= 100;
	assert_int_equal(utimensat(AT_FDCWD, path, t, 0), 0);
}

static void test_mirror_run_verify_hashes_even_stamped_files(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct mirror_opts o;
	struct mirror_report r;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path;
	struct timespec t[2];
	FILE *f;

	make_world(*state, &w, -1);
	plan_all(&w, &p);
	o = run_opts(&w);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_OK);
	path = fx_path(w.fx, "m/" CUDART);
	age(path, t);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_OK);
	assert_int_equal(r.had, 4);
	/* ... damaged keeping its size and mtime: the stamp cannot see it. */
	f = fopen(path, "r+");
	assert_non_null(f);
	assert_int_equal(fputc('#', f), '#');
	assert_int_equal(fclose(f), 0);
	assert_int_equal(utimensat(AT_FDCWD, path, t, 0), 0);
	free(path);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_OK);
	assert_int_equal(r.repaired, 0);
	o.verify = 1;
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_OK);
	assert_int_equal(r.repaired, 1);
	mirror_plan_release(&p);
	end_world(&w);
}

/* A stamp records the sha256 it was taken for: when the catalogue's
 * sha256 of that path changes (the same size, the file untouched), the
 * stamp does not vouch for the new one. */
static void test_mirror_run_stamp_is_for_its_sha256(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct mirror_opts o;
	struct mirror_report r;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path;
	struct timespec t[2];
	size_t i;

	make_world(*state, &w, -1);
	plan_all(&w, &p);
	o = run_opts(&w);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_OK);
	path = fx_path(w.fx, "m/" CUDART);
	age(path, t);
	free(path);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_OK);
	assert_int_equal(r.had, 4);
	for (i = 0; i < p.nfiles && strcmp(p.files[i].path, CUDART); i++)
		;
	assert_true(i < p.nfiles);
	memset(p.files[i].sha256, 'e', 64);
	/* hashed again: the file is not what the catalogue now says, and
	 * upstream's copy is not either */
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_E_INTEGRITY);
	err_release(&err);
	mirror_plan_release(&p);
	end_world(&w);
}

static void test_mirror_run_wrong_sha_leaves_no_file(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct mirror_opts o;
	struct mirror_report r;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf part = BUF_INIT;

	make_world(*state, &w, 1); /* cuda_nvcc's sha256 is wrong */
	plan_all(&w, &p);
	o = run_opts(&w);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_E_INTEGRITY);
	assert_non_null(strstr(err.msg.data, "sha256 mismatch for 'file://"));
	assert_non_null(strstr(err.msg.data, NVCC "'"));
	assert_false(file_exists(w.fx, "m/" NVCC));
	buf_printf(&part, "m/.cuenv-mirror/tmp/%s.part",
		   planned(&p, NVCC)->sha256);
	assert_false(file_exists(w.fx, part.data));
	/* What came before it stays, verified. */
	assert_true(file_exists(w.fx, "m/" CUDART));
	buf_release(&part);
	err_release(&err);
	mirror_plan_release(&p);
	end_world(&w);
}

static void test_mirror_run_resumes_a_partial_download(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct mirror_opts o;
	struct mirror_report r;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf part = BUF_INIT, text = BUF_INIT;
	char *src;

	make_world(*state, &w, -1);
	plan_all(&w, &p);
	src = fx_path(w.fx, "up/" CUBLAS);
	assert_int_equal(file_read(src, 1 << 20, 0, &text, &err), CUENV_OK);
	buf_setlen(&text, 100);
	buf_printf(&part, "m/.cuenv-mirror/tmp/%s.part", w.sha[2]);
	fx_write(w.fx, part.data, text.data);
	o = run_opts(&w);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_OK);
	assert_int_equal(r.fetched_bytes,
			 w.size[0] + w.size[1] + w.size[2] - 100);
	assert_false(file_exists(w.fx, part.data));
	free(src);
	buf_release(&part);
	buf_release(&text);
	mirror_plan_release(&p);
	end_world(&w);
}

static void test_mirror_run_refuses_a_file_as_dir(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct mirror_opts o;
	struct mirror_report r;
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	plan_all(&w, &p);
	fx_write(w.fx, "plain", "x");
	free(w.dir);
	w.dir = fx_path(w.fx, "plain/m");
	o = run_opts(&w);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "plain/m"));
	err_release(&err);
	mirror_plan_release(&p);
	end_world(&w);
}

static void test_mirror_run_index_keeps_earlier_runs(void **state)
{
	struct world w;
	struct mirror_plan a, b;
	struct plan_opts io = {.runtime_only = 1};
	struct mirror_opts o;
	struct mirror_report r;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	char *index, *readme;

	make_world(*state, &w, -1);
	mirror_plan_init(&a);
	assert_int_equal(mirror_plan_add(&a, w.cat.v[0], KIT_CUDA, &io,
					 "linux-x86_64", &err),
			 CUENV_OK);
	o = run_opts(&w);
	assert_int_equal(mirror_run(&a, &o, &r, &err), CUENV_OK);
	plan_all(&w, &b);
	assert_int_equal(mirror_run(&b, &o, &r, &err), CUENV_OK);
	assert_int_equal(r.fetched, 1); /* cuda_nvcc */
	/* A third run with the first plan: the index still lists both. */
	assert_int_equal(mirror_run(&a, &o, &r, &err), CUENV_OK);
	index = fx_path(w.fx, "m/cuenv-mirror.json");
	assert_int_equal(file_read(index, 1 << 20, 0, &text, &err), CUENV_OK);
	assert_non_null(strstr(text.data, "\"cuda_cudart, libcublas\""));
	assert_non_null(
	    strstr(text.data, "\"cuda_cudart, cuda_nvcc, libcublas\""));
	assert_non_null(strstr(text.data, NVCC));
	readme = fx_path(w.fx, "m/README.txt");
	buf_reset(&text);
	assert_int_equal(file_read(readme, 1 << 20, 0, &text, &err), CUENV_OK);
	assert_non_null(strstr(text.data, "It holds 4 files"));
	assert_non_null(strstr(text.data, "cuenv install --mirror file://"));
	free(index);
	free(readme);
	buf_release(&text);
	mirror_plan_release(&a);
	mirror_plan_release(&b);
	end_world(&w);
}

static void test_mirror_run_refuses_a_damaged_index(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct mirror_opts o;
	struct mirror_report r;
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	plan_all(&w, &p);
	fx_write(w.fx, "m/cuenv-mirror.json", "{\"files\": 3}");
	o = run_opts(&w);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "cuenv-mirror.json'"));
	/* Nothing was fetched before the index was read. */
	assert_int_equal(r.fetched, 0);
	assert_false(file_exists(w.fx, "m/" CUDART));
	err_release(&err);
	mirror_plan_release(&p);
	end_world(&w);
}

/* A folder where an archive should be: an error, with and without
 * verify, never counted as had (verified() returned cuenv_fail()'s
 * positive code, which ensure_file() read as "verified"). */
static void test_mirror_run_refuses_a_folder_in_an_archives_place(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct mirror_opts o;
	struct mirror_report r;
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	plan_all(&w, &p);
	fx_mkdir(w.fx, "m/" CUDART);
	for (int verify = 0; verify < 2; verify++) {
		o = run_opts(&w);
		o.verify = verify;
		assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_E_STORE);
		assert_non_null(strstr(err.msg.data, "is a folder where the "
						     "mirror keeps a file"));
		assert_int_equal(r.had, 0);
		assert_false(file_exists(w.fx, "m/cuenv-mirror.json"));
		err_release(&err);
	}
	mirror_plan_release(&p);
	end_world(&w);
}

/* A link (to a file of the right size and bytes, even) in an archive's
 * place is not the mirror's file: replaced, its target left alone. */
static void test_mirror_run_replaces_a_link_in_an_archives_place(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct mirror_opts o;
	struct mirror_report r;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct stat st;
	char *dest, *target;

	make_world(*state, &w, -1);
	plan_all(&w, &p);
	o = run_opts(&w);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_OK);
	dest = fx_path(w.fx, "m/" CUDART);
	target = fx_path(w.fx, "outside");
	assert_int_equal(rename(dest, target), 0);
	assert_int_equal(symlink(target, dest), 0);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_OK);
	assert_int_equal(r.had, 3);
	assert_int_equal(r.repaired, 1);
	assert_int_equal(lstat(dest, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(lstat(target, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	free(dest);
	free(target);
	mirror_plan_release(&p);
	end_world(&w);
}

/* A link at each folder below DIR: refused naming it, nothing written
 * where it points. */
static void test_mirror_run_never_writes_through_a_link(void **state)
{
	static const char *const at[] = {
	    "compute",	      "compute/cuda",  "compute/cuda/redist",
	    RD "cuda_cudart", ".cuenv-mirror", "cuenv-catalogue",
	};
	struct world w;
	struct mirror_plan p;
	struct mirror_opts o;
	struct mirror_report r;
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	plan_all(&w, &p);
	o = run_opts(&w);
	for (size_t i = 0; i < sizeof(at) / sizeof(*at); i++) {
		struct buf rel = BUF_INIT;
		char *link, *target = fx_path(w.fx, "outside");

		fx_remove_tree(w.dir);
		fx_remove_tree(target);
		fx_mkdir(w.fx, "outside");
		buf_printf(&rel, "m/%s", at[i]);
		link = fx_path(w.fx, rel.data);
		fx_mkdir(w.fx, rel.data);
		assert_int_equal(rmdir(link), 0);
		assert_int_equal(symlink(target, link), 0);
		assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_E_STORE);
		if (!strstr(err.msg.data, link) ||
		    !strstr(err.msg.data, "is a symbolic link, not a folder"))
			fail_msg("%s: %s", at[i], err.msg.data);
		err_release(&err);
		/* nothing was made where the link points */
		assert_int_equal(rmdir(target), 0);
		free(link);
		free(target);
		buf_release(&rel);
	}
	mirror_plan_release(&p);
	end_world(&w);
}

/* An index whose release names a component that is no name (a newline,
 * a '/'): refused as damaged before anything is fetched. */
static void test_mirror_run_refuses_an_index_with_a_bad_component(void **state)
{
	struct world w;
	struct mirror_plan p;
	struct mirror_opts o;
	struct mirror_report r;
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	plan_all(&w, &p);
	fx_write(w.fx, "m/cuenv-mirror.json",
		 "{\"files\": [], \"releases\": [{\"kind\": \"cuda\", "
		 "\"source\": \"redist\", \"version\": \"12.4.1\", "
		 "\"cuda_major\": 12, \"platform\": \"linux-x86_64\", "
		 "\"components\": \"cuda_cudart, ../x\\ny\"}]}");
	o = run_opts(&w);
	assert_int_equal(mirror_run(&p, &o, &r, &err), CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "bad release entry 0"));
	assert_int_equal(r.fetched, 0);
	err_release(&err);
	mirror_plan_release(&p);
	end_world(&w);
}

/* ---- mirror_plan_all ---------------------------------------------------------- */

/* The fake sources: the world's catalogue folder (its linux-x86_64 rows,
 * whatever the platform asked, which is noted), and one build for every
 * --for. */
struct fake_src {
	struct world *w;
	int catalogs, frameworks; /* calls */
	char last_platform[32];
	int fail_catalog;
	const char *build_cudnn; /* the build's cuDNN */
	const char *cudnn_seen;	 /* what the last pick was given */
	int quiet_seen, source_seen;
	size_t cat_n_seen;
};

static int fake_catalog(void *ctx, const char *platform, struct catalog *cat,
			struct cuenv_err *err)
{
	struct fake_src *f = ctx;
	char *man = fx_path(f->w->fx, "cat");
	int rc;

	f->catalogs++;
	snprintf(f->last_platform, sizeof(f->last_platform), "%s", platform);
	if (f->fail_catalog) {
		free(man);
		return cuenv_fail(err, CUENV_E_MANIFEST, "no catalogue");
	}
	rc = catalog_load(cat, man, "linux-x86_64", err);
	free(man);
	return rc;
}

static int fake_framework(void *ctx, const char *arg, const struct catalog *cat,
			  const char *cudnn, int source, int quiet,
			  struct framework_builds *out, struct cuenv_err *err)
{
	struct fake_src *f = ctx;

	(void)arg;
	(void)err;
	f->frameworks++;
	f->cudnn_seen = cudnn;
	f->quiet_seen = quiet;
	f->source_seen = source;
	f->cat_n_seen = cat->n;
	out->v = calloc(1, sizeof(*out->v));
	out->n = 1;
	out->v[0].cuda = strdup("12.4");
	out->v[0].cudnn = f->build_cudnn ? strdup(f->build_cudnn) : NULL;
	return CUENV_OK;
}

static void test_mirror_plan_all_for_picks_once_then_each_platform(void **state)
{
	struct world w;
	struct fake_src f = {.w = &w};
	struct mirror_sources src = {fake_catalog, fake_framework, &f};
	struct mirror_plan p;
	struct plan_opts io = {0};
	struct mirror_asked q = {.fors = STRV_INIT,
				 .plats = STRV_INIT,
				 .source = -1,
				 .quiet = 1,
				 .io = &io};
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	mirror_plan_init(&p);
	strv_push(&q.fors, "torch==2.3");
	strv_push(&q.plats, "linux-x86_64");
	assert_int_equal(mirror_plan_all(&p, &q, &src, &err), CUENV_OK);
	assert_int_equal(f.frameworks, 1);
	assert_int_equal(f.cat_n_seen, 1);
	assert_int_equal(f.quiet_seen, 1);
	assert_int_equal(f.source_seen, -1);
	assert_null(f.cudnn_seen);
	assert_int_equal(p.nfiles, 4);
	assert_non_null(planned(&p, CUDART));
	assert_int_equal(p.nentries, 1);
	/* a second platform: the builds asked again there, the framework
	 * not picked again */
	strv_push(&q.plats, "linux-sbsa");
	f.frameworks = f.catalogs = 0;
	assert_int_equal(mirror_plan_all(&p, &q, &src, &err), CUENV_OK);
	assert_int_equal(f.catalogs, 2);
	assert_string_equal(f.last_platform, "linux-sbsa");
	assert_int_equal(f.frameworks, 1);
	assert_int_equal(p.nentries, 2);
	assert_string_equal(p.entries[1].platform, "linux-sbsa");
	assert_string_equal(p.entries[1].version, "12.4.1");
	strv_release(&q.fors);
	strv_release(&q.plats);
	mirror_plan_release(&p);
	end_world(&w);
}

/* --cudnn wins over the build's cuDNN, and is what the pick is given. */
static void test_mirror_plan_all_cudnn_asked_wins(void **state)
{
	struct world w;
	struct fake_src f = {.w = &w, .build_cudnn = "8.9"};
	struct mirror_sources src = {fake_catalog, fake_framework, &f};
	struct mirror_plan p;
	struct plan_opts io = {0};
	struct mirror_asked q = {
	    .fors = STRV_INIT, .plats = STRV_INIT, .source = -1, .io = &io};
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	mirror_plan_init(&p);
	strv_push(&q.fors, "torch==2.3");
	strv_push(&q.plats, "linux-x86_64");
	assert_int_not_equal(mirror_plan_all(&p, &q, &src, &err), CUENV_OK);
	assert_non_null(strstr(err.msg.data, "8.9"));
	err_release(&err);
	q.cudnn = "9.1";
	assert_int_not_equal(mirror_plan_all(&p, &q, &src, &err), CUENV_OK);
	assert_string_equal(f.cudnn_seen, "9.1");
	assert_non_null(strstr(err.msg.data, "9.1"));
	assert_null(strstr(err.msg.data, "8.9"));
	err_release(&err);
	strv_release(&q.fors);
	strv_release(&q.plats);
	mirror_plan_release(&p);
	end_world(&w);
}

static void test_mirror_plan_all_stops_at_the_catalogue(void **state)
{
	struct world w;
	struct fake_src f = {.w = &w, .fail_catalog = 1};
	struct mirror_sources src = {fake_catalog, fake_framework, &f};
	struct mirror_plan p;
	struct plan_opts io = {0};
	char *specs[] = {"12.4"};
	struct mirror_asked q = {.specs = specs,
				 .nspecs = 1,
				 .fors = STRV_INIT,
				 .plats = STRV_INIT,
				 .source = -1,
				 .io = &io};
	struct cuenv_err err = CUENV_ERR_INIT;

	make_world(*state, &w, -1);
	mirror_plan_init(&p);
	strv_push(&q.fors, "jax");
	strv_push(&q.plats, "linux-x86_64");
	strv_push(&q.plats, "linux-sbsa");
	assert_int_equal(mirror_plan_all(&p, &q, &src, &err), CUENV_E_MANIFEST);
	assert_int_equal(f.catalogs, 1);
	assert_int_equal(f.frameworks, 0);
	assert_int_equal(p.nfiles, 0);
	err_release(&err);
	/* the SPEC alone, on this platform */
	f.fail_catalog = 0;
	strv_release(&q.fors);
	strv_remove(&q.plats, 1);
	assert_int_equal(mirror_plan_all(&p, &q, &src, &err), CUENV_OK);
	assert_int_equal(f.frameworks, 0);
	assert_int_equal(p.nfiles, 4);
	strv_release(&q.plats);
	mirror_plan_release(&p);
	end_world(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)
	    cmocka_unit_test(test_mirror_path_keeps_nvidias_paths),
	    cmocka_unit_test(
		test_mirror_path_refuses_other_hosts_and_odd_paths),
	    T(test_mirror_plan_default_components_and_manifest),
	    T(test_mirror_plan_request_resolves_then_adds),
	    T(test_mirror_plan_all_for_picks_once_then_each_platform),
	    T(test_mirror_plan_all_cudnn_asked_wins),
	    T(test_mirror_plan_all_stops_at_the_catalogue),
	    T(test_mirror_plan_runtime_only_leaves_nvcc_out),
	    T(test_mirror_plan_cupti_alone_takes_nothing_else),
	    T(test_mirror_plan_lists_a_shared_file_once),
	    T(test_mirror_plan_refuses_two_sha256_for_one_path),
	    T(test_mirror_plan_refuses_an_archive_off_nvidias_host),
	    T(test_mirror_run_fetches_once_then_keeps),
	    T(test_mirror_run_replaces_a_damaged_file),
	    T(test_mirror_run_verify_hashes_even_stamped_files),
	    T(test_mirror_run_stamp_is_for_its_sha256),
	    T(test_mirror_run_wrong_sha_leaves_no_file),
	    T(test_mirror_run_resumes_a_partial_download),
	    T(test_mirror_run_refuses_a_file_as_dir),
	    T(test_mirror_run_index_keeps_earlier_runs),
	    T(test_mirror_run_refuses_a_damaged_index),
	    T(test_mirror_run_refuses_a_folder_in_an_archives_place),
	    T(test_mirror_run_replaces_a_link_in_an_archives_place),
	    T(test_mirror_run_never_writes_through_a_link),
	    T(test_mirror_run_refuses_an_index_with_a_bad_component),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
