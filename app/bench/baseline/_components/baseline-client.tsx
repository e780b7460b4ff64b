"use client";
import dynamic from "next/dynamic";

/** The baseline renders in the browser only: it fetches the graph API from there, as the graph view's worker does. */
export const BaselineClient = dynamic(() => import("./baseline-flow"), { ssr: false, loading: () => <p className="text-sm">Loading…</p> });
