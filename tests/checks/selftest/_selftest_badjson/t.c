/* fake.json is not JSON. */
// expect-command: explain
int f(void);
