#include "api.h"
int calls_made;
int counted(int x)
{
  calls_made++;
  return x + 1;
}
