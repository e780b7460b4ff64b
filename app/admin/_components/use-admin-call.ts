"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { describeFailure, type ApiResult } from "@/lib/api/client";

/**
 * Runs one admin API call: on success the page's server data is fetched
 * again (router.refresh), on failure the error is kept to show.
 */
export function useAdminCall() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const run = async <T,>(call: Promise<ApiResult<T>>): Promise<T | null> => {
    const result = await call;
    if (!result.ok) {
      setError(describeFailure(result));
      return null;
    }
    setError(null);
    router.refresh();
    return result.data;
  };
  return { error, run };
}
