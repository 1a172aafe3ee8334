/** The `--name value` options and flags of a bench's command line. */
export function benchOptions() {
  const argv = process.argv.slice(2);
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return { argv, value };
}

/**
 * The command line of a bench over a database: `DB` first, then `--name value` options and flags. `usage` is the
 * message when the database is missing.
 */
export function benchArgs(usage: string) {
  const { argv, value } = benchOptions();
  const dbPath = argv[0];
  if (!dbPath || dbPath.startsWith("--")) throw new Error(`usage: ${usage}`);
  return { argv, value, dbPath };
}
