// The argument types a raw statement sent to Prisma's driver adapter declares, read off the values.
import type { ArgType } from "@prisma/driver-adapter-utils";

export function argTypeOf(value: unknown): ArgType {
  if (Array.isArray(value)) return { ...argTypeOf(value[0] ?? ""), arity: "list" };
  if (typeof value === "number") return { scalarType: Number.isInteger(value) ? "int" : "float", arity: "scalar" };
  if (typeof value === "boolean") return { scalarType: "boolean", arity: "scalar" };
  if (value instanceof Date) return { scalarType: "datetime", arity: "scalar" };
  return { scalarType: "string", arity: "scalar" };
}
