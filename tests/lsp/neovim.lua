-- neovim.lua — Neovim's built-in LSP client against purist lsp (tests/lsp/neovim.sh).
-- Opens src/b.c of the project in $P, attaches `$PURIST lsp`, waits for the
-- diagnostics, asks for a hover, and writes what the editor holds to $OUT:
-- one line per diagnostic "line:col severity source code", then "hover: TEXT".
-- Written for Neovim 0.7 (Debian 12): start_client + buf_attach_client.
local root, out = os.getenv('P'), os.getenv('OUT')
local lines = {}
local function finish()
  vim.fn.writefile(lines, out)
  vim.cmd('qa!')
end
vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/src/b.c'))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({ name = 'purist', cmd = { os.getenv('PURIST'), 'lsp' }, root_dir = root })
if not id then
  table.insert(lines, 'error: the client did not start')
  return finish()
end
vim.lsp.buf_attach_client(buf, id)
if not vim.wait(120000, function() return #vim.diagnostic.get(buf) > 0 end, 50) then
  table.insert(lines, 'error: no diagnostics')
  return finish()
end
local diags = vim.diagnostic.get(buf)
table.sort(diags, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
for _, d in ipairs(diags) do
  local lsp = d.user_data and d.user_data.lsp or {}
  table.insert(lines, string.format('%d:%d %d %s %s', d.lnum, d.col, d.severity, d.source or '?', d.code or lsp.code or '?'))
end
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 6, character = 14 } }
local res = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 60000) or {}
for _, r in pairs(res) do
  if r.result and r.result.contents then
    table.insert(lines, 'hover: ' .. (r.result.contents.value or ''):gsub('\n.*', ''))
  end
end
vim.lsp.stop_client(id)
vim.wait(10000, function() return vim.lsp.client_is_stopped(id) end, 50)
finish()
