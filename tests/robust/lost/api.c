#include "api.h"
int calls_made;
int counted(int x)
{
  calls_made++;
  return x + 1;
}
int leave(jmp_buf *env)
{
  longjmp(*env, 1);
}
static jmp_buf inner_env;
__attribute__((noinline)) static void bounce(void)
{
  longjmp(inner_env, 1);
}
int jumps_inside(int x)
{
  if (!setjmp(inner_env)) bounce();
  calls_made++;
  return x;
}
