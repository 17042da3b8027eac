#include "store/detect.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "plat/plat_path.h"
#include "plat/file.h"
#include "artifact/elf.h"
#include "nvidia/nvlib.h"
#include "artifact/pe.h"
#include "plat/plat_fs.h"
#include "plat/shell.h"
#include "base/version.h"
#include "base/xalloc.h"

/*
 * Sub-prefixes that hold bin/ lib/ include/ in the layouts we know; then
 * site-packages/nvidia's one folder per wheel, from nvlib's table.
 */
static const char *const sub_prefixes[] = {
	"",
	"targets/x86_64-linux",
	"targets/sbsa-linux",
	"targets/aarch64-linux",
	"extras/CUPTI",
	/* site-packages/nvidia: NVIDIA's merged wheels of 13, and nvcc's */
	"cu13",
	"cu12",
	"cu11",
	"cuda_nvcc",
};

/* Debian's multiarch folders (/usr/lib/<triplet>). */
static const char *const triplets[] = {
	"x86_64-linux-gnu",
	"aarch64-linux-gnu",
	"powerpc64le-linux-gnu",
};

/* ---- small file helpers ------------------------------------------------- */

static bool is_shared_lib(const char *name)
{
	return !strncmp(name, "lib", 3) && strstr(name, ".so");
}

/* Does dir hold an entry for which pred is true? */
static bool dir_has(const char *dir,
		    bool (*pred)(const char *dir, const char *name))
{
	struct plat_dir *d = plat_opendir(dir);
	const char *name;
	bool found = false;

	if (!d)
		return false;
	while (!found && (name = plat_readdir(d)))
		found = name[0] != '.' && pred(dir, name);
	plat_closedir(d);
	return found;
}

static bool pred_lib(const char *dir, const char *name)
{
	(void)dir;
	return is_shared_lib(name);
}

static bool pred_header(const char *dir, const char *name)
{
	size_t n = strlen(name);

	(void)dir;
	return n > 2 && !strcmp(name + n - 2, ".h");
}

/* A CUDA library's Windows DLL (cudart64_110.dll, cupti64_2020.3.1.dll,
 * cudnn64_8.dll): Windows keeps them in bin\ (extras\CUPTI\lib64 for
 * CUPTI), where they are found by PATH. */
static bool pred_cuda_dll(const char *dir, const char *name)
{
	unsigned long majors;

	(void)dir;
	return nvlib_match_dll(name, &majors) != NULL;
}

static bool pred_lib_or_dll(const char *dir, const char *name)
{
	return pred_lib(dir, name) || pred_cuda_dll(dir, name);
}

static bool pred_exec(const char *dir, const char *name)
{
	struct buf p = BUF_INIT;
	struct plat_stat st;
	bool ok;

	buf_path(&p, dir, name);
	ok = !plat_stat(p.data, &st) && st.type == PLAT_F_REG &&
	     (st.perm & 0111);
	buf_release(&p);
	return ok;
}

/* Find the first file in dir whose name starts with stem; copy its name. */
static bool find_prefixed(const char *dir, const char *stem, struct buf *name)
{
	struct plat_dir *d = plat_opendir(dir);
	const char *n;
	bool found = false;

	if (!d)
		return false;
	while ((n = plat_readdir(d))) {
		if (strncmp(n, stem, strlen(stem)))
			continue;
		/* Prefer the longest name: libcudart.so.11.2.152 over .so */
		if (!found || strlen(n) > name->len)
			buf_sets(name, n);
		found = true;
	}
	plat_closedir(d);
	return found;
}

/* Add dir to dirs unless it (or its real path) is there already. */
static void add_dir(struct strv *dirs, struct strv *reals, const char *dir)
{
	char *real = plat_realpath(dir);

	if (!real)
		return;
	if (strv_find(reals, real) >= 0) {
		free(real);
		return;
	}
	strv_push_take(reals, real);
	strv_push(dirs, dir);
}

void detect_layout(const char *prefix, struct store_version *in)
{
	struct strv reals = STRV_INIT;
	struct buf sub = BUF_INIT, d = BUF_INIT;

	size_t nsub = sizeof(sub_prefixes) / sizeof(*sub_prefixes);

	for (size_t i = 0; i < nsub + NVLIB_COUNT; i++) {
		static const char *const libdirs[] = { "lib64", "lib" };
		const char *name =
			i < nsub ? sub_prefixes[i]
				 : nvlib_get((enum nvlib_id)(i - nsub))
					   ->wheel_dir;

		buf_reset(&sub);
		if (*name)
			buf_path(&sub, prefix, name);
		else
			buf_adds(&sub, prefix);
		if (!store_is_dir(sub.data))
			continue;
		buf_reset(&d);
		buf_path(&d, sub.data, "bin");
		if (dir_has(d.data, pred_cuda_dll)) {
			/* Windows: the libraries are in bin\ */
			add_dir(&in->bin, &reals, d.data);
			if (strv_find(&in->lib, d.data) < 0)
				strv_push(&in->lib, d.data);
		} else if (dir_has(d.data, pred_exec)) {
			add_dir(&in->bin, &reals, d.data);
		}
		for (size_t k = 0; k < 2; k++) {
			buf_reset(&d);
			buf_path(&d, sub.data, libdirs[k]);
			if (dir_has(d.data, pred_lib_or_dll))
				add_dir(&in->lib, &reals, d.data);
		}
		buf_reset(&d);
		buf_path(&d, sub.data, "include");
		if (dir_has(d.data, pred_header))
			add_dir(&in->include, &reals, d.data);
	}
	/* Debian and Ubuntu: /usr/lib/x86_64-linux-gnu */
	for (size_t i = 0; i < sizeof(triplets) / sizeof(*triplets); i++) {
		buf_reset(&d);
		buf_path(&d, prefix, "lib");
		buf_path(&d, d.data, triplets[i]);
		if (find_prefixed(d.data, nvlib_get(NVLIB_CUDART)->so, &sub))
			add_dir(&in->lib, &reals, d.data);
	}
	for (size_t i = 0; i < in->lib.n; i++) {
		struct buf name = BUF_INIT;

		if (find_prefixed(in->lib.v[i], nvlib_get(NVLIB_CUPTI)->so,
				  &name) ||
		    find_prefixed(in->lib.v[i], nvlib_get(NVLIB_CUPTI)->dll,
				  &name))
			strv_push(&in->cupti, in->lib.v[i]);
		buf_release(&name);
	}
	strv_release(&reals);
	buf_release(&sub);
	buf_release(&d);
}

/*
 * Drop the folders of dirs that hold no file whose name starts with stem
 * (or, when dll is not NULL, with dll: Windows' name for the library).
 */
static void keep_dirs_with(struct strv *dirs, const char *stem, const char *dll)
{
	struct buf name = BUF_INIT;

	for (size_t i = dirs->n; i-- > 0;)
		if (!find_prefixed(dirs->v[i], stem, &name) &&
		    (!dll || !find_prefixed(dirs->v[i], dll, &name)))
			strv_remove(dirs, i);
	buf_release(&name);
}

/* The library file stem ("libcudnn.so") in any lib dir: its longest name. */
static bool find_lib(const struct store_version *in, const char *stem,
		     struct buf *name)
{
	for (size_t i = 0; i < in->lib.n; i++)
		if (find_prefixed(in->lib.v[i], stem, name))
			return true;
	return false;
}

/* Read "#define NAME <number>" from the first header that has it. */
static long header_define(const struct strv *incdirs, const char *file,
			  const char *macro)
{
	for (size_t i = 0; i < incdirs->n; i++) {
		struct buf p = BUF_INIT, text = BUF_INIT;
		struct cuenv_err e = CUENV_ERR_INIT;
		long val = -1;

		buf_path(&p, incdirs->v[i], file);
		if (!file_read(p.data, 4 << 20, FILE_MAY_BE_MISSING, &text,
			       &e)) {
			const char *s = text.data;
			size_t ml = strlen(macro);

			while ((s = strstr(s, "#define "))) {
				s += 8;
				while (*s == ' ' || *s == '\t')
					s++;
				if (strncmp(s, macro, ml) ||
				    (s[ml] != ' ' && s[ml] != '\t'))
					continue;
				val = strtol(s + ml, NULL, 10);
				break;
			}
		}
		err_release(&e);
		buf_release(&p);
		buf_release(&text);
		if (val >= 0)
			return val;
	}
	return -1;
}

/* "libcudart.so.11.2.152" -> "11.2.152"; NULL when nothing numeric follows. */
static char *soname_version(const char *name, const char *stem)
{
	const char *v = name + strlen(stem);

	if (*v != '.' || !version_is_valid(v + 1))
		return NULL;
	return xstrdup(v + 1);
}

/* Keep the first n parts of version s. */
static char *version_cut(const char *s, unsigned n)
{
	struct version v;
	struct buf b = BUF_INIT;

	if (version_parse(s, &v))
		return NULL;
	for (unsigned i = 0; i < v.n && i < n; i++)
		buf_printf(&b, i ? ".%lu" : "%lu", v.part[i]);
	return buf_detach(&b);
}

/* ---- wheel metadata ----------------------------------------------------- */

/*
 * Record "component version" for each NVIDIA wheel's dist-info folder found
 * in prefix/dist-info, prefix or prefix/.. (site-packages/nvidia).
 */
static void scan_dist_info(const char *prefix, struct strv *notes)
{
	const char *where[] = { "dist-info", "", ".." };

	for (size_t i = 0; i < 3; i++) {
		struct buf dir = BUF_INIT;
		struct plat_dir *d;
		const char *n;

		if (*where[i])
			buf_path(&dir, prefix, where[i]);
		else
			buf_adds(&dir, prefix);
		d = plat_opendir(dir.data);
		buf_release(&dir);
		if (!d)
			continue;
		while ((n = plat_readdir(d))) {
			const char *dash;
			size_t len = strlen(n);

			if (strncmp(n, "nvidia_", 7) || len < 11 ||
			    strcmp(n + len - 10, ".dist-info"))
				continue;
			dash = memchr(n, '-', len);
			if (!dash)
				continue;
			char *ver = xstrndup(dash + 1,
					     (size_t)(n + len - 10 - dash - 1));
			if (version_is_valid(ver)) {
				struct buf note = BUF_INIT;

				buf_add(&note, n + 7, (size_t)(dash - n - 7));
				buf_printf(&note, " %s", ver);
				if (strv_find(notes, note.data) < 0)
					strv_push(notes, note.data);
				buf_release(&note);
			}
			free(ver);
		}
		plat_closedir(d);
	}
}

static void warn_wheel_mix(const char *prefix, struct strv *warnings);

/* The version noted for a component whose name starts with stem. */
static const char *note_version(const struct strv *notes, const char *stem,
				struct buf *name)
{
	for (size_t i = 0; i < notes->n; i++) {
		const char *sp = strchr(notes->v[i], ' ');

		if (!strncmp(notes->v[i], stem, strlen(stem)) && sp) {
			if (name)
				buf_sets(name, notes->v[i]);
			return sp + 1;
		}
	}
	return NULL;
}

/* ---- CUDA --------------------------------------------------------------- */

/* NVIDIA's version.json is a few KB; anything near this is not one. */
#define VERSION_JSON_MAX (1u << 20)

/*
 * Read prefix/version.json into *j: NULL when there is none (or a folder
 * of that name) and when it is not JSON, so that the other sources are
 * asked. Returns CUENV_OK, or CUENV_E_STORE naming the file when it is
 * there but cannot be read: not a regular file (a FIFO answers at once),
 * larger than VERSION_JSON_MAX, a read error.
 */
static int version_json_load(const char *prefix, json_t **j,
			     struct cuenv_err *err)
{
	struct buf p = BUF_INIT, text = BUF_INIT;
	int rc;

	*j = NULL;
	buf_path(&p, prefix, "version.json");
	rc = file_read(p.data, VERSION_JSON_MAX, FILE_MAY_BE_MISSING, &text,
		       err);
	if (rc == CUENV_NO)
		rc = CUENV_OK;
	else if (!rc)
		*j = json_loadb(text.data, text.len, 0, NULL);
	buf_release(&p);
	buf_release(&text);
	return rc;
}

/*
 * version.json's version of one component: "cuda" (the toolkit's release,
 * "12.4.1"), "cuda_cupti" ("12.4.127"), as runfiles and redist archives
 * write it. NULL when j is NULL, or the key is absent or not a version.
 */
static char *version_json(json_t *j, const char *key)
{
	const char *s = NULL;

	if (j && !json_unpack(j, "{s:{s:s}}", key, "version", &s) &&
	    version_is_valid(s))
		return xstrdup(s);
	return NULL;
}

static char *cuda_version_txt(const char *prefix)
{
	struct buf p = BUF_INIT, text = BUF_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	char *v = NULL;

	buf_path(&p, prefix, "version.txt");
	if (!file_read(p.data, 4096, FILE_MAY_BE_MISSING, &text, &e)) {
		const char *s = strstr(text.data, "CUDA Version ");

		if (s) {
			s += 13;
			size_t n = strspn(s, "0123456789.");
			char *cand = xstrndup(s, n);

			if (version_is_valid(cand))
				v = cand;
			else
				free(cand);
		}
	}
	err_release(&e);
	buf_release(&p);
	buf_release(&text);
	return v;
}

static char *cuda_version_headers(const struct store_version *in)
{
	long n = header_define(&in->include, "cuda_runtime_api.h",
			       "CUDART_VERSION");
	struct buf b = BUF_INIT;

	if (n < 0)
		n = header_define(&in->include, "cuda.h", "CUDA_VERSION");
	if (n < 1000)
		return NULL;
	buf_printf(&b, "%ld.%ld", n / 1000, (n % 1000) / 10);
	return buf_detach(&b);
}

/*
 * NVIDIA's cuda-runtime wheel is versioned by its cudart (13.0.96), not by
 * the CUDA release, so only its major.minor names the release.
 */
static char *cuda_version_wheel(const struct store_version *in)
{
	const char *v = note_version(&in->notes, "cuda_runtime", NULL);

	return v ? version_cut(v, 2) : NULL;
}

static char *cuda_version_lib(const struct store_version *in)
{
	struct buf name = BUF_INIT;
	char *v = NULL, *cut = NULL;

	if (find_lib(in, nvlib_get(NVLIB_CUDART)->so, &name))
		v = soname_version(name.data, nvlib_get(NVLIB_CUDART)->so);
	/*
	 * libcudart.so.11.0 is the soname of every 11.x and libcudart.so.12
	 * names only a major: neither says which release this is.
	 */
	if (v && strcmp(v, "11.0") && strchr(v, '.'))
		cut = version_cut(v, 2);
	free(v);
	buf_release(&name);
	return cut;
}

/* ---- CUPTI -------------------------------------------------------------- */

/* cupti_version.h's CUPTI_API_VERSION, as the release it stands for. */
static char *cupti_version_header(const struct store_version *in)
{
	const struct nvlib *c = nvlib_get(NVLIB_CUPTI);
	long api = header_define(&in->include, c->version_header,
				 c->version_macro);
	struct buf b = BUF_INIT;

	if (api < 0 || !nvlib_cupti_api_release(api, &b)) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b);
}

/*
 * The version a CUPTI file name gives: a soname's ("11.8" in
 * libcupti.so.11.8, "12" in libcupti.so.12), never a year
 * (libcupti.so.2024.3.2 names no release).
 */
static char *cupti_version_file(const struct store_version *in)
{
	const struct nvlib *c = nvlib_get(NVLIB_CUPTI);
	char *best = NULL;

	for (size_t i = 0; i < in->cupti.n; i++) {
		struct plat_dir *d = plat_opendir(in->cupti.v[i]);
		const char *name;

		while (d && (name = plat_readdir(d))) {
			const char *v;

			if (nvlib_match_file(name, &v) != c || !*v ||
			    !nvlib_majors(c, v))
				continue;
			if (!best || strlen(v) > strlen(best)) {
				free(best);
				best = xstrdup(v);
			}
		}
		if (d)
			plat_closedir(d);
	}
	return best;
}

/* Do versions a and b name the same release (as far as both go, up to
 * major.minor)? */
static bool same_release(const char *a, const char *b)
{
	struct version x, y;

	if (version_parse(a, &x) || version_parse(b, &y))
		return true;
	if (x.part[0] != y.part[0])
		return false;
	return x.n < 2 || y.n < 2 || x.part[1] == y.part[1];
}

/*
 * CUPTI's version, most authoritative first: the wheel's dist-info, the
 * runfile's version.json, cupti_version.h; a soname-style file name only
 * when none of them is there. Sources that disagree leave a warning
 * naming both; the first one wins.
 */
static void cupti_version(const char *prefix, json_t *vj,
			  struct store_version *cuda)
{
	struct buf wheel_name = BUF_INIT, own = BUF_INIT;
	const char *wheel;

	/* Of mixed wheels, the one for the toolkit's own major first. */
	buf_printf(&own, "cuda_cupti_cu%u ", cuda->cuda_major);
	wheel = note_version(&cuda->notes, own.data, &wheel_name);
	if (!wheel)
		wheel = note_version(&cuda->notes, "cuda_cupti", &wheel_name);
	char *src[4] = { wheel ? xstrdup(wheel) : NULL,
			 version_json(vj, nvlib_get(NVLIB_CUPTI)->component),
			 cupti_version_header(cuda), cupti_version_file(cuda) };
	static const char *const what[4] = {
		"its wheel's dist-info",
		"version.json (cuda_cupti)",
		"cupti_version.h (CUPTI_API_VERSION)",
		"its file name",
	};
	int first = -1;

	if (!cuda->cupti.n)
		goto out;
	for (int i = 0; i < 4; i++) {
		if (!src[i])
			continue;
		if (first < 0) {
			first = i;
			continue;
		}
		/* a soname names only a major: "12" from libcupti.so.12 */
		if (!same_release(src[first], src[i])) {
			struct buf w = BUF_INIT;

			buf_printf(&w,
				   "CUPTI in '%s': %s says %s, %s says %s; "
				   "using %s",
				   prefix, what[first], src[first], what[i],
				   src[i], src[first]);
			strv_push_take(&cuda->warnings, buf_detach(&w));
		}
	}
	if (first >= 0) {
		cuda->cupti_version = src[first];
		src[first] = NULL;
	}
out:
	for (int i = 0; i < 4; i++)
		free(src[i]);
	buf_release(&wheel_name);
	buf_release(&own);
}

/* "name it: cuenv add KIND PATH OPTION", PATH quoted when it must be. */
static int hint_path(struct cuenv_err *err, const char *kind, const char *path,
		     const char *option)
{
	struct buf w = BUF_INIT;
	int rc;

	shell_quote_word(&w, path);
	rc = cuenv_hint(err, "name it: cuenv add %s %s %s", kind, w.data,
			option);
	buf_release(&w);
	return rc;
}

/* Return the real path of path, or fail naming it. */
static int real_prefix(const char *path, char **out, struct cuenv_err *err)
{
	*out = plat_realpath(path);
	if (!*out)
		return cuenv_fail(err, CUENV_E_STORE, "cannot read '%s': %s",
				  path, strerror(errno));
	if (!store_is_dir(*out)) {
		free(*out);
		*out = NULL;
		return cuenv_fail(err, CUENV_E_STORE, "'%s' is not a folder",
				  path);
	}
	return CUENV_OK;
}

static int set_version(struct store_version *in, const char *forced,
		       char *found, const char *path, struct cuenv_err *err)
{
	struct version v;

	if (forced) {
		free(found);
		if (!version_is_valid(forced))
			return cuenv_fail(err, CUENV_E_USAGE,
					  "invalid version '%s'", forced);
		found = xstrdup(forced);
	}
	if (!found) {
		cuenv_fail(err, CUENV_E_MANIFEST,
			   "cannot tell the %s version of '%s'",
			   kit_kind_name(in->kind), path);
		return hint_path(err, kit_kind_name(in->kind), path,
				 "--as VERSION");
	}
	in->version = found;
	version_parse(found, &v);
	if (in->kind == KIT_CUDA)
		in->cuda_major = (unsigned)v.part[0];
	return CUENV_OK;
}

static int fill_cudnn(const char *path, const char *prefix, const char *forced,
		      unsigned major, struct store_version *in,
		      struct cuenv_err *err);

/*
 * Debian's /usr/lib/cuda is a skeleton (empty lib64/, include/cuda.h a
 * link): the toolkit is /usr, its libraries in /usr/lib/<triplet>.
 */
static void debian_prefix(char **prefix)
{
	size_t n = strlen(*prefix);
	struct buf d = BUF_INIT, name = BUF_INIT;

	if (n < 9 || strcmp(*prefix + n - 9, "/lib/cuda"))
		return;
	for (size_t i = 0; i < sizeof(triplets) / sizeof(*triplets); i++) {
		buf_reset(&d);
		buf_add(&d, *prefix, n - 4);
		buf_adds(&d, triplets[i]);
		if (find_prefixed(d.data, nvlib_get(NVLIB_CUDART)->so, &name)) {
			char *up = xstrndup(*prefix, n - 9);

			free(*prefix);
			*prefix = up[0] ? up : xstrdup("/");
			if (!up[0])
				free(up);
			break;
		}
	}
	buf_release(&d);
	buf_release(&name);
}

/*
 * The toolkit's version.json into *j (version_json_load). One that is
 * there but cannot be read fails the registration, naming it, since the
 * other sources may give a less precise version; when the version is
 * forced (--as), it is a warning in cuda's instead and only CUPTI's
 * other sources are asked.
 */
static int version_json_read(const char *path, const char *prefix,
			     const char *forced, json_t **j,
			     struct store_version *cuda, struct cuenv_err *err)
{
	struct cuenv_err e = CUENV_ERR_INIT;
	int rc = version_json_load(prefix, j, &e);

	if (rc && forced) {
		struct buf w = BUF_INIT;

		buf_printf(&w, "%s: not read", e.msg.data);
		strv_push_take(&cuda->warnings, buf_detach(&w));
		rc = CUENV_OK;
	} else if (rc) {
		cuenv_fail(err, rc, "%s", e.msg.data);
		hint_path(err, "cuda", path, "--as VERSION");
	}
	err_release(&e);
	return rc;
}

int detect_cuda(const char *path, const char *version,
		struct store_version *cuda, struct store_version *cudnn,
		bool *has_cudnn, struct cuenv_err *err)
{
	struct buf name = BUF_INIT;
	char *prefix = NULL, *found;
	json_t *vj = NULL;
	int rc;

	*has_cudnn = false;
	store_version_init(cuda, KIT_CUDA);
	store_version_init(cudnn, KIT_CUDNN);
	rc = real_prefix(path, &prefix, err);
	if (rc)
		goto out;
	debian_prefix(&prefix);
	cuda->prefix = prefix;
	cuda->registered = true;
	detect_layout(prefix, cuda);
	scan_dist_info(prefix, &cuda->notes);
	warn_wheel_mix(prefix, &cuda->warnings);
	if (!find_lib(cuda, nvlib_get(NVLIB_CUDART)->so, &name) &&
	    !find_lib(cuda, nvlib_get(NVLIB_CUDART)->dll, &name)) {
		rc = cuenv_fail(err, CUENV_E_MANIFEST,
				"no CUDA runtime (libcudart.so) under '%s'",
				path);
		cuenv_hint(err, "point at the toolkit's top folder, such as "
				"/usr/local/cuda-12.4");
		goto out;
	}
	rc = version_json_read(path, prefix, version, &vj, cuda, err);
	if (rc)
		goto out;
	found = version_json(vj, "cuda");
	if (!found)
		found = cuda_version_txt(prefix);
	if (!found)
		found = cuda_version_headers(cuda);
	if (!found)
		found = cuda_version_wheel(cuda);
	if (!found)
		found = cuda_version_lib(cuda);
	rc = set_version(cuda, version, found, path, err);
	if (rc)
		goto out;

	cupti_version(prefix, vj, cuda);

	/* A cuDNN inside the toolkit (the wheel layout has one; on Windows,
	 * NVIDIA's guide copies cuDNN's files into the toolkit's folders) */
	if (find_lib(cuda, nvlib_get(NVLIB_CUDNN)->so, &name) ||
	    find_lib(cuda, nvlib_get(NVLIB_CUDNN)->dll, &name)) {
		struct cuenv_err e2 = CUENV_ERR_INIT;

		if (!fill_cudnn(path, prefix, NULL, cuda->cuda_major, cudnn,
				&e2))
			*has_cudnn = true;
		else
			store_version_release(cudnn);
		err_release(&e2);
	}
out:
	json_decref(vj);
	buf_release(&name);
	return rc;
}

/* ---- cuDNN -------------------------------------------------------------- */

unsigned detect_cuda_major_in_file(const char *path)
{
	struct strv names = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct file_map m;
	unsigned major = 0;
	bool pe;

	if (file_map(path, 16, &m, &err)) {
		err_release(&err);
		file_unmap(&m);
		return 0;
	}
	/* A Windows DLL names the toolkit's DLLs (cublas64_11.dll) instead */
	pe = pe_has_magic(m.data, m.len);
	if (pe)
		pe_scan_cuda_dlls(m.data, m.len, &names);
	else
		elf_scan_cuda_sonames(m.data, m.len, &names);
	file_unmap(&m);
	/* The first toolkit soname (or DLL) that names one CUDA major. */
	for (size_t i = 0; i < names.n && !major; i++) {
		const char *v;
		unsigned long majors = 0;
		const struct nvlib *e =
			pe ? nvlib_match_dll(names.v[i], &majors)
			   : nvlib_match_file(names.v[i], &v);

		if (!e || (e->flags & NVLIB_OWN_VERSION))
			continue;
		if (!pe)
			major = nvlib_major(e, v);
		else if (detect_count_majors(majors) == 1)
			while (!(majors >> major & 1))
				major++;
	}
	strv_release(&names);
	return major;
}

struct sized_file {
	char *path;
	off_t size;
};

static int cmp_size(const void *a, const void *b)
{
	const struct sized_file *x = a, *y = b;

	return (x->size > y->size) - (x->size < y->size);
}

/* libcudnn*.so*, or Windows' cudnn*64_*.dll */
static bool is_cudnn_file(const char *name)
{
	const char *pre = nvlib_get(NVLIB_CUDNN)->prefix;
	size_t n = strlen(name);

	if (!strncmp(name, pre, strlen(pre)))
		return strstr(name, ".so") != NULL;
	return !strncmp(name, "cudnn", 5) && n > 4 &&
	       !strcasecmp(name + n - 4, ".dll") && strstr(name, "64_");
}

unsigned detect_cudnn_libs_major(const struct store_version *cudnn, size_t most,
				 off_t max_size, struct buf *file)
{
	struct sized_file *v = NULL;
	size_t n = 0;
	unsigned major = 0;

	for (size_t i = 0; i < cudnn->lib.n; i++) {
		struct plat_dir *d = plat_opendir(cudnn->lib.v[i]);
		const char *name;

		while (d && (name = plat_readdir(d))) {
			struct buf p = BUF_INIT;
			struct plat_stat st;

			if (!is_cudnn_file(name))
				continue;
			buf_path(&p, cudnn->lib.v[i], name);
			/* Past the small ones, the answer is known. */
			if (plat_lstat(p.data, &st) || st.type != PLAT_F_REG ||
			    (max_size && st.size > (uint64_t)max_size)) {
				buf_release(&p);
				continue;
			}
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n].path = buf_detach(&p);
			v[n++].size = (off_t)st.size;
		}
		if (d)
			plat_closedir(d);
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_size);
	for (size_t i = 0; i < n; i++) {
		if (!major && i < most) {
			major = detect_cuda_major_in_file(v[i].path);
			if (major && file)
				buf_sets(file, v[i].path);
		}
		free(v[i].path);
	}
	free(v);
	return major;
}

/* "..._cuda12-archive", "cudnn-9.1-cuda12": "cuda" then digits, in a name. */
static unsigned cudnn_major_from_path(const char *prefix)
{
	const char *s = prefix;
	unsigned major = 0;

	if (!s)
		return 0;
	while ((s = strstr(s, "cuda"))) {
		unsigned long m = 0;
		const char *q = s + 4;

		while (*q >= '0' && *q <= '9' && m < 1000)
			m = m * 10 + (unsigned long)(*q++ - '0');
		if (q > s + 4 && m >= 7 && m < 100 &&
		    (*q == '\0' || *q == '-' || *q == '_' || *q == '/' ||
		     *q == '.'))
			major = (unsigned)m; /* the last one wins */
		s += 4;
	}
	return major;
}

static char *cudnn_version_found(struct store_version *in,
				 unsigned *wheel_major)
{
	struct buf name = BUF_INIT;
	const char *wheel = note_version(&in->notes, "cudnn", &name);
	char *hdr = NULL, *lib = NULL, *v = NULL;
	long maj =
		header_define(&in->include, "cudnn_version.h", "CUDNN_MAJOR");
	long min =
		header_define(&in->include, "cudnn_version.h", "CUDNN_MINOR");
	long pat = header_define(&in->include, "cudnn_version.h",
				 "CUDNN_PATCHLEVEL");

	*wheel_major = 0;
	if (wheel) {
		/* "cudnn_cu12 9.1.0.70" */
		const char *cu = strstr(name.data, "_cu");

		if (cu)
			*wheel_major = (unsigned)strtoul(cu + 3, NULL, 10);
	}
	if (maj < 0) {
		maj = header_define(&in->include, "cudnn.h", "CUDNN_MAJOR");
		min = header_define(&in->include, "cudnn.h", "CUDNN_MINOR");
		pat = header_define(&in->include, "cudnn.h",
				    "CUDNN_PATCHLEVEL");
	}
	if (maj >= 0 && min >= 0 && pat >= 0) {
		struct buf b = BUF_INIT;

		buf_printf(&b, "%ld.%ld.%ld", maj, min, pat);
		hdr = buf_detach(&b);
	}
	buf_reset(&name);
	if (find_lib(in, nvlib_get(NVLIB_CUDNN)->so, &name))
		lib = soname_version(name.data, nvlib_get(NVLIB_CUDNN)->so);

	/* The wheel's four-part version, when it agrees with the headers. */
	if (wheel && (!hdr || version_matches_str(wheel, hdr))) {
		v = xstrdup(wheel);
	} else if (hdr) {
		v = xstrdup(hdr);
		if (wheel) {
			struct buf w = BUF_INIT;

			buf_printf(&w,
				   "cuDNN in '%s': its wheel's dist-info "
				   "says %s, cudnn_version.h says %s; using %s",
				   in->prefix, wheel, hdr, hdr);
			strv_push_take(&in->warnings, buf_detach(&w));
		}
	} else if (lib && strchr(lib, '.'))
		v = xstrdup(lib); /* libcudnn.so.8.1.0 */
	free(hdr);
	free(lib);
	buf_release(&name);
	return v;
}

/*
 * In a site-packages/nvidia folder, cuDNN's own wheel folder
 * (nvidia/cudnn, with lib/ and include/) is its prefix: CUDNN_PATH names
 * it, as builds that read CUDNN_PATH/include and CUDNN_PATH/lib expect.
 */
static bool below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/';
}

static void wheel_prefix(struct store_version *in)
{
	const char *wheel = nvlib_get(NVLIB_CUDNN)->wheel_dir;
	struct buf want = BUF_INIT, lib = BUF_INIT;
	bool all = in->lib.n > 0;

	buf_path(&want, in->prefix, wheel);
	buf_path(&lib, want.data, "lib");
	for (size_t i = 0; i < in->lib.n && all; i++)
		all = !strcmp(in->lib.v[i], lib.data);
	for (size_t i = 0; i < in->include.n && all; i++)
		all = below(in->include.v[i], want.data);
	if (all) {
		/* the other wheels' programs (cuda_nvcc/bin) are not cuDNN's */
		for (size_t i = in->bin.n; i-- > 0;)
			if (!below(in->bin.v[i], want.data))
				strv_remove(&in->bin, i);
		free(in->prefix);
		in->prefix = buf_detach(&want);
	}
	buf_release(&want);
	buf_release(&lib);
}

static int fill_cudnn(const char *path, const char *prefix, const char *forced,
		      unsigned major, struct store_version *in,
		      struct cuenv_err *err)
{
	struct buf name = BUF_INIT;
	unsigned wheel_major;
	int rc;

	in->prefix = xstrdup(prefix);
	in->registered = true;
	detect_layout(prefix, in);
	strv_release(&in->cupti);
	/*
	 * Inside a toolkit or a site-packages/nvidia tree, keep only the
	 * folders that hold cuDNN: activation puts cuDNN's folders first, and
	 * the toolkit's other libraries must not come with them.
	 */
	keep_dirs_with(&in->lib, nvlib_get(NVLIB_CUDNN)->prefix,
		       nvlib_get(NVLIB_CUDNN)->stem);
	keep_dirs_with(&in->include, "cudnn", NULL);
	scan_dist_info(prefix, &in->notes);
	wheel_prefix(in);
	if (!find_lib(in, nvlib_get(NVLIB_CUDNN)->so, &name) &&
	    !find_lib(in, nvlib_get(NVLIB_CUDNN)->dll, &name)) {
		rc = cuenv_fail(err, CUENV_E_MANIFEST,
				"no cuDNN (libcudnn.so) under '%s'", path);
		goto out;
	}
	rc = set_version(in, forced, cudnn_version_found(in, &wheel_major),
			 path, err);
	if (rc)
		goto out;
	if (!major)
		major = wheel_major;
	if (!major)
		major = detect_cudnn_libs_major(in, SIZE_MAX, 0, NULL);
	if (!major)
		major = cudnn_major_from_path(prefix);
	if (!major) {
		rc = cuenv_fail(err, CUENV_E_MANIFEST,
				"cannot tell which CUDA major the cuDNN in "
				"'%s' was built for",
				path);
		hint_path(err, "cudnn", path, "--cuda MAJOR");
		goto out;
	}
	in->cuda_major = major;
out:
	buf_release(&name);
	return rc;
}

int detect_cudnn(const char *path, const char *version, unsigned cuda_major,
		 struct store_version *cudnn, struct cuenv_err *err)
{
	char *prefix = NULL;
	int rc;

	store_version_init(cudnn, KIT_CUDNN);
	rc = real_prefix(path, &prefix, err);
	if (rc)
		return rc;
	rc = fill_cudnn(path, prefix, version, cuda_major, cudnn, err);
	free(prefix);
	return rc;
}

char *detect_soname(const char *lib, const char *version)
{
	const struct nvlib *e = nvlib_by_stem(lib);

	return e ? nvlib_soname(e, version) : NULL;
}

/* ---- NVIDIA's wheels of several CUDA majors ----------------------------- */

#define RECORD_FILE_MAX (4 << 20)

void wheel_mix_release(struct wheel_mix *m)
{
	strv_release(&m->wheels);
	strv_release(&m->shared);
	strv_release(&m->owners);
	m->majors = 0;
}

unsigned detect_count_majors(unsigned long mask)
{
	unsigned n = 0;

	for (; mask; mask &= mask - 1)
		n++;
	return n;
}

/* "nvidia_cuda_cupti_cu11-11.8.87.dist-info": 11, else 0. */
static unsigned dist_info_major(const char *name)
{
	const char *dash = strchr(name, '-'), *cu;
	unsigned long m = 0;

	if (strncmp(name, "nvidia_", 7) || !dash)
		return 0;
	for (cu = name; (cu = strstr(cu, "_cu")) && cu < dash; cu += 3) {
		char *end;

		m = strtoul(cu + 3, &end, 10);
		if (end == dash && m > 0 && m < 64)
			return (unsigned)m;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One RECORD line's path and size ("p,sha256=...,123"). */
static bool record_line(const char *line, size_t n, struct buf *path,
			long long *size)
{
	const char *c1 = memchr(line, ',', n), *c2;

	if (!c1 || c1 == line || *line == '"')
		return false;
	c2 = memchr(c1 + 1, ',', (size_t)(line + n - c1 - 1));
	buf_reset(path);
	buf_add(path, line, (size_t)(c1 - line));
	*size = c2 && c2 + 1 < line + n ? strtoll(c2 + 1, NULL, 10) : -1;
	return true;
}

bool detect_wheel_mix(const char *site, struct wheel_mix *m)
{
	struct strv paths = STRV_INIT, owner = STRV_INIT, sizes = STRV_INIT;
	struct buf rec = BUF_INIT, text = BUF_INIT, path = BUF_INIT;
	struct plat_dir *d = plat_opendir(site);
	const char *name;

	while (d && (name = plat_readdir(d))) {
		size_t len = strlen(name);

		if (strncmp(name, "nvidia_", 7) || len < 11 ||
		    strcmp(name + len - 10, ".dist-info"))
			continue;
		strv_push(&m->wheels, name);
	}
	if (d)
		plat_closedir(d);
	if (m->wheels.n > 1)
		qsort(m->wheels.v, m->wheels.n, sizeof(*m->wheels.v), cmp_str);
	for (size_t w = 0; w < m->wheels.n; w++) {
		struct cuenv_err e = CUENV_ERR_INIT;
		unsigned major = dist_info_major(m->wheels.v[w]);
		const char *p, *nl;

		if (major)
			m->majors |= 1UL << major;
		buf_reset(&rec);
		buf_path(&rec, site, m->wheels.v[w]);
		buf_path(&rec, rec.data, "RECORD");
		if (file_read(rec.data, RECORD_FILE_MAX, FILE_MAY_BE_MISSING,
			      &text, &e)) {
			err_release(&e);
			continue;
		}
		for (p = text.data; *p; p = nl + 1) {
			long long size;
			const char *base;
			ssize_t at;

			nl = strchr(p, '\n');
			if (!nl)
				nl = p + strlen(p);
			if (!record_line(p, (size_t)(nl - p), &path, &size) ||
			    strstr(path.data, "__pycache__") ||
			    strstr(path.data, "__init__.py") ||
			    strstr(path.data, ".dist-info/")) {
				if (!*nl)
					break;
				continue;
			}
			base = strrchr(path.data, '/');
			base = base ? base + 1 : path.data;
			at = strv_find(&paths, path.data);
			if (at < 0) {
				struct buf sz = BUF_INIT;

				strv_push(&paths, path.data);
				strv_push(&owner, m->wheels.v[w]);
				buf_printf(&sz, "%lld", size);
				strv_push_take(&sizes, buf_detach(&sz));
			} else if (strstr(base, ".so") &&
				   strv_find(&m->shared, path.data) < 0) {
				struct buf o = BUF_INIT, f = BUF_INIT;
				struct plat_stat st;
				/* at is an index of paths, and owner grows with
				 * paths, an entry each: owner.v[at] exists. */
				/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
				const char *a = owner.v[at],
					   *b = m->wheels.v[w];

				/* Whose copy is there now: the sizes say. */
				buf_path(&f, site, path.data);
				if (!plat_stat(f.data, &st) && size >= 0 &&
				    st.size == (uint64_t)size &&
				    (long long)st.size !=
					    strtoll(sizes.v[at], NULL, 10)) {
					a = m->wheels.v[w];
					b = owner.v[at];
				}
				buf_printf(&o, "%s and %s", a, b);
				strv_push(&m->shared, path.data);
				strv_push_take(&m->owners, buf_detach(&o));
				buf_release(&f);
			}
			if (!*nl)
				break;
		}
		err_release(&e);
	}
	strv_release(&paths);
	strv_release(&owner);
	strv_release(&sizes);
	buf_release(&rec);
	buf_release(&text);
	buf_release(&path);
	return detect_count_majors(m->majors) > 1;
}

/*
 * Where scan_dist_info() reads dist-info folders, wheels of several CUDA
 * majors: the versions read from them may come from different releases,
 * and their shared files were overwritten. Warn, naming them.
 */
static void warn_wheel_mix(const char *prefix, struct strv *warnings)
{
	const char *where[] = { "dist-info", "", ".." };

	for (size_t i = 0; i < 3; i++) {
		struct wheel_mix m = { 0 };
		struct buf dir = BUF_INIT, w = BUF_INIT;

		if (*where[i])
			buf_path(&dir, prefix, where[i]);
		else
			buf_adds(&dir, prefix);
		if (detect_wheel_mix(dir.data, &m)) {
			buf_printf(&w,
				   "'%s' mixes NVIDIA wheels of %u CUDA "
				   "majors: ",
				   dir.data, detect_count_majors(m.majors));
			for (size_t k = 0; k < m.wheels.n; k++)
				buf_printf(&w, "%s%s", k ? ", " : "",
					   m.wheels.v[k]);
			if (m.shared.n) {
				buf_adds(&w, "; overwritten: ");
				for (size_t k = 0; k < m.shared.n; k++)
					buf_printf(&w, "%s%s (%s)",
						   k ? ", " : "", m.shared.v[k],
						   m.owners.v[k]);
			}
			buf_adds(&w, "; the versions read here may belong to "
				     "different releases");
			strv_push_take(warnings, buf_detach(&w));
		}
		wheel_mix_release(&m);
		buf_release(&dir);
		buf_release(&w);
	}
}

/* ---- how activation exposes an install ---------------------------------- */

void detect_loader_defaults(struct strv *out)
{
	static const char *const base[] = { "/lib", "/usr/lib", "/lib64",
					    "/usr/lib64" };
	struct buf d = BUF_INIT;

	for (size_t i = 0; i < 4; i++) {
		char *r = plat_realpath(base[i]);

		if (r && strv_find(out, r) < 0)
			strv_push_take(out, r);
		else
			free(r);
		for (size_t t = 0; t < sizeof(triplets) / sizeof(*triplets);
		     t++) {
			buf_reset(&d);
			buf_path(&d, base[i], triplets[t]);
			r = plat_realpath(d.data);
			if (r && strv_find(out, r) < 0)
				strv_push_take(out, r);
			else
				free(r);
		}
	}
	buf_release(&d);
}

/* Is dir (through links) one of dirs (real paths)? */
static bool real_in(const char *dir, const struct strv *dirs)
{
	char *r = plat_realpath(dir);
	bool in = r && strv_find(dirs, r) >= 0;

	free(r);
	return in;
}

/* Does dir hold the C++ runtime (libstdc++.so.6), which it would shadow? */
static bool holds_cxx_runtime(const char *dir)
{
	struct buf name = BUF_INIT;
	bool found = find_prefixed(dir, "libstdc++.so", &name) ||
		     find_prefixed(dir, "libgcc_s.so", &name);

	buf_release(&name);
	return found;
}

/* dir's NVIDIA libraries (nvlib.h), as absolute paths, into out. */
static void cuda_files(const char *dir, struct strv *out)
{
	struct plat_dir *d = plat_opendir(dir);
	const char *name;

	while (d && (name = plat_readdir(d))) {
		struct buf p = BUF_INIT;

		if (!nvlib_is_cuda_file(name))
			continue;
		buf_path(&p, dir, name);
		if (strv_find(out, p.data) < 0)
			strv_push_take(out, buf_detach(&p));
		buf_release(&p);
	}
	if (d)
		plat_closedir(d);
}

void detect_activation(struct store_version *in, const struct strv *loader_dirs)
{
	struct strv defaults = STRV_INIT;
	struct buf meta = BUF_INIT;
	size_t n = in->prefix ? strlen(in->prefix) : 0;
	bool conda, system;

	if (!in->prefix)
		return;
	detect_loader_defaults(&defaults);
	buf_path(&meta, in->prefix, "conda-meta");
	conda = store_is_dir(meta.data);
	system = n >= 4 && !strcmp(in->prefix + n - 4, "/usr");
	for (size_t i = 0; i < in->lib.n; i++) {
		const char *dir = in->lib.v[i];

		/*
		 * Only a system toolkit's folders are left to the loader:
		 * another toolkit's folder in ld.so.cache, off
		 * LD_LIBRARY_PATH, can lose its sonames to a copy the cache
		 * lists first.
		 */
		if ((system || real_in(dir, &defaults)) &&
		    real_in(dir, loader_dirs)) {
			strv_push(&in->searched, dir);
		} else if (conda || holds_cxx_runtime(dir)) {
			strv_push(&in->linked, dir);
			cuda_files(dir, &in->links);
		}
	}
	for (size_t i = 0; system && i < in->bin.n; i++)
		strv_push(&in->searched, in->bin.v[i]);
	for (size_t i = 0; system && i < in->include.n; i++)
		strv_push(&in->searched, in->include.v[i]);
	strv_release(&defaults);
	buf_release(&meta);
}

/* ---- the environment's toolkits ------------------------------------------- */

/* "CUDA_PATH_V11_2=..." -> 11 and 2; false for any other entry. */
static bool versioned_cuda_path(const char *entry, unsigned *maj, unsigned *min)
{
	static const char pfx[] = "CUDA_PATH_V";
	char *end;

	if (strncmp(entry, pfx, sizeof(pfx) - 1))
		return false;
	entry += sizeof(pfx) - 1;
	if (*entry < '0' || *entry > '9')
		return false;
	*maj = (unsigned)strtoul(entry, &end, 10);
	if (*end != '_' || end[1] < '0' || end[1] > '9')
		return false;
	*min = (unsigned)strtoul(end + 1, &end, 10);
	return *end == '=' && *maj < 1000 && *min < 1000;
}

static void push_candidate(struct strv *dirs, struct strv *names,
			   const char *entry)
{
	const char *eq = strchr(entry, '=');
	struct buf name = BUF_INIT;

	if (!eq || !eq[1] || strv_find(dirs, eq + 1) >= 0)
		return;
	buf_add(&name, entry, (size_t)(eq - entry));
	strv_push(dirs, eq + 1);
	strv_push_take(names, buf_detach(&name));
}

void detect_env_candidates(char *const *envp, struct strv *dirs,
			   struct strv *names)
{
	struct strv versioned = STRV_INIT;
	static const char *const plain[] = { "CUDA_PATH", "CUDA_HOME" };
	unsigned maj, min;

	for (size_t i = 0; envp && envp[i]; i++) {
		struct buf key = BUF_INIT;

		if (!versioned_cuda_path(envp[i], &maj, &min))
			continue;
		/* sortable: the version, zero-padded, then the entry */
		buf_printf(&key, "%03u.%03u %s", maj, min, envp[i]);
		strv_push_take(&versioned, buf_detach(&key));
	}
	strv_sort(&versioned);
	for (size_t i = 0; i < versioned.n; i++)
		push_candidate(dirs, names, strchr(versioned.v[i], ' ') + 1);
	for (size_t k = 0; k < sizeof(plain) / sizeof(*plain); k++) {
		size_t n = strlen(plain[k]);

		for (size_t i = 0; envp && envp[i]; i++)
			if (!strncmp(envp[i], plain[k], n) && envp[i][n] == '=')
				push_candidate(dirs, names, envp[i]);
	}
	strv_release(&versioned);
}
