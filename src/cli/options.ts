import { InvalidArgumentError } from "commander";

/** Shared option parsers for commands. */
export function positiveInt(name: string, max = 2 ** 31 - 1) {
  return (value: string): number => {
    if (!/^[0-9]+$/.test(value) || Number(value) > max) {
      throw new InvalidArgumentError(`${name} must be an integer from 0 to ${max}`);
    }
    return Number(value);
  };
}

export const DB_OPTION_HELP = "SQLite file or postgres:// URL (env UNIRANK_DB; default unirank.db)";
