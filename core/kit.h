/*
 * kit.h: the three kinds of thing cuenv installs and selects.
 *
 * Header only, so that the catalogue (what can be installed) and the
 * store (what is installed) can both name a kind without one including
 * the other. Their names ("cuda", "cudnn", "cupti") are in store.h
 * (kit_kind_name, kit_kind_parse).
 */
#ifndef CUENV_KIT_H
#define CUENV_KIT_H

/* CUPTI alone (cuenv install --cupti V): never taken for a toolkit. */
enum kit_kind { KIT_CUDA, KIT_CUDNN, KIT_CUPTI };
#define KIT_KINDS 3

#endif
