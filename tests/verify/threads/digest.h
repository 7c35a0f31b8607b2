/* digest.h — one honest pure function, called from several threads. */
#ifndef FIXTURE_DIGEST_H
#define FIXTURE_DIGEST_H
unsigned digest(const unsigned char *p, int n) __attribute__((pure));
#endif
