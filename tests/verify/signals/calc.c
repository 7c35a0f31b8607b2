/* calc.c — one honest const function and one that reads a global. */
#include "calc.h"

int weight = 5;

int doubled(int x) { return x + x; }

int weighted(int x) { return x * weight; }
