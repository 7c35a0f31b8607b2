/* main.c — a program under a 100 µs SIGALRM interval timer (issue 23
 * item 15): every few instructions a signal interrupts it, the runtime's
 * snapshots and report included. It calls the watched functions, sleeps
 * and writes in between, and prints how many alarms it took. Plain, it
 * ends in a fraction of a second; under verify it must too. */
#include "api.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms;

static volatile long in_handler;

/* Calls a watched function too: its checked frame ends with a finding
 * recorded, perhaps while the code it interrupted was recording one. */
static void on_alarm(int sig)
{
  (void)sig;
  alarms++;
  in_handler += counted(sig);
}

int main(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;   /* no SA_RESTART: system calls see EINTR */
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = { { 0, 100 }, { 0, 100 } };
  setitimer(ITIMER_REAL, &it, NULL);
  volatile long sink = 0;
  for (int i = 0; i < 20000; i++) {
    sink += counted(i) + square(i);
    if (i % 100 == 0) {
      struct timespec ts = { 0, 200000 };
      while (nanosleep(&ts, &ts) != 0) {}
    }
  }
  /* The timer runs on through exit and the runtime's report. */
  printf("done %d\n", alarms > 0);
  return sink == 0;
}
