"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Fetches the page's data again every second while a snapshot is being built (its progress). */
export function RefreshWhileBuilding() {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), 1000);
    return () => clearInterval(timer);
  }, [router]);
  return null;
}
