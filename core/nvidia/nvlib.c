#include "nvidia/nvlib.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/err.h"
#include "base/version.h"
#include "base/xalloc.h"

/* ---- soname rules ------------------------------------------------------- */

/*
 * Before CUDA 10.1 every library's soname was the release's M.m; from
 * 10.1 most follow their own major. From NVIDIA's release contents and
 * the files of the redist archives and wheels (CUDA 13.0: libcufft.so.12,
 * libcurand.so.10, libcusolver.so.12, libcusparse.so.12, libcupti.so.13).
 */
#define END                                                                    \
	{                                                                      \
		0, 0, NVLIB_NONE, NULL                                         \
	}

static const struct nvlib_rule r_cudart[] = {
	{ 0, 0, NVLIB_MINOR, NULL },
	{ 11, 0, NVLIB_FIXED, "11.0" }, /* every 11.x */
	{ 12, 0, NVLIB_MAJOR, NULL },
	END,
};
static const struct nvlib_rule r_cupti[] = {
	{ 0, 0, NVLIB_MINOR, NULL }, /* libcupti.so.11.8 */
	{ 12, 0, NVLIB_MAJOR, NULL },
	END,
};
static const struct nvlib_rule r_cublas[] = {
	{ 0, 0, NVLIB_MINOR, NULL },
	{ 10, 1, NVLIB_MAJOR, NULL },
	END,
};
static const struct nvlib_rule r_cublaslt[] = {
	{ 0, 0, NVLIB_NONE, NULL },
	{ 10, 1, NVLIB_MAJOR, NULL },
	END,
};
static const struct nvlib_rule r_cufft[] = {
	{ 0, 0, NVLIB_MINOR, NULL },
	{ 10, 1, NVLIB_FIXED, "10" },
	{ 12, 0, NVLIB_FIXED, "11" },
	{ 13, 0, NVLIB_FIXED, "12" },
	END,
};
static const struct nvlib_rule r_curand[] = {
	{ 0, 0, NVLIB_MINOR, NULL },
	{ 10, 1, NVLIB_FIXED, "10" },
	END,
};
static const struct nvlib_rule r_cusolver[] = {
	{ 0, 0, NVLIB_MINOR, NULL },  { 10, 1, NVLIB_FIXED, "10" },
	{ 11, 1, NVLIB_FIXED, "11" }, /* 11.0 still shipped 10; 12 kept 11 */
	{ 13, 0, NVLIB_FIXED, "12" }, END,
};
static const struct nvlib_rule r_cusparse[] = {
	{ 0, 0, NVLIB_MINOR, NULL },
	{ 10, 1, NVLIB_MAJOR, NULL },
	{ 13, 0, NVLIB_FIXED, "12" }, /* 13 kept cuSPARSE 12 */
	END,
};
static const struct nvlib_rule r_nvrtc[] = {
	{ 0, 0, NVLIB_MINOR, NULL },
	{ 11, 2, NVLIB_FIXED, "11.2" }, /* 11.2 to 11.8 share it */
	{ 12, 0, NVLIB_MAJOR, NULL },
	END,
};
static const struct nvlib_rule r_nvrtc_builtins[] = {
	{ 0, 0, NVLIB_MINOR, NULL }, /* every release its own: 12.4 */
	END,
};
static const struct nvlib_rule r_nvjitlink[] = {
	{ 0, 0, NVLIB_NONE, NULL },
	{ 12, 0, NVLIB_MAJOR, NULL },
	END,
};
static const struct nvlib_rule r_nvjpeg[] = {
	{ 0, 0, NVLIB_NONE, NULL },
	{ 10, 0, NVLIB_MINOR, NULL },
	{ 10, 1, NVLIB_MAJOR, NULL },
	END,
};
static const struct nvlib_rule r_nvtoolsext[] = {
	{ 0, 0, NVLIB_FIXED, "1" },
	{ 13, 0, NVLIB_NONE, NULL }, /* 13 ships NVTX 3 headers only */
	END,
};
static const struct nvlib_rule r_cufile[] = {
	{ 0, 0, NVLIB_NONE, NULL },
	{ 11, 4, NVLIB_FIXED, "0" },
	END,
};
static const struct nvlib_rule r_unversioned[] = {
	{ 0, 0, NVLIB_NONE, NULL }, /* libnvperf_host.so: no soname version */
	END,
};

/* ---- the table ---------------------------------------------------------- */

#define FW NVLIB_FRAMEWORK

/* A stem and the names made of it: .stem, .prefix, .so. */
#define STEM(s) s, "lib" s, "lib" s ".so"

static const struct nvlib table[NVLIB_COUNT] = {
	[NVLIB_CUDART] = { NVLIB_CUDART, STEM("cudart"), FW, "cuda_cudart",
			   "nvidia-cuda-runtime", "cuda_runtime", "cudart64_",
			   NVLIB_DLL_DOTLESS, "cuda_runtime_api.h",
			   "CUDART_VERSION", r_cudart, NULL },
	[NVLIB_CUPTI] = { NVLIB_CUPTI, STEM("cupti"), FW | NVLIB_YEAR_FILES,
			  "cuda_cupti", "nvidia-cuda-cupti", "cuda_cupti",
			  "cupti64_", NVLIB_DLL_YEAR, "cupti_version.h",
			  "CUPTI_API_VERSION", r_cupti, NULL },
	[NVLIB_CUBLAS] = { NVLIB_CUBLAS, STEM("cublas"), FW, "libcublas",
			   "nvidia-cublas", "cublas", "cublas64_",
			   NVLIB_DLL_DOTLESS, "cublas_api.h",
			   "CUBLAS_VER_MAJOR", r_cublas, NULL },
	[NVLIB_CUBLASLT] = { NVLIB_CUBLASLT, STEM("cublasLt"), FW, "libcublas",
			     "nvidia-cublas", "cublas", "cublasLt64_",
			     NVLIB_DLL_DOTLESS, "cublas_api.h",
			     "CUBLAS_VER_MAJOR", r_cublaslt, NULL },
	[NVLIB_CUFFT] = { NVLIB_CUFFT, STEM("cufft"), FW | NVLIB_MATH,
			  "libcufft", "nvidia-cufft", "cufft", "cufft64_",
			  NVLIB_DLL_DOTLESS, "cufft.h", "CUFFT_VER_MAJOR",
			  r_cufft, NULL },
	[NVLIB_CURAND] = { NVLIB_CURAND, STEM("curand"), FW | NVLIB_MATH,
			   "libcurand", "nvidia-curand", "curand", "curand64_",
			   NVLIB_DLL_DOTLESS, "curand.h", "CURAND_VER_MAJOR",
			   r_curand, NULL },
	[NVLIB_CUSOLVER] = { NVLIB_CUSOLVER, STEM("cusolver"), FW | NVLIB_MATH,
			     "libcusolver", "nvidia-cusolver", "cusolver",
			     "cusolver64_", NVLIB_DLL_DOTLESS,
			     "cusolver_common.h", "CUSOLVER_VER_MAJOR",
			     r_cusolver, NULL },
	[NVLIB_CUSPARSE] = { NVLIB_CUSPARSE, STEM("cusparse"), FW | NVLIB_MATH,
			     "libcusparse", "nvidia-cusparse", "cusparse",
			     "cusparse64_", NVLIB_DLL_DOTLESS, "cusparse.h",
			     "CUSPARSE_VER_MAJOR", r_cusparse, NULL },
	[NVLIB_NVRTC] = { NVLIB_NVRTC, STEM("nvrtc"), FW, "cuda_nvrtc",
			  "nvidia-cuda-nvrtc", "cuda_nvrtc", "nvrtc64_",
			  NVLIB_DLL_NVRTC, "nvrtc.h", NULL, r_nvrtc, NULL },
	[NVLIB_NVJITLINK] = { NVLIB_NVJITLINK, STEM("nvJitLink"), FW,
			      "libnvjitlink", "nvidia-nvjitlink", "nvjitlink",
			      "nvJitLink_", NVLIB_DLL_NVRTC, "nvJitLink.h",
			      NULL, r_nvjitlink, NULL },
	[NVLIB_CUDNN] = { NVLIB_CUDNN, STEM("cudnn"),
			  FW | NVLIB_FAMILY | NVLIB_OWN_VERSION, "cudnn",
			  "nvidia-cudnn", "cudnn", "cudnn64_",
			  NVLIB_DLL_DOTLESS, "cudnn_version.h", "CUDNN_MAJOR",
			  NULL, "cuDNN" },
	[NVLIB_NCCL] = { NVLIB_NCCL, STEM("nccl"), FW | NVLIB_OWN_VERSION,
			 "nccl", "nvidia-nccl", "nccl", NULL, NVLIB_DLL_NONE,
			 "nccl.h", "NCCL_MAJOR", NULL, "NCCL" },
	[NVLIB_CUFFTW] = { NVLIB_CUFFTW, STEM("cufftw"), 0, "libcufft",
			   "nvidia-cufft", "cufft", "cufftw64_",
			   NVLIB_DLL_DOTLESS, "cufft.h", "CUFFT_VER_MAJOR",
			   r_cufft, NULL },
	[NVLIB_CUSOLVERMG] = { NVLIB_CUSOLVERMG, STEM("cusolverMg"), 0,
			       "libcusolver", "nvidia-cusolver", "cusolver",
			       "cusolverMg64_", NVLIB_DLL_DOTLESS,
			       "cusolver_common.h", "CUSOLVER_VER_MAJOR",
			       r_cusolver, NULL },
	[NVLIB_NVBLAS] = { NVLIB_NVBLAS, STEM("nvblas"), 0, "libcublas",
			   "nvidia-cublas", "cublas", "nvblas64_",
			   NVLIB_DLL_DOTLESS, "cublas_api.h",
			   "CUBLAS_VER_MAJOR", r_cublas, NULL },
	[NVLIB_NPP] = { NVLIB_NPP, STEM("npp"), NVLIB_FAMILY, "libnpp",
			"nvidia-npp", "npp", "npp", NVLIB_DLL_NONE,
			"nppversion.h", "NPP_VER_MAJOR", r_cublas, NULL },
	[NVLIB_NVJPEG] = { NVLIB_NVJPEG, STEM("nvjpeg"), 0, "libnvjpeg",
			   "nvidia-nvjpeg", "nvjpeg", "nvjpeg64_",
			   NVLIB_DLL_DOTLESS, "nvjpeg.h", "NVJPEG_VER_MAJOR",
			   r_nvjpeg, NULL },
	[NVLIB_NVTOOLSEXT] = { NVLIB_NVTOOLSEXT, STEM("nvToolsExt"), 0,
			       "cuda_nvtx", "nvidia-nvtx", "nvtx",
			       "nvToolsExt64_", NVLIB_DLL_DOTLESS, NULL, NULL,
			       r_nvtoolsext, NULL },
	[NVLIB_NVPERF_HOST] = { NVLIB_NVPERF_HOST, STEM("nvperf_host"), 0,
				"cuda_cupti", "nvidia-cuda-cupti", "cuda_cupti",
				NULL, NVLIB_DLL_NONE, NULL, NULL, r_unversioned,
				NULL },
	[NVLIB_NVPERF_TARGET] = { NVLIB_NVPERF_TARGET, STEM("nvperf_target"), 0,
				  "cuda_cupti", "nvidia-cuda-cupti",
				  "cuda_cupti", NULL, NVLIB_DLL_NONE, NULL,
				  NULL, r_unversioned, NULL },
	/* torch 2.7 links both (cusparselt/lib, nvidia/cufile/lib) */
	[NVLIB_CUSPARSELT] = { NVLIB_CUSPARSELT, STEM("cusparseLt"),
			       NVLIB_OWN_VERSION | NVLIB_ZERO_MAJOR,
			       "libcusparse_lt", "nvidia-cusparselt",
			       "cusparselt", NULL, NVLIB_DLL_NONE,
			       "cusparseLt.h", "CUSPARSELT_VER_MAJOR", NULL,
			       "cuSPARSELt" },
	[NVLIB_CUFILE] = { NVLIB_CUFILE, STEM("cufile"), 0, "libcufile",
			   "nvidia-cufile", "cufile", NULL, NVLIB_DLL_NONE,
			   "cufile.h", NULL, r_cufile, NULL },
	[NVLIB_NVRTC_BUILTINS] = { NVLIB_NVRTC_BUILTINS, STEM("nvrtc-builtins"),
				   0, "cuda_nvrtc", "nvidia-cuda-nvrtc",
				   "cuda_nvrtc", "nvrtc-builtins64_",
				   NVLIB_DLL_DOTLESS, NULL, NULL,
				   r_nvrtc_builtins, NULL },
	[NVLIB_CUTENSOR] = { NVLIB_CUTENSOR, STEM("cutensor"),
			     NVLIB_FAMILY | NVLIB_OWN_VERSION, NULL, "cutensor",
			     "cutensor", NULL, NVLIB_DLL_NONE, NULL, NULL, NULL,
			     "cuTENSOR" },
	[NVLIB_NVINFER] = { NVLIB_NVINFER, STEM("nvinfer"),
			    NVLIB_FAMILY | NVLIB_OWN_VERSION, NULL, "tensorrt",
			    "tensorrt_libs", NULL, NVLIB_DLL_NONE, NULL, NULL,
			    NULL, "TensorRT" },
	[NVLIB_NVONNXPARSER] = { NVLIB_NVONNXPARSER, STEM("nvonnxparser"),
				 NVLIB_OWN_VERSION, NULL, "tensorrt",
				 "tensorrt_libs", NULL, NVLIB_DLL_NONE, NULL,
				 NULL, NULL, "TensorRT" },
	[NVLIB_NVCOMP] = { NVLIB_NVCOMP, STEM("nvcomp"), NVLIB_OWN_VERSION,
			   NULL, "nvidia-nvcomp", "nvcomp", NULL,
			   NVLIB_DLL_NONE, NULL, NULL, NULL, "nvCOMP" },
	[NVLIB_NVSHMEM] = { NVLIB_NVSHMEM, STEM("nvshmem"),
			    NVLIB_FAMILY | NVLIB_OWN_VERSION, NULL,
			    "nvidia-nvshmem", "nvshmem", NULL, NVLIB_DLL_NONE,
			    NULL, NULL, NULL, "NVSHMEM" },
};

enum nvlib_kit nvlib_kit(const struct nvlib *lib)
{
	if (!(lib->flags & NVLIB_OWN_VERSION))
		return NVLIB_KIT_CUDA;
	return lib->id == NVLIB_CUDNN ? NVLIB_KIT_CUDNN : NVLIB_KIT_OTHER;
}

const char *nvlib_product(const struct nvlib *lib)
{
	return lib->product ? lib->product : "CUDA";
}

const char *nvlib_so_version(const struct nvlib *lib, const char *name)
{
	size_t n = strlen(lib->so);

	if (strncmp(name, lib->so, n) || name[n] != '.')
		return NULL;
	return name + n + 1;
}

const struct nvlib *nvlib_get(enum nvlib_id id)
{
	if ((unsigned)id >= NVLIB_COUNT)
		BUG("nvlib id %d", (int)id);
	return &table[id];
}

const struct nvlib *nvlib_by_stem(const char *stem)
{
	for (size_t i = 0; i < NVLIB_COUNT; i++)
		if (!strcmp(table[i].stem, stem))
			return &table[i];
	return NULL;
}

/* ---- names -------------------------------------------------------------- */

static bool is_letter_or_us(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Does the token [s, s + n) ("cudart", "cudnn_ops", "nppif") name e? */
static bool token_is(const struct nvlib *e, const char *s, size_t n)
{
	size_t sl = strlen(e->stem);

	if (n < sl || memcmp(s, e->stem, sl))
		return false;
	if (n == sl)
		return true;
	if (!(e->flags & NVLIB_FAMILY))
		return false;
	/* cuDNN's family is libcudnn_<lower case>; NPP's libnpp<letters>,
	 * cuTENSOR's libcutensorMg */
	if (e->id == NVLIB_CUDNN && s[sl] != '_')
		return false;
	for (size_t i = sl; i < n; i++)
		if (!is_letter_or_us(s[i]) ||
		    (e->id == NVLIB_CUDNN && s[i] >= 'A' && s[i] <= 'Z'))
			return false;
	return n > sl + 1 || e->id == NVLIB_NPP;
}

/* "12", "11.0", "2024.3.2", "": digits and single dots only. */
static bool version_text(const char *v)
{
	bool digit = false;

	for (; *v; v++) {
		if (*v >= '0' && *v <= '9')
			digit = true;
		else if (*v == '.' && digit)
			digit = false;
		else
			return false;
	}
	return digit;
}

const struct nvlib *nvlib_match_file(const char *name, const char **version)
{
	const char *so;

	if (strncmp(name, "lib", 3))
		return NULL;
	so = strstr(name, ".so");
	if (!so || (so[3] && (so[3] != '.' || !version_text(so + 4))))
		return NULL;
	for (size_t i = 0; i < NVLIB_COUNT; i++) {
		if (token_is(&table[i], name + 3, (size_t)(so - name - 3))) {
			if (version)
				*version = so[3] ? so + 4 : so + 3;
			return &table[i];
		}
	}
	return NULL;
}

bool nvlib_is_cuda_file(const char *name)
{
	return nvlib_match_file(name, NULL) != NULL;
}

/* ---- sonames ------------------------------------------------------------ */

static bool release_soname(const struct nvlib *lib, unsigned long M,
			   unsigned long m, struct buf *out)
{
	const struct nvlib_rule *r, *use = NULL;

	buf_reset(out);
	if (lib->flags & NVLIB_OWN_VERSION) {
		buf_printf(out, "%lu", M);
		return true;
	}
	for (r = lib->rules; r && (r == lib->rules || r->since_major); r++)
		if (M > r->since_major ||
		    (M == r->since_major && m >= r->since_minor))
			use = r;
	if (!use)
		return false;
	switch (use->how) {
	case NVLIB_MINOR:
		buf_printf(out, "%lu.%lu", M, m);
		return true;
	case NVLIB_MAJOR:
		buf_printf(out, "%lu", M);
		return true;
	case NVLIB_FIXED:
		buf_adds(out, use->fixed);
		return true;
	case NVLIB_NONE:
	default:
		return false;
	}
}

bool nvlib_soname_version(const struct nvlib *lib, const char *cuda,
			  struct buf *out)
{
	struct version v;

	buf_reset(out);
	if (version_parse(cuda, &v))
		return false;
	return release_soname(lib, v.part[0], v.n > 1 ? v.part[1] : 0, out);
}

char *nvlib_soname(const struct nvlib *lib, const char *cuda)
{
	struct buf v = BUF_INIT, b = BUF_INIT;

	if (!nvlib_soname_version(lib, cuda, &v)) {
		buf_release(&v);
		return NULL;
	}
	buf_printf(&b, "lib%s.so.%s", lib->stem, v.data);
	buf_release(&v);
	return buf_detach(&b);
}

/* CUDA releases by major: the majors and how far their minors go. */
static const struct {
	unsigned major, last_minor;
} releases[] = {
	{ 7, 5 },  { 8, 0 },  { 9, 2 },	 { 10, 2 },
	{ 11, 8 }, { 12, 9 }, { 13, 9 },
};

/* The first dotted part of s, its length in *n. */
static size_t first_part(const char *s)
{
	return strcspn(s, ".");
}

unsigned long nvlib_majors(const struct nvlib *lib, const char *sover)
{
	struct buf b = BUF_INIT;
	unsigned long exact = 0, first = 0;

	if (!version_text(sover))
		return 0;
	if (lib->flags & NVLIB_OWN_VERSION) {
		unsigned long M = strtoul(sover, NULL, 10);

		return (M > 0 || lib->flags & NVLIB_ZERO_MAJOR) &&
				       M < 8 * sizeof(unsigned long)
			       ? 1UL << M
			       : 0;
	}
	for (size_t i = 0; i < sizeof(releases) / sizeof(*releases); i++) {
		for (unsigned m = 0; m <= releases[i].last_minor; m++) {
			size_t n;

			if (!release_soname(lib, releases[i].major, m, &b))
				continue;
			if (!strcmp(b.data, sover))
				exact |= 1UL << releases[i].major;
			n = first_part(b.data);
			/* a file's full version: libcudart.so.11.8.89 */
			if (strchr(sover, '.') && n == first_part(sover) &&
			    !strncmp(b.data, sover, n) && strlen(sover) > b.len)
				first |= 1UL << releases[i].major;
		}
	}
	buf_release(&b);
	return exact ? exact : first;
}

unsigned nvlib_major(const struct nvlib *lib, const char *sover)
{
	unsigned long mask = nvlib_majors(lib, sover);
	unsigned major = 0;

	if (!mask || (mask & (mask - 1)))
		return 0;
	while (!(mask & 1UL)) {
		mask >>= 1;
		major++;
	}
	return major;
}

/* ---- Windows ------------------------------------------------------------ */

/* The DLL suffix for soname version sv in style: "110", "112_0". */
static void dll_suffix(enum nvlib_dll_style style, const char *sv,
		       struct buf *out)
{
	for (const char *p = sv; *p; p++)
		if (*p != '.')
			buf_add(out, p, 1);
	if (style == NVLIB_DLL_NVRTC) {
		if (!strchr(sv, '.'))
			buf_adds(out, "0");
		buf_adds(out, "_0");
	}
}

bool nvlib_dll_name(const struct nvlib *lib, const char *cuda, struct buf *out)
{
	struct buf sv = BUF_INIT;
	bool ok = false;

	buf_reset(out);
	if (lib->dll_style == NVLIB_DLL_NONE ||
	    lib->dll_style == NVLIB_DLL_YEAR)
		goto out;
	if (!nvlib_soname_version(lib, cuda, &sv))
		goto out;
	buf_adds(out, lib->dll);
	dll_suffix(lib->dll_style, sv.data, out);
	buf_adds(out, ".dll");
	ok = true;
out:
	buf_release(&sv);
	return ok;
}

const struct nvlib *nvlib_match_dll(const char *name, unsigned long *majors)
{
	size_t n = strlen(name);

	*majors = 0;
	if (n < 5 || strcasecmp(name + n - 4, ".dll"))
		return NULL;
	for (size_t i = 0; i < NVLIB_COUNT; i++) {
		const struct nvlib *e = &table[i];
		size_t pl;
		char *sfx;
		struct buf b = BUF_INIT, s = BUF_INIT;

		if (!e->dll || e->dll_style == NVLIB_DLL_NONE)
			continue;
		pl = strlen(e->dll);
		if (n <= pl + 4 || strncasecmp(name, e->dll, pl))
			continue;
		sfx = xstrndup(name + pl, n - pl - 4);
		if (e->dll_style == NVLIB_DLL_YEAR) {
			bool ok = version_text(sfx);

			free(sfx);
			if (ok)
				return e;
			continue;
		}
		if (e->flags & NVLIB_OWN_VERSION) {
			if (version_text(sfx) && !strchr(sfx, '.'))
				*majors = nvlib_majors(e, sfx);
		} else {
			for (size_t r = 0;
			     r < sizeof(releases) / sizeof(*releases); r++) {
				for (unsigned m = 0;
				     m <= releases[r].last_minor; m++) {
					if (!release_soname(e,
							    releases[r].major,
							    m, &b))
						continue;
					buf_reset(&s);
					dll_suffix(e->dll_style, b.data, &s);
					if (!strcmp(s.data, sfx))
						*majors |= 1UL
							   << releases[r].major;
				}
			}
		}
		free(sfx);
		buf_release(&b);
		buf_release(&s);
		if (*majors)
			return e;
	}
	return NULL;
}

/* ---- in words ----------------------------------------------------------- */

/* Append "a-b" (or "a" alone) of major M to out, comma-separated. */
static void add_span(struct buf *out, unsigned M, unsigned a, unsigned b)
{
	if (out->len)
		buf_adds(out, ", ");
	if (a == b)
		buf_printf(out, "%u.%u", M, a);
	else
		buf_printf(out, "%u.%u-%u.%u", M, a, M, b);
}

bool nvlib_describe_releases(const struct nvlib *lib, const char *sover,
			     struct buf *out)
{
	struct buf b = BUF_INIT;

	buf_reset(out);
	if (!version_text(sover))
		return false;
	if (lib->flags & NVLIB_OWN_VERSION) {
		if (strchr(sover, '.') || !nvlib_majors(lib, sover))
			return false;
		buf_printf(out, "%s.x", sover);
		return true;
	}
	/* by major: "M.x" when every minor gives it, else runs of minors */
	for (size_t i = 0; i < sizeof(releases) / sizeof(*releases); i++) {
		unsigned M = releases[i].major, last = releases[i].last_minor;
		bool gives[32] = { false }, all = true;

		for (unsigned m = 0; m <= last && m < 32; m++) {
			gives[m] = release_soname(lib, M, m, &b) &&
				   !strcmp(b.data, sover);
			all &= gives[m];
		}
		if (all) {
			buf_printf(out, "%s%u.x", out->len ? ", " : "", M);
			continue;
		}
		for (unsigned m = 0; m <= last && m < 32; m++) {
			unsigned e = m;

			if (!gives[m])
				continue;
			while (e + 1 <= last && e + 1 < 32 && gives[e + 1])
				e++;
			add_span(out, M, m, e);
			m = e;
		}
	}
	buf_release(&b);
	return out->len > 0;
}

/*
 * A family member's DLL: "cudnn_ops64_9.dll", "cudnn_ops_infer64_8.dll"
 * for the cudnn entry (whose own DLL is cudnn64_): the soname
 * "libcudnn_ops.so.9" into out.
 */
static bool family_dll(const struct nvlib *e, const char *name, size_t n,
		       struct buf *out)
{
	size_t sl = strlen(e->stem), dl = strlen(e->dll), k;
	const char *p, *end = name + n - 4, *v;

	if (!(e->flags & NVLIB_FAMILY) || !(e->flags & NVLIB_OWN_VERSION) ||
	    dl != sl + 3 || strncasecmp(e->dll + sl, "64_", 3) ||
	    n <= sl + 1 + 3 + 4 || strncasecmp(name, e->stem, sl) ||
	    name[sl] != '_')
		return false;
	for (p = name + sl + 1;
	     p < end && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			 *p == '_');
	     p++)
		;
	/* p is at "64_<major>.dll"; the part name before it is not empty */
	k = (size_t)(p - (name + sl + 1));
	if (k < 2 || end - p < 4 || strncmp(p, "64_", 3))
		return false;
	for (v = p + 3; v < end && *v >= '0' && *v <= '9'; v++)
		;
	if (v != end || v == p + 3 || end - (p + 3) > 3 || p[3] == '0')
		return false;
	buf_reset(out);
	buf_printf(out, "lib%s_", e->stem);
	for (const char *c = name + sl + 1; c < p; c++)
		buf_addc(out, (char)((*c >= 'A' && *c <= 'Z') ? *c - 'A' + 'a'
							      : *c));
	buf_adds(out, ".so.");
	buf_add(out, p + 3, (size_t)(end - (p + 3)));
	return true;
}

bool nvlib_dll_soname(const char *name, struct buf *out)
{
	size_t n = strlen(name);
	unsigned long majors;
	const struct nvlib *e = nvlib_match_dll(name, &majors);
	bool ok = false;

	buf_reset(out);
	if (!e) {
		for (size_t i = 0; i < NVLIB_COUNT && !ok; i++)
			if (table[i].dll && n > 4 &&
			    !strcasecmp(name + n - 4, ".dll"))
				ok = family_dll(&table[i], name, n, out);
		return ok;
	}
	if (e->dll_style == NVLIB_DLL_YEAR || !majors)
		return false;
	{
		size_t pl = strlen(e->dll);
		char *sfx = xstrndup(name + pl, n - pl - 4);
		struct buf b = BUF_INIT, s = BUF_INIT;

		if (e->flags & NVLIB_OWN_VERSION) {
			buf_printf(out, "lib%s.so.%s", e->stem, sfx);
			ok = true;
		}
		for (size_t r = 0;
		     !ok && r < sizeof(releases) / sizeof(*releases); r++)
			for (unsigned m = 0; !ok && m <= releases[r].last_minor;
			     m++) {
				if (!release_soname(e, releases[r].major, m,
						    &b))
					continue;
				buf_reset(&s);
				dll_suffix(e->dll_style, b.data, &s);
				if (!strcmp(s.data, sfx)) {
					buf_printf(out, "lib%s.so.%s", e->stem,
						   b.data);
					ok = true;
				}
			}
		free(sfx);
		buf_release(&b);
		buf_release(&s);
	}
	return ok;
}

/* ---- CUPTI -------------------------------------------------------------- */

bool nvlib_cupti_api_release(long api, struct buf *out)
{
	/* cupti_version.h's own list (CUDA 13.0's copy) */
	static const struct {
		long api;
		const char *release;
	} apis[] = {
		{ 10, "9.0" },	{ 11, "9.1" },	{ 12, "10.0" }, { 13, "11.0" },
		{ 14, "11.1" }, { 15, "11.2" }, { 16, "11.5" }, { 17, "11.6" },
		{ 18, "11.8" }, { 19, "12.0" }, { 20, "12.2" }, { 21, "12.3" },
		{ 22, "12.4" }, { 23, "12.5" }, { 24, "12.6" }, { 26, "12.8" },
		{ 27, "12.9" }, { 28, "12.9" },
	};

	buf_reset(out);
	if (api >= 130000 && api < 1000000) {
		buf_printf(out, "%ld.%ld", api / 10000, (api / 100) % 100);
		return true;
	}
	for (size_t i = 0; i < sizeof(apis) / sizeof(*apis); i++) {
		if (apis[i].api == api) {
			buf_adds(out, apis[i].release);
			return true;
		}
	}
	return false;
}

/* ---- lists of NVIDIA's names that are not one library ------------------- */

const char *const nvlib_cuda_default_components[] = {
	"cuda_cudart", "cuda_cupti",   "cuda_nvcc",	    "cuda_nvrtc",
	"cuda_cccl",   "cuda_nvtx",    "cuda_profiler_api", "cuda_crt",
	"libnvvm",     "cuda_culibos", "libcublas",	    "libcufft",
	"libcurand",   "libcusolver",  "libcusparse",	    "libnvjitlink",
	NULL,
};

bool nvlib_cuenv_installs(const struct nvlib *lib)
{
	if (lib->id == NVLIB_CUDNN)
		return true;
	for (size_t i = 0; nvlib_cuda_default_components[i]; i++)
		if (lib->component &&
		    !strcmp(lib->component, nvlib_cuda_default_components[i]))
			return true;
	return false;
}

const char *const nvlib_cuda_runtime_components[] = {
	"cuda_cudart", "cuda_cupti",  "cuda_nvrtc",  "libcublas",    "libcufft",
	"libcurand",   "libcusolver", "libcusparse", "libnvjitlink", NULL,
};

const char *const nvlib_cudnn9_first[] = { "libcudnn_graph", NULL };

const char *const nvlib_cudnn9_later[] = {
	"libcudnn_ops",
	"libcudnn_cnn",
	"libcudnn_adv",
	"libcudnn_engines_precompiled",
	"libcudnn_engines_runtime_compiled",
	"libcudnn_heuristic",
	NULL,
};

const char *const nvlib_cudnn8_later[] = {
	"libcudnn_ops_infer",
	"libcudnn_ops_train",
	"libcudnn_cnn_infer",
	"libcudnn_cnn_train",
	"libcudnn_adv_infer",
	"libcudnn_adv_train",
	NULL,
};
