/* rt_jump.c — longjmp out of a watched call (issue 23 item 8, residual).
 *
 * A watched function left by longjmp never runs its exit hook: its frame
 * stayed open for ever, so no later call on that thread was an outermost
 * one and nothing after it was checked (only said at exit, "unreturned"),
 * and a const frame's guard and held signals stayed on. The longjmp family
 * is interposed here: before the jump, every watched frame entered below
 * the target's stack level is closed as at its return (rt_hooks.c), which
 * is exact, since the jump happens right after and nothing runs between.
 *
 * The target's level is the stack pointer setjmp saved in the jmp_buf,
 * which glibc keeps mangled (PTR_MANGLE: xor with the thread's pointer
 * guard at %fs:0x30, then rotated left by 17 on x86-64); it is read back
 * the way glibc's own _longjmp_unwind does. A value that is not above the
 * current stack pointer, or more than 1 GiB above it, is not trusted (not
 * glibc's layout): nothing is closed, and the frame is noted at exit as
 * before. Other machines and C libraries: not interposed. */
#include "rt/rt.h"
#if defined(__x86_64__) && defined(__GLIBC__)
#include <dlfcn.h>
#include <setjmp.h>

#define RT_JB_RSP 6   /* glibc sysdeps/x86_64/jmpbuf-offsets.h */

/* The stack pointer setjmp saved in env, or 0 if it does not look like one. */
PRT_NOINST static uintptr_t rt_jmp_sp(struct __jmp_buf_tag *env)
{
  uintptr_t guard, v = (uintptr_t)env->__jmpbuf[RT_JB_RSP], here = (uintptr_t)__builtin_frame_address(0);
  __asm__("mov %%fs:0x30, %0" : "=r"(guard));
  v = (v >> 17 | v << 47) ^ guard;
  return v > here && v - here < ((uintptr_t)1 << 30) ? v : 0;
}

typedef void (*rt_jump_fn)(struct __jmp_buf_tag *, int);

/* Closes the frames the jump leaves, then jumps with the C library's name. */
#define RT_JUMP(name)                                                          \
  PRT_API void name(struct __jmp_buf_tag env[1], int val)                      \
  {                                                                            \
    uintptr_t sp = rt_jmp_sp(env);                                             \
    if (sp) prt_jump_unwinds(sp);                                              \
    static rt_jump_fn next;                                                    \
    if (!next) next = (rt_jump_fn)dlsym(RTLD_NEXT, #name);                     \
    next(env, val);                                                            \
    __builtin_unreachable();                                                   \
  }

RT_JUMP(longjmp)
RT_JUMP(_longjmp)
RT_JUMP(siglongjmp)
RT_JUMP(__longjmp_chk)
#endif
