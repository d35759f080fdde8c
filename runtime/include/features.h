/* omp2gpu <features.h>: the feature-test macros, with glibc's meaning.
 *
 * Input: what the program defines (_GNU_SOURCE, _DEFAULT_SOURCE, _BSD_SOURCE,
 * _SVID_SOURCE, _POSIX_SOURCE, _POSIX_C_SOURCE, _XOPEN_SOURCE,
 * _XOPEN_SOURCE_EXTENDED, _ISOC99_SOURCE, _ISOC11_SOURCE) and the -std mode: the
 * preprocessor defines __STRICT_ANSI__ for -std=c89/c99/c11/c17, not for the gnu
 * modes (gcc's default, gnu17, is a gnu mode).
 * Output: the __USE_* switches the other headers test, as glibc's headers test them,
 * so a name is visible in exactly the modes glibc makes it visible in:
 *   __USE_ISOC95/99/11   the C standard's later additions
 *   __USE_POSIX, __USE_POSIX2, __USE_POSIX199309, __USE_POSIX199506,
 *   __USE_XOPEN2K, __USE_XOPEN2K8           POSIX.1 editions
 *   __USE_XOPEN, __USE_XOPEN_EXTENDED, __USE_UNIX98, __USE_XOPEN2KXSI,
 *   __USE_XOPEN2K8XSI                        the X/Open (XSI) option
 *   __USE_MISC   BSD and SVID names (_DEFAULT_SOURCE: on unless the program asks
 *                for a strict standard or a particular POSIX/X/Open edition)
 *   __USE_GNU    GNU extensions (_GNU_SOURCE only)
 * As glibc does, the macros the program defined are adjusted too (_GNU_SOURCE
 * turns on every other; _DEFAULT_SOURCE means POSIX.1-2008), so a program that tests
 * _POSIX_C_SOURCE after including a header sees glibc's value. */
#ifndef _FEATURES_H
#define _FEATURES_H 1

#if defined _BSD_SOURCE || defined _SVID_SOURCE
# undef _DEFAULT_SOURCE
# define _DEFAULT_SOURCE 1
#endif

#ifdef _GNU_SOURCE                  /* everything */
# undef _ISOC95_SOURCE
# undef _ISOC99_SOURCE
# undef _ISOC11_SOURCE
# undef _POSIX_SOURCE
# undef _POSIX_C_SOURCE
# undef _XOPEN_SOURCE
# undef _XOPEN_SOURCE_EXTENDED
# undef _LARGEFILE64_SOURCE
# undef _DEFAULT_SOURCE
# undef _ATFILE_SOURCE
# define _ISOC95_SOURCE 1
# define _ISOC99_SOURCE 1
# define _ISOC11_SOURCE 1
# define _POSIX_SOURCE 1
# define _POSIX_C_SOURCE 200809L
# define _XOPEN_SOURCE 700
# define _XOPEN_SOURCE_EXTENDED 1
# define _LARGEFILE64_SOURCE 1
# define _DEFAULT_SOURCE 1
# define _ATFILE_SOURCE 1
# define __USE_GNU 1
#endif

/* The default: no strict standard and no particular edition asked for. */
#if !defined _DEFAULT_SOURCE && !defined __STRICT_ANSI__ && !defined _ISOC99_SOURCE \
    && !defined _ISOC11_SOURCE && !defined _POSIX_SOURCE && !defined _POSIX_C_SOURCE \
    && !defined _XOPEN_SOURCE
# define _DEFAULT_SOURCE 1
#endif

#if defined _ISOC11_SOURCE || (defined __STDC_VERSION__ && __STDC_VERSION__ >= 201112L)
# define __USE_ISOC11 1
#endif
#if defined _ISOC99_SOURCE || defined _ISOC11_SOURCE \
    || (defined __STDC_VERSION__ && __STDC_VERSION__ >= 199901L)
# define __USE_ISOC99 1
#endif
#if defined _ISOC99_SOURCE || defined _ISOC11_SOURCE \
    || (defined __STDC_VERSION__ && __STDC_VERSION__ >= 199409L)
# define __USE_ISOC95 1
#endif

/* Which POSIX edition: _DEFAULT_SOURCE means 2008; a gnu mode without one asked for,
 * or X/Open 500 or later, implies the edition X/Open's level goes with. */
#ifdef _DEFAULT_SOURCE
# undef _POSIX_SOURCE
# undef _POSIX_C_SOURCE
# define _POSIX_SOURCE 1
# define _POSIX_C_SOURCE 200809L
#elif !defined _POSIX_SOURCE && !defined _POSIX_C_SOURCE \
    && (!defined __STRICT_ANSI__ || (defined _XOPEN_SOURCE && _XOPEN_SOURCE + 0 >= 500))
# define _POSIX_SOURCE 1
# if !defined _XOPEN_SOURCE || _XOPEN_SOURCE + 0 >= 700
#  define _POSIX_C_SOURCE 200809L
# elif _XOPEN_SOURCE + 0 >= 600
#  define _POSIX_C_SOURCE 200112L
# elif _XOPEN_SOURCE + 0 >= 500
#  define _POSIX_C_SOURCE 199506L
# else
#  define _POSIX_C_SOURCE 2
# endif
#endif
#if (!defined _POSIX_C_SOURCE || _POSIX_C_SOURCE + 0 < 199506L) \
    && (defined _REENTRANT || defined _THREAD_SAFE)
# undef _POSIX_SOURCE
# undef _POSIX_C_SOURCE
# define _POSIX_SOURCE 1
# define _POSIX_C_SOURCE 199506L
#endif

#if defined _POSIX_SOURCE || (defined _POSIX_C_SOURCE && _POSIX_C_SOURCE >= 1) \
    || defined _XOPEN_SOURCE
# define __USE_POSIX 1
#endif
#if (defined _POSIX_C_SOURCE && _POSIX_C_SOURCE >= 2) || defined _XOPEN_SOURCE
# define __USE_POSIX2 1
#endif
#if defined _POSIX_C_SOURCE && _POSIX_C_SOURCE + 0 >= 199309L
# define __USE_POSIX199309 1
#endif
#if defined _POSIX_C_SOURCE && _POSIX_C_SOURCE + 0 >= 199506L
# define __USE_POSIX199506 1
#endif
#if (defined _POSIX_C_SOURCE && _POSIX_C_SOURCE + 0 >= 200112L) \
    || (defined _XOPEN_SOURCE && _XOPEN_SOURCE + 0 >= 600)
# define __USE_XOPEN2K 1
# undef __USE_ISOC95
# undef __USE_ISOC99
# define __USE_ISOC95 1
# define __USE_ISOC99 1
#endif
#if (defined _POSIX_C_SOURCE && _POSIX_C_SOURCE + 0 >= 200809L) \
    || (defined _XOPEN_SOURCE && _XOPEN_SOURCE + 0 >= 700)
# define __USE_XOPEN2K8 1
# undef _ATFILE_SOURCE
# define _ATFILE_SOURCE 1
#endif

#ifdef _XOPEN_SOURCE
# define __USE_XOPEN 1
# if _XOPEN_SOURCE + 0 >= 500
#  define __USE_XOPEN_EXTENDED 1
#  define __USE_UNIX98 1
#  undef _LARGEFILE_SOURCE
#  define _LARGEFILE_SOURCE 1
# elif defined _XOPEN_SOURCE_EXTENDED
#  define __USE_XOPEN_EXTENDED 1
# endif
# if _XOPEN_SOURCE + 0 >= 600
#  define __USE_XOPEN2KXSI 1
# endif
# if _XOPEN_SOURCE + 0 >= 700
#  define __USE_XOPEN2K8XSI 1
# endif
#endif

#ifdef _LARGEFILE_SOURCE
# define __USE_LARGEFILE 1
#endif
#ifdef _LARGEFILE64_SOURCE
# define __USE_LARGEFILE64 1
#endif
#ifdef _DEFAULT_SOURCE
# define __USE_MISC 1
#endif
#ifdef _ATFILE_SOURCE
# define __USE_ATFILE 1
#endif

#endif
