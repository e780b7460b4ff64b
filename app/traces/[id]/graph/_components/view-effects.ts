/**
 * The view's two links to the outside world: the URL (every change of the
 * URL-backed state replaces the query, so a copied link reproduces the
 * view) and the keyboard (left/right arrows walk events in event order).
 * Each returns its unsubscribe, for a useEffect cleanup.
 */
import type { GraphStore } from "@/components/trace-graph/store/graph-store";
import type { GraphState } from "@/components/trace-graph/store/state";
import { viewStateQuery, type ViewState } from "@/lib/graph-view/view-state";
import { isTyping } from "@/components/typing";

function urlState(s: GraphState): ViewState {
  return {
    selected: s.selectedId,
    highlighted: [...s.highlighted],
    edgeMask: s.edgeMask,
    overlays: s.overlays,
    method: s.method,
    preset: s.preset,
    normalize: s.normalize,
    judges: s.judges,
    weights: s.weights,
    spacing: s.spacingChoice,
    viewport: s.viewport,
  };
}

export function syncUrl(store: GraphStore): () => void {
  let last = viewStateQuery(urlState(store.getState()));
  return store.subscribe((state) => {
    const query = viewStateQuery(urlState(state));
    if (query === last) return;
    last = query;
    window.history.replaceState(null, "", query ? `?${query}` : window.location.pathname);
  });
}

export function listenToKeys(store: GraphStore): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (isTyping(event) || event.altKey || event.ctrlKey || event.metaKey) return;
    const { actions } = store.getState();
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      event.preventDefault();
      actions.step(event.key === "ArrowRight" ? 1 : -1);
    } else if (event.key === "Escape") {
      actions.select(null);
    }
  };
  window.addEventListener("keydown", onKey);
  return () => window.removeEventListener("keydown", onKey);
}
