import { redirect } from "next/navigation";
import { searchParamsObject } from "@/lib/api/filters";

/** The trace list lives at `/`; `/traces` (a trace's address cut short) goes there with its query. */
export default async function TracesIndex({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = new URLSearchParams(searchParamsObject(await searchParams)).toString();
  redirect(query === "" ? "/" : `/?${query}`);
}
