/**
 * Folds text for search: compatibility decomposition (full-width → ASCII), combining marks removed,
 * lower-cased. `Université de Montréal` and `ＵＮＩＶＥＲＳＩＴＥ de montreal` fold alike.
 */
export function searchKey(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .normalize("NFC");
}

/** Escapes `%`, `_` and `\` for a LIKE pattern used with `escape '\'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
