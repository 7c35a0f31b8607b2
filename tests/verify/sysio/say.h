/* Functions that promise purity and do I/O: verify must report them and
 * leave what they do to the program exactly as in a plain run. */
#ifndef SAY_H
#define SAY_H
int say(int x) __attribute__((const));
int append_line(const char *path, int x) __attribute__((pure));
int relay(int fd_in, int fd_out, int x) __attribute__((pure));
int mask_block(int sig) __attribute__((const));
int square(int x) __attribute__((const));
#endif
