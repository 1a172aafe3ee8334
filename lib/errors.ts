/** Typed errors of the core; each carries one of the contract's codes. */

export type ErrorCode = "INVALID_PARAMETER" | "INVALID_API_KEY" | "INVALID_SIGNATURE" | "NOT_FOUND";

export interface ErrorDetail {
  readonly param: string;
  readonly message: string;
}

export class UnirankError extends Error {
  readonly code: ErrorCode;
  readonly details?: readonly ErrorDetail[];

  constructor(code: ErrorCode, message: string, details?: readonly ErrorDetail[]) {
    super(message);
    this.name = "UnirankError";
    this.code = code;
    if (details) this.details = details;
  }
}

export const invalidParameter = (details: readonly ErrorDetail[]): UnirankError =>
  new UnirankError("INVALID_PARAMETER", details.map((d) => d.message).join("; "), details);

export const notFound = (message: string): UnirankError => new UnirankError("NOT_FOUND", message);

export const isUnirankError = (e: unknown): e is UnirankError => e instanceof UnirankError;
