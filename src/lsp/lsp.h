/* lsp.h — `purist lsp`: a Language Server Protocol 3.17 server on stdio,
 * so an editor (Neovim, VS Code, Emacs eglot, Helix, Kate) shows purist's
 * findings as it shows a compiler's, beside clangd.
 *
 * The contract, for an editor and for the tests (docs/lsp.md says it to users):
 *   transport   JSON-RPC 2.0 messages framed by `Content-Length: N\r\n\r\n`
 *               on standard input and output; nothing else is ever written
 *               to standard output (the analysis' own messages and the
 *               server's log go to standard error).
 *   lifecycle   initialize → initialized → … → shutdown → exit. Exit status
 *               0 after shutdown then exit; 1 for exit without shutdown,
 *               and when the input ends (the client vanished) — as the
 *               specification says.
 *   errors      -32700 for a body that is not JSON or a header block
 *               without a readable Content-Length (answered with id null,
 *               the stream resynchronised at the next header), -32600 for
 *               a message that is not a JSON-RPC request or notification,
 *               -32601 for a request with an unknown method, -32602 for
 *               parameters a method cannot use, -32002 for a request
 *               before initialize. Unknown notifications are ignored.
 *   diagnostics textDocument/publishDiagnostics for every open document,
 *               on didOpen and again after every didSave (of any file): the
 *               findings of check, suggest (its default set) and explain
 *               placed in that file, each with its severity, the check's
 *               name as `code`, the check's page as codeDescription.href,
 *               the witness chain as relatedInformation. Republished only
 *               when they changed. A file the compile database does not
 *               compile, a file that could not be parsed, and a project
 *               with no database each get one diagnostic saying so.
 *   actions     textDocument/codeAction (quickfix): the edits `purist fix
 *               --fix-misuse --include-may-not-return` would make for the
 *               function a finding in the range concerns, as a WorkspaceEdit.
 *   hover       textDocument/hover on a function's name: its class, why,
 *               what an attribute would gain, the witness chain (--why).
 * The compile database is found as `purist check` finds it: -p on the
 * server's command line, else initializationOptions.compilationDatabasePath
 * (or buildPath), else the workspace root or its build/. Every analysis
 * goes through the summary cache, so after a save only the TUs whose
 * inputs changed are parsed again.
 *
 * The folder (docs/layout.md) is a command serving the others: it runs the
 * commands' plumbing (cli/cmd.h) and calls checks/, fix/, link/, report/. */
#ifndef PURIST_LSP_H
#define PURIST_LSP_H
#include "cli/options.h"
#include "kb/kb.h"

/* Serves one client on in_fd/out_fd until exit or end of input; returns
 * the process's exit status (above). o is the command line (after .purist);
 * k the knowledge base. Never writes to out_fd anything but messages. */
int lsp_serve(const cli_opts *o, const kb *k, int in_fd, int out_fd);

#endif
