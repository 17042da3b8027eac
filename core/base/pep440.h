/*
 * pep440.h: Python package versions as PEP 440 reads them, for the wheels
 * `cuenv needs NAME==VERSION` chooses: an epoch (1!2.0), a release of
 * numbers, a pre-release (a, b, rc; alpha, beta, c, pre and preview
 * spelled out), a post-release (.post1, -1, .rev1), a development
 * release (.dev1) and a local label (+cu121), case-insensitive, with the
 * spellings PEP 440 normalises ("2.0-RC.1" is "2.0rc1"). CUDA's own
 * versions stay base/version.h's.
 */
#ifndef CUENV_PEP440_H
#define CUENV_PEP440_H

#include <stdbool.h>

#define PEP440_RELEASE_MAX 8 /* numbers in a release, at most */
#define PEP440_LOCAL_MAX 64  /* bytes of a local label, at most */

struct pep440 {
	unsigned long epoch;
	unsigned long release[PEP440_RELEASE_MAX];
	unsigned nrelease;
	int pre; /* -1: none; 0 a, 1 b, 2 rc */
	unsigned long pre_n;
	long post;		      /* -1: none */
	long dev;		      /* -1: none */
	char local[PEP440_LOCAL_MAX]; /* normalised ("cu121"), "" for none */
};

/* Parse s into v; 0, or -1 when s is no PEP 440 version (or a number in
 * it passes 9 digits, or a part passes the bounds above). */
int pep440_parse(const char *s, struct pep440 *v);

bool pep440_valid(const char *s);

/* PEP 440's order: <0, 0, >0. Trailing zeros of a release do not count
 * (1.0 == 1.0.0); 1.0.dev1 < 1.0a1 < 1.0 < 1.0.post1; a local label
 * sorts after none. */
int pep440_cmp(const struct pep440 *a, const struct pep440 *b);

/* Does version v satisfy "==spec" (a spec without a local label ignores
 * v's)? false when either is no version. */
bool pep440_equal_spec(const char *v, const char *spec);

/* pep440_cmp of two strings; an invalid one sorts first. */
int pep440_cmp_str(const char *a, const char *b);

#endif
