/* cmd_lsp.c — `purist lsp`: the language server on standard input and
 * output (src/lsp/lsp.h is its contract). */
#include "cli/cmd.h"
#include "lsp/lsp.h"
#include <unistd.h>

int cmd_lsp(const cli_opts *o, const kb *k)
{
  if (o->files.n) {
    cmd_say("lsp takes no files: the editor opens them (purist lsp [-p DIR])");
    return EXIT_INPUT;
  }
  return lsp_serve(o, k, STDIN_FILENO, STDOUT_FILENO);
}
