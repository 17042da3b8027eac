/*
 * explain_context.c: what a pasted log says around its findings (see
 * struct explain_context in explain.h): the framework that printed it,
 * its version, and the CUDA and cuDNN its build uses, each with the words
 * it came from. explain never takes a CUDA release from anywhere else:
 * where none of this is in the text, it says the release cannot be known.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nvidia/compat.h"
#include "explain/explain.h"
#include "base/version.h"
#include "base/xalloc.h"

/* A kept quotation of the text: at most this many bytes. */
#define FROM_KEEP 80

void explain_context_release(struct explain_context *c)
{
	FREE_EACH(c->framework, c->framework_from, c->pin, c->version, c->cuda,
		  c->cuda_from, c->cuda_other, c->cuda_other_from, c->cudnn,
		  c->cudnn_from, c->pending_min, c->org_tf, c->site);
	strv_release(&c->loaded);
	memset(c, 0, sizeof(*c));
}

/* The major of v ("11.7" -> 11). */
static unsigned long major_of(const char *v)
{
	return strtoul(v, NULL, 10);
}

/* Set c's CUDA (or, with cudnn, its cuDNN) to v, from (both copied); a
 * second major makes the CUDA unknown (cuda_other). */
static void explain_context_cuda(struct explain_context *c, const char *v,
				 const char *from, bool cudnn)
{
	char **cur = cudnn ? &c->cudnn : &c->cuda;
	char **cur_from = cudnn ? &c->cudnn_from : &c->cuda_from;

	if (!v || !*v || !isdigit((unsigned char)*v))
		return;
	if (!*cur) {
		*cur = xstrdup(v);
		*cur_from = xstrdup(from);
		return;
	}
	if (major_of(*cur) != major_of(v)) {
		/* two majors: for cuDNN, keep the first; for CUDA, the
		 * release cannot be known */
		if (!cudnn && !c->cuda_other) {
			c->cuda_other = xstrdup(v);
			c->cuda_other_from = xstrdup(from);
		}
		return;
	}
	/* the same major: keep the more precise ("12" -> "12.1") */
	if (strlen(v) > strlen(*cur)) {
		free(*cur);
		free(*cur_from);
		*cur = xstrdup(v);
		*cur_from = xstrdup(from);
	}
}

/* "from" words: the token of line at p, n bytes, quoted. */
static char *quote(const char *p, size_t n)
{
	struct buf b = BUF_INIT;

	if (n > FROM_KEEP)
		n = FROM_KEEP;
	buf_adds(&b, "\"");
	buf_add_display(&b, p, n);
	buf_adds(&b, "\"");
	return buf_detach(&b);
}

static bool tok_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-' ||
	       c == '+' || c == '=' || c == '[' || c == ']' || c == '/';
}

/* The start of the token around p in line, and its length. */
static const char *token_at(const char *line, const char *p, size_t *n)
{
	const char *s = p, *e = p;

	while (s > line && tok_char(s[-1]))
		s--;
	while (tok_char(*e))
		e++;
	*n = (size_t)(e - s);
	return s;
}

/* Digits at p, at most max of them, into *v; how many. */
static size_t digits(const char *p, size_t max, unsigned long *v)
{
	size_t n = 0;

	*v = 0;
	while (n < max && isdigit((unsigned char)p[n]))
		*v = *v * 10 + (unsigned long)(p[n++] - '0');
	return n;
}

/* "117" -> "11.7", "92" -> "9.2", "130" -> "13.0": a wheel's CUDA tag. */
static char *cuda_of_tag(const char *p)
{
	struct buf b = BUF_INIT;
	unsigned long v;
	size_t n = digits(p, 4, &v);

	if (n == 3 || n == 2)
		buf_printf(&b, "%.*s.%c", (int)n - 1, p, p[n - 1]);
	else
		return NULL;
	return buf_detach(&b);
}

void explain_context_built(struct explain_context *c, const char *v,
			   const char *from)
{
	explain_context_cuda(c, v, from, false);
}

static void from_token(struct explain_context *c, const char *line,
		       const char *p, const char *v, bool cudnn)
{
	size_t n;
	const char *s = token_at(line, p, &n);
	char *q = quote(s, n);

	explain_context_cuda(c, v, q, cudnn);
	free(q);
}

/* ---- the framework ------------------------------------------------------- */

struct fw_word {
	const char *word; /* as the text has it, case ignored */
	const char *framework;
};

/* Words that say which framework printed a line. JAX's logs carry
 * TensorFlow's and XLA's source paths (external/org_tensorflow/,
 * external/xla/): any word of JAX's names JAX for the whole text. */
static const struct fw_word fw_words[] = {
	{ "jaxlib", "jax" },
	{ "jax.", "jax" },
	{ "jax_", "jax" },
	{ "jax-", "jax" },
	{ "jax[", "jax" },
	{ "/jax/", "jax" },
	{ "jax:", "jax" },
	{ "JAX ", "jax" },
	{ "external/xla/", "jax" },
	{ "XlaRuntimeError", "jax" },
	{ "xla_bridge", "jax" },
	{ "external/local_xla/", "tensorflow" },
	{ "tensorflow", "tensorflow" },
	{ "torch", "pytorch" },
	{ "paddle", "paddle" },
	{ "ctranslate2", "ctranslate2" },
	{ "faster_whisper", "ctranslate2" },
	{ "faster-whisper", "ctranslate2" },
	{ "onnxruntime", "onnxruntime" },
	{ "cupy", "cupy" },
};

static void read_framework(struct explain_context *c, const char *line)
{
	const char *org = strstr(line, "external/org_tensorflow/");

	/* TensorFlow built as another's dependency: JAX's, unless the text
	 * is TensorFlow Serving's (decided in explain_context_finish) */
	if (org && !c->org_tf) {
		size_t n;
		const char *s = token_at(line, org, &n);

		c->org_tf = quote(s, n);
	}
	if (strstr(line, "tensorflow_serving"))
		c->serving = true;
	for (size_t i = 0; i < sizeof(fw_words) / sizeof(*fw_words); i++) {
		const struct fw_word *w = &fw_words[i];
		const char *p = str_find_nocase(line, w->word);
		size_t n;
		const char *s;

		if (!p)
			continue;
		if (!strcmp(w->framework, "jax"))
			c->jax = true;
		if (c->framework && (strcmp(w->framework, "jax") ||
				     !strcmp(c->framework, "jax")))
			return;
		FREE_EACH(c->framework, c->framework_from);
		c->framework = xstrdup(w->framework);
		s = token_at(line, p, &n);
		c->framework_from = quote(s, n);
		return;
	}
}

/* ---- a version pinned in the text ---------------------------------------- */

/* pip names whose "NAME==V" (or "NAME V", "NAME: V", "NAME-V") the
 * frameworks table or `cuenv needs NAME==V` can answer. */
static const char *const pins[] = {
	"tensorflow-gpu",
	"tensorflow",
	"torch",
	"jaxlib",
	"jax",
	"paddlepaddle-gpu",
	"ctranslate2",
	"onnxruntime-gpu",
	"cupy-cuda12x",
	"cupy-cuda11x",
};

static void read_pin(struct explain_context *c, const char *line)
{
	if (c->pin)
		return;
	for (size_t i = 0; i < sizeof(pins) / sizeof(*pins); i++) {
		size_t n = strlen(pins[i]);
		const char *p = line;

		while ((p = str_find_nocase(p, pins[i]))) {
			const char *v = p + n;
			char *ver;
			struct buf b = BUF_INIT;

			if (p > line && (isalnum((unsigned char)p[-1]) ||
					 p[-1] == '-' || p[-1] == '_')) {
				p += n;
				continue;
			}
			while (*v == '=' || *v == ' ' || *v == ':' ||
			       *v == '-' || *v == '\t')
				v++;
			if (!strncasecmp(v, "version", 7))
				for (v += 7; *v == ' ' || *v == ':'; v++)
					;
			ver = NULL;
			if (isdigit((unsigned char)*v)) {
				size_t k = 0;

				while (isdigit((unsigned char)v[k]) ||
				       v[k] == '.')
					k++;
				while (k && v[k - 1] == '.')
					k--;
				ver = xstrndup(v, k);
			}
			if (!ver || !version_is_valid(ver) ||
			    !strchr(ver, '.')) {
				free(ver);
				p += n;
				continue;
			}
			buf_printf(&b, "%s==%s", pins[i], ver);
			/* jax and jaxlib share their versions */
			c->pin = buf_detach(&b);
			c->version = ver;
			return;
		}
	}
}

/* ---- the CUDA and cuDNN of the build ------------------------------------- */

/* A CUDA version number as JAX and cudaRuntimeGetVersion print it:
 * 12020 is 12.2, 11080 is 11.8. */
static char *cuda_of_number(unsigned long v)
{
	struct buf b = BUF_INIT;

	if (v < 1000 || v > 99999)
		return NULL;
	buf_printf(&b, "%lu.%lu", v / 1000, (v % 1000) / 10);
	return buf_detach(&b);
}

/* "+cu117" (PyTorch's local version), "+cuda11.cudnn86" (jaxlib's). */
static void read_local_versions(struct explain_context *c, const char *line)
{
	const char *p = line;

	while ((p = strstr(p, "+cu"))) {
		const char *q = p + 3;
		unsigned long v;
		char *cu = NULL;

		if (!strncmp(q, "da", 2)) {
			size_t n = digits(q + 2, 2, &v);

			if (n) {
				char num[24];

				snprintf(num, sizeof(num), "%lu", v);
				from_token(c, line, p, num, false);
				q += 2 + n;
				if (!strncmp(q, ".cudnn", 6) &&
				    digits(q + 6, 3, &v) >= 2) {
					cu = cuda_of_tag(q + 6);
					from_token(c, line, p, cu, true);
				}
			}
		} else if (isdigit((unsigned char)*q)) {
			cu = cuda_of_tag(q);
			from_token(c, line, p, cu, false);
		}
		free(cu);
		p += 3;
	}
}

/* An nvidia-*-cu12 or cupy-cuda12x wheel, jax[cuda12_pip],
 * jax-cuda12-plugin, a Paddle build "post112". */
static void read_wheel_names(struct explain_context *c, const char *line)
{
	static const char *const tags[] = { "-cu",   "_cu",   "[cuda",
					    "-cuda", "_cuda", ".post" };
	unsigned long v;

	for (size_t i = 0; i < sizeof(tags) / sizeof(*tags); i++) {
		const char *p = line;
		size_t tl = strlen(tags[i]);

		while ((p = strstr(p, tags[i]))) {
			const char *q = p + tl;
			size_t tn, n = digits(q, 3, &v);
			const char *tok = token_at(line, p, &tn);
			char *cu = NULL;
			char num[24];

			p += tl;
			if (n < 2)
				continue;
			if (!strcmp(tags[i], ".post")) {
				/* paddlepaddle-gpu 2.4.1.post112 */
				if (!str_find_nocase(tok, "paddle") &&
				    !str_find_nocase(line, "paddle"))
					continue;
				cu = cuda_of_tag(q);
			} else if (n == 2 &&
				   (str_find_nocase(tok, "nvidia") ||
				    str_find_nocase(tok, "cupy") ||
				    str_find_nocase(tok, "jax") ||
				    str_find_nocase(tok, "onnxruntime"))) {
				/* a major: nvidia-cublas-cu12, cupy-cuda12x */
				if (isdigit((unsigned char)q[2]))
					continue;
				snprintf(num, sizeof(num), "%lu", v);
				cu = xstrdup(num);
			} else if (n == 3 && str_find_nocase(tok, "cupy")) {
				/* cupy-cuda117 */
				cu = cuda_of_tag(q);
			}
			if (cu)
				from_token(c, line, tok, cu, false);
			free(cu);
		}
	}
}

/* Phrases after which the text gives the CUDA (or cuDNN) release the
 * build was made with. */
struct built_phrase {
	const char *words;
	bool cudnn;
};

static const struct built_phrase built[] = {
	{ "compiled with CUDA", false },
	{ "built with CUDA", false },
	{ "built against CUDA", false },
	{ "compiled against CUDA", false },
	{ "CUDA used to build PyTorch:", false },
	/* torch.utils.cpp_extension: "The detected CUDA version (12.1)
	 * mismatches the version that was used to compile PyTorch (11.8)" */
	{ "used to compile PyTorch (", false },
	/* TensorFlow 1.x on Windows, missing cudart64_100.dll: "Download
	 * and install CUDA 10.0 from this URL" */
	{ "Download and install CUDA", false },
	{ "Runtime API Version:", false }, /* Paddle's gpu_resources.cc */
	/* nvidia-container-cli: the image's NVIDIA_REQUIRE_CUDA */
	{ "unsatisfied condition: cuda>=", false },
	{ "compiled with CUDNN", true },
	{ "compiled with cuDNN", true },
};

static void read_built(struct explain_context *c, const char *line)
{
	const char *p;

	for (size_t i = 0; i < sizeof(built) / sizeof(*built); i++) {
		size_t n = strlen(built[i].words);
		const char *v;
		size_t k = 0;
		char *ver, *q;

		p = str_find_nocase(line, built[i].words);
		if (!p)
			continue;
		v = p + n;
		while (*v == ' ' || *v == ':' || *v == '(')
			v++;
		if (!strncasecmp(v, "version", 7))
			for (v += 7; *v == ' ' || *v == ':'; v++)
				;
		while (isdigit((unsigned char)v[k]) || v[k] == '.')
			k++;
		while (k && v[k - 1] == '.')
			k--;
		if (!k)
			continue;
		ver = xstrndup(v, k);
		q = quote(p, (size_t)(v + k - p));
		explain_context_cuda(c, ver, q, built[i].cudnn);
		FREE_EACH(ver, q);
	}
	/* a requirement by major: onnxruntime's "Require cuDNN 9.* and CUDA
	 * 13.*" (onnxruntime_pybind_state.cc), "requires CUDA 12.x" */
	p = str_find_nocase(line, "require");
	for (const char *w = p; w && *w; w++) {
		bool dnn = !strncasecmp(w, "cudnn ", 6);
		const char *v = w + (dnn ? 6 : 5);
		size_t k = strspn(v, "0123456789");

		if ((dnn || !strncmp(w, "CUDA ", 5)) && k && k < 3 &&
		    (!strncmp(v + k, ".*", 2) || !strncmp(v + k, ".x", 2))) {
			char *ver = xstrndup(v, k),
			     *q = quote(w, (size_t)(v + k + 2 - w));

			explain_context_cuda(c, ver, q, dnn);
			FREE_EACH(ver, q);
		}
	}
	/* darknet: "CUDA-version: 11050 (11050), cuDNN: 8.3.0", the
	 * CUDART_VERSION and CUDNN it was compiled with */
	p = strstr(line, "CUDA-version: ");
	if (p) {
		char *cu = cuda_of_number(
			strtoul(p + strlen("CUDA-version: "), NULL, 10));
		char *q = quote(p, strcspn(p, "("));

		explain_context_cuda(c, cu, q, false);
		FREE_EACH(cu, q);
	}
	/* JAX: "Found CUDA version 12010, but JAX was built against version
	 * 12020" */
	p = strstr(line, "JAX was built against version ");
	if (p && strstr(line, "Found CUDA version")) {
		char *cu = cuda_of_number(
			strtoul(p + strlen("JAX was built against version "),
				NULL, 10));
		char *q = quote(p, strlen(p));

		explain_context_cuda(c, cu, q, false);
		FREE_EACH(cu, q);
	}
}

/* "Successfully opened dynamic library libcudart.so.11.0" (TensorFlow's
 * dso_loader), "successfully opened CUDA library libcublas.so.7.0
 * locally" (its first releases): the library loaded; a CUDA library's
 * release is the build's. */
static bool read_success(struct explain_context *c, const char *line)
{
	const char *p = str_find_nocase(line, "successfully opened");

	if (!p)
		return false;
	while (*p) {
		size_t n;
		const char *s, *ver;
		const struct nvlib *lib;
		char *name;

		while (*p && !isalnum((unsigned char)*p))
			p++;
		s = token_at(line, p, &n);
		if (!n)
			break;
		name = xstrndup(s, n);
		p = s + n;
		lib = nvlib_match_file(name, &ver);
		if (lib && *ver) {
			unsigned M = nvlib_major(lib, ver);
			char num[24];

			if (strv_find(&c->loaded, name) < 0)
				strv_push(&c->loaded, name);
			if (M && !(lib->flags & NVLIB_OWN_VERSION)) {
				char *q = quote(s, n);

				snprintf(num, sizeof(num), "%u", M);
				explain_context_cuda(c, num, q, false);
				free(q);
			}
		}
		free(name);
	}
	return true;
}

void explain_context_finish(struct explain_context *c)
{
	if (c->jax || !c->org_tf || c->serving)
		return;
	c->jax = true;
	FREE_EACH(c->framework, c->framework_from);
	c->framework = xstrdup("jax");
	c->framework_from = xstrdup(c->org_tf);
}

/* The first absolute ".../site-packages" folder a line names (a
 * traceback's File "/venv/lib/python3.11/site-packages/torch/...",
 * an ImportError's path): where the loader model looks. */
static void read_site(struct explain_context *c, const char *line)
{
	static const char tag[] = "/site-packages/";
	const char *p = c->site ? NULL : strstr(line, tag), *s;

	if (!p)
		return;
	for (s = p; s > line && s[-1] != ' ' && s[-1] != '"' && s[-1] != '\'' &&
		    s[-1] != '(' && s[-1] != '=';
	     s--)
		;
	if (*s == '/')
		c->site = xstrndup(s, (size_t)(p - s) + sizeof(tag) - 2);
}

bool explain_context_line(struct explain_context *c, const char *line)
{
	read_site(c, line);
	read_framework(c, line);
	read_pin(c, line);
	read_local_versions(c, line);
	read_wheel_names(c, line);
	read_built(c, line);
	return read_success(c, line);
}

void explain_context_table(struct explain_context *c,
			   const struct framework_builds *fw)
{
	const char *cuda = NULL;
	bool one_major = true, one = true;
	struct buf from = BUF_INIT, major = BUF_INIT;

	if (c->cuda || !c->version || !fw->n)
		return;
	for (size_t i = 0; i < fw->n; i++) {
		const struct framework_build *b = &fw->v[i];

		if (!b->cuda || !isdigit((unsigned char)*b->cuda) ||
		    !(version_matches_str(b->version, c->version) ||
		      version_matches_str(c->version, b->version)) ||
		    (!strncmp(b->notes, "os ", 3) &&
		     strncmp(b->notes, "os linux", 8)))
			continue;
		if (cuda && major_of(cuda) != major_of(b->cuda))
			one_major = false;
		if (cuda && strcmp(cuda, b->cuda))
			one = false;
		cuda = b->cuda;
	}
	if (!cuda || !one_major)
		goto out;
	if (!one) {
		/* builds of several minors: the major is what is known */
		buf_printf(&major, "%lu", major_of(cuda));
		cuda = major.data;
	}
	buf_printf(&from, "%s %s in the frameworks table", fw->v[0].framework,
		   c->version);
	explain_context_cuda(c, cuda, from.data, false);
out:
	BUF_RELEASE_EACH(&from, &major);
}
