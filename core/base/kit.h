/*
 * kit.h: the three kinds of thing cuenv installs and selects.
 *
 * Below both the catalogue (what can be installed) and the store (what is
 * installed), so that each can name a kind, and print or read its name,
 * without including the other.
 */
#ifndef CUENV_KIT_H
#define CUENV_KIT_H

/* CUPTI alone (cuenv install --cupti V): never taken for a toolkit. */
enum kit_kind { KIT_CUDA, KIT_CUDNN, KIT_CUPTI };
#define KIT_KINDS 3

/* "cuda", "cudnn" or "cupti" (static; "cupti" for an out-of-range kind). */
const char *kit_kind_name(enum kit_kind kind);
/* The kind named s into *kind: 0, or -1 when s names none (unchanged). */
int kit_kind_parse(const char *s, enum kit_kind *kind);

#endif
