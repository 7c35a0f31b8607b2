/* fake.json breaks the report format in every way the checker reads. */
// expect-command: suggest
int f(void);
