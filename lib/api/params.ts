import { z } from "zod";
import { isStorableText } from "./text";

/**
 * Query-parameter schemas shared by every route (SPEC.md section 7): numbers
 * are decimal and range-checked before anything reaches the database
 * (`Number("0x10")` is 16 and `Number("")` is 0, so `z.coerce.number()` is
 * not enough), and text filters are at most 512 characters of text
 * PostgreSQL can compare (no U+0000, no lone surrogate).
 */
const DECIMAL_INT = /^\d{1,15}$/;
const DECIMAL = /^-?\d{1,15}(\.\d{1,15})?([eE][-+]?\d{1,3})?$/;

/** The largest value of a PostgreSQL `integer` (row ids, sequence numbers, cursors). */
export const PG_INT_MAX = 2_147_483_647;

/** Text from a URL must be decimal; a number handed over by code (view state in the client) is taken as it is. */
const decimalOrNumber = (pattern: RegExp, message: string) => z.union([z.number(), z.string().regex(pattern, message).transform(Number)]);

/** A decimal integer in [min, max]. */
export const decimalInt = (min: number, max: number) =>
  decimalOrNumber(DECIMAL_INT, "must be a decimal integer").pipe(z.number().int().min(min).max(max));

/** A decimal number (optionally with an exponent) in [min, max]. */
export const decimalNumber = (min: number, max: number) =>
  decimalOrNumber(DECIMAL, "must be a decimal number").pipe(z.number().finite().min(min).max(max));

/** True for a decimal number string (for parsers that do not use zod, e.g. `w.<family>`). */
export const isDecimal = (text: string): boolean => DECIMAL.test(text);

/** A cursor returned by an earlier page: a row id or sequence number, kept as its decimal string. */
export const cursorParam = z
  .string()
  .regex(/^\d{1,10}$/, "must be a cursor returned by an earlier page")
  .refine((c) => Number(c) <= PG_INT_MAX, "must be a cursor returned by an earlier page");

/** A text filter: trimmed, 1-512 characters, storable text. */
export const filterText = z
  .string()
  .trim()
  .min(1)
  .max(512)
  .refine(isStorableText, "must not contain U+0000 or a lone surrogate");
