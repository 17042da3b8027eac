#include "artifact/fwmsg.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/version.h"
#include "base/xalloc.h"

/* The version at p ("8.6.0"), or NULL when what is there is none
 * (version_is_valid: "000...000" from a mangled log is not). */
static char *version_at(const char *p)
{
	size_t n = 0;
	char *v;

	while (p[n] == ' ')
		p++;
	while (isdigit((unsigned char)p[n]) || p[n] == '.')
		n++;
	while (n && p[n - 1] == '.')
		n--;
	if (!n)
		return NULL;
	v = xstrndup(p, n);
	if (!version_is_valid(v)) {
		free(v);
		return NULL;
	}
	return v;
}

/*
 * A cuDNN version as PyTorch prints it: a tuple "(9, 26, 0)", or, before
 * 1.8, the CUDNN_VERSION number (8005 is 8.0.5, 90100 is 9.1.0).
 */
static char *torch_version_at(const char *p)
{
	struct buf b = BUF_INIT;

	while (*p == ' ')
		p++;
	if (*p == '(') {
		for (p++; *p && *p != ')'; p++) {
			if (isdigit((unsigned char)*p))
				buf_addc(&b, *p);
			else if (*p == ',')
				buf_addc(&b, '.');
			else if (*p != ' ')
				break;
		}
		if (*p != ')' || !b.len || !version_is_valid(b.data)) {
			buf_release(&b);
			return NULL;
		}
		return buf_detach(&b);
	}
	if (isdigit((unsigned char)*p)) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (v >= 10000)
			buf_printf(&b, "%lu.%lu.%lu", v / 10000,
				   (v % 10000) / 100, v % 100);
		else if (v >= 1000)
			buf_printf(&b, "%lu.%lu.%lu", v / 1000,
				   (v % 1000) / 100, v % 100);
		/* a huge number (strtoul's ULONG_MAX) is no version */
		if (b.len && version_is_valid(b.data))
			return buf_detach(&b);
	}
	buf_release(&b);
	return NULL;
}

/*
 * A cuDNN version as TensorFlow's cuda_dnn.cc prints it after "library:"
 * or "compiled with": "8.1.0" (from ": "), or, in TensorFlow 1.x, the
 * CUDNN_VERSION number, "7201 (compatibility version 7200)", read as
 * PyTorch's number is (7.2.1; 90100 is 9.1.0).
 */
static char *tf_version_at(const char *p)
{
	size_t n;

	p += strspn(p, " :");
	n = strspn(p, "0123456789");
	if (n && p[n] != '.')
		return torch_version_at(p);
	return version_at(p);
}

/*
 * JAX's names of the libraries its version check reads, and how each
 * version is a number there (jaxlib/cuda/versions_helpers.cc: what
 * cudaRuntimeGetVersion, cublasGetVersion, cufftGetVersion,
 * cusolverGetVersion, cusparseGetProperty return).
 */
static const struct jax_lib {
	const char *name;
	unsigned long major, minor; /* v / major, v % major / minor */
} jax_libs[] = {
	{ "cuDNN", 0, 0 }, /* torch_version_at: 8906, 90100 */
	{ "CUDA", 1000, 10 },	   { "cuBLAS", 10000, 100 },
	{ "cuFFT", 1000, 100 },	   { "cuSOLVER", 1000, 100 },
	{ "cuSPARSE", 1000, 100 },
};

/* The library of JAX's check named at p ("cuBLAS version"), or NULL. */
static const struct jax_lib *jax_lib_at(const char *p)
{
	for (size_t i = 0; i < sizeof(jax_libs) / sizeof(*jax_libs); i++) {
		size_t n = strlen(jax_libs[i].name);

		if (!strncmp(p, jax_libs[i].name, n) && p[n] == ' ')
			return &jax_libs[i];
	}
	return NULL;
}

/* A version of l as JAX prints it (12030: CUDA 12.3), or NULL. */
static char *jax_version_at(const struct jax_lib *l, const char *p)
{
	struct buf b = BUF_INIT;
	unsigned long v;
	char *end;

	if (!l->major)
		return torch_version_at(p);
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return NULL;
	v = strtoul(p, &end, 10);
	if (v < l->major || v / l->major > 99)
		return NULL;
	buf_printf(&b, "%lu.%lu", v / l->major, v % l->major / l->minor);
	if (l->minor > 10)
		buf_printf(&b, ".%lu", v % l->minor);
	if (!version_is_valid(b.data)) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b);
}

/*
 * JAX's version check (jax_plugins/cuda/__init__.py): "Found cuBLAS
 * version 120205, but JAX was built against version 120304", or, from
 * 0.4.31, a block: "Outdated cuDNN installation found." ... "Minimum
 * supported: 9100" ... "Installed version: 8907". *pending carries the
 * block's library ("cuBLAS"), then its minimum ("cuBLAS 120100").
 */
static void jax_check(const char *line, char **pending, fwmsg_found_fn *found,
		      void *arg)
{
	const struct jax_lib *l;
	const char *p, *q;

	p = strstr(line, "Found ");
	if (p && (l = jax_lib_at(p + 6)) &&
	    !strncmp(p + 6 + strlen(l->name), " version", 8) &&
	    (q = strstr(p, "built against version")))
		found(arg, line, "jax", l->name,
		      jax_version_at(l, q + strlen("built against version")),
		      jax_version_at(l, p + 6 + strlen(l->name) + 8));
	p = strstr(line, "Outdated ");
	if (p && (l = jax_lib_at(p + 9)) &&
	    !strncmp(p + 9 + strlen(l->name), " installation found", 19)) {
		free(*pending);
		*pending = xstrdup(l->name);
	}
	p = strstr(line, "Minimum supported:");
	if (p && *pending && !strchr(*pending, ' ')) {
		struct buf b = BUF_INIT;

		p += strlen("Minimum supported:");
		buf_printf(&b, "%s %.*s", *pending, (int)strcspn(p, "\r\n"), p);
		free(*pending);
		*pending = buf_detach(&b);
	}
	p = strstr(line, "Installed version:");
	if (p && *pending && strchr(*pending, ' ')) {
		char *min = *pending;

		*pending = NULL;
		l = jax_lib_at(min);
		if (l)
			found(arg, line, "jax", l->name,
			      jax_version_at(l, strchr(min, ' ')),
			      jax_version_at(l, p + strlen("Installed "
							   "version:")));
		free(min);
	}
}

/*
 * torch.utils.cpp_extension, building an extension: "The detected CUDA
 * version (12.1) mismatches the version that was used to compile\n
 * PyTorch (11.8)", nvcc's CUDA against torch's, broken over two lines
 * as torch prints it (its CUDA_MISMATCH_MESSAGE; from torch 2.6 on one
 * line, "compilePyTorch" without a space): *pending carries "nvcc 12.1"
 * to the second. Its CUDA_MISMATCH_WARN, "has a minor version mismatch",
 * is a warning the build goes on after: nothing.
 */
static void torch_toolkit(const char *line, char **pending,
			  fwmsg_found_fn *found, void *arg)
{
	static const char detected[] = "detected CUDA version (",
			  compiled[] = "PyTorch (";
	const char *d = strstr(line, detected), *c;
	struct buf b = BUF_INIT;
	char *nvcc;

	if (d && strstr(d, "minor version mismatch"))
		return;
	if (d && strstr(d, "used to compile")) {
		nvcc = version_at(d + strlen(detected));
		c = strstr(d, compiled);
		if (nvcc && c) {
			found(arg, line, "torch", "nvcc",
			      version_at(c + strlen(compiled)), nvcc);
		} else if (nvcc) {
			buf_printf(&b, "nvcc %s", nvcc);
			free(*pending);
			*pending = buf_detach(&b);
			free(nvcc);
		}
		return;
	}
	if (*pending && !strncmp(*pending, "nvcc ", 5) &&
	    (c = strstr(line, compiled))) {
		found(arg, line, "torch", "nvcc",
		      version_at(c + strlen(compiled)), xstrdup(*pending + 5));
		free(*pending);
		*pending = NULL;
	}
}

void fwmsg_cudnn_mismatches(const char *line, char **pending_min,
			    fwmsg_found_fn *found, void *arg)
{
	const char *p, *q;

	/* TensorFlow's (and XLA's) stream_executor/cuda/cuda_dnn.cc; JAX
	 * builds them as external/org_tensorflow, later external/xla,
	 * TensorFlow 2.14 on as external/local_xla */
	p = strstr(line, "Loaded runtime CuDNN library:");
	if (p) {
		/* without a source path (absl's "E0607 ... cuda_dnn.cc:522]",
		 * TensorFlow 2.18 and jaxlib 0.4.36 on, or the bare
		 * sentence): TensorFlow or JAX, as the rest of the text says */
		const char *fw = "xla";

		if (strstr(line, "external/xla/"))
			fw = "jax";
		else if (strstr(line, "tensorflow/") ||
			 strstr(line, "local_xla/"))
			fw = "tensorflow";
		q = strstr(p, "compiled with");
		found(arg, line, fw, "cuDNN",
		      q ? tf_version_at(q + strlen("compiled with")) : NULL,
		      tf_version_at(p + strlen("Loaded runtime CuDNN "
					       "library:")));
	}
	/* PyTorch's torch/backends/cudnn/__init__.py */
	p = strstr(line, "PyTorch was compiled");
	if (p) {
		const char *a = strstr(p, "against"), *rv = NULL;

		if (a && (q = strstr(a, "runtime version")))
			rv = q + strlen("runtime version");
		else if (a && (q = strstr(a + 7, "linked against")))
			rv = q + strlen("linked against");
		if (rv)
			found(arg, line, "torch", "cuDNN",
			      torch_version_at(a + strlen("against")),
			      torch_version_at(rv));
	}
	torch_toolkit(line, pending_min, found, arg);
	jax_check(line, pending_min, found, arg);
	/* Paddle's gpu_resources.cc: "The installed Paddle is compiled with
	 * CUDNN 8.4, but CUDNN version in your machine is 8.3" */
	p = strstr(line, "Paddle is compiled with CUDNN");
	if (p && (q = strstr(p, "CUDNN version in your machine is")))
		found(arg, line, "paddle", "cuDNN",
		      version_at(p + strlen("Paddle is compiled with "
					    "CUDNN")),
		      version_at(q + strlen("CUDNN version in your "
					    "machine is")));
}

struct first_built {
	char *built;
};

static void keep_first(void *arg, const char *line, const char *framework,
		       const char *what, char *built, char *loaded)
{
	struct first_built *fb = arg;

	(void)line;
	(void)framework;
	if (!fb->built && built && loaded && !strcmp(what, "cuDNN")) {
		fb->built = built;
		built = NULL;
	}
	free(built);
	free(loaded);
}

char *fwmsg_cudnn_built(const char *text)
{
	struct first_built fb = { NULL };
	char *pending_min = NULL;
	const char *p = text;

	while (*p && !fb.built) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);

		for (char *q = line; *q; q++)
			if (*q == '\r')
				*q = ' ';
		fwmsg_cudnn_mismatches(line, &pending_min, keep_first, &fb);
		free(line);
		p += n;
		if (*p)
			p++;
	}
	free(pending_min);
	return fb.built;
}
