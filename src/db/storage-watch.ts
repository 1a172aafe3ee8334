import { accessSync, constants, statSync } from "node:fs";

/**
 * The files of a SQLite database as the server keeps them open: whether the path still names the file that was
 * opened (not deleted, not replaced by `mv other.db unirank.db`) and whether it and its WAL and WAL index can still
 * be written (`chattr +i`, permissions). Checked every second while serving.
 */

/** What is wrong with one database's files, in words for `/health` and the log. */
export interface FileProblem {
  path: string;
  kind: "deleted" | "replaced" | "unwritable";
  message: string;
}

/** `dev:ino` of the file a path names, or null when it names none. */
export function fileIdentity(path: string): string | null {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}`;
  } catch {
    return null;
  }
}

/**
 * Why an existing file cannot be written (`EPERM` for an immutable file, `EACCES`, `EROFS`), or null. Asked with
 * access(2), never by opening the file: closing any descriptor of a database file drops every POSIX lock this
 * process holds on it, SQLite's included, and another process closing the database would then take it for the
 * last one and delete the WAL and its index under this server.
 */
function writeRefusal(path: string): string | null {
  try {
    accessSync(path, constants.W_OK);
    return null;
  } catch (e) {
    const code = (e as { code?: string }).code ?? "";
    return code === "ENOENT" ? null : code || String(e);
  }
}

/** The files SQLite writes for a database: the file, its WAL and its WAL index. */
export const sqliteFiles = (path: string): string[] => [path, `${path}-wal`, `${path}-shm`];

/**
 * The first of a database's existing files that cannot be written, as a message naming it, or null. A WAL index
 * SQLite may not grow is fatal: it is mapped into memory, and the first access past its end ends the process
 * with SIGBUS (the runtime cannot catch it), so such files are refused before they are opened.
 */
export function unwritableFile(path: string): string | null {
  for (const file of sqliteFiles(path)) {
    const refusal = writeRefusal(file);
    if (refusal !== null)
      return `${file} cannot be written (${refusal}: an immutable attribute, chattr +i, a read-only mount or its permissions?)`;
  }
  return null;
}

/** One database's files, watched against the identity they had when opened. */
export interface StorageWatch {
  /** Checks now; returns the problem found (also kept for `problem()`). */
  check(): FileProblem | null;
  problem(): FileProblem | null;
}

/**
 * Watches the files of an open SQLite database. A deleted or replaced file stays a problem for the life of the
 * process (it keeps using the file it opened); an unwritable one stops being one when it can be written again.
 * `onChange` hears of every change of the problem (writes are to stop while there is one).
 */
export function watchStorage(path: string, onChange: (problem: FileProblem | null) => void): StorageWatch {
  const opened = fileIdentity(path);
  let current: FileProblem | null = null;
  const find = (): FileProblem | null => {
    if (current && current.kind !== "unwritable") return current;
    const now = fileIdentity(path);
    if (opened !== null && now === null)
      return {
        path,
        kind: "deleted",
        message: `${path} was deleted while in use; this process goes on with the file it opened (restart to use a new one)`,
      };
    if (opened !== null && now !== opened)
      return {
        path,
        kind: "replaced",
        message: `${path} was replaced while in use; this process goes on with the file it opened (restart to use the new one)`,
      };
    const unwritable = unwritableFile(path);
    return unwritable === null ? null : { path, kind: "unwritable", message: unwritable };
  };
  const check = () => {
    const found = find();
    if (found?.message !== current?.message) {
      current = found;
      onChange(found);
    }
    return current;
  };
  return { check, problem: () => current };
}
